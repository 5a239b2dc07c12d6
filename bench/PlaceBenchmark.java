import java.util.List;
import java.util.Locale;
import org.banyan.place.CommMatrix;
import org.banyan.place.Patterns;
import org.banyan.place.PlacementCost;
import org.banyan.place.ReferencePlacements;
import org.banyan.place.TreeMatch;
import org.banyan.topo.Topology;
import org.banyan.topo.TopologyFormats;

/**
 * TreeMatch's mapping time from 64 to 65,536 processes, and its quality (hop-bytes against
 * round-robin, by-node and random placements) on reference patterns and multi-level topologies.
 * Run: bench/place (or java -cp cli/target/banyan.jar bench/PlaceBenchmark.java [time|quality]);
 * bench/place machines [DIR] places a stencil on each hwloc XML of DIR (hwloc's test machines by default).
 */
public class PlaceBenchmark {
    /** Hosts of 2 packages × 16 cores, 8 hosts a switch, as many switches as needed. */
    static Topology clusterFor(int n) {
        Topology host = TopologyFormats.synthetic("socket:2 core:16");
        int hosts = Math.max(1, n / 32);
        List<Topology.Level> network = hosts >= 16 ? List.of(new Topology.Level("switch", hosts / 8, 0)) : List.of();
        return host.cluster(network, hosts);
    }

    static CommMatrix stencil3d(int n) {
        int z = 1;
        int y = 1;
        int x = n;
        // the most cubic x*y*z = n with powers of two
        int[] d = {1, 1, 1};
        for (int k = 0, m = n; m > 1; k = (k + 1) % 3, m /= 2) {
            d[k] *= 2;
        }
        x = d[0];
        y = d[1];
        z = d[2];
        return Patterns.stencil3d(x, y, z, 8192);
    }

    static double seconds(Runnable r, int reps) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
        }
        return best;
    }

    static void time() {
        System.out.println("Mapping time (best of 3 after a warm-up run of every size), 3-D stencil and strided all-to-all blocks");
        System.out.printf(Locale.ROOT, "%8s  %-36s %12s %12s %12s%n", "ranks", "topology", "stencil3d s", "blocks s", "tm/rr 3d");
        int[] sizes = {64, 256, 1024, 4096, 16384, 65536};
        for (int n : sizes) { // warm-up: every code path compiled before timing
            TreeMatch.map(stencil3d(n), clusterFor(n));
        }
        for (int n : sizes) {
            Topology t = clusterFor(n);
            CommMatrix s = stencil3d(n);
            CommMatrix b = Patterns.stridedBlocks(n, Math.min(32, n), 8192);
            double ts = seconds(() -> TreeMatch.map(s, t), 3);
            double tb = seconds(() -> TreeMatch.map(b, t), n >= 16384 ? 1 : 3);
            double q = PlacementCost.of(s, t, TreeMatch.map(s, t).leafOf()).hopBytes()
                    / PlacementCost.of(s, t, ReferencePlacements.roundRobin(n, t)).hopBytes();
            System.out.printf(Locale.ROOT, "%8d  %-36s %12.3f %12.3f %12.3f%n", n, t, ts, tb, q);
        }
    }

    static void quality() {
        System.out.println("Hop-bytes relative to round-robin (lower is better; TreeMatch's saving in the last column)");
        System.out.printf(Locale.ROOT, "%-34s %-30s %9s %9s %9s %9s%n", "pattern", "topology", "by-node", "random", "treematch",
                "saving");
        for (String topo : List.of("switch:4 host:8 socket:2 core:8", "host:16 socket:2 l3:2 core:8")) {
            Topology t = TopologyFormats.synthetic(topo);
            int n = t.leaves();
            Object[][] patterns = {
                {"binomial reduce", Patterns.binomialReduce(n, 8192)},
                {"2-D stencil 16x32 row-major", Patterns.stencil2d(16, n / 16, 8192)},
                {"3-D stencil 8x8x8 row-major", Patterns.stencil3d(8, 8, n / 64, 8192)},
                {"all-to-all blocks of 16, strided", Patterns.stridedBlocks(n, 16, 8192)},
                {"2-D stencil, ranks shuffled", Patterns.renumbered(Patterns.stencil2d(16, n / 16, 8192),
                        ReferencePlacements.random(n, t, 42))},
            };
            for (Object[] p : patterns) {
                CommMatrix m = (CommMatrix) p[1];
                double rr = PlacementCost.of(m, t, ReferencePlacements.roundRobin(n, t)).hopBytes();
                double bn = PlacementCost.of(m, t, ReferencePlacements.byNode(n, t)).hopBytes();
                double rnd = PlacementCost.of(m, t, ReferencePlacements.random(n, t, 1)).hopBytes();
                double tm = PlacementCost.of(m, t, TreeMatch.map(m, t).leafOf()).hopBytes();
                System.out.printf(Locale.ROOT, "%-34s %-30s %9.3f %9.3f %9.3f %8.1f%%%n", p[0], topo, bn / rr, rnd / rr, tm / rr,
                        100 * (1 - tm / rr));
            }
            CommMatrix grid = Patterns.stencil2d(16, n / 16, 8192);
            int[] geometric = new int[n];
            next = 0;
            blocks(0, 0, 16, n / 16, geometric, 16);
            double g = PlacementCost.of(grid, t, geometric).hopBytes() / PlacementCost.of(grid, t, ReferencePlacements.roundRobin(n, t)).hopBytes();
            System.out.printf(Locale.ROOT, "%-34s %-30s %9s %9s %9.3f %8.1f%%   (bound: knows the grid)%n",
                    "2-D stencil, geometric blocks", topo, "", "", g, 100 * (1 - g));
        }
    }

    /** The 2-D stencil's grid cut in halves along its longer side, recursively: what knowing the geometry gives. */
    static int next;

    static void blocks(int x0, int y0, int w, int h, int[] leafOf, int width) {
        if (w * h == 1) {
            leafOf[y0 * width + x0] = next++;
        } else if (w >= h) {
            blocks(x0, y0, w / 2, h, leafOf, width);
            blocks(x0 + w / 2, y0, w / 2, h, leafOf, width);
        } else {
            blocks(x0, y0, w, h / 2, leafOf, width);
            blocks(x0, y0 + h / 2, w, h / 2, leafOf, width);
        }
    }

    /**
     * TreeMatch on real machines (hwloc XML files, cut at their cores as banyan place does): a
     * 2-D stencil over every usable core, SUM_COM against round-robin and by-node, and which
     * placement was kept.
     */
    static void machines(java.nio.file.Path dir) throws java.io.IOException {
        System.out.printf(Locale.ROOT, "%-44s %-34s %6s %6s %-11s %8s %8s%n", "machine", "tree (cores, padded)", "cores",
                "places", "kept", "vs rr", "vs node");
        try (var files = java.nio.file.Files.list(dir)) {
            for (var f : files.filter(p -> p.toString().endsWith(".xml")).sorted().toList()) {
                Topology t = org.banyan.topo.HwlocXml.parse(java.nio.file.Files.readString(f)).leavesAt("Core").compact();
                int n = t.usableLeaves();
                int x = (int) Math.sqrt(n);
                while (n % x != 0) {
                    x--;
                }
                CommMatrix m = Patterns.stencil2d(x, n / x, 4096);
                TreeMatch.Result r = TreeMatch.map(m, t);
                double tm = PlacementCost.of(m, t, r.leafOf()).sumCom();
                double rr = PlacementCost.of(m, t, ReferencePlacements.roundRobin(n, t)).sumCom();
                double bn = PlacementCost.of(m, t, ReferencePlacements.byNode(n, t)).sumCom();
                // one core: no traffic crosses anything, every placement costs 0 (the ratio is 1)
                System.out.printf(Locale.ROOT, "%-44s %-34s %6d %6d %-11s %8.3f %8.3f%n", f.getFileName(), t, n, t.leaves(),
                        r.kept().name().toLowerCase(Locale.ROOT), rr == 0 ? 1 : tm / rr, bn == 0 ? 1 : tm / bn);
            }
        }
    }

    public static void main(String[] args) throws java.io.IOException {
        String what = args.length > 0 ? args[0] : "all";
        if (what.equals("machines")) {
            machines(java.nio.file.Path.of(args.length > 1 ? args[1] : "place/src/test/resources/hwloc"));
            return;
        }
        if (!what.equals("quality")) {
            time();
        }
        if (!what.equals("time")) {
            quality();
        }
    }
}
