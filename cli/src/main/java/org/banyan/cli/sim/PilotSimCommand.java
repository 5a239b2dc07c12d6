package org.banyan.cli.sim;

import java.util.List;
import java.util.Locale;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.sim.PilotSimulation;

/** {@code banyan sim pilot}: a many-task workload on a pilot, the DVM's core under the simulator. */
public final class PilotSimCommand {
    /** What the options set. */
    static final class Arguments {
        int hosts;
        int tasks;
        int cores = 32;
        double seconds = PilotSimulation.TRUE_SECONDS;
        double spread;
        long seed = 1;
        int lostHosts;
        boolean clientLost;
        double restartable;
        double spawns = PilotSimulation.SPAWNS_PER_SECOND;
        double latency = PilotSimulation.LATENCY_SECONDS;
        double head = PilotSimulation.HEAD_SECONDS_PER_TASK;
        String timeline;
    }

    public static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Workload", List.of("--hosts"), List.of(), "N", "hosts (required)", (a, v) -> a.hosts = HostListParser.positive(v, "--hosts"))
            .value("Workload", List.of("--tasks"), List.of(), "M", "one-core tasks (required)", (a, v) -> a.tasks = HostListParser.positive(v, "--tasks"))
            .value("Workload", List.of("--cores-per-host"), List.of(), "C", "cores of each host (default 32)",
                    (a, v) -> a.cores = HostListParser.positive(v, "--cores-per-host"))
            .value("Workload", List.of("--task-seconds"), List.of(), "S", "each task's run (default 0.0004, a /bin/true)",
                    (a, v) -> a.seconds = notNegative(v, "--task-seconds"))
            .value("Workload", List.of("--spread"), List.of(), "S", "plus a uniform 0..S seconds, drawn per task (default 0)",
                    (a, v) -> a.spread = notNegative(v, "--spread"))
            .value("Workload", List.of("--seed"), List.of(), "S", "the draws' seed (default 1)", (a, v) -> {
                try {
                    a.seed = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new UsageException("--seed '" + v + "' is not a whole number");
                }
            })
            .value("Faults", List.of("--lost-hosts"), List.of(), "F", "F hosts lost at random times (their tasks failed, or run\n"
                    + "again elsewhere when restartable)", (a, v) -> a.lostHosts = (int) notNegative(v, "--lost-hosts"))
            .flag("Faults", List.of("--client-lost"), List.of(), "the client goes away mid-way: its unfinished tasks canceled",
                    (a, v) -> a.clientLost = true)
            .value("Faults", List.of("--restartable"), List.of(), "R", "share of restartable tasks, 0 to 1 (default 0)",
                    (a, v) -> a.restartable = notNegative(v, "--restartable"))
            .value("Output", List.of("--timeline"), List.of(), "DIR", """
                    write timeline_pilot.csv there (tasks running, done, and failed or
                    canceled over simulated time; banyan dashboard --timeline DIR shows it)""",
                    (a, v) -> a.timeline = v)
            .value("Costs", List.of("--spawns-per-second"), List.of(), "X",
                    "a daemon's process starts per second (default " + PilotSimulation.SPAWNS_PER_SECOND + ")",
                    (a, v) -> a.spawns = WorkloadCommand.positive(v, "--spawns-per-second"))
            .value("Costs", List.of("--latency-us"), List.of(), "X",
                    "head to daemon, each way (default " + PilotSimulation.LATENCY_SECONDS * 1e6 + ")",
                    (a, v) -> a.latency = notNegative(v, "--latency-us") / 1e6)
            .value("Costs", List.of("--head-us"), List.of(), "X",
                    "the head's cost per task (default " + PilotSimulation.HEAD_SECONDS_PER_TASK * 1e6 + ")",
                    (a, v) -> a.head = notNegative(v, "--head-us") / 1e6);

    public static final String HELP = """
            Usage: banyan sim pilot --hosts N --tasks M [options]

            Runs M tasks on a pilot of N hosts with the DVM's own core (its client handling, task
            agent, scheduler and head) under a virtual clock (each host's daemon keeping tasks
            queued behind running ones and starting one process at a time, messages a LAN
            latency each way, the head a fixed cost per task), checking after every event that
            no core is given out twice and that every task's states come in order, once final
            (docs/pilot.md, "sim pilot").

            """ + OPTIONS.help();

    private PilotSimCommand() {}

    static int run(List<String> args) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        Arguments a = new Arguments();
        OptionParser.parse(OPTIONS, a, args, "banyan sim pilot --help");
        if (a.hosts == 0 || a.tasks == 0) {
            throw new UsageException("sim pilot needs --hosts N and --tasks M");
        }
        if (a.lostHosts >= a.hosts) {
            throw new UsageException("--lost-hosts " + a.lostHosts + " leaves no host of " + a.hosts);
        }
        if (a.restartable > 1) {
            throw new UsageException("--restartable is a share, 0 to 1");
        }
        PilotSimulation.Result r = new PilotSimulation(new PilotSimulation.Setup(a.hosts, a.cores, a.tasks, a.seconds, a.spread,
                a.seed, a.lostHosts, a.clientLost, a.restartable, a.spawns, a.latency, a.head)).run();
        System.out.printf(Locale.ROOT, "%,d tasks on %,d hosts of %d cores (the DVM core: its agent, scheduler and head)%n",
                a.tasks, a.hosts, a.cores);
        System.out.printf(Locale.ROOT, "ended            %,d done, %,d failed, %,d canceled%n", r.done(), r.failed(), r.canceled());
        System.out.printf(Locale.ROOT, "first task       %.4f s (simulated)%n", r.firstTaskSeconds());
        System.out.printf(Locale.ROOT, "last end         %.3f s (simulated)%n", r.lastEndSeconds());
        System.out.printf(Locale.ROOT, "throughput       %,.0f tasks/s done%n", r.tasksPerSecond());
        System.out.printf(Locale.ROOT, "checked          %,d events, invariants after each: no core given twice, states in order, one end each%n",
                r.checks());
        System.out.printf(Locale.ROOT, "wall time        %.1f s%n", r.wallSeconds());
        if (a.timeline != null) {
            java.nio.file.Path dir = java.nio.file.Path.of(a.timeline).toAbsolutePath();
            StringBuilder csv = new StringBuilder("time_s,running_tasks,done_tasks,failed_or_canceled_tasks\n");
            for (double[] row : r.timeline()) {
                csv.append(String.format(Locale.ROOT, "%.4f,%d,%d,%d%n", row[0], (long) row[1], (long) row[2], (long) row[3]));
            }
            try {
                java.nio.file.Files.createDirectories(dir);
                java.nio.file.Files.writeString(dir.resolve("timeline_pilot.csv"), csv);
            } catch (java.io.IOException e) {
                System.err.println("banyan sim: cannot write " + dir.resolve("timeline_pilot.csv") + ": " + e.getMessage());
                return 1;
            }
            System.out.println("timeline         " + dir.resolve("timeline_pilot.csv"));
        }
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
