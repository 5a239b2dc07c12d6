package org.banyan.cli;

import java.util.List;
import java.util.Map;
import org.banyan.core.tree.TopologySpec;
import org.banyan.sim.CostModel;
import org.banyan.sim.Fault;
import org.banyan.sim.FaultPlan;
import org.banyan.sim.LaunchSimulation;

/**
 * {@code banyan sim launch}: a launch of N hosts simulated with the real protocol cores.
 *
 * <pre>
 * banyan sim launch --hosts N [--spawn-degree K | --launch star | --tree SPEC] [--routing SPEC]
 *                   [--ranks-per-host R] [--seed S --faults F] [--spawn-ms MS] [--start-ms MS]
 *                   [--latency-us US] [--spawn-concurrency C] [--shared-cpus N] [--gbits G]
 *                   [--spawn-latency-ms MS] [--daemon-spawn-ms MS] [--rank-start-ms MS] [--interleave M]
 *                   [--dial-ms MS]
 *                   [--modex full|lazy [--modex-bytes B] [--modex-gets neighbours|all]]
 * </pre>
 */
final class SimCommand {
    private SimCommand() {}

    /** A duration in milliseconds (fractions allowed, not negative), in microseconds. */
    private static TopologySpec topologySpec(String text) throws UsageException {
        try {
            return TopologySpec.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("'" + text + "': " + e.getMessage());
        }
    }

    private static long millis(String v, String option) throws UsageException {
        double ms;
        try {
            ms = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "' is not a number of milliseconds");
        }
        if (!(ms >= 0) || Double.isInfinite(ms)) {
            throw new UsageException(option + " '" + v + "' is not a number of milliseconds");
        }
        return Math.round(ms * 1000);
    }

    static final String LAUNCH_HELP = """
            Usage: banyan sim launch --hosts N [options]

            Simulates a whole banyan run launch (one daemon and --ranks-per-host ranks of
            /bin/true per host) with the real head and daemon cores under a virtual clock, and
            prints its phases' times and loads (docs/simulator.md).

              --hosts N               simulated hosts (required)
              --ranks-per-host N      ranks per host (default 1)
              --spawn-degree K        children per daemon in the launch tree (default 32);
                                      0 spawns along the --routing tree
              --launch tree|star      star: the head starts every daemon
              --tree SPEC             the launch tree (radix:K, binomial, direct)
              --routing SPEC          the routing overlay (default radix:32)
              --modex full|lazy       ranks run a PMI-1 wire-up of that kind
              --modex-bytes N         bytes per rank's value (at most 1024)
              --modex-gets neighbours|all   which values each rank gets
              --seed S --faults F     draw up to F faults (crashes, spawn failures, slow hosts,
                                      broken and slow links) from seed S
              cost model (defaults from vcluster, docs/simulator.md):
              --spawn-ms MS --spawn-concurrency N --start-ms MS --latency-us US --gbits G
              --rank-start-ms MS --spawn-latency-ms MS --daemon-spawn-ms MS --dial-ms MS
              --shared-cpus N --interleave M|all
            """;

    /** A whole number, or one line saying what is wrong with it. */
    private static long whole(String v, String option) throws UsageException {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "' is not a whole number");
        }
    }

    static int run(List<String> args) throws UsageException {
        if (args.size() >= 2 && args.getFirst().equals("launch") && (args.contains("--help") || args.contains("-h"))) {
            System.out.print(LAUNCH_HELP);
            return 0;
        }
        if (!args.isEmpty() && args.getFirst().equals("pilot")) {
            return PilotSimCommand.run(args.subList(1, args.size()));
        }
        if (!args.isEmpty() && args.getFirst().equals("lublin")) {
            return LublinCommand.run(args.subList(1, args.size()), java.nio.file.Path.of("").toAbsolutePath());
        }
        if (!args.isEmpty() && args.getFirst().equals("workload")) {
            return WorkloadCommand.run(args.subList(1, args.size()), java.nio.file.Path.of("").toAbsolutePath());
        }
        if (args.isEmpty() || !args.getFirst().equals("launch")) {
            throw new UsageException("usage: banyan sim launch --hosts N [options] (see docs/simulator.md), "
                    + "banyan sim workload [options] (docs/malleability.md), banyan sim pilot --hosts N --tasks M, or banyan sim lublin [options]");
        }
        int hosts = 0;
        int ranksPerHost = 1;
        String tree = "radix:32";
        String routing = null;
        boolean star = false;
        boolean followRouting = false;
        // The three ways to shape the launch tree, as given: more than one was settled by their order.
        java.util.Set<String> shapes = new java.util.LinkedHashSet<>();
        java.util.Set<String> given = new java.util.HashSet<>();
        org.banyan.core.job.Modex modex = null;
        int modexBytes = 1024;
        org.banyan.sim.ModexWorkload.Gets gets = org.banyan.sim.ModexWorkload.Gets.NEIGHBOURS;
        long seed = 0;
        int faults = 0;
        CostModel c = CostModel.SSH;
        long spawn = c.spawnMicros();
        long start = c.daemonStartMicros();
        long latency = c.latencyMicros();
        int concurrency = c.spawnConcurrency();
        int sharedCpus = 0;
        long bytesPerMicro = c.bytesPerMicro();
        long spawnLatency = c.spawnLatencyMicros();
        long daemonSpawnExtra = c.daemonSpawnExtraMicros();
        long rankStart = c.rankStartMicros();
        int interleave = c.interleave();
        long dial = c.dialMicros();
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new UsageException("option " + a + " needs a value");
            }
            String v = args.get(++i);
            given.add(a);
            switch (a) {
                case "--hosts" -> hosts = HostListParser.positive(v, "--hosts");
                case "--ranks-per-host" -> ranksPerHost = HostListParser.positive(v, "--ranks-per-host");
                case "--spawn-degree" -> {
                    shapes.add(a);
                    followRouting = v.equals("0");
                    tree = followRouting ? tree : "radix:" + HostListParser.positive(v, "--spawn-degree");
                }
                case "--launch" -> {
                    if (!v.equals("star") && !v.equals("tree")) {
                        throw new UsageException("--launch '" + v + "' is not a launch shape (valid: tree, star)");
                    }
                    star = v.equals("star");
                    tree = star ? "direct" : tree;
                    if (star) {
                        shapes.add("--launch star");
                    } else {
                        shapes.remove("--launch star");
                    }
                }
                case "--tree" -> {
                    shapes.add(a);
                    tree = v;
                }
                case "--routing" -> routing = v;
                case "--modex" -> {
                    try {
                        modex = org.banyan.core.job.Modex.parse(v);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--modex: " + e.getMessage());
                    }
                }
                case "--modex-bytes" -> modexBytes = HostListParser.positive(v, "--modex-bytes");
                case "--modex-gets" -> gets = switch (v) {
                    case "neighbours", "neighbors" -> org.banyan.sim.ModexWorkload.Gets.NEIGHBOURS;
                    case "all" -> org.banyan.sim.ModexWorkload.Gets.ALL;
                    default -> throw new UsageException("--modex-gets '" + v + "' (valid: neighbours, all)");
                };
                case "--seed" -> seed = whole(v, a);
                case "--faults" -> faults = (int) Math.min(Integer.MAX_VALUE, Math.max(0, whole(v, a)));
                case "--spawn-ms" -> spawn = millis(v, a);
                case "--start-ms" -> start = millis(v, a);
                case "--latency-us" -> latency = Math.max(0, whole(v, a));
                case "--spawn-concurrency" -> concurrency = HostListParser.positive(v, "--spawn-concurrency");
                case "--shared-cpus" -> sharedCpus = (int) Math.min(Integer.MAX_VALUE, Math.max(0, whole(v, a)));
                case "--gbits" -> {
                    double gbits;
                    try {
                        gbits = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--gbits '" + v + "' is not a number of gigabits per second");
                    }
                    if (!(gbits >= 0) || Double.isInfinite(gbits)) {
                        throw new UsageException("--gbits '" + v + "' is not a number of gigabits per second");
                    }
                    bytesPerMicro = Math.round(gbits * 1000 / 8);
                }
                case "--spawn-latency-ms" -> spawnLatency = millis(v, a);
                case "--daemon-spawn-ms" -> daemonSpawnExtra = millis(v, a);
                case "--rank-start-ms" -> rankStart = millis(v, a);
                case "--dial-ms" -> dial = millis(v, a);
                case "--interleave" -> interleave = v.equals("all") ? 0 : HostListParser.positive(v, "--interleave");
                default -> throw new UsageException("unknown option '" + a + "' for banyan sim launch");
            }
        }
        if (hosts == 0) {
            throw new UsageException("banyan sim launch needs --hosts N");
        }
        if (shapes.size() > 1) {
            throw new UsageException(String.join(" and ", shapes) + " both shape the launch tree: give one");
        }
        // options that mean nothing without another were dropped without a word
        if (given.contains("--seed") && !given.contains("--faults")) {
            throw new UsageException("--seed draws the faults of --faults F: give --faults, or drop --seed");
        }
        if (modex == null && (given.contains("--modex-bytes") || given.contains("--modex-gets"))) {
            throw new UsageException((given.contains("--modex-bytes") ? "--modex-bytes" : "--modex-gets")
                    + " describes the ranks' wire-up: give --modex full|lazy");
        }
        if (given.contains("--interleave") && !given.contains("--shared-cpus")) {
            throw new UsageException("--interleave says how CPU-heavy steps share --shared-cpus N: give --shared-cpus");
        }
        if (routing == null) {
            routing = star ? "direct" : "radix:32";
        }
        if (followRouting) {
            tree = routing;
        }
        TopologySpec treeSpec = topologySpec(tree);
        TopologySpec routingSpec = topologySpec(routing);
        if (modexBytes > 1024) {
            throw new UsageException("--modex-bytes " + modexBytes + ": at most 1024 (PMI-1's vallen_max)");
        }
        CostModel costs = new CostModel(spawn, concurrency, start, latency, c.messageCpuMicros(), rankStart,
                c.rankRunMicros(), sharedCpus, bytesPerMicro, spawnLatency, daemonSpawnExtra, interleave, dial);
        List<Fault> plan = faults > 0 ? FaultPlan.random(seed, hosts, faults, 3_000_000) : List.of();
        long t0 = System.nanoTime();
        LaunchSimulation sim = new LaunchSimulation(hosts, ranksPerHost, treeSpec, routingSpec, costs, plan);
        if (modex != null) {
            sim.withModex(new org.banyan.sim.ModexWorkload(modex, modexBytes, gets));
        }
        LaunchSimulation.Result r = sim.run(3_600_000_000L);
        for (Map.Entry<String, Object> e : sim.describe(r).entrySet()) {
            System.out.printf("%-42s %s%n", e.getKey(), e.getValue());
        }
        if (!plan.isEmpty()) {
            System.out.printf("%-42s %s%n", "faults (seed " + seed + ")", plan);
        }
        for (String line : r.reports()) {
            System.out.printf("%-42s %s%n", "report", line);
        }
        if (r.modex() != null) {
            LaunchSimulation.Modex m = r.modex();
            System.out.printf("%-42s %s, %d B values, gets of %s%n", "modex", modex.name().toLowerCase(java.util.Locale.ROOT),
                    modexBytes, gets.name().toLowerCase(java.util.Locale.ROOT));
            System.out.printf("%-42s %.3f s%n", "fence (last rank in to last out)", m.fenceMicros() / 1e6);
            System.out.printf("%-42s %.3f s%n", "modex (last rank in to last get answered)", m.modexMicros() / 1e6);
            System.out.printf("%-42s %d (%d not found)%n", "gets", m.getsDone(), m.getsFailed());
            System.out.printf("%-42s %.1f / %d%n", "fence+fetch bytes per daemon mean / max", m.bytesPerDaemonMean(),
                    m.bytesPerDaemonMax());
            System.out.printf("%-42s %d%n", "fence+fetch bytes at the head", m.bytesAtHead());
        }
        System.out.printf("%-42s %d ranks, %d daemons%n", "left running after the job", r.ranksLeftRunning(),
                r.daemonsLeftRunning());
        System.out.printf("%-42s %.1f s%n", "wall time of the simulation", (System.nanoTime() - t0) / 1e9);
        return r.finished() && r.ranksLeftRunning() == 0 && r.daemonsLeftRunning() == 0 ? 0 : 1;
    }
}
