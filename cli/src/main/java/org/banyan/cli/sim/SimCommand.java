package org.banyan.cli.sim;

import java.util.List;
import java.util.Map;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.core.tree.TopologySpec;
import org.banyan.sim.CostModel;
import org.banyan.sim.Fault;
import org.banyan.sim.FaultPlan;
import org.banyan.sim.LaunchResult;
import org.banyan.sim.LaunchSimulation;
import org.banyan.sim.ModexResult;

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
public final class SimCommand {
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

    /** What {@code sim launch}'s options set; the cost model's defaults are vcluster's. */
    static final class LaunchArguments {
        final CostModel c = CostModel.SSH;
        int hosts;
        int ranksPerHost = 1;
        String tree = "radix:32";
        String routing;
        boolean star;
        boolean followRouting;
        /** The three ways to shape the launch tree, as given: more than one was settled by their order. */
        final java.util.Set<String> shapes = new java.util.LinkedHashSet<>();
        final java.util.Set<String> given = new java.util.HashSet<>();
        org.banyan.core.job.Modex modex;
        int modexBytes = 1024;
        org.banyan.sim.ModexWorkload.Gets gets = org.banyan.sim.ModexWorkload.Gets.NEIGHBOURS;
        long seed;
        int faults;
        long spawn = c.spawnMicros();
        long start = c.daemonStartMicros();
        long latency = c.latencyMicros();
        int concurrency = c.spawnConcurrency();
        int sharedCpus;
        long bytesPerMicro = c.bytesPerMicro();
        long spawnLatency = c.spawnLatencyMicros();
        long daemonSpawnExtra = c.daemonSpawnExtraMicros();
        long rankStart = c.rankStartMicros();
        int interleave = c.interleave();
        long dial = c.dialMicros();
    }

    private static final String COST = "Cost model (defaults from vcluster, docs/simulator.md)";

    public static final OptionTable<LaunchArguments> LAUNCH_OPTIONS = new OptionTable<LaunchArguments>()
            .value("Launch", List.of("--hosts"), List.of(), "N", "simulated hosts (required)",
                    (a, v) -> a.hosts = HostListParser.positive(v, "--hosts"))
            .value("Launch", List.of("--ranks-per-host"), List.of(), "N", "ranks per host (default 1)",
                    (a, v) -> a.ranksPerHost = HostListParser.positive(v, "--ranks-per-host"))
            .value("Launch", List.of("--spawn-degree"), List.of(), "K", """
                    children per daemon in the launch tree (default 32); 0 spawns along
                    the --routing tree""", (a, v) -> {
                        a.shapes.add("--spawn-degree");
                        a.followRouting = v.equals("0");
                        a.tree = a.followRouting ? a.tree : "radix:" + HostListParser.positive(v, "--spawn-degree");
                    })
            .value("Launch", List.of("--launch"), List.of(), "tree|star", "star: the head starts every daemon", (a, v) -> {
                if (!v.equals("star") && !v.equals("tree")) {
                    throw new UsageException("--launch '" + v + "' is not a launch shape (valid: tree, star)");
                }
                a.star = v.equals("star");
                a.tree = a.star ? "direct" : a.tree;
                if (a.star) {
                    a.shapes.add("--launch star");
                } else {
                    a.shapes.remove("--launch star");
                }
            })
            .value("Launch", List.of("--tree"), List.of(), "SPEC", "the launch tree (radix:K, binomial, direct)", (a, v) -> {
                a.shapes.add("--tree");
                a.tree = v;
            })
            .value("Launch", List.of("--routing"), List.of(), "SPEC", "the routing overlay (default radix:32)", (a, v) -> a.routing = v)
            .value("Wire-up", List.of("--modex"), List.of(), "full|lazy", "ranks run a PMI-1 wire-up of that kind", (a, v) -> {
                try {
                    a.modex = org.banyan.core.job.Modex.parse(v);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--modex: " + e.getMessage());
                }
            })
            .value("Wire-up", List.of("--modex-bytes"), List.of(), "N", "bytes per rank's value (at most 1024)", (a, v) -> {
                a.given.add("--modex-bytes");
                a.modexBytes = HostListParser.positive(v, "--modex-bytes");
            })
            .value("Wire-up", List.of("--modex-gets"), List.of(), "neighbours|all", "which values each rank gets", (a, v) -> {
                a.given.add("--modex-gets");
                a.gets = switch (v) {
                    case "neighbours", "neighbors" -> org.banyan.sim.ModexWorkload.Gets.NEIGHBOURS;
                    case "all" -> org.banyan.sim.ModexWorkload.Gets.ALL;
                    default -> throw new UsageException("--modex-gets '" + v + "' (valid: neighbours, all)");
                };
            })
            .value("Faults", List.of("--seed"), List.of(), "S", "the faults' seed (with --faults)", (a, v) -> {
                a.given.add("--seed");
                a.seed = whole(v, "--seed");
            })
            .value("Faults", List.of("--faults"), List.of(), "F", """
                    draw up to F faults (crashes, spawn failures, slow hosts, broken and
                    slow links) from --seed""", (a, v) -> {
                        a.given.add("--faults");
                        a.faults = (int) Math.min(Integer.MAX_VALUE, Math.max(0, whole(v, "--faults")));
                    })
            .value(COST, List.of("--spawn-ms"), List.of(), "MS", "a vertex starting one child (the remote shell's share at the spawner)", (a, v) -> a.spawn = millis(v, "--spawn-ms"))
            .value(COST, List.of("--spawn-concurrency"), List.of(), "N", "children one vertex starts at the same time",
                    (a, v) -> a.concurrency = HostListParser.positive(v, "--spawn-concurrency"))
            .value(COST, List.of("--start-ms"), List.of(), "MS", "from a daemon's process start to its hello (JVM, connect)",
                    (a, v) -> a.start = millis(v, "--start-ms"))
            .value(COST, List.of("--latency-us"), List.of(), "US", "one message across the network",
                    (a, v) -> a.latency = Math.max(0, whole(v, "--latency-us")))
            .value(COST, List.of("--gbits"), List.of(), "G", "each host's network bandwidth, gigabits per second (0: size left out)", (a, v) -> {
                double gbits;
                try {
                    gbits = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new UsageException("--gbits '" + v + "' is not a number of gigabits per second");
                }
                if (!(gbits >= 0) || Double.isInfinite(gbits)) {
                    throw new UsageException("--gbits '" + v + "' is not a number of gigabits per second");
                }
                a.bytesPerMicro = Math.round(gbits * 1000 / 8);
            })
            .value(COST, List.of("--rank-start-ms"), List.of(), "MS", "a daemon starting one local rank", (a, v) -> a.rankStart = millis(v, "--rank-start-ms"))
            .value(COST, List.of("--spawn-latency-ms"), List.of(), "MS", "wall time of one remote-shell start that no modelled CPU pays",
                    (a, v) -> a.spawnLatency = millis(v, "--spawn-latency-ms"))
            .value(COST, List.of("--daemon-spawn-ms"), List.of(), "MS", "CPU a daemon pays per child beyond what the head pays",
                    (a, v) -> a.daemonSpawnExtra = millis(v, "--daemon-spawn-ms"))
            .value(COST, List.of("--dial-ms"), List.of(), "MS", "CPU a daemon spends dialing one routing link that is not a spawn link", (a, v) -> a.dial = millis(v, "--dial-ms"))
            .value(COST, List.of("--shared-cpus"), List.of(), "N", "0: every host has CPUs of its own; N: all hosts share N CPUs (vcluster)", (a, v) -> {
                a.given.add("--shared-cpus");
                a.sharedCpus = (int) Math.min(Integer.MAX_VALUE, Math.max(0, whole(v, "--shared-cpus")));
            })
            .value(COST, List.of("--interleave"), List.of(), "M|all", "with --shared-cpus: how many CPU-heavy steps share them at once (all: every one)", (a, v) -> {
                a.given.add("--interleave");
                a.interleave = v.equals("all") ? 0 : HostListParser.positive(v, "--interleave");
            });

    public static final String LAUNCH_HELP = """
            Usage: banyan sim launch --hosts N [options]

            Simulates a whole banyan run launch (one daemon and --ranks-per-host ranks of
            /bin/true per host) with the real head and daemon cores under a virtual clock, and
            prints its phases' times and loads (docs/simulator.md).

            """ + LAUNCH_OPTIONS.help();

    /** A whole number, or one line saying what is wrong with it. */
    private static long whole(String v, String option) throws UsageException {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "' is not a whole number");
        }
    }

    /**
     * Runs a simulation; one too large for the heap ends on one line, as bad input does: {@code
     * --hosts 1000000000} or {@code --tasks 1000000000} ended on an OutOfMemoryError's stack trace.
     */
    public static int run(List<String> args) throws UsageException {
        try {
            return dispatch(args);
        } catch (OutOfMemoryError e) { // its structures are unreachable once it is thrown out of them
            throw new UsageException("out of memory: a simulation this large does not fit in this command's "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB of heap; give fewer hosts, tasks or jobs");
        }
    }

    private static int dispatch(List<String> args) throws UsageException {
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
        LaunchArguments p = new LaunchArguments();
        OptionParser.parse(LAUNCH_OPTIONS, p, args.subList(1, args.size()), "banyan sim launch --help");
        CostModel c = p.c;
        int hosts = p.hosts;
        int ranksPerHost = p.ranksPerHost;
        String tree = p.tree;
        String routing = p.routing;
        boolean star = p.star;
        boolean followRouting = p.followRouting;
        java.util.Set<String> shapes = p.shapes;
        java.util.Set<String> given = p.given;
        org.banyan.core.job.Modex modex = p.modex;
        int modexBytes = p.modexBytes;
        org.banyan.sim.ModexWorkload.Gets gets = p.gets;
        long seed = p.seed;
        int faults = p.faults;
        long spawn = p.spawn;
        long start = p.start;
        long latency = p.latency;
        int concurrency = p.concurrency;
        int sharedCpus = p.sharedCpus;
        long bytesPerMicro = p.bytesPerMicro;
        long spawnLatency = p.spawnLatency;
        long daemonSpawnExtra = p.daemonSpawnExtra;
        long rankStart = p.rankStart;
        int interleave = p.interleave;
        long dial = p.dial;
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
        LaunchResult r = sim.run(3_600_000_000L);
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
            ModexResult m = r.modex();
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
