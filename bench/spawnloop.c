/* The machine's limit for bench/tasks: posix_spawn /bin/true N times, CONC at a time, waiting
 * for each. With a directory, each task also gets what a pilot's task gets: its own sandbox
 * directory there (its working directory) and its stdout and stderr in files inside it.
 * With SPAWNLOOP_CPU set, it also writes its own CPU and its children's per task (µs) to stderr:
 * the loop's parent over its children, to set beside bench/task-cpu's DVM over its tasks. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: spawnloop N CONC [SANDBOX_BASE]\n");
        return 2;
    }
    int n = atoi(argv[1]), conc = atoi(argv[2]), running = 0, started = 0, done = 0;
    const char *base = argc > 3 ? argv[3] : NULL;
    char *args[] = {"/bin/true", NULL};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    while (done < n) {
        while (running < conc && started < n) {
            posix_spawn_file_actions_t fa;
            posix_spawn_file_actions_init(&fa);
            if (base) {
                char d[4096], o[4200], e[4200];
                snprintf(d, sizeof d, "%s/task.%06d", base, started);
                mkdir(d, 0755);
                snprintf(o, sizeof o, "%s/task.out", d);
                snprintf(e, sizeof e, "%s/task.err", d);
                posix_spawn_file_actions_addopen(&fa, 1, o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
                posix_spawn_file_actions_addopen(&fa, 2, e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
                posix_spawn_file_actions_addchdir_np(&fa, d);
            }
            pid_t p;
            if (posix_spawn(&p, "/bin/true", &fa, NULL, args, environ) != 0) {
                perror("posix_spawn");
                return 1;
            }
            posix_spawn_file_actions_destroy(&fa);
            running++;
            started++;
        }
        int st;
        wait(&st);
        running--;
        done++;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%.0f\n", n / s);
    fflush(stdout);
    if (getenv("SPAWNLOOP_CPU")) {
        struct rusage self, kids;
        getrusage(RUSAGE_SELF, &self);
        getrusage(RUSAGE_CHILDREN, &kids);
        double us_self = self.ru_utime.tv_sec * 1e6 + self.ru_utime.tv_usec + self.ru_stime.tv_sec * 1e6 + self.ru_stime.tv_usec;
        double us_kids = kids.ru_utime.tv_sec * 1e6 + kids.ru_utime.tv_usec + kids.ru_stime.tv_sec * 1e6 + kids.ru_stime.tv_usec;
        fprintf(stderr, "per task: parent %.0f us, children %.0f us (%.3f)\n", us_self / n, us_kids / n, us_self / us_kids);
    }
    return 0;
}
