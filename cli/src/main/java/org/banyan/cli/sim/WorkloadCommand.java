package org.banyan.cli.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.banyan.cli.options.HostListParser;
import org.banyan.cli.options.InputFiles;
import org.banyan.cli.options.OptionParser;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.rm.workload.WorkloadJob;
import org.banyan.rm.workload.WorkloadSetup;
import org.banyan.rm.workload.WorkloadSimulation;
import org.banyan.rm.workload.Workloads;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/**
 * {@code banyan sim workload}: a workload of malleable jobs run by the real resource manager
 * under a virtual clock, with the fixed policy and the flexible one, side by side.
 */
public final class WorkloadCommand {
    /**
     * What a FlexibleSleep job of bench/workload-real spends outside its steps, measured there
     * (docs/malleability.md): from its start to its first step (the JVM ranks starting and
     * joining), and per resize.
     */
    static final double FLEXIBLE_SLEEP_START_SECONDS = 0.5;
    static final double FLEXIBLE_SLEEP_RESIZE_SECONDS = 0.2;

    /** What the options set, and which were given (some only mean something beside others). */
    static final class Arguments {
        final java.util.Set<String> given = new java.util.LinkedHashSet<>();
        int jobs = 50;
        int nodes = 64;
        long seed = 1;
        double arrival = 10;
        double inhibit;
        String swf;
        String flexibleSleep;
        double startSeconds = FLEXIBLE_SLEEP_START_SECONDS;
        double resizeSeconds = FLEXIBLE_SLEEP_RESIZE_SECONDS;
        String writeSwf;
        String policy = "both";
        List<Double> sweep;
        String model = "poisson";
        String preset;
        String setupFile;
        List<Integer> sizes;
        String plots;
        double load = 1;
        boolean json;
        String timeline;
    }

    /** An option's handler that also notes the option as given. */
    private static OptionTable.Handler<Arguments> noted(String name, OptionTable.Handler<Arguments> h) {
        return (a, v) -> {
            a.given.add(name);
            h.apply(a, v);
        };
    }

    public static final OptionTable<Arguments> OPTIONS = new OptionTable<Arguments>()
            .value("Workload", List.of("--jobs"), List.of(), "N", "jobs in the generated workload (default 50)",
                    noted("--jobs", (a, v) -> a.jobs = HostListParser.positive(v, "--jobs")))
            .value("Workload", List.of("--nodes"), List.of(), "N", "cluster nodes (default 64)",
                    noted("--nodes", (a, v) -> a.nodes = HostListParser.positive(v, "--nodes")))
            .value("Workload", List.of("--seed"), List.of(), "S", "the workload's seed (default 1)",
                    noted("--seed", (a, v) -> a.seed = number(v, "--seed").longValue()))
            .value("Workload", List.of("--arrival"), List.of(), "SECONDS", "mean time between arrivals, Poisson (default 10)",
                    noted("--arrival", (a, v) -> a.arrival = positive(v, "--arrival")))
            .value("Workload", List.of("--arrivals"), List.of(), "A,B,..", """
                    a sweep: the workload at each mean inter-arrival time, both
                    policies, one line each (where does flexibility stop helping?)""",
                    noted("--arrivals", (a, v) -> {
                        a.sweep = new ArrayList<>();
                        for (String x : v.split(",")) {
                            a.sweep.add(positive(x.strip(), "--arrivals"));
                        }
                    }))
            .value("Workload", List.of("--model"), List.of(), "M", """
                    poisson (default: the seed's mix at --arrival), or lublin: the
                    Lublin-Feitelson model's jobs (arrivals with the daily cycle,
                    sizes, run times) for --nodes nodes from --seed, each given one
                    of the seed's applications as --swf jobs are (banyan sim lublin
                    prints them)""",
                    noted("--model", (a, v) -> {
                        if (!List.of("poisson", "lublin").contains(v)) {
                            throw new UsageException("--model '" + v + "' is poisson or lublin");
                        }
                        a.model = v;
                    }))
            .value("Workload", List.of("--load"), List.of(), "F", "with --model lublin: arrivals F times as dense (default 1)",
                    noted("--load", (a, v) -> a.load = positive(v, "--load")))
            .value("Set-up", List.of("--preset"), List.of(), "NAME", """
                    the whole set-up (applications, mix, arrivals, nodes, jobs) as
                    banyan-defaults (the defaults below) or seed-table1 (the seed's
                    Table 1 and section 7 as written; docs/malleability.md);
                    --jobs, --nodes, --seed, --arrival given override it""",
                    noted("--preset", (a, v) -> {
                        if (WorkloadSetup.preset(v) == null) {
                            throw new UsageException("--preset '" + v + "' is one of " + String.join(", ", WorkloadSetup.PRESETS));
                        }
                        a.preset = v;
                    }))
            .value("Set-up", List.of("--setup"), List.of(), "FILE", """
                    the set-up from a JSON file (docs/malleability.md); --json prints
                    the one a run used as its first line""",
                    noted("--setup", (a, v) -> a.setupFile = v))
            .value("Study", List.of("--sizes"), List.of(), "N,N,...", """
                    the seed's Table 4 for the set-up: both policies at each number
                    of jobs (e.g. 50,100,200,400)""",
                    noted("--sizes", (a, v) -> {
                        a.sizes = new ArrayList<>();
                        for (String x : v.split(",", -1)) {
                            a.sizes.add(HostListParser.positive(x.strip(), "--sizes"));
                        }
                    }))
            .value("Study", List.of("--plots"), List.of(), "DIR", """
                    with --sizes: table4.md, figure4.png (makespan by size),
                    figure5.png (mean wait by size), figure6/ (the smallest's
                    allocated nodes, running and completed jobs over time)""",
                    noted("--plots", (a, v) -> a.plots = v))
            .value("Jobs from files", List.of("--swf"), List.of(), "FILE", "read the jobs from a Standard Workload Format log instead",
                    noted("--swf", (a, v) -> a.swf = v))
            .value("Jobs from files", List.of("--write-swf"), List.of(), "FILE", "write the workload in the Standard Workload Format",
                    noted("--write-swf", (a, v) -> a.writeSwf = v))
            .value("Jobs from files", List.of("--flexible-sleep"), List.of(), "FILE", """
                    the FlexibleSleep jobs bench/workload-real ran (its job list:
                    arrival, max, min, steps, work per step), to set the simulation
                    beside the real run; --nodes is then the real run's hosts""",
                    noted("--flexible-sleep", (a, v) -> a.flexibleSleep = v))
            .value("Jobs from files", List.of("--start-seconds"), List.of(), "S",
                    "a FlexibleSleep job's ranks starting (default " + FLEXIBLE_SLEEP_START_SECONDS + ", measured)",
                    noted("--start-seconds", (a, v) -> a.startSeconds = number(v, "--start-seconds").doubleValue()))
            .value("Jobs from files", List.of("--resize-seconds"), List.of(), "S",
                    "a FlexibleSleep resize (default " + FLEXIBLE_SLEEP_RESIZE_SECONDS + ", measured)",
                    noted("--resize-seconds", (a, v) -> a.resizeSeconds = number(v, "--resize-seconds").doubleValue()))
            .value("Run", List.of("--inhibit"), List.of(), "SECONDS", "DMR's checking inhibitor: a job checks at most this often (default 0)",
                    noted("--inhibit", (a, v) -> a.inhibit = number(v, "--inhibit").doubleValue()))
            .value("Run", List.of("--policy"), List.of(), "fixed|flexible|both", "the policies to run (default both)",
                    noted("--policy", (a, v) -> {
                        if (!List.of("fixed", "flexible", "both").contains(v)) {
                            throw new UsageException("--policy '" + v + "' is fixed, flexible or both");
                        }
                        a.policy = v;
                    }))
            .flag("Output", List.of("--json"), List.of(), "one JSON object per policy and line",
                    noted("--json", (a, v) -> a.json = true))
            .value("Output", List.of("--timeline"), List.of(), "DIR", """
                    timeline_POLICY.csv (allocated nodes, running and completed jobs
                    over time) and timelines.png (banyan dashboard --timeline DIR shows them)""",
                    noted("--timeline", (a, v) -> a.timeline = v));

    public static final String HELP = """
            Usage: banyan sim workload [--jobs N] [--nodes N] [--seed S] [--arrival SECONDS]
                                       [--arrivals A,B,...] [--swf FILE] [--write-swf FILE] [--inhibit SECONDS]
                                       [--policy fixed|flexible|both] [--json] [--timeline DIR]
                                       [--flexible-sleep FILE [--start-seconds S] [--resize-seconds S]]
                                       [--model poisson|lublin [--load F]]
                                       [--preset banyan-defaults|seed-table1 | --setup FILE]
                                       [--sizes N,N,... [--plots DIR]]

            Runs a workload through Banyan's resource manager (FCFS with EASY backfill, and for
            the flexible policy the seed's resize decisions at each iteration of each job) under
            a virtual clock, and prints per policy: the makespan (first arrival to last end),
            utilisation, and the mean waiting, execution and completion (wait + execution) time
            per job, the seed's Table 4 measure.

            """ + OPTIONS.help() + """

            Jobs are the seed's three applications in equal parts (cg, jacobi, nbody: sizes 1-2
            to 32 by factor 2), submitted at their maximum size; their speed-up models are
            Banyan's assumptions (docs/malleability.md).
            """;

    private WorkloadCommand() {}

    static int run(List<String> args, Path cwd) throws UsageException {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return 0;
        }
        Arguments p = new Arguments();
        OptionParser.parse(OPTIONS, p, args, "banyan sim workload --help");
        java.util.Set<String> given = p.given;
        int jobs = p.jobs;
        int nodes = p.nodes;
        long seed = p.seed;
        double arrival = p.arrival;
        double inhibit = p.inhibit;
        String swf = p.swf;
        String flexibleSleep = p.flexibleSleep;
        double startSeconds = p.startSeconds;
        double resizeSeconds = p.resizeSeconds;
        String writeSwf = p.writeSwf;
        String policy = p.policy;
        List<Double> sweep = p.sweep;
        String model = p.model;
        String preset = p.preset;
        String setupFile = p.setupFile;
        List<Integer> sizes = p.sizes;
        Path plots = p.plots == null ? null : cwd.resolve(p.plots);
        double load = p.load;
        boolean json = p.json;
        Path timeline = p.timeline == null ? null : cwd.resolve(p.timeline);
        if (inhibit < 0) {
            throw new UsageException("--inhibit must not be negative");
        }
        if (startSeconds < 0 || resizeSeconds < 0) {
            throw new UsageException("--start-seconds and --resize-seconds must not be negative");
        }
        if (model.equals("lublin") && (swf != null || flexibleSleep != null || sweep != null)) {
            throw new UsageException("--model lublin generates the jobs; it does not go with --swf, --flexible-sleep or --arrivals");
        }
        if (model.equals("lublin")) {
            dropped(given, "--model lublin draws its own arrivals (scale them with --load): drop ", "--arrival");
        } else {
            dropped(given, "--load scales the Lublin-Feitelson arrivals: give --model lublin, or drop ", "--load");
        }
        if (swf != null && flexibleSleep != null) {
            throw new UsageException("--swf and --flexible-sleep both give the jobs; choose one");
        }
        if (preset != null && setupFile != null) {
            throw new UsageException("--preset and --setup both give the set-up; choose one");
        }
        if ((preset != null || setupFile != null) && (swf != null || flexibleSleep != null || model.equals("lublin"))) {
            throw new UsageException((preset != null ? "--preset" : "--setup") + " gives the applications and arrivals; "
                    + "it does not go with --swf, --flexible-sleep or --model lublin");
        }
        WorkloadSetup setup = preset != null ? WorkloadSetup.preset(preset) : WorkloadSetup.banyanDefaults();
        if (setupFile != null) { // bounded, and a pipe within a time: /dev/zero given by mistake ran out of heap
            setup = WorkloadSetupJson.read(InputFiles.text(cwd.resolve(setupFile), "--setup"), setupFile);
        }
        if (preset != null || setupFile != null) { // the set-up's own values, unless given here
            jobs = given.contains("--jobs") ? jobs : setup.jobs();
            nodes = given.contains("--nodes") ? nodes : setup.nodes();
            seed = given.contains("--seed") ? seed : setup.seed();
        }
        try {
            setup = setup.withJobs(jobs).withNodes(nodes).withSeed(seed);
            if (given.contains("--arrival") || (preset == null && setupFile == null)) {
                setup = setup.withArrivals(new WorkloadSetup.Arrivals.Poisson(arrival));
            }
            for (int size : sizes == null ? List.<Integer>of() : sizes) {
                setup.withJobs(size); // each size's set-up holds, before any is run
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (plots != null && sizes == null) {
            throw new UsageException("--plots draws the figures of --sizes: give --sizes N,N,...");
        }
        if (sizes != null) {
            if (swf != null || flexibleSleep != null || model.equals("lublin") || sweep != null) {
                throw new UsageException("--sizes generates a workload of each size from the set-up; it does not go with --swf, "
                        + "--flexible-sleep, --model lublin or --arrivals");
            }
            dropped(given, "--sizes gives the numbers of jobs and runs both policies: drop ", "--jobs", "--policy", "--timeline",
                    "--write-swf", "--json");
            List<WorkloadSizes.Row> rows = WorkloadSizes.run(setup, sizes, inhibit);
            System.out.print(WorkloadSizes.table(setup, rows));
            if (plots != null) {
                try {
                    WorkloadSizes.plots(plots, setup, rows);
                } catch (IOException e) {
                    System.err.println("banyan sim workload: cannot write into " + plots + ": " + e.getMessage());
                    return 1;
                }
            }
            return 0;
        }
        // options that the other options given make meaningless: each was dropped without a word
        if (flexibleSleep == null) {
            dropped(given, "--start-seconds and --resize-seconds are a FlexibleSleep job's costs: give --flexible-sleep, or drop ",
                    "--start-seconds", "--resize-seconds");
        }
        if (swf != null || flexibleSleep != null) {
            dropped(given, (swf != null ? "--swf" : "--flexible-sleep") + " gives the jobs and their arrivals: drop ",
                    "--jobs", "--arrival", "--seed");
        }
        if (sweep != null) {
            if (swf != null || flexibleSleep != null) {
                throw new UsageException("--arrivals generates its workloads; it does not go with --swf");
            }
            dropped(given, "--arrivals runs both policies at each of its arrival times and prints one line each: drop ",
                    "--arrival", "--policy", "--timeline", "--write-swf");
            return sweep(setup, inhibit, sweep, json);
        }
        List<WorkloadJob> workload;
        try {
            workload = swf != null ? Workloads.readSwf(InputFiles.largeText(cwd.resolve(swf), "--swf"), nodes, swf)
                    : flexibleSleep != null ? Workloads.readFlexibleSleep(InputFiles.largeText(cwd.resolve(flexibleSleep), "--flexible-sleep"),
                            flexibleSleep, startSeconds, resizeSeconds)
                    : model.equals("lublin") ? Workloads.readSwf(LublinCommand.swf(seed, jobs, nodes, load), nodes,
                            "the Lublin-Feitelson model")
                    : setup.generate();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (writeSwf != null) {
            try {
                Files.writeString(cwd.resolve(writeSwf), Workloads.writeSwf(workload, nodes, swf != null ? "from " + swf
                        : model.equals("lublin") ? "the Lublin-Feitelson model, seed " + seed + ", load x" + load
                        : "set-up " + setup.name() + ", seed " + seed));
            } catch (IOException e) {
                System.err.println("banyan sim workload: cannot write " + writeSwf + ": " + e.getMessage());
                return 1;
            }
        }
        List<WorkloadSimulation.Result> results = new ArrayList<>();
        for (boolean flexible : new boolean[] {false, true}) {
            if (policy.equals("both") || policy.equals(flexible ? "flexible" : "fixed")) {
                try {
                    results.add(new WorkloadSimulation(workload, nodes, flexible, inhibit).run());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
        }
        if (json) {
            if (swf == null && flexibleSleep == null && !model.equals("lublin")) {
                System.out.println("{\"setup\":" + WorkloadSetupJson.toJson(setup) + "}");
            }
            for (WorkloadSimulation.Result r : results) {
                System.out.println(json(r, null));
            }
        } else {
            System.out.printf(Locale.ROOT, "%d jobs on %d nodes%n", workload.size(), nodes);
            System.out.printf(Locale.ROOT, "%-9s %14s %12s %12s %12s %16s %8s%n", "policy", "makespan s", "utilisation",
                    "mean wait s", "mean exec s", "mean complet. s", "resizes");
            for (WorkloadSimulation.Result r : results) {
                System.out.printf(Locale.ROOT, "%-9s %14.1f %11.1f%% %12.1f %12.1f %16.1f %8d%n", r.flexible() ? "flexible" : "fixed",
                        r.completionSeconds(), 100 * r.utilisation(), r.meanWait(), r.meanExec(), r.meanCompletion(), r.resizes());
            }
            if (results.size() == 2) {
                System.out.printf(Locale.ROOT, "flexible against fixed: %+.1f %% mean completion per job, %+.1f %% makespan%n",
                        100 * (results.get(1).meanCompletion() / results.get(0).meanCompletion() - 1),
                        100 * (results.get(1).completionSeconds() / results.get(0).completionSeconds() - 1));
            }
        }
        if (timeline != null) {
            try {
                writeTimelines(timeline, results);
            } catch (IOException e) {
                System.err.println("banyan sim workload: cannot write into " + timeline + ": " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }

    /** Refuses {@code options} that were given, naming them after {@code why}. */
    private static void dropped(java.util.Set<String> given, String why, String... options) throws UsageException {
        List<String> there = new ArrayList<>();
        for (String o : options) {
            if (given.contains(o)) {
                there.add(o);
            }
        }
        if (!there.isEmpty()) {
            throw new UsageException(why + String.join(", ", there));
        }
    }

    private static int sweep(WorkloadSetup setup, double inhibit, List<Double> arrivals, boolean json) {
        int nodes = setup.nodes();
        if (json) {
            System.out.println("{\"setup\":" + WorkloadSetupJson.toJson(setup) + "}");
        } else {
            System.out.printf(Locale.ROOT, "%d jobs on %d nodes, seed %d, set-up %s%n", setup.jobs(), nodes, setup.seed(),
                    setup.name());
            System.out.printf(Locale.ROOT, "%10s %14s %14s %9s %14s %14s %9s%n", "arrival s", "fixed compl. s", "flex. compl. s",
                    "gain", "fixed makesp. s", "flex. makesp. s", "gain");
        }
        for (double a : arrivals) {
            List<WorkloadJob> w = setup.withArrivals(new WorkloadSetup.Arrivals.Poisson(a)).generate();
            WorkloadSimulation.Result fixed = new WorkloadSimulation(w, nodes, false, inhibit).run();
            WorkloadSimulation.Result flexible = new WorkloadSimulation(w, nodes, true, inhibit).run();
            double gain = 100 * (1 - flexible.meanCompletion() / fixed.meanCompletion());
            double makespanGain = 100 * (1 - flexible.completionSeconds() / fixed.completionSeconds());
            if (json) {
                for (WorkloadSimulation.Result r : List.of(fixed, flexible)) {
                    System.out.println(json(r, a));
                }
            } else {
                System.out.printf(Locale.ROOT, "%10.1f %14.1f %14.1f %8.1f%% %14.1f %14.1f %8.1f%%%n", a, fixed.meanCompletion(),
                        flexible.meanCompletion(), gain, fixed.completionSeconds(), flexible.completionSeconds(), makespanGain);
            }
        }
        return 0;
    }

    /** One policy's result as one line of JSON (the keys; arrival_s in a sweep). */
    private static String json(WorkloadSimulation.Result r, Double arrival) {
        java.util.Map<String, Object> o = new java.util.LinkedHashMap<>();
        o.put("policy", r.flexible() ? "flexible" : "fixed");
        if (arrival != null) {
            o.put("arrival_s", arrival);
        }
        o.put("jobs", r.jobs().size());
        o.put("nodes", r.nodes());
        o.put("makespan_s", round(r.completionSeconds(), 1));
        o.put("utilisation", round(r.utilisation(), 4));
        o.put("mean_wait_s", round(r.meanWait(), 1));
        o.put("mean_exec_s", round(r.meanExec(), 1));
        o.put("mean_completion_s", round(r.meanCompletion(), 1));
        o.put("resizes", r.resizes());
        try {
            return JSON.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e); // plain numbers and strings always serialise
        }
    }

    private static double round(double v, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(v * scale) / scale;
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    static void writeTimelines(Path dir, List<WorkloadSimulation.Result> results) throws IOException {
        Files.createDirectories(dir);
        XYChart[] charts = {
            new XYChartBuilder().width(900).height(300).title("Allocated nodes").xAxisTitle("time (s)").build(),
            new XYChartBuilder().width(900).height(300).title("Running jobs").xAxisTitle("time (s)").build(),
            new XYChartBuilder().width(900).height(300).title("Completed jobs").xAxisTitle("time (s)").build()};
        for (WorkloadSimulation.Result r : results) {
            String name = r.flexible() ? "flexible" : "fixed";
            StringBuilder csv = new StringBuilder("time_s,allocated_nodes,running_jobs,completed_jobs\n");
            List<Double> t = new ArrayList<>();
            List<List<Double>> y = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (WorkloadSimulation.Sample s : r.timeline()) {
                csv.append(String.format(Locale.ROOT, "%.3f,%d,%d,%d%n", s.time(), s.allocatedNodes(), s.runningJobs(),
                        s.completedJobs()));
                t.add(s.time());
                y.get(0).add((double) s.allocatedNodes());
                y.get(1).add((double) s.runningJobs());
                y.get(2).add((double) s.completedJobs());
            }
            Files.writeString(dir.resolve("timeline_" + name + ".csv"), csv);
            for (int c = 0; c < 3; c++) {
                XYSeries series = charts[c].addSeries(name, t, y.get(c));
                series.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
                series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step); // counts hold until the next change
            }
        }
        BitmapEncoder.saveBitmap(List.of(charts), 3, 1, dir.resolve("timelines").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static Number number(String v, String option) throws UsageException {
        try {
            return v.contains(".") ? (Number) Double.parseDouble(v) : (Number) Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " '" + v + "' is not a number");
        }
    }

    static double positive(String v, String option) throws UsageException {
        double d = number(v, option).doubleValue();
        if (!(d > 0)) {
            throw new UsageException(option + " must be positive, not " + v);
        }
        return d;
    }
}
