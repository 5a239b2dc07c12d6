import java.lang.reflect.Method;
import java.util.List;
import org.banyan.topo.Topology;

/**
 * What a topology's reorder costs rank 0 and what it gains, without processes: 2-D grids of
 * 64 to 4,096 ranks dealt by node over hosts of two packages of 16 cores (32 ranks a host), the
 * way `banyan run --map-by node --bind-to core` deals them, handed to banyan-comm's Reordering
 * (package-private, reached by reflection). Prints the grid's SUM_COM on the machine before and
 * after, and the decision's time (the first one includes the JIT's warm-up).
 * Run: java -cp comm/target/banyan-comm.jar:client/target/banyan-client.jar bench/ReorderScale.java
 */
public class ReorderScale {
    public static void main(String[] args) throws Exception {
        Class<?> r = Class.forName("org.banyan.comm.Reordering");
        Method grid = r.getDeclaredMethod("grid", int[].class, boolean[].class);
        Class<?> matrix = Class.forName("org.banyan.place.CommMatrix");
        Method of = r.getDeclaredMethod("of", matrix, Topology.class, int[].class, int[].class);
        grid.setAccessible(true);
        of.setAccessible(true);
        Topology host = new Topology(List.of(new Topology.Level("Package", 2, 0), new Topology.Level("Core", 16, 0)),
                java.util.stream.IntStream.range(0, 32).toArray());
        System.out.println("ranks hosts  SUM_COM before  after  ms");
        for (int side : new int[] {8, 16, 32, 64}) {
            int n = side * side;
            int hosts = n / 32;
            int[] hostOf = new int[n];
            int[] cpu = new int[n];
            for (int p = 0; p < n; p++) { // by node: rank p on host p mod hosts, its (p / hosts)-th core there
                hostOf[p] = p % hosts;
                cpu[p] = p / hosts;
            }
            Object pattern = grid.invoke(null, new int[] {side, side}, new boolean[] {false, false});
            long t = System.nanoTime();
            Object o = of.invoke(null, pattern, host, hostOf, cpu);
            long ms = (System.nanoTime() - t) / 1_000_000;
            Class<?> oc = o.getClass();
            Method before = oc.getDeclaredMethod("costBefore");
            Method after = oc.getDeclaredMethod("costAfter");
            before.setAccessible(true);
            after.setAccessible(true);
            System.out.printf("%5d %5d  %14.0f %6.0f %4d%n", n, hosts, before.invoke(o), after.invoke(o), ms);
        }
    }
}
