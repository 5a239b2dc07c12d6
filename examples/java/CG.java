import org.banyan.comm.BlockRedistribution;
import org.banyan.comm.Comm;
import org.banyan.comm.Dmr;
import org.banyan.comm.Op;
import org.banyan.comm.Request;

/**
 * A malleable Conjugate Gradient solver (one of the seed's three applications): A x = b for the
 * N×N matrix tridiag(-1, 2, -1) (the 1-D Laplacian) and b all ones, vectors block-distributed,
 * the product A·p with a halo exchange, dot products with allreduce. Every EVERY iterations it
 * checks in with the resource manager (DMR); x, r and p follow a resize and r·r is recomputed.
 * It stops when ‖r‖/‖b‖ < 1e-10 and prints the iterations, the residual and the largest error
 * against the exact solution x_i = (i+1)(N-i)/2.
 *
 * <pre>
 * examples/submit-java CG --nodes 1:4 -- N EVERY [PAUSE_MS]
 * examples/run-java CG -n 2 -- N EVERY              (rigid: every check answers NONE)
 * </pre>
 */
public final class CG {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        long every = Long.parseLong(args[1]);
        long pause = args.length > 2 ? Long.parseLong(args[2]) : 0;
        try (Dmr dmr = Dmr.init()) {
            double[][] v; // x, r, p
            long it;
            if (dmr.joined()) {
                Dmr.Arrival a = dmr.arrive(n, 3);
                v = a.blocks();
                it = a.progress();
            } else {
                Comm w = dmr.world();
                int len = (int) BlockRedistribution.blockLength(n, w.size(), w.rank());
                v = new double[3][len];
                java.util.Arrays.fill(v[1], 1.0); // r = b - A·0 = b
                java.util.Arrays.fill(v[2], 1.0); // p = r
                it = 0;
            }
            double bNorm = Math.sqrt(n);
            double rr = dot(dmr.world(), v[1], v[1]);
            boolean arrived = dmr.joined();
            long maxIterations = 10L * n;
            for (; it < maxIterations && Math.sqrt(rr) / bNorm >= 1e-10; it++) {
                if (!arrived && it % every == 0) {
                    int before = dmr.world().size();
                    v = dmr.resize(dmr.check(), v, n, it);
                    if (dmr.left()) {
                        return;
                    }
                    if (dmr.world().rank() == 0 && (it == 0 || dmr.world().size() != before)) {
                        System.out.printf("iteration %d: %d rank(s)%n", it, dmr.world().size());
                    }
                    rr = dot(dmr.world(), v[1], v[1]);
                    Thread.sleep(pause);
                }
                arrived = false;
                Comm w = dmr.world();
                double[] q = laplacian(w, v[2]);
                double alpha = rr / dot(w, v[2], q);
                for (int i = 0; i < q.length; i++) {
                    v[0][i] += alpha * v[2][i];
                    v[1][i] -= alpha * q[i];
                }
                double next = dot(w, v[1], v[1]);
                double beta = next / rr;
                rr = next;
                for (int i = 0; i < q.length; i++) {
                    v[2][i] = v[1][i] + beta * v[2][i];
                }
            }
            Comm w = dmr.world();
            long start = BlockRedistribution.blockStart(n, w.size(), w.rank());
            double error = 0;
            double largest = 0;
            for (int i = 0; i < v[0].length; i++) {
                long g = start + i;
                double exact = (g + 1.0) * (n - g) / 2.0;
                error = Math.max(error, Math.abs(v[0][i] - exact));
                largest = Math.max(largest, exact);
            }
            double[] out = new double[2];
            w.allreduce(new double[] {error, largest}, out, Op.MAX);
            if (w.rank() == 0) {
                System.out.printf("cg: %d unknowns, %s after %d iterations, relative residual %.2e, relative error %.2e%n", n,
                        Math.sqrt(rr) / bNorm < 1e-10 ? "converged" : "NOT converged", it, Math.sqrt(rr) / bNorm,
                        out[0] / out[1]);
            }
        }
    }

    static double dot(Comm w, double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        double[] out = new double[1];
        w.allreduce(new double[] {s}, out, Op.SUM);
        return out[0];
    }

    /** A·p for tridiag(-1, 2, -1), the neighbours' edge values by halo exchange (0 beyond the ends). */
    static double[] laplacian(Comm w, double[] p) {
        int me = w.rank();
        double[] fromLeft = {0};
        double[] fromRight = {0};
        java.util.List<Request> pending = new java.util.ArrayList<>();
        if (me > 0) {
            pending.add(w.irecv(fromLeft, me - 1, 1));
            pending.add(w.isend(new double[] {p[0]}, me - 1, 2));
        }
        if (me < w.size() - 1) {
            pending.add(w.irecv(fromRight, me + 1, 2));
            pending.add(w.isend(new double[] {p[p.length - 1]}, me + 1, 1));
        }
        Request.awaitAll(pending);
        double[] q = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            double left = i == 0 ? fromLeft[0] : p[i - 1];
            double right = i == p.length - 1 ? fromRight[0] : p[i + 1];
            q[i] = 2 * p[i] - left - right;
        }
        return q;
    }
}
