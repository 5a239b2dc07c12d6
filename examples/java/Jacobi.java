import org.banyan.comm.BlockRedistribution;
import org.banyan.comm.Comm;
import org.banyan.comm.Dmr;
import org.banyan.comm.Op;
import org.banyan.comm.Request;

/**
 * A malleable Jacobi solver (one of the seed's three applications, in one dimension): the heat
 * equation on a rod of N points held at 1 on the left and 0 on the right, block-distributed,
 * each iteration a halo exchange with the neighbours and an update. Every EVERY iterations it
 * checks in with the resource manager (DMR) and resizes when told to; the field follows.
 * An update does not depend on how the rod is cut, so the result is the same bit for bit at
 * every size and after any resize: it prints the last iteration's largest change and two
 * values of the field exactly.
 *
 * <pre>
 * examples/submit-java Jacobi --nodes 1:4 -- N ITERATIONS EVERY [PAUSE_MS]
 * examples/run-java Jacobi -n 2 -- N ITERATIONS EVERY      (rigid: every check answers NONE)
 * </pre>
 *
 * PAUSE_MS (default 0) is slept at each check, as heavier iterations would take.
 */
public final class Jacobi {
    public static void main(String[] args) throws Exception {
        long n = Long.parseLong(args[0]);
        long iterations = Long.parseLong(args[1]);
        long every = Long.parseLong(args[2]);
        long pause = args.length > 3 ? Long.parseLong(args[3]) : 0;
        try (Dmr dmr = Dmr.init()) {
            double[] u;
            long it;
            if (dmr.joined()) {
                Dmr.Arrival a = dmr.arrive(n);
                u = a.block();
                it = a.progress();
            } else {
                Comm w = dmr.world();
                u = new double[(int) BlockRedistribution.blockLength(n, w.size(), w.rank())];
                it = 0;
            }
            boolean arrived = dmr.joined();
            double change = 0;
            for (; it < iterations; it++) {
                if (!arrived && it % every == 0) {
                    Dmr.Decision d = dmr.check();
                    int before = dmr.world().size();
                    u = dmr.resize(d, u, n, it);
                    if (dmr.left()) {
                        return;
                    }
                    if (dmr.world().rank() == 0 && (it == 0 || dmr.world().size() != before)) {
                        System.out.printf("iteration %d: %d rank(s)%n", it, dmr.world().size());
                    }
                    Thread.sleep(pause);
                }
                arrived = false;
                Comm w = dmr.world();
                double[] next = new double[u.length];
                change = step(w, u, next);
                u = next;
            }
            Comm w = dmr.world();
            double[] out = new double[3];
            w.allreduce(new double[] {change, valueAt(w, u, n, n / 4), valueAt(w, u, n, n / 2)}, out, Op.MAX);
            if (w.rank() == 0) {
                System.out.printf("jacobi: %d points, %d iterations: largest change %.17g, u[%d] %.17g, u[%d] %.17g%n", n,
                        iterations, out[0], n / 4, out[1], n / 2, out[2]);
            }
        }
    }

    /** One update: the halo from the neighbours (the boundary values at the rod's ends), then the new field. */
    static double step(Comm w, double[] u, double[] next) {
        int me = w.rank();
        int size = w.size();
        double[] fromLeft = {1.0};
        double[] fromRight = {0.0};
        java.util.List<Request> pending = new java.util.ArrayList<>();
        if (me > 0) {
            pending.add(w.irecv(fromLeft, me - 1, 1));
            pending.add(w.isend(new double[] {u[0]}, me - 1, 2));
        }
        if (me < size - 1) {
            pending.add(w.irecv(fromRight, me + 1, 2));
            pending.add(w.isend(new double[] {u[u.length - 1]}, me + 1, 1));
        }
        Request.awaitAll(pending);
        double change = 0;
        for (int i = 0; i < u.length; i++) {
            double left = i == 0 ? fromLeft[0] : u[i - 1];
            double right = i == u.length - 1 ? fromRight[0] : u[i + 1];
            next[i] = (left + right) * 0.5;
            change = Math.max(change, Math.abs(next[i] - u[i]));
        }
        return change;
    }

    /** The field at {@code index} on the rank that holds it; -infinity elsewhere (for a MAX reduction). */
    static double valueAt(Comm w, double[] u, long n, long index) {
        long start = BlockRedistribution.blockStart(n, w.size(), w.rank());
        return index >= start && index < start + u.length ? u[(int) (index - start)] : Double.NEGATIVE_INFINITY;
    }
}
