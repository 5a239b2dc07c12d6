package org.banyan.rm.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Workloads: generated (the seed's set-up: its three applications in equal parts, submitted at
 * their maximum size, Poisson arrivals) or read from the Standard Workload Format, and written
 * back to it.
 */
public final class Workloads {
    private Workloads() {}

    /**
     * {@code jobs} jobs of the seed's mix, arriving as a Poisson process of mean inter-arrival
     * {@code meanInterarrivalSeconds}, each at its application's maximum size (capped to the
     * largest power of two the cluster holds).
     */
    public static List<WorkloadJob> poisson(int jobs, int nodes, double meanInterarrivalSeconds, long seed) {
        if (jobs < 1 || nodes < 1 || !(meanInterarrivalSeconds > 0)) {
            throw new IllegalArgumentException("a workload needs jobs, nodes and a positive inter-arrival time");
        }
        SplittableRandom r = new SplittableRandom(seed);
        List<WorkloadJob> out = new ArrayList<>(jobs);
        double t = 0;
        int cap = Integer.highestOneBit(nodes);
        for (int i = 1; i <= jobs; i++) {
            AppModel app = AppModel.SEED_MIX.get(r.nextInt(AppModel.SEED_MIX.size()));
            if (app.maxNodes() > cap) {
                app = app.withMax(cap);
            }
            out.add(new WorkloadJob(i, t, app));
            t += -Math.log(1 - r.nextDouble()) * meanInterarrivalSeconds;
        }
        return out;
    }

    /**
     * Jobs from a Standard Workload Format log: submit time (field 2), requested processors
     * (field 8, else allocated, field 5) as nodes, capped to the cluster, and run time (field 4).
     * Each job gets one of the seed's applications (by its executable number, field 14, else its
     * number), scaled so that it runs for the logged time at the logged size; it may shrink to a
     * quarter of that size. Cancelled jobs (no run time or size) are skipped.
     */
    public static List<WorkloadJob> readSwf(String text, int nodes, String origin) {
        List<WorkloadJob> out = new ArrayList<>();
        String[] lines = text.split("\n");
        double first = Double.NaN;
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith(";")) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length < 18) {
                throw new IllegalArgumentException(origin + " line " + (n + 1) + ": an SWF line has 18 fields, this one "
                        + f.length);
            }
            try {
                double submit = Double.parseDouble(f[1]);
                double run = Double.parseDouble(f[3]);
                int size = (int) Double.parseDouble(f[7]);
                if (size <= 0) {
                    size = (int) Double.parseDouble(f[4]);
                }
                if (run <= 0 || size <= 0) {
                    continue;
                }
                size = Math.min(size, nodes);
                int exe = (int) Double.parseDouble(f[13]);
                // executable numbers count from 1 (writeSwf gives cg 1, jacobi 2, nbody 3)
                int which = Math.floorMod((exe > 0 ? exe : (int) Double.parseDouble(f[0])) - 1, AppModel.SEED_MIX.size());
                AppModel base = AppModel.SEED_MIX.get(which);
                int min = Math.max(1, size / 4);
                AppModel app = new AppModel(base.name(), base.serialFraction(), 1, 0, base.iterations(), min, size, 0,
                        base.dataGiB()).runningFor(size, run);
                if (Double.isNaN(first)) {
                    first = submit;
                }
                out.add(new WorkloadJob(out.size() + 1, submit - first, app));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(origin + " line " + (n + 1) + ": not numbers: '" + line + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(origin + " holds no job with a run time and a size");
        }
        return out;
    }

    /**
     * The jobs of {@code bench/workload-real} (its list, one job per line: arrival s, max hosts,
     * min hosts, steps, one host's work per step s), FlexibleSleep jobs submitted with the
     * estimate it gives them ({@code steps * work / max + 5}, in whole seconds).
     *
     * @param startSeconds  from a job's start to its first step (its JVM ranks starting)
     * @param resizeSeconds what a resize costs it
     */
    public static List<WorkloadJob> readFlexibleSleep(String text, String origin, double startSeconds, double resizeSeconds) {
        List<WorkloadJob> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            try {
                if (f.length != 5) {
                    throw new NumberFormatException();
                }
                double at = Double.parseDouble(f[0]);
                int max = Integer.parseInt(f[1]);
                int min = Integer.parseInt(f[2]);
                int steps = Integer.parseInt(f[3]);
                int work = Integer.parseInt(f[4]);
                if (at < 0 || min < 1 || max < min || steps < 1 || work < 0) {
                    throw new NumberFormatException();
                }
                AppModel app = AppModel.flexibleSleep(steps, work, min, max, startSeconds, resizeSeconds);
                out.add(new WorkloadJob(out.size() + 1, at, app, steps * work / max + 5));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(origin + " line " + (n + 1) + ": not 'arrival max min steps work': '" + line
                        + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(origin + " holds no job");
        }
        return out;
    }

    /** The workload in the Standard Workload Format (-1 where a field is unknown). */
    public static String writeSwf(List<WorkloadJob> jobs, int nodes, String comment) {
        StringBuilder b = new StringBuilder();
        b.append("; Version: 2.2\n; Computer: banyan sim workload\n; MaxNodes: ").append(nodes).append('\n');
        b.append("; MaxProcs: ").append(nodes).append('\n');
        if (comment != null) {
            b.append("; Note: ").append(comment).append('\n');
        }
        for (WorkloadJob j : jobs) {
            AppModel a = j.app();
            int exe = AppModel.SEED_MIX.stream().map(AppModel::name).toList().indexOf(a.name()) + 1;
            b.append(String.format(Locale.ROOT, "%d %.0f -1 %.0f %d -1 -1 %d %.0f -1 1 -1 -1 %d -1 -1 -1 -1%n", j.id(),
                    j.submitSeconds(), a.runSeconds(a.maxNodes()), a.maxNodes(), a.maxNodes(), a.runSeconds(a.maxNodes()), exe));
        }
        return b.toString();
    }
}
