package org.banyan.rm.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A workload study's whole set-up as data: the cluster, how many jobs, the applications with
 * their share of the mix, and how the jobs arrive. {@code banyan sim workload --preset NAME} and
 * {@code --setup FILE} (its JSON form, docs/malleability.md) make one; {@code --json} prints the
 * one a run used, defaults included.
 *
 * @param nodes    the cluster's nodes
 * @param jobs     jobs in the workload
 * @param seed     the draws' seed (application of each job, Poisson or Lublin–Feitelson arrivals)
 * @param apps     the applications, each with its share of the mix
 * @param arrivals how they arrive
 */
public record WorkloadSetup(String name, int nodes, int jobs, long seed, List<Share> apps, Arrivals arrivals) {
    /** One application of the mix and its weight (the weights need not add up to one). */
    public record Share(AppModel app, double weight) {}

    /** How jobs arrive. */
    public sealed interface Arrivals {
        /** A Poisson process: exponential inter-arrival times of this mean. */
        record Poisson(double meanSeconds) implements Arrivals {}

        /** The Lublin–Feitelson model's arrival times (its daily cycle), divided by {@code load}. */
        record Lublin(double load) implements Arrivals {}
    }

    public WorkloadSetup {
        apps = List.copyOf(apps);
        if (nodes < 1 || jobs < 1 || apps.isEmpty()) {
            throw new IllegalArgumentException("a workload set-up needs nodes, jobs and at least one application");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Share s : apps) {
            AppModel a = s.app();
            if (!(s.weight() > 0) || a.minNodes() < 1 || a.maxNodes() < a.minNodes() || a.iterations() < 1
                    || (a.preferredNodes() != 0 && (a.preferredNodes() < a.minNodes() || a.preferredNodes() > a.maxNodes()))
                    || !(a.oneNodeSeconds() > 0) || !(a.serialFraction() >= 0) || a.serialFraction() > 1
                    || !(a.checkPeriodSeconds() >= 0) || !(a.resizeFixedSeconds() >= 0) || !(a.dataGiB() >= 0)
                    || !(a.commSecondsPerLog2() >= 0) || !(a.startSeconds() >= 0)) {
                throw new IllegalArgumentException("application '" + a.name() + "': needs a positive weight, 1 <= min <= "
                        + "preferred <= max (preferred 0: none), iterations >= 1, one_node_s > 0, serial in [0, 1], and no "
                        + "negative check period, resize cost, data, communication term or start");
            }
            // a year of work is past any study, and such values only print as 300-digit numbers
            if (!(s.weight() <= MAX_WEIGHT) || a.oneNodeSeconds() > MAX_SECONDS || a.checkPeriodSeconds() > MAX_SECONDS
                    || a.resizeFixedSeconds() > MAX_SECONDS || a.startSeconds() > MAX_SECONDS
                    || a.commSecondsPerLog2() > MAX_SECONDS || a.dataGiB() > MAX_SECONDS) {
                throw new IllegalArgumentException("application '" + a.name() + "': times (one_node_s, check period, resize,"
                        + " start, communication term) and data_gib are at most " + (long) MAX_SECONDS + ", the weight at most "
                        + (long) MAX_WEIGHT);
            }
            if (!names.add(a.name())) {
                throw new IllegalArgumentException("application '" + a.name() + "' is in the mix twice: give each a name of its own");
            }
        }
        // the simulation steps through every iteration of every job: at about 10^7 a second, 10^9 is minutes
        double weights = apps.stream().mapToDouble(Share::weight).sum();
        double expected = jobs * apps.stream().mapToDouble(s -> s.weight() / weights * s.app().iterations()).sum();
        if (expected > MAX_ITERATIONS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "%d jobs of this mix make about %.3g"
                    + " iterations to simulate, more than %.0e; give fewer iterations or jobs (the seed's CG runs 10,000)",
                    jobs, expected, (double) MAX_ITERATIONS));
        }
    }

    /** The largest time (s) or data (GiB) an application may give: a year. */
    static final double MAX_SECONDS = 365 * 24 * 3600.0;
    /** The largest weight in the mix. */
    static final double MAX_WEIGHT = 1e9;
    /** Iterations a workload may make on average at most (the seed preset at 400 jobs: about 2.7·10^6). */
    static final long MAX_ITERATIONS = 1_000_000_000;

    /**
     * Today's defaults: the three applications as Banyan models them ({@link AppModel#SEED_MIX}:
     * Amdahl with 2 / 1 / 0.5 % serial parts and a communication term, 100 iterations, preferred
     * 8 / 16 / 32), in equal parts, Poisson arrivals every 10 s, 64 nodes, 50 jobs.
     */
    public static WorkloadSetup banyanDefaults() {
        List<Share> mix = new ArrayList<>();
        for (AppModel a : AppModel.SEED_MIX) {
            mix.add(new Share(a, 1));
        }
        return new WorkloadSetup("banyan-defaults", 64, 50, 1, mix, new Arrivals.Poisson(10));
    }

    /** Seconds a job of the seed preset runs at its maximum size: the middle of Table 4's fixed means (520-620 s). */
    public static final double SEED_RUN_SECONDS = 570;
    /** A resize in the seed preset: Table 2's mean expand and shrink (0.423 and 0.425 s, synchronous). */
    public static final double SEED_RESIZE_SECONDS = 0.42;

    /**
     * The seed's set-up as its text gives it: Table 1's applications (CG and Jacobi: 10,000
     * iterations, 2-32 processes, preferred 8, a 15 s scheduling period; N-body: 25 iterations,
     * 1-16, preferred 1, checking at every iteration), scaling linearly (§7.4: "the application
     * scales linearly"), in equal parts, submitted at their maximum; Poisson arrivals of mean 10 s
     * (§7.1), 64 nodes (Figure 6), each job {@value #SEED_RUN_SECONDS} s at its maximum size, a
     * resize {@value #SEED_RESIZE_SECONDS} s (Table 2) with no data term. What the text does not
     * give is Banyan's choice, named in docs/malleability.md.
     */
    public static WorkloadSetup seedTable1() {
        double run = SEED_RUN_SECONDS;
        double resize = SEED_RESIZE_SECONDS;
        List<Share> mix = List.of(
                new Share(new AppModel("cg", 0, run * 32, 0, 10_000, 2, 32, 8, 0, 0, resize, 15), 1),
                new Share(new AppModel("jacobi", 0, run * 32, 0, 10_000, 2, 32, 8, 0, 0, resize, 15), 1),
                new Share(new AppModel("nbody", 0, run * 16, 0, 25, 1, 16, 1, 0, 0, resize, 0), 1));
        return new WorkloadSetup("seed-table1", 64, 50, 1, mix, new Arrivals.Poisson(10));
    }

    /** A preset by name, or null. */
    public static WorkloadSetup preset(String name) {
        return switch (name) {
            case "banyan-defaults" -> banyanDefaults();
            case "seed-table1" -> seedTable1();
            default -> null;
        };
    }

    public static final List<String> PRESETS = List.of("banyan-defaults", "seed-table1");

    public WorkloadSetup withJobs(int n) {
        return new WorkloadSetup(name, nodes, n, seed, apps, arrivals);
    }

    public WorkloadSetup withNodes(int n) {
        return new WorkloadSetup(name, n, jobs, seed, apps, arrivals);
    }

    public WorkloadSetup withSeed(long s) {
        return new WorkloadSetup(name, nodes, jobs, s, apps, arrivals);
    }

    public WorkloadSetup withArrivals(Arrivals a) {
        return new WorkloadSetup(name, nodes, jobs, seed, apps, a);
    }

    /**
     * The jobs: each job's application drawn by weight, at its maximum size (capped to the largest
     * power of two the cluster holds), arriving as the set-up says. With the Lublin–Feitelson
     * model only its arrival times are taken (the seed customised the model's arrivals and kept
     * its own applications).
     */
    public List<WorkloadJob> generate() {
        SplittableRandom r = new SplittableRandom(seed);
        double total = apps.stream().mapToDouble(Share::weight).sum();
        boolean equal = apps.stream().allMatch(s -> s.weight() == apps.getFirst().weight());
        int cap = Integer.highestOneBit(nodes);
        var lublin = arrivals instanceof Arrivals.Lublin ? new org.banyan.rm.workload.lublin.LublinFeitelson(seed) : null;
        double first = -1;
        double t = 0;
        List<WorkloadJob> out = new ArrayList<>(jobs);
        // per job its application, then the time to the next arrival: the order Workloads.poisson draws in
        for (int i = 0; i < jobs; i++) {
            AppModel app;
            if (equal) {
                app = apps.get(r.nextInt(apps.size())).app();
            } else {
                double pick = r.nextDouble() * total;
                app = apps.getLast().app();
                for (Share s : apps) {
                    if (pick < s.weight()) {
                        app = s.app();
                        break;
                    }
                    pick -= s.weight();
                }
            }
            if (app.maxNodes() > cap) {
                app = app.withMax(cap);
            }
            double at;
            if (lublin != null) {
                long arrival = lublin.next().arrival();
                first = first < 0 ? arrival : first;
                at = (arrival - first) / ((Arrivals.Lublin) arrivals).load();
            } else {
                at = t;
                t += -Math.log(1 - r.nextDouble()) * ((Arrivals.Poisson) arrivals).meanSeconds();
            }
            out.add(new WorkloadJob(i + 1, at, app));
        }
        return out;
    }

}
