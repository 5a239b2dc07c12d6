/* The C twin of examples/java/CollectiveTimes.java for bench/collectives: allreduce (doubles,
 * SUM) and alltoall from 8 bytes to MAX per rank, mean of REPS calls, best of three passes,
 * the slowest rank's time. Prints "op bytes usec". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int max = argc > 1 ? atoi(argv[1]) : 1 << 20, reps = argc > 2 ? atoi(argv[2]) : 200, me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *ops[] = {"allreduce", "alltoall"};
    for (int o = 0; o < 2; o++) {
        for (int bytes = 8; bytes <= max; bytes *= 4) {
            int count = bytes / 8, len = o == 1 ? count * n : count;
            double *in = calloc(len, sizeof(double)), *out = calloc(len, sizeof(double));
            int calls = bytes >= 65536 ? reps / 10 : reps;
            if (calls < 5) calls = 5;
            double best = 1e30;
            for (int pass = 0; pass < 4; pass++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < calls; i++) {
                    if (o == 0) MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                    else MPI_Alltoall(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, MPI_COMM_WORLD);
                }
                double mine = (MPI_Wtime() - t0) * 1e6 / calls, slowest;
                MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (pass > 0 && slowest < best) best = slowest;
            }
            if (me == 0) printf("%s %d %.2f\n", ops[o], bytes, best);
            free(in);
            free(out);
        }
    }
    MPI_Finalize();
    return 0;
}
