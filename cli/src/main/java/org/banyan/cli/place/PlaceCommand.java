package org.banyan.cli.place;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.banyan.cli.options.LocalHost;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.cli.run.PlacementInputs;
import org.banyan.place.CommMatrix;
import org.banyan.place.PlacementCost;
import org.banyan.place.Rankfile;
import org.banyan.place.ReferencePlacements;
import org.banyan.place.TreeMatch;
import org.banyan.topo.Topology;

/**
 * {@code banyan place}: TreeMatch over a communication matrix and a topology; writes the
 * placement as a rankfile and reports what it saves against the placements launchers use by
 * default.
 */
public final class PlaceCommand {
    /** What the options set. */
    static final class Arguments {
        String matrixSpec;
        String topologySpec;
        String network;
        String output;
        List<String> hosts;
        long seed = 1;
    }

    public static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Place", List.of("--matrix"), List.of(), "M", """
                    a directory of .prof files (banyan run --monitor-out M), a CSV of
                    banyan monitor (matrix_all_bytes.csv) or a .mat file (required)""",
                    (a, v) -> a.matrixSpec = v)
            .value("Place", List.of("--topology"), List.of(), "T", """
                    one host: lstopo --of xml output, a tleaf file, or a description
                    such as 'socket:2 core:8' (a file or inline); default: this host's
                    /sys. A description with a host level ('switch:2 host:4 core:8')
                    is the whole cluster""",
                    (a, v) -> a.topologySpec = v)
            .value("Place", List.of("--hosts"), List.of(), "LIST", """
                    host names, comma-separated: the cluster is that many hosts like T
                    (default: this host alone)""",
                    (a, v) -> a.hosts = Arrays.stream(v.split(",")).map(String::strip).filter(h -> !h.isEmpty()).toList())
            .value("Place", List.of("--network"), List.of(), "N", "levels above the hosts, e.g. 'switch:2' (the hosts split evenly)",
                    (a, v) -> a.network = v)
            .value("Place", List.of("--output"), List.of("-o"), "FILE", """
                    write the rankfile there (default: standard output, the report
                    then on standard error)""",
                    (a, v) -> a.output = v)
            .value("Place", List.of("--seed"), List.of(), "S", "the random placement's seed (default 1)", (a, v) -> {
                try {
                    a.seed = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new UsageException("--seed '" + v + "' is not a number");
                }
            });

    public static final String HELP = """
            Usage: banyan place --matrix M [--topology T] [--hosts LIST] [--network N]
                                [--output FILE] [--seed S]

            Places the ranks of a communication matrix on a machine with TreeMatch and writes an
            Open MPI rankfile ('rank N=HOST slot=PACKAGE:CORE') for banyan run --rankfile (or
            mpirun's). The report compares hop-bytes, SUM_COM and MAX_COM of round-robin
            (--map-by slot), by-node, random and TreeMatch placements. Ranks go one per core
            (hardware threads are not places). Slots are logical.

            """ + OPTIONS.help();

    private final Path cwd;

    public PlaceCommand(Path cwd) {
        this.cwd = cwd;
    }

    public int run(List<String> args) throws UsageException {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return args.isEmpty() ? 2 : 0;
        }
        Arguments parsed = new Arguments();
        OptionParser.parse(OPTIONS, parsed, args, "banyan place --help");
        String matrixSpec = parsed.matrixSpec;
        String topologySpec = parsed.topologySpec;
        String network = parsed.network;
        String output = parsed.output;
        List<String> hosts = parsed.hosts;
        long seed = parsed.seed;
        if (matrixSpec == null) {
            throw new UsageException("--matrix is required (see banyan place --help)");
        }
        CommMatrix matrix = PlacementInputs.matrix(matrixSpec, cwd, "--matrix");
        Topology host = PlacementInputs.topology(topologySpec, cwd, "--topology");
        int hostLevel = host.levelNamed("host");
        int hostCount = hostLevel >= 0 ? host.leaves() / host.leavesUnder(hostLevel) : hosts == null ? 1 : hosts.size();
        if (hosts == null) {
            hosts = new ArrayList<>();
            for (int h = 0; h < hostCount; h++) {
                hosts.add(hostCount == 1 && hostLevel < 0 ? LocalHost.hostname() : "host" + h);
            }
        } else if (hosts.size() != hostCount) {
            throw new UsageException("--hosts names " + hosts.size() + " hosts; the topology has " + hostCount);
        }
        Topology cluster = PlacementInputs.cluster(host, hostCount, network, "--hosts");
        if (matrix.size() > cluster.usableLeaves()) {
            throw new UsageException("the matrix has " + matrix.size() + " ranks and the machine " + cluster.usableLeaves()
                    + " cores (" + cluster + ")");
        }
        long t0 = System.nanoTime();
        TreeMatch.Result tm = TreeMatch.map(matrix, cluster);
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<Rankfile.Entry> entries = Rankfile.of(tm.leafOf(), cluster, hosts);
        String report = report(matrix, cluster, tm, seconds, seed);
        String text = Rankfile.format(entries, "banyan place: " + matrix.size() + " ranks on " + cluster + "\n"
                + "matrix " + matrixSpec);
        if (output != null) {
            Path out = cwd.resolve(output);
            try {
                Files.writeString(out, text);
            } catch (IOException e) {
                System.err.println("banyan place: cannot write " + out + ": " + e.getMessage());
                return 1;
            }
            System.out.print(report);
            System.out.println("rankfile: " + out);
        } else {
            System.out.print(text);
            System.out.flush();
            System.err.print(report);
        }
        return 0;
    }

    static String report(CommMatrix m, Topology cluster, TreeMatch.Result tm, double seconds, long seed) {
        int n = m.size();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%d ranks on %s (%d cores); %d communicating pairs%n", n, cluster,
                cluster.usableLeaves(), m.pairs()));
        b.append(String.format(Locale.ROOT, "%-12s %16s %16s %14s %16s%n", "placement", "hop-bytes", "SUM_COM", "MAX_COM",
                "hop-bytes vs rr"));
        PlacementCost rr = PlacementCost.of(m, cluster, ReferencePlacements.roundRobin(n, cluster));
        line(b, "round-robin", rr, rr);
        line(b, "by-node", PlacementCost.of(m, cluster, ReferencePlacements.byNode(n, cluster)), rr);
        line(b, "random", PlacementCost.of(m, cluster, ReferencePlacements.random(n, cluster, seed)), rr);
        line(b, "treematch", PlacementCost.of(m, cluster, tm.leafOf()), rr);
        b.append(String.format(Locale.ROOT, "treematch: %.3f s, %d level%s grouped bottom-up (%d searched exhaustively); "
                + "kept: %s%n", seconds, tm.levels(), tm.levels() == 1 ? "" : "s", tm.exactLevels(),
                switch (tm.kept()) {
                    case BOTTOM_UP -> "the bottom-up grouping";
                    case TOP_DOWN -> "the top-down partition (cheaper)";
                    case ROUND_ROBIN -> "round-robin (cheaper than both of its own)";
                    case BY_NODE -> "by-node (cheaper than both of its own)";
                }));
        return b.toString();
    }

    private static void line(StringBuilder b, String name, PlacementCost c, PlacementCost rr) {
        String vs = rr.hopBytes() == 0 ? "-" : String.format(Locale.ROOT, "%+.1f %%", 100 * (c.hopBytes() / rr.hopBytes() - 1));
        b.append(String.format(Locale.ROOT, "%-12s %16.0f %16.0f %14.0f %16s%n", name, c.hopBytes(), c.sumCom(), c.maxCom(), vs));
    }
}
