/*
 * The floor of bench/malleable's 1 GiB resizes on this machine: the same bytes moved between
 * the same number of processes over TCP loopback, in C, with nothing else to do.
 *
 * A 4 -> 2 shrink of LENGTH doubles in blocks: ranks 0 and 1 stay; rank 0 keeps its quarter
 * and takes rank 1's; rank 1 takes ranks 2's and 3's (and gives its own to rank 0). Three
 * streams of a quarter each, into memory the receivers touched beforehand (the prepared
 * blocks). A 2 -> 4 expansion: rank 0 gives rank 1 its second quarter; rank 1 gives its two
 * quarters to ranks 2 and 3, new processes whose memory is new (the first touch of it is part
 * of the move, as for a new rank's block). Each case runs REPS times; a line per repetition:
 *   shrink <ms> expand <ms>
 * measured from the moment every process is ready to the last byte arriving.
 *
 * With "single", each process moves its streams from one thread, a piece at a time as poll()
 * says they are ready (a rank's progress loop); by default each stream has a thread.
 *
 * Usage: resize-floor [LENGTH_DOUBLES [REPS [single]]]   (defaults 134217728 = 1 GiB, 3)
 * Build: gcc -O2 -pthread -o resize-floor resize-floor.c
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PIECE (256 * 1024)

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

/* A listening socket on 127.0.0.1 and its port. */
static int listener(int *port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *) &a, sizeof a) < 0 || listen(s, 8) < 0
            || getsockname(s, (struct sockaddr *) &a, &len) < 0) {
        die("listen");
    }
    *port = ntohs(a.sin_port);
    return s;
}

static int dial(int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (s < 0 || connect(s, (struct sockaddr *) &a, sizeof a) < 0) {
        die("connect");
    }
    return s;
}

static void send_all(int s, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = write(s, p, n < PIECE ? n : PIECE);
        if (k <= 0) {
            die("write");
        }
        p += k;
        n -= (size_t) k;
    }
}

static void recv_all(int s, char *p, size_t n) {
    while (n > 0) {
        ssize_t k = read(s, p, n < PIECE ? n : PIECE);
        if (k <= 0) {
            die("read");
        }
        p += k;
        n -= (size_t) k;
    }
}

struct stream {
    int socket;
    char *memory;
    size_t length;
    int sending;
};

static void *move(void *arg) {
    struct stream *s = arg;
    if (s->sending) {
        send_all(s->socket, s->memory, s->length);
    } else {
        recv_all(s->socket, s->memory, s->length);
    }
    return NULL;
}

static char *block(size_t n, int touch) {
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        die("mmap");
    }
    if (touch) {
        memset(p, 1, n);
    }
    return p;
}

/*
 * One resize: process i of 4 sends quarters to and receives quarters from the others as
 * sends[i] and recvs[i] say (-1: none), into memory touched beforehand or not (fresh[i]).
 * Returns the milliseconds from "all ready" to "all done".
 */
static double resize(size_t quarter, const int sends[4][2], const int recvs[4][2], const int fresh[4], int single) {
    int ports[4], listeners[4], ready[2], done[2], set[2];
    for (int i = 0; i < 4; i++) {
        listeners[i] = listener(&ports[i]);
    }
    if (pipe(ready) < 0 || pipe(done) < 0 || pipe(set) < 0) {
        die("pipe");
    }
    for (int i = 0; i < 4; i++) {
        pid_t child = fork();
        if (child < 0) {
            die("fork");
        }
        if (child == 0) {
            alarm(120); /* a peer that died before connecting leaves this one in accept(): not for ever */
            close(ready[1]);
            close(done[0]);
            close(set[0]);
            char *in[2] = {NULL, NULL};
            char *out = block(quarter, 1);
            int from[2] = {-1, -1}, to[2] = {-1, -1};
            for (int k = 0; k < 2; k++) {
                if (recvs[i][k] >= 0 && !fresh[i]) {
                    in[k] = block(quarter, 1);
                }
                if (sends[i][k] >= 0) {
                    to[k] = dial(ports[sends[i][k]]);
                }
            }
            for (int k = 0; k < 2; k++) {
                if (recvs[i][k] >= 0) {
                    from[k] = accept(listeners[i], NULL, NULL);
                }
            }
            (void) !write(set[1], "s", 1); /* blocks made, connections open */
            char go;
            if (read(ready[0], &go, 1) != 1) { /* the parent's start */
                die("start");
            }
            if (single) { /* one thread moving every stream a piece at a time, as a rank's progress loop */
                struct pollfd fds[4];
                size_t left[4];
                char *at[4];
                int n = 0;
                for (int k = 0; k < 2; k++) {
                    if (to[k] >= 0) {
                        fds[n] = (struct pollfd) {.fd = to[k], .events = POLLOUT};
                        left[n] = quarter;
                        at[n++] = out;
                    }
                    if (from[k] >= 0) {
                        if (in[k] == NULL) {
                            in[k] = block(quarter, 0);
                        }
                        fds[n] = (struct pollfd) {.fd = from[k], .events = POLLIN};
                        left[n] = quarter;
                        at[n++] = in[k];
                    }
                }
                for (int busy = n; busy > 0;) {
                    if (poll(fds, n, -1) < 0) {
                        die("poll");
                    }
                    for (int k = 0; k < n; k++) {
                        if (left[k] == 0 || !(fds[k].revents & (POLLIN | POLLOUT | POLLHUP))) {
                            continue;
                        }
                        size_t want = left[k] < PIECE ? left[k] : PIECE;
                        ssize_t got = fds[k].events == POLLOUT ? write(fds[k].fd, at[k], want) : read(fds[k].fd, at[k], want);
                        if (got <= 0) {
                            die("move");
                        }
                        at[k] += got;
                        left[k] -= (size_t) got;
                        if (left[k] == 0) {
                            fds[k].events = 0;
                            busy--;
                        }
                    }
                }
                (void) !write(done[1], "x", 1);
                _exit(0);
            }
            /* every stream at once, a thread each, as the ranks' transfers overlap */
            pthread_t threads[4];
            struct stream streams[4];
            int n = 0;
            for (int k = 0; k < 2; k++) {
                if (to[k] >= 0) {
                    streams[n] = (struct stream) {to[k], out, quarter, 1};
                    pthread_create(&threads[n], NULL, move, &streams[n]);
                    n++;
                }
                if (from[k] >= 0) {
                    if (in[k] == NULL) {
                        in[k] = block(quarter, 0); /* a new rank's block: touched as it arrives */
                    }
                    streams[n] = (struct stream) {from[k], in[k], quarter, 0};
                    pthread_create(&threads[n], NULL, move, &streams[n]);
                    n++;
                }
            }
            for (int k = 0; k < n; k++) {
                pthread_join(threads[k], NULL);
            }
            (void) !write(done[1], "x", 1);
            _exit(0);
        }
    }
    close(done[1]);
    close(set[1]);
    char c;
    for (int i = 0; i < 4; i++) {
        if (read(set[0], &c, 1) != 1) {
            die("set");
        }
    }
    close(set[0]);
    double t0 = now_ms();
    (void) !write(ready[1], "gggg", 4);
    for (int i = 0; i < 4; i++) {
        if (read(done[0], &c, 1) != 1) {
            die("done");
        }
    }
    double t = now_ms() - t0;
    while (wait(NULL) > 0) {
    }
    for (int i = 0; i < 4; i++) {
        close(listeners[i]);
    }
    close(ready[0]);
    close(ready[1]);
    close(done[0]);
    return t;
}

int main(int argc, char **argv) {
    size_t length = argc > 1 ? strtoull(argv[1], NULL, 10) : 134217728ULL;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    int single = argc > 3 && strcmp(argv[3], "single") == 0;
    alarm(600); /* a child that died before saying it was set: this process, and with it the others, end */
    size_t quarter = length * 8 / 4;
    /* shrink: 1 -> 0, 2 -> 1, 3 -> 1 */
    const int shrink_sends[4][2] = {{-1, -1}, {0, -1}, {1, -1}, {1, -1}};
    const int shrink_recvs[4][2] = {{1, -1}, {2, 3}, {-1, -1}, {-1, -1}};
    const int shrink_fresh[4] = {0, 0, 0, 0};
    /* expand: 0 -> 1, 1 -> 2, 1 -> 3; 2 and 3 new */
    const int expand_sends[4][2] = {{1, -1}, {2, 3}, {-1, -1}, {-1, -1}};
    const int expand_recvs[4][2] = {{-1, -1}, {0, -1}, {1, -1}, {1, -1}};
    const int expand_fresh[4] = {0, 0, 1, 1};
    for (int r = 0; r < reps; r++) {
        double s = resize(quarter, shrink_sends, shrink_recvs, shrink_fresh, single);
        double e = resize(quarter, expand_sends, expand_recvs, expand_fresh, single);
        printf("shrink %.0f expand %.0f\n", s, e);
        fflush(stdout);
    }
    return 0;
}
