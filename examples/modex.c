/*
 * modex: the start-up key exchange of an MPI library, without MPI. Each rank speaks PMI-1 to its
 * launcher (PMI_PORT + PMI_ID as Banyan gives them, or PMI_FD as Hydra does), puts one value of
 * --bytes bytes, enters a fence, then gets its two ring neighbours' values (--gets neighbours) or
 * every rank's (--gets all), and checks each one.
 *
 *   banyan run -n 8 ./modex --bytes 1024 --gets neighbours
 *
 * Each rank prints one line: "modex rank R fence_us F gets_us G ok" (or "FAILED: why").
 */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int fd = -1;
static char line[4096];

static long now_us(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1000000L + tv.tv_usec;
}

static void die(int rank, const char *why) {
    printf("modex rank %d FAILED: %s\n", rank, why);
    fflush(stdout);
    exit(1);
}

static void send_line(const char *s) {
    size_t n = strlen(s), off = 0;
    while (off < n) {
        ssize_t w = write(fd, s + off, n - off);
        if (w <= 0) die(-1, "write to the PMI server failed");
        off += (size_t) w;
    }
}

/* Reads one reply line (without its newline) into line. */
static void read_line(void) {
    size_t n = 0;
    for (;;) {
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r <= 0) die(-1, "the PMI server closed the connection");
        if (c == '\n') break;
        if (n + 1 < sizeof line) line[n++] = c;
    }
    line[n] = 0;
}

/* The value of "key=" in line, copied to out. */
static int field(const char *key, char *out, size_t max) {
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    if (!p) return 0;
    p += strlen(pat);
    size_t n = strcspn(p, " ");
    if (n >= max) n = max - 1;
    memcpy(out, p, n);
    out[n] = 0;
    return 1;
}

static void connect_port(const char *hostport) {
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t) (colon - hostport) >= sizeof host) die(-1, "bad PMI_PORT");
    memcpy(host, hostport, (size_t) (colon - hostport));
    host[colon - hostport] = 0;
    struct addrinfo hints = {0}, *res;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0) die(-1, "cannot resolve PMI_PORT");
    fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) != 0) die(-1, "cannot connect to PMI_PORT");
    freeaddrinfo(res);
}

int main(int argc, char **argv) {
    int bytes = 1000, all = 0, rank = -1, size = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) bytes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--gets") && i + 1 < argc) all = !strcmp(argv[++i], "all");
        else { fprintf(stderr, "usage: modex [--bytes N] [--gets neighbours|all]\n"); return 2; }
    }
    if (bytes < 8 || bytes > 1023) { fprintf(stderr, "modex: --bytes must be 8 to 1023 (a PMI-1 value and its NUL fit in 1024)\n"); return 2; }
    char buf[2048], kvs[256], value[1100], want[1100], key[64];
    if (getenv("PMI_FD")) {
        fd = atoi(getenv("PMI_FD"));
        rank = atoi(getenv("PMI_RANK"));
        size = atoi(getenv("PMI_SIZE"));
    } else if (getenv("PMI_PORT") && getenv("PMI_ID")) {
        connect_port(getenv("PMI_PORT"));
        snprintf(buf, sizeof buf, "cmd=initack pmiid=%s\n", getenv("PMI_ID"));
        send_line(buf);
        read_line(); /* cmd=initack */
        for (int i = 0; i < 3; i++) {
            read_line(); /* cmd=set size= / rank= / debug= */
            if (field("size", buf, sizeof buf)) size = atoi(buf);
            if (field("rank", buf, sizeof buf)) rank = atoi(buf);
        }
    } else {
        die(-1, "neither PMI_FD nor PMI_PORT and PMI_ID: not started by a PMI-1 launcher");
    }
    send_line("cmd=init pmi_version=1 pmi_subversion=1\n");
    read_line();
    if (!strstr(line, "rc=0")) die(rank, line);
    send_line("cmd=get_my_kvsname\n");
    read_line();
    if (!field("kvsname", kvs, sizeof kvs)) die(rank, line);

    /* The value names its rank, then filler: a get that returns another rank's value is caught. */
    snprintf(value, sizeof value, "r%d-", rank);
    for (size_t n = strlen(value); n < (size_t) bytes; n++) value[n] = 'a' + (char) (n % 26);
    value[bytes] = 0;
    snprintf(buf, sizeof buf, "cmd=put kvsname=%s key=k%d value=%s\n", kvs, rank, value);
    send_line(buf);
    read_line();
    if (!strstr(line, "rc=0")) die(rank, line);

    long t0 = now_us();
    send_line("cmd=barrier_in\n");
    read_line();
    if (strncmp(line, "cmd=barrier_out", 15)) die(rank, line);
    long t1 = now_us();

    int peers[2] = {(rank + size - 1) % size, (rank + 1) % size};
    int count = all ? size : (size > 1 ? 2 : 1);
    for (int i = 0; i < count; i++) {
        int peer = all ? i : peers[i];
        snprintf(buf, sizeof buf, "cmd=get kvsname=%s key=k%d\n", kvs, peer);
        send_line(buf);
        read_line();
        snprintf(want, sizeof want, "r%d-", peer);
        for (size_t n = strlen(want); n < (size_t) bytes; n++) want[n] = 'a' + (char) (n % 26);
        want[bytes] = 0;
        if (!field("value", value, sizeof value) || strcmp(value, want)) {
            snprintf(key, sizeof key, "wrong value for k%d", peer);
            die(rank, key);
        }
    }
    long t2 = now_us();
    send_line("cmd=finalize\n");
    read_line();
    printf("modex rank %d fence_us %ld gets_us %ld ok\n", rank, t1 - t0, t2 - t1);
    return 0;
}
