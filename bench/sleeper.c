/* A sleep task with the least memory a process can have here: statically linked, so no dynamic
 * loader, no shared-library mappings and their page tables (98 KB a process against /bin/sleep's
 * 181 KB, measured with 3,000 of each). Used by bench/concurrency to fit 100,000 on 24 GiB. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    sleep(argc > 1 ? (unsigned) atoi(argv[1]) : 1);
    return 0;
}
