package org.banyan.cli;

import java.util.List;
import java.util.Map;
import org.banyan.sim.CostModel;
import org.banyan.sim.Fault;
import org.banyan.sim.FaultPlan;
import org.banyan.sim.LaunchSimulation;

/**
 * {@code banyan sim launch}: a launch of N hosts simulated with the real protocol cores.
 *
 * <pre>
 * banyan sim launch --hosts N [--spawn-degree K | --launch star | --tree SPEC] [--ranks-per-host R]
 *                   [--seed S --faults F] [--spawn-ms MS] [--start-ms MS] [--latency-us US]
 *                   [--spawn-concurrency C] [--shared-cpus N]
 * </pre>
 */
final class SimCommand {
    private SimCommand() {}

    static int run(List<String> args) throws UsageException {
        if (args.isEmpty() || !args.getFirst().equals("launch")) {
            throw new UsageException("usage: banyan sim launch --hosts N [options] (see docs/simulator.md)");
        }
        int hosts = 0;
        int ranksPerHost = 1;
        String tree = "radix:32";
        long seed = 0;
        int faults = 0;
        CostModel c = CostModel.SSH;
        long spawn = c.spawnMicros();
        long start = c.daemonStartMicros();
        long latency = c.latencyMicros();
        int concurrency = c.spawnConcurrency();
        int sharedCpus = 0;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new UsageException("option " + a + " needs a value");
            }
            String v = args.get(++i);
            switch (a) {
                case "--hosts" -> hosts = HostListParser.positive(v, "--hosts");
                case "--ranks-per-host" -> ranksPerHost = HostListParser.positive(v, "--ranks-per-host");
                case "--spawn-degree" -> tree = "radix:" + HostListParser.positive(v, "--spawn-degree");
                case "--launch" -> {
                    if (!v.equals("star") && !v.equals("tree")) {
                        throw new UsageException("--launch '" + v + "' is not a launch shape (valid: tree, star)");
                    }
                    tree = v.equals("star") ? "direct" : tree;
                }
                case "--tree", "--routing" -> tree = v;
                case "--seed" -> seed = Long.parseLong(v);
                case "--faults" -> faults = Integer.parseInt(v);
                case "--spawn-ms" -> spawn = Math.round(Double.parseDouble(v) * 1000);
                case "--start-ms" -> start = Math.round(Double.parseDouble(v) * 1000);
                case "--latency-us" -> latency = Long.parseLong(v);
                case "--spawn-concurrency" -> concurrency = HostListParser.positive(v, "--spawn-concurrency");
                case "--shared-cpus" -> sharedCpus = Integer.parseInt(v);
                default -> throw new UsageException("unknown option '" + a + "' for banyan sim launch");
            }
        }
        if (hosts == 0) {
            throw new UsageException("banyan sim launch needs --hosts N");
        }
        try {
            org.banyan.core.tree.Topology.parse(tree, 2);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--tree '" + tree + "': " + e.getMessage());
        }
        CostModel costs = new CostModel(spawn, concurrency, start, latency, c.messageCpuMicros(), c.rankStartMicros(),
                c.rankRunMicros(), sharedCpus);
        List<Fault> plan = faults > 0 ? FaultPlan.random(seed, hosts, faults, 3_000_000) : List.of();
        long t0 = System.nanoTime();
        LaunchSimulation sim = new LaunchSimulation(hosts, ranksPerHost, tree, costs, plan);
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
        System.out.printf("%-42s %d ranks, %d daemons%n", "left running after the job", r.ranksLeftRunning(),
                r.daemonsLeftRunning());
        System.out.printf("%-42s %.1f s%n", "wall time of the simulation", (System.nanoTime() - t0) / 1e9);
        return r.finished() && r.ranksLeftRunning() == 0 && r.daemonsLeftRunning() == 0 ? 0 : 1;
    }
}
