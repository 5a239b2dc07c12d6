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

    /** Prefix of the header comment that keeps one job's application model ({@link #writeSwf}). */
    static final String JOB_MODEL = "; BanyanJob:";

    /**
     * Jobs from a Standard Workload Format log: submit time (field 2), requested processors
     * (field 8, else allocated, field 5) as nodes, capped to the cluster, run time (field 4) and
     * requested time (field 9) as the scheduler's estimate when given. A job that
     * {@link #writeSwf} wrote comes back as it was: its model (application, sizes, preferred size,
     * iterations, costs) is in a {@value #JOB_MODEL} header line. Any other job gets one of the
     * seed's applications (by its executable number, field 14, else its number), scaled so that
     * it runs for the logged time at the logged size; it may shrink to a quarter of that size.
     * Jobs without a run time or a size, and jobs whose status (field 11) says they were
     * cancelled (5), are skipped; failed (0) and completed (1) jobs run, as they held their nodes.
     */
    public static List<WorkloadJob> readSwf(String text, int nodes, String origin) {
        List<WorkloadJob> out = new ArrayList<>();
        String[] lines = text.split("\n");
        java.util.Map<Integer, AppModel> models = new java.util.HashMap<>();
        for (int n = 0; n < lines.length; n++) {
            if (lines[n].startsWith(JOB_MODEL)) {
                readModel(lines[n], models, origin + " line " + (n + 1));
            }
        }
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
                double submit = finite(f[1]);
                double run = finite(f[3]);
                int size = (int) finite(f[7]);
                if (size <= 0) {
                    size = (int) finite(f[4]);
                }
                int status = (int) finite(f[10]);
                if (run <= 0 || size <= 0 || status == 5) {
                    continue;
                }
                double requested = finite(f[8]);
                if (Double.isNaN(first)) {
                    first = submit;
                }
                AppModel kept = models.get((int) finite(f[0]));
                if (kept != null) {
                    if (kept.maxNodes() > nodes) {
                        kept = kept.withMax(Integer.highestOneBit(nodes));
                    }
                    out.add(requested > 0 ? new WorkloadJob(out.size() + 1, submit - first, kept, requested)
                            : new WorkloadJob(out.size() + 1, submit - first, kept));
                    continue;
                }
                size = Math.min(size, nodes);
                int exe = (int) finite(f[13]);
                // executable numbers count from 1 (writeSwf gives cg 1, jacobi 2, nbody 3)
                int which = Math.floorMod((exe > 0 ? exe : (int) finite(f[0])) - 1, AppModel.SEED_MIX.size());
                AppModel base = AppModel.SEED_MIX.get(which);
                int min = Math.max(1, size / 4);
                AppModel app = new AppModel(base.name(), base.serialFraction(), 1, 0, base.iterations(), min, size, 0,
                        base.dataGiB()).runningFor(size, run);
                out.add(requested > 0 ? new WorkloadJob(out.size() + 1, submit - first, app, requested)
                        : new WorkloadJob(out.size() + 1, submit - first, app));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(origin + " line " + (n + 1) + ": not numbers: '" + line + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(origin + " holds no job with a run time and a size");
        }
        return out;
    }

    /** A field of an SWF line: NaN and Infinity parse as doubles, and would make every figure of the run NaN. */
    private static double finite(String field) {
        double v = Double.parseDouble(field);
        if (!Double.isFinite(v)) {
            throw new NumberFormatException(field);
        }
        return v;
    }

    /** A number as SWF writes it where it is whole, else exactly (a simulated arrival is rarely whole). */
    private static String exact(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static void readModel(String line, java.util.Map<Integer, AppModel> models, String where) {
        String[] f = line.substring(JOB_MODEL.length()).strip().split("\\s+");
        try {
            if (f.length != 13) {
                throw new NumberFormatException();
            }
            models.put(Integer.parseInt(f[0]), new AppModel(f[1], Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                    Double.parseDouble(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]),
                    Integer.parseInt(f[8]), Double.parseDouble(f[9]), Double.parseDouble(f[10]), Double.parseDouble(f[11]),
                    Double.parseDouble(f[12])));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + ": a BanyanJob line is 'ID NAME' and 11 numbers, not '" + line + "'");
        }
    }

    /**
     * The jobs of {@code bench/workload-real} (its list, one job per line: arrival s, max hosts,
     * min hosts, steps, one host's work per step s, and optionally the preferred size (0: none)
     * and the serial part), FlexibleSleep jobs submitted with the estimate it gives them (its run
     * at its maximum plus 5 s, in whole seconds).
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
                if (f.length < 5 || f.length > 7) {
                    throw new NumberFormatException();
                }
                double at = Double.parseDouble(f[0]);
                int max = Integer.parseInt(f[1]);
                int min = Integer.parseInt(f[2]);
                int steps = Integer.parseInt(f[3]);
                double work = Double.parseDouble(f[4]);
                int preferred = f.length > 5 ? Integer.parseInt(f[5]) : 0;
                double serial = f.length > 6 ? Double.parseDouble(f[6]) : 0;
                if (!(at >= 0) || min < 1 || max < min || steps < 1 || !(work >= 0) || Double.isInfinite(work)
                        || (preferred != 0 && (preferred < min || preferred > max)) || !(serial >= 0 && serial <= 1)) {
                    throw new NumberFormatException();
                }
                AppModel app = AppModel.flexibleSleep(steps, work, min, max, preferred, serial, startSeconds, resizeSeconds);
                out.add(new WorkloadJob(out.size() + 1, at, app, (int) (app.runSeconds(max) + 5)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(origin + " line " + (n + 1) + ": not 'arrival max min steps work [preferred [serial]]'"
                        + " (preferred 0 or between min and max, serial 0 to 1): '" + line + "'");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(origin + " holds no job");
        }
        return out;
    }

    /**
     * The workload in the Standard Workload Format (-1 where a field is unknown): each job at its
     * maximum size, its estimate as the requested time, and its whole model in a
     * {@value #JOB_MODEL} header line (SWF has no field for a job's minimum or preferred size, its
     * iterations or its resize costs), so that {@link #readSwf} gives back the same workload.
     */
    public static String writeSwf(List<WorkloadJob> jobs, int nodes, String comment) {
        StringBuilder b = new StringBuilder();
        b.append("; Version: 2.2\n; Computer: banyan sim workload\n; MaxNodes: ").append(nodes).append('\n');
        b.append("; MaxProcs: ").append(nodes).append('\n');
        if (comment != null) {
            b.append("; Note: ").append(comment).append('\n');
        }
        b.append("; Note: each BanyanJob line keeps job ID's model: name serial one_node_s comm_s_per_log2 iterations min max"
                + " preferred data_gib start_s resize_s check_period_s\n");
        for (WorkloadJob j : jobs) {
            AppModel a = j.app();
            b.append(JOB_MODEL).append(' ').append(j.id()).append(' ').append(a.name()).append(' ').append(a.serialFraction())
                    .append(' ').append(a.oneNodeSeconds()).append(' ').append(a.commSecondsPerLog2()).append(' ')
                    .append(a.iterations()).append(' ').append(a.minNodes()).append(' ').append(a.maxNodes()).append(' ')
                    .append(a.preferredNodes()).append(' ').append(a.dataGiB()).append(' ').append(a.startSeconds())
                    .append(' ').append(a.resizeFixedSeconds()).append(' ').append(a.checkPeriodSeconds()).append('\n');
        }
        for (WorkloadJob j : jobs) {
            AppModel a = j.app();
            int exe = AppModel.SEED_MIX.stream().map(AppModel::name).toList().indexOf(a.name()) + 1;
            b.append(String.format(Locale.ROOT, "%d %s -1 %.0f %d -1 -1 %d %s -1 1 -1 -1 %d -1 -1 -1 -1%n", j.id(),
                    exact(j.submitSeconds()), a.runSeconds(a.maxNodes()), a.maxNodes(), a.maxNodes(),
                    exact(j.estimateSeconds()), exe));
        }
        return b.toString();
    }
}
