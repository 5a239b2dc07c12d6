package org.banyan.cli;

import java.util.List;
import java.util.Locale;
import org.banyan.sim.PilotSimulation;

/** {@code banyan sim pilot}: a many-task workload on a pilot, the DVM's task agent under the simulator. */
final class PilotSimCommand {
    static final String HELP = """
            Usage: banyan sim pilot --hosts N --tasks M [options]

            Runs M tasks on a pilot of N hosts with the DVM's real task agent and scheduler under a
            virtual clock (each host's daemon starting one process at a time, messages a LAN
            latency each way, the head a fixed cost per task), checking after every event that
            no core is given out twice and that every task's states come in order, once final
            (docs/pilot.md, "sim pilot").

              --hosts N               hosts (required)
              --tasks M               one-core tasks (required)
              --cores-per-host C      cores of each host (default 32)
              --task-seconds S        each task's run (default 0.0004, a /bin/true)
              --spread S              plus a uniform 0..S seconds, drawn per task (default 0)
              --seed S                the draws' seed (default 1)
              --lost-hosts F          F hosts lost at random times (their tasks failed, or run
                                      again elsewhere when restartable)
              --client-lost           the client goes away mid-way: its unfinished tasks canceled
              --restartable R         share of restartable tasks (default 0)
              --scheduler constant-time|general   the agent's scheduler (default constant-time)
              --spawns-per-second X   a daemon's process starts per second (default %s)
              --latency-us X          head to daemon, each way (default %s)
              --head-us X             the head's cost per task (default %s)
            """.formatted(PilotSimulation.SPAWNS_PER_SECOND, PilotSimulation.LATENCY_SECONDS * 1e6,
            PilotSimulation.HEAD_SECONDS_PER_TASK * 1e6);

    private PilotSimCommand() {}

    static int run(List<String> args) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        int hosts = 0;
        int tasks = 0;
        int cores = 32;
        double seconds = PilotSimulation.TRUE_SECONDS;
        double spread = 0;
        long seed = 1;
        int lostHosts = 0;
        boolean clientLost = false;
        double restartable = 0;
        String scheduler = "constant-time";
        double spawns = PilotSimulation.SPAWNS_PER_SECOND;
        double latency = PilotSimulation.LATENCY_SECONDS;
        double head = PilotSimulation.HEAD_SECONDS_PER_TASK;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--client-lost")) {
                clientLost = true;
                continue;
            }
            if (i + 1 >= args.size()) {
                throw new UsageException(a.startsWith("--") ? "option " + a + " needs a value" : "unexpected '" + a + "'");
            }
            String v = args.get(++i);
            switch (a) {
                case "--hosts" -> hosts = HostListParser.positive(v, "--hosts");
                case "--tasks" -> tasks = HostListParser.positive(v, "--tasks");
                case "--cores-per-host" -> cores = HostListParser.positive(v, "--cores-per-host");
                case "--task-seconds" -> seconds = notNegative(v, "--task-seconds");
                case "--spread" -> spread = notNegative(v, "--spread");
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--seed '" + v + "' is not a whole number");
                    }
                }
                case "--lost-hosts" -> lostHosts = (int) notNegative(v, "--lost-hosts");
                case "--restartable" -> restartable = notNegative(v, "--restartable");
                case "--scheduler" -> {
                    if (!v.equals("constant-time") && !v.equals("general")) {
                        throw new UsageException("--scheduler '" + v + "' is constant-time or general");
                    }
                    scheduler = v;
                }
                case "--spawns-per-second" -> spawns = WorkloadCommand.positive(v, "--spawns-per-second");
                case "--latency-us" -> latency = notNegative(v, "--latency-us") / 1e6;
                case "--head-us" -> head = notNegative(v, "--head-us") / 1e6;
                default -> throw new UsageException("unknown option '" + a + "' (see banyan sim pilot --help)");
            }
        }
        if (hosts == 0 || tasks == 0) {
            throw new UsageException("sim pilot needs --hosts N and --tasks M");
        }
        if (lostHosts >= hosts) {
            throw new UsageException("--lost-hosts " + lostHosts + " leaves no host of " + hosts);
        }
        if (restartable > 1) {
            throw new UsageException("--restartable is a share, 0 to 1");
        }
        PilotSimulation.Result r = new PilotSimulation(new PilotSimulation.Setup(hosts, cores, tasks, seconds, spread, seed,
                lostHosts, clientLost, restartable, scheduler, spawns, latency, head)).run();
        System.out.printf(Locale.ROOT, "%,d tasks on %,d hosts of %d cores (%s scheduler)%n", tasks, hosts, cores, scheduler);
        System.out.printf(Locale.ROOT, "ended            %,d done, %,d failed, %,d canceled%n", r.done(), r.failed(), r.canceled());
        System.out.printf(Locale.ROOT, "first task       %.4f s (simulated)%n", r.firstTaskSeconds());
        System.out.printf(Locale.ROOT, "last end         %.3f s (simulated)%n", r.lastEndSeconds());
        System.out.printf(Locale.ROOT, "throughput       %,.0f tasks/s done%n", r.tasksPerSecond());
        System.out.printf(Locale.ROOT, "checked          %,d events, invariants after each: no core given twice, states in order, one end each%n",
                r.checks());
        System.out.printf(Locale.ROOT, "wall time        %.1f s%n", r.wallSeconds());
        return 0;
    }

    private static double notNegative(String v, String option) throws UsageException {
        try {
            double d = Double.parseDouble(v);
            if (d >= 0 && Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new UsageException(option + " '" + v + "' is not a number of at least 0");
    }
}
