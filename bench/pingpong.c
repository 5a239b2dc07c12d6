/* The C counterpart of examples/java/PingPong.java, for bench/comm: same sizes, same repetitions,
 * same output ("bytes usec MB/s"), built with mpicc.mpich or mpicc.openmpi. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int max = argc > 1 ? atoi(argv[1]) : 4 << 20, reps = argc > 2 ? atoi(argv[2]) : 1000, me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    char *buf = calloc(max < 8 ? 8 : max, 1);
    if (me == 0) printf("# bytes  usec  MB/s\n");
    for (int size = 8; size <= max; size *= 2) {
        int n = size > 65536 ? reps / 100 : size > 4096 ? reps / 10 : reps;
        if (n < 10) n = 10;
        double best = 1e30;
        for (int pass = 0; pass < 4; pass++) { /* the first warms up; the best of the other three */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < n && me < 2; i++) {
                if (me == 0) {
                    MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                    MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                }
            }
            double usec = (MPI_Wtime() - t0) * 1e6 / n / 2;
            if (pass > 0 && usec < best) best = usec;
        }
        if (me == 0) printf("%d %.2f %.1f\n", size, best, size / best);
    }
    MPI_Finalize();
    return 0;
}
