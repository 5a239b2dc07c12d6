import java.lang.foreign.MemorySegment;
import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Op;

/**
 * A 2-D Jacobi stencil: an N×N grid held at 1 on its top edge and 0 on the others, cut into
 * blocks over a px × py grid of ranks; each iteration exchanges one-cell halos with up to four
 * neighbours and reduces the residual over all ranks. Prints the residual at the end, the same
 * (to the digits printed) whatever the number of ranks.
 *
 * <p>Usage: Stencil [N [ITERATIONS]]   (defaults 256, 200)
 */
public final class Stencil {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            int p = world.size();
            int px = (int) Math.sqrt(p);
            while (p % px != 0) {
                px--;
            }
            int py = p / px;
            int row = world.rank() / py;
            int col = world.rank() % py;
            int rows = share(n, px, row);
            int cols = share(n, py, col);
            int firstRow = offset(n, px, row);
            int w = cols + 2; // one halo cell each side
            double[] u = new double[(rows + 2) * w];
            double[] next = new double[(rows + 2) * w];
            if (firstRow == 0) { // the global top edge is the row above my first
                for (int j = 0; j < w; j++) {
                    u[j] = 1;
                    next[j] = 1;
                }
            }
            int up = row > 0 ? world.rank() - py : -1;
            int down = row < px - 1 ? world.rank() + py : -1;
            int left = col > 0 ? world.rank() - 1 : -1;
            int right = col < py - 1 ? world.rank() + 1 : -1;
            double[] colOut = new double[rows];
            double[] colIn = new double[rows];
            double residual = 0;
            long t0 = System.nanoTime();
            for (int it = 0; it < iterations; it++) {
                MemorySegment g = MemorySegment.ofArray(u);
                if (up >= 0) {
                    world.sendrecv(g.asSlice(8L * (w + 1), 8L * cols), up, 0, g.asSlice(8L * 1, 8L * cols), up, 1);
                }
                if (down >= 0) {
                    world.sendrecv(g.asSlice(8L * (rows * w + 1), 8L * cols), down, 1,
                            g.asSlice(8L * ((rows + 1) * w + 1), 8L * cols), down, 0);
                }
                if (left >= 0) {
                    for (int i = 0; i < rows; i++) {
                        colOut[i] = u[(i + 1) * w + 1];
                    }
                    world.sendrecv(colOut, left, 2, colIn, left, 3);
                    for (int i = 0; i < rows; i++) {
                        u[(i + 1) * w] = colIn[i];
                    }
                }
                if (right >= 0) {
                    for (int i = 0; i < rows; i++) {
                        colOut[i] = u[(i + 1) * w + cols];
                    }
                    world.sendrecv(colOut, right, 3, colIn, right, 2);
                    for (int i = 0; i < rows; i++) {
                        u[(i + 1) * w + cols + 1] = colIn[i];
                    }
                }
                double local = 0;
                for (int i = 1; i <= rows; i++) {
                    for (int j = 1; j <= cols; j++) {
                        int k = i * w + j;
                        double v = 0.25 * (u[k - w] + u[k + w] + u[k - 1] + u[k + 1]);
                        local += (v - u[k]) * (v - u[k]);
                        next[k] = v;
                    }
                }
                double[] sum = new double[1];
                world.allreduce(new double[] {local}, sum, Op.SUM);
                residual = Math.sqrt(sum[0]);
                double[] t = u;
                u = next;
                next = t;
            }
            if (world.rank() == 0) {
                System.out.printf("stencil %dx%d on %d ranks (%dx%d), %d iterations: residual %.9e (%.3f s)%n", n, n, p, px, py,
                        iterations, residual, (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    static int share(int n, int parts, int i) {
        return n / parts + (i < n % parts ? 1 : 0);
    }

    static int offset(int n, int parts, int i) {
        return i * (n / parts) + Math.min(i, n % parts);
    }
}
