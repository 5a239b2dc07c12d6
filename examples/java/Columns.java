import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Op;

/**
 * Column-heavy: ranks form a ROWS × (size / ROWS) grid in row-major order, as most programs
 * number them, but the heavy traffic runs along columns (each iteration an allreduce of COUNT
 * doubles within each column, then one double within each row), as in SUMMA's broadcasts or a
 * 2-D FFT's transposes. Placing by rank order splits every column across hosts; placing by the
 * communication matrix ({@code banyan place}) keeps columns together. Prints the time and checks
 * the sums.
 *
 * <p>Usage: Columns [ROWS [COUNT [ITERATIONS]]]   (defaults 2, 65536, 50)
 */
public final class Columns {
    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 65536;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            int p = world.size();
            if (p % rows != 0) {
                throw new IllegalArgumentException(p + " ranks do not make " + rows + " rows");
            }
            int cols = p / rows;
            int row = world.rank() / cols;
            int col = world.rank() % cols;
            try (Comm column = world.split(col, row); Comm line = world.split(row, col)) {
                double[] mine = new double[count];
                double[] sum = new double[count];
                double[] one = new double[1];
                double[] rowSum = new double[1];
                boolean right = true;
                world.barrier();
                long t0 = System.nanoTime();
                for (int it = 0; it < iterations; it++) {
                    java.util.Arrays.fill(mine, world.rank() + it);
                    column.allreduce(mine, sum, Op.SUM);
                    // column col holds ranks col, col + cols, ...: their sum
                    double expected = (double) rows * col + (double) cols * rows * (rows - 1) / 2 + (double) rows * it;
                    right &= sum[0] == expected && sum[count - 1] == expected;
                    one[0] = 1;
                    line.allreduce(one, rowSum, Op.SUM);
                    right &= rowSum[0] == cols;
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                double[] ok = {right ? 1 : 0};
                double[] all = new double[1];
                world.allreduce(ok, all, Op.MIN);
                if (world.rank() == 0) {
                    System.out.printf("columns: %d x %d ranks, allreduce of %d doubles per column, %d iterations: %s (%.3f s)%n",
                            rows, cols, count, iterations, all[0] == 1 ? "correct" : "WRONG", seconds);
                }
            }
        }
    }
}
