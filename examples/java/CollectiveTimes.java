import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Op;

/**
 * Times five collectives on doubles, as the OSU micro-benchmarks size them (bytes per rank's
 * block): allreduce and reduce_scatter (SUM; reduce_scatter_block, each rank's result one
 * block), bcast (from rank 0), allgather and alltoall, from 8 bytes to MAX_BYTES, the ops whose
 * buffers hold a block per rank while all of them fit in MAX_BYTES. Each size is warmed up first
 * with the same calls (for about 0.3 s, at least 20 calls: time for the JIT to compile the
 * size's path), then timed: the mean of REPS calls (a tenth of them from 64 KiB; fewer, down to
 * 5, where the warm-up's calls say a pass would take over half a second), best of three passes,
 * the slowest rank's time. Before the sweep, the JIT's own warm-up (the C twin needs none): every
 * op's smallest size, every op at 512 KiB, every op at every size up to 32 KiB, the timing's
 * calls, then a second's sleep. The C twin is bench/collectives.c, with the same protocol
 * otherwise; bench/collectives runs both. Prints "op bytes usec".
 *
 * <p>Usage: CollectiveTimes [MAX_BYTES [REPS]]   (defaults 16777216, 200)
 */
public final class CollectiveTimes {
    static final String[] OPS = {"allreduce", "bcast", "allgather", "alltoall", "reduce_scatter"};

    /** Whether the op's buffers hold one block per rank (and so grow with the ranks). */
    static boolean perRank(String op) {
        return op.equals("allgather") || op.equals("alltoall") || op.equals("reduce_scatter");
    }

    /** The send buffer of {@code op} for blocks of {@code count} on {@code n} ranks. */
    static double[] input(String op, int count, int n) {
        return new double[op.equals("alltoall") || op.equals("reduce_scatter") ? count * n : count];
    }

    /** The receive buffer (none for bcast, which works in place). */
    static double[] output(String op, int count, int n) {
        return new double[op.equals("allgather") || op.equals("alltoall") ? count * n : op.equals("bcast") ? 0 : count];
    }

    static void run(Comm world, String op, double[] in, double[] out, int calls) {
        for (int i = 0; i < calls; i++) {
            switch (op) {
                case "allreduce" -> world.allreduce(in, out, Op.SUM);
                case "bcast" -> world.bcast(in, 0);
                case "allgather" -> world.allgather(in, out);
                case "alltoall" -> world.alltoall(in, out);
                default -> world.reduceScatterBlock(in, out, Op.SUM);
            }
        }
    }

    /**
     * Warms a size up: calls in batches (doubling from one to 2·10^8 / bytes / 50, so that a slow
     * call is not repeated hundreds of times before the clock is read) until about 0.3 s
     * have passed (rank 0's clock, broadcast after each batch so that all agree) and at least 20
     * calls were made. A count of calls (it stopped at 20,000) left small sizes 15-25 ms of
     * warm-up, before the JIT had compiled their path: the first size measured then ran at 1.1-1.3
     * µs a call where it takes 0.6-0.8. Returns rank 0's mean time per call, in nanoseconds
     * (broadcast with the last batch's verdict).
     */
    static long warmUp(Comm world, String op, double[] in, double[] out, long bytes) {
        long cap = Math.max(20, Math.min(20_000, 200_000_000L / bytes));
        int most = (int) Math.max(1, cap / 50);
        long t0 = System.nanoTime();
        long[] go = {1, 0};
        for (long done = 0, batch = 1; go[0] != 0; done += batch, batch = Math.min(most, batch * 2)) {
            run(world, op, in, out, (int) batch);
            long elapsed = System.nanoTime() - t0;
            go[0] = done + batch < 20 || elapsed < 300_000_000L ? 1 : 0;
            go[1] = elapsed / (done + batch);
            world.bcast(go, 0);
        }
        return go[1];
    }

    /**
     * The calls of one timed pass: REPS (a tenth from 64 KiB), fewer where a pass would take
     * over half a second at the warm-up's pace, never under 5. Eight MPICH ranks on two cores
     * took up to 0.1 s a call, and a run of all sizes over an hour at a fixed count.
     */
    static int callsPerPass(long bytes, int reps, long warmNanosPerCall) {
        int calls = bytes >= 65536 ? reps / 10 : reps;
        long budget = 500_000_000L / Math.max(1, warmNanosPerCall);
        return (int) Math.max(5, Math.min(calls, budget));
    }

    /**
     * Warms up the timing's own calls (a barrier, and an allreduce with MAX): the first allreduce
     * with MAX otherwise made the JIT drop the code it had compiled for SUM, and the first size
     * measured (allreduce, 8 B) ran while it recompiled (2-14 µs a call, 0.7 once compiled for
     * both). Up to 20,000 calls or about 0.3 s.
     */
    static void warmUpTiming(Comm world) {
        double[] mine = {0};
        double[] slowest = new double[1];
        long[] go = {1};
        long t0 = System.nanoTime();
        for (int done = 0; go[0] != 0; done += 500) {
            world.barrier();
            for (int i = 0; i < 500; i++) {
                world.allreduce(mine, slowest, Op.MAX);
            }
            go[0] = done + 500 < 20_000 && System.nanoTime() - t0 < 300_000_000L ? 1 : 0;
            world.bcast(go, 0);
        }
    }

    public static void main(String[] args) {
        long max = args.length > 0 ? Long.parseLong(args[0]) : 1 << 24;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            int n = world.size();
            // the JIT's first burst (every op's small path), then a second off the cores for its
            // compiler threads, which otherwise take them from the first sizes measured
            for (String op : OPS) {
                warmUp(world, op, input(op, 1, n), output(op, 1, n), 8);
            }
            // ...and every op's path for messages sent by rendezvous (from 128 KiB), first met at
            // 512 KiB: C2 compiles it seconds after its first call on two busy cores, long after
            // that size's own warm-up ended (docs/comm.md)
            for (String op : OPS) {
                int count = 65_536;
                if ((long) count * 8 * (perRank(op) ? n : 1) <= max) {
                    warmUp(world, op, input(op, count, n), output(op, count, n), count * 8L);
                }
            }
            // ...and every op at every size up to 32 KiB, as the sweep will meet them: a path first
            // taken inside a measured cell made the JIT drop compiled code and compile it again
            // while that cell was timed (PrintCompilation: ShmTransport.drain deoptimized in the
            // middle of allreduce 8 B's passes, which read 0.7-2.5 µs a call where 32 B read 0.4-1.2)
            for (String op : OPS) {
                for (long bytes = 8; bytes <= Math.min(max, 32_768) && (!perRank(op) || bytes * n <= max); bytes *= 4) {
                    int count = (int) (bytes / 8);
                    warmUp(world, op, input(op, count, n), output(op, count, n), bytes);
                }
            }
            warmUpTiming(world);
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (String op : OPS) {
                for (long bytes = 8; bytes <= max && (!perRank(op) || bytes * n <= max); bytes = bytes * 4 > max && bytes < max ? max : bytes * 4) {
                    int count = (int) (bytes / 8);
                    double[] in = input(op, count, n);
                    double[] out = output(op, count, n);
                    int calls = callsPerPass(bytes, reps, warmUp(world, op, in, out, bytes));
                    double best = Double.MAX_VALUE;
                    for (int pass = 0; pass < 4; pass++) {
                        world.barrier();
                        long t0 = System.nanoTime();
                        run(world, op, in, out, calls);
                        double[] mine = {(System.nanoTime() - t0) / 1e3 / calls};
                        double[] slowest = new double[1];
                        world.allreduce(mine, slowest, Op.MAX);
                        if (pass > 0) {
                            best = Math.min(best, slowest[0]);
                        }
                    }
                    if (world.rank() == 0) {
                        System.out.printf("%s %d %.2f%n", op, bytes, best);
                    }
                }
            }
        }
    }
}
