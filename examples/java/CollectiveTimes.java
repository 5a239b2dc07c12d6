import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Op;

/**
 * Times allreduce (doubles, SUM) and alltoall at sizes from 8 bytes to 1 MiB per rank: the mean
 * of REPS calls, best of three passes after a warm-up (the sweep twice, unmeasured, then a second
 * of sleep for the JIT's compiler threads), the slowest rank's time. The C twin is
 * bench/collectives.c; bench/collectives runs both. Prints "op bytes usec".
 *
 * <p>Usage: CollectiveTimes [MAX_BYTES [REPS]]   (defaults 1048576, 200)
 */
public final class CollectiveTimes {
    static void sweep(Comm world, int max, int reps, boolean print) {
        int n = world.size();
        for (String op : new String[] {"allreduce", "alltoall"}) {
            for (int bytes = 8; bytes <= max; bytes *= 4) {
                int count = bytes / 8;
                double[] in = new double[op.equals("alltoall") ? count * n : count];
                double[] out = new double[in.length];
                int calls = Math.max(5, bytes >= 65536 ? reps / 10 : reps);
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
                if (print && world.rank() == 0) {
                    System.out.printf("%s %d %.2f%n", op, bytes, best);
                }
            }
        }
    }

    static void run(Comm world, String op, double[] in, double[] out, int calls) {
        for (int i = 0; i < calls; i++) {
            if (op.equals("allreduce")) {
                world.allreduce(in, out, Op.SUM);
            } else {
                world.alltoall(in, out);
            }
        }
    }

    public static void main(String[] args) {
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            // JMH's way: the whole sweep first, unmeasured (each new path deoptimizes and
            // recompiles what it touches), then a second off the cores for the compiler threads
            sweep(world, Math.min(max, 65536), Math.max(1, reps / 4), false);
            sweep(world, Math.min(max, 65536), Math.max(1, reps / 4), false);
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sweep(world, max, reps, true);
        }
    }
}
