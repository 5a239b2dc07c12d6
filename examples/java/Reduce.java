import org.banyan.client.Banyan;
import org.banyan.comm.Comm;
import org.banyan.comm.Op;

/**
 * Reduce-heavy: ITERATIONS reductions of a COUNT-double vector to rank 0. Its communication
 * matrix is the binomial tree (rank r sends to r minus its lowest set bit), which
 * {@code banyan run --monitor} shows. Prints the last sum, which rank 0 checks.
 *
 * <p>Usage: Reduce [COUNT [ITERATIONS]]   (defaults 1024, 100)
 */
public final class Reduce {
    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
            double[] mine = new double[count];
            double[] sum = new double[count];
            for (int it = 0; it < iterations; it++) {
                java.util.Arrays.fill(mine, world.rank() + it);
                world.reduce(mine, sum, Op.SUM, 0);
            }
            if (world.rank() == 0) {
                int p = world.size();
                double expected = (double) p * (p - 1) / 2 + (double) p * (iterations - 1);
                System.out.printf("reduce of %d doubles on %d ranks, %d times: sum %.1f (%s)%n", count, p, iterations, sum[0],
                        sum[0] == expected && sum[count - 1] == expected ? "correct" : "WRONG, expected " + expected);
            }
        }
    }
}
