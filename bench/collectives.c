/* The C twin of examples/java/CollectiveTimes.java for bench/collectives, with the same
 * protocol: allreduce, bcast, allgather, alltoall and reduce_scatter_block on doubles (SUM),
 * bytes per rank's block from 8 to MAX (the ops with a block per rank while all fit in MAX),
 * each size warmed up (about 0.3 s of calls, at least 20), then the mean of REPS calls (a
 * tenth from 64 KiB; fewer, down to 5, where the warm-up's pace says a pass would take over
 * half a second), best of three passes, the slowest rank's time. Prints "op bytes usec". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run(int op, double *in, double *out, int count, long calls) {
    for (long i = 0; i < calls; i++) {
        switch (op) {
            case 0: MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
            case 1: MPI_Bcast(in, count, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
            case 2: MPI_Allgather(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, MPI_COMM_WORLD); break;
            case 3: MPI_Alltoall(in, count, MPI_DOUBLE, out, count, MPI_DOUBLE, MPI_COMM_WORLD); break;
            default: MPI_Reduce_scatter_block(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    long max = argc > 1 ? atol(argv[1]) : 1L << 24;
    int reps = argc > 2 ? atoi(argv[2]) : 200, me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const char *ops[] = {"allreduce", "bcast", "allgather", "alltoall", "reduce_scatter"};
    for (int o = 0; o < 5; o++) {
        int perRank = o >= 2;
        for (long bytes = 8; bytes <= max && (!perRank || bytes * n <= max);
             bytes = bytes * 4 > max && bytes < max ? max : bytes * 4) {
            int count = (int) (bytes / 8);
            long lin = (o == 3 || o == 4) ? (long) count * n : count;
            long lout = (o == 2 || o == 3) ? (long) count * n : count;
            double *in = calloc(lin, sizeof(double)), *out = calloc(lout, sizeof(double));
            /* as CollectiveTimes.warmUp: batches doubling from 1 to 2e8 / bytes / 50 calls until
               ~0.3 s have passed (rank 0's clock, broadcast) and at least 20 calls were made */
            long cap = 200000000L / bytes;
            if (cap > 20000) cap = 20000;
            if (cap < 20) cap = 20;
            long most = cap / 50 > 1 ? cap / 50 : 1;
            double w0 = MPI_Wtime();
            long go[2] = {1, 0}; /* continue?, rank 0's nanoseconds per call so far */
            for (long done = 0, batch = 1; go[0]; done += batch, batch = batch * 2 < most ? batch * 2 : most) {
                run(o, in, out, count, batch);
                double elapsed = MPI_Wtime() - w0;
                go[0] = done + batch < 20 || elapsed < 0.3;
                go[1] = (long) (elapsed * 1e9 / (done + batch));
                MPI_Bcast(go, 2, MPI_LONG, 0, MPI_COMM_WORLD);
            }
            /* as CollectiveTimes.callsPerPass */
            long calls = bytes >= 65536 ? reps / 10 : reps;
            long budget = 500000000L / (go[1] > 0 ? go[1] : 1);
            if (calls > budget) calls = budget;
            if (calls < 5) calls = 5;
            double best = 1e30;
            for (int pass = 0; pass < 4; pass++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                run(o, in, out, count, calls);
                double mine = (MPI_Wtime() - t0) * 1e6 / calls, slowest;
                MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (pass > 0 && slowest < best) best = slowest;
            }
            if (me == 0) printf("%s %ld %.2f\n", ops[o], bytes, best);
            free(in);
            free(out);
        }
    }
    MPI_Finalize();
    return 0;
}
