import org.banyan.comm.BlockRedistribution;
import org.banyan.comm.Comm;
import org.banyan.comm.Dmr;
import org.banyan.comm.Op;

/**
 * A malleable N-body simulation (one of the seed's three applications): N bodies of unit mass,
 * block-distributed, each step every rank gathers all positions, computes the softened gravity
 * on its own bodies from every body in index order, and moves them (leapfrog). Every EVERY
 * steps it checks in with the resource manager (DMR); positions and velocities follow a
 * resize. A body's force is summed in the same order whatever the decomposition, so the result
 * is the same bit for bit at any size and after any resize.
 *
 * <pre>
 * examples/submit-java NBody --nodes 1:4 -- BODIES STEPS EVERY [PAUSE_MS]
 * examples/run-java NBody -n 2 -- BODIES STEPS EVERY        (rigid: every check answers NONE)
 * </pre>
 */
public final class NBody {
    static final double DT = 1e-3;
    static final double SOFTENING = 1e-2;

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        long steps = Long.parseLong(args[1]);
        long every = Long.parseLong(args[2]);
        long pause = args.length > 3 ? Long.parseLong(args[3]) : 0;
        try (Dmr dmr = Dmr.init()) {
            double[][] s; // x, y, z, vx, vy, vz of this rank's bodies
            long step;
            if (dmr.joined()) {
                Dmr.Arrival a = dmr.arrive(n, 6);
                s = a.blocks();
                step = a.progress();
            } else {
                Comm w = dmr.world();
                int start = (int) BlockRedistribution.blockStart(n, w.size(), w.rank());
                int len = (int) BlockRedistribution.blockLength(n, w.size(), w.rank());
                s = new double[6][len];
                for (int i = 0; i < len; i++) {
                    java.util.SplittableRandom r = new java.util.SplittableRandom(start + i); // the same bodies at any size
                    for (int c = 0; c < 3; c++) {
                        s[c][i] = r.nextDouble(-1, 1);
                    }
                }
                step = 0;
            }
            boolean arrived = dmr.joined();
            for (; step < steps; step++) {
                if (!arrived && step % every == 0) {
                    int before = dmr.world().size();
                    s = dmr.resize(dmr.check(), s, n, step);
                    if (dmr.left()) {
                        return;
                    }
                    if (dmr.world().rank() == 0 && (step == 0 || dmr.world().size() != before)) {
                        System.out.printf("step %d: %d rank(s)%n", step, dmr.world().size());
                    }
                    Thread.sleep(pause);
                }
                arrived = false;
                advance(dmr.world(), s, n);
            }
            Comm w = dmr.world();
            double[] local = {0, 0, 0, 0};
            for (int i = 0; i < s[0].length; i++) {
                local[0] = Math.max(local[0], Math.abs(s[0][i]));
                local[1] = Math.max(local[1], Math.abs(s[3][i]));
            }
            long first = BlockRedistribution.blockStart(n, w.size(), w.rank());
            local[2] = first == 0 && s[0].length > 0 ? s[0][0] : Double.NEGATIVE_INFINITY;
            local[3] = first == 0 && s[0].length > 0 ? s[4][0] : Double.NEGATIVE_INFINITY;
            double[] out = new double[4];
            w.allreduce(local, out, Op.MAX);
            if (w.rank() == 0) {
                System.out.printf("nbody: %d bodies, %d steps: max |x| %.17g, max |vx| %.17g, body 0 x %.17g vy %.17g%n", n,
                        steps, out[0], out[1], out[2], out[3]);
            }
        }
    }

    /** One leapfrog step: every position gathered, forces on this rank's bodies in index order, then the move. */
    static void advance(Comm w, double[][] s, int n) {
        int size = w.size();
        int most = (int) BlockRedistribution.blockLength(n, size, 0); // the first blocks are the longest
        double[] mine = new double[3 * most];
        for (int i = 0; i < s[0].length; i++) {
            mine[3 * i] = s[0][i];
            mine[3 * i + 1] = s[1][i];
            mine[3 * i + 2] = s[2][i];
        }
        double[] all = new double[3 * most * size];
        w.allgather(mine, all);
        double[] pos = new double[3 * n]; // in body order, whatever the layout
        for (int r = 0; r < size; r++) {
            int start = (int) BlockRedistribution.blockStart(n, size, r);
            int len = (int) BlockRedistribution.blockLength(n, size, r);
            System.arraycopy(all, 3 * most * r, pos, 3 * start, 3 * len);
        }
        int start = (int) BlockRedistribution.blockStart(n, size, w.rank());
        for (int i = 0; i < s[0].length; i++) {
            double ax = 0;
            double ay = 0;
            double az = 0;
            double xi = s[0][i];
            double yi = s[1][i];
            double zi = s[2][i];
            for (int j = 0; j < n; j++) {
                if (j == start + i) {
                    continue;
                }
                double dx = pos[3 * j] - xi;
                double dy = pos[3 * j + 1] - yi;
                double dz = pos[3 * j + 2] - zi;
                double d2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING;
                double inv = 1 / (d2 * Math.sqrt(d2));
                ax += dx * inv;
                ay += dy * inv;
                az += dz * inv;
            }
            s[3][i] += DT * ax;
            s[4][i] += DT * ay;
            s[5][i] += DT * az;
        }
        for (int i = 0; i < s[0].length; i++) {
            s[0][i] += DT * s[3][i];
            s[1][i] += DT * s[4][i];
            s[2][i] += DT * s[5][i];
        }
    }
}
