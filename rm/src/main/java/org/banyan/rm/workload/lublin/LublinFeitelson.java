package org.banyan.rm.workload.lublin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Lublin–Feitelson model of rigid parallel jobs (J. Parallel Distrib. Comput. 63(11), 2003):
 * each job's arrival (a gamma inter-arrival of the log of seconds, stretched or squeezed through
 * a daily cycle of 48 half hours), its class (batch or interactive: whichever class's next arrival
 * comes first), its size (serial, power of two, or any, from a two-stage uniform of log2 of the
 * size) and its run time (a hyper-gamma of the log of seconds whose mix depends on the size).
 *
 * <p>It draws its numbers as the authors' program does (drand48, in the same order, with the
 * same truncations to whole seconds), so for a seed and the published parameters it writes the
 * program's SWF output line for line ({@code LublinFeitelsonTest} holds three of its outputs).
 */
public final class LublinFeitelson {
    /** A job of the model: arrival and run time in whole seconds, its size, and its class. */
    public record Job(int number, long arrival, long runtime, int nodes, boolean batch) {}

    static final int BUCKETS = 48;
    static final int SECONDS_IN_BUCKET = 24 * 3600 / BUCKETS;
    /** The day's cycle as fitted starts at 11:00; bucket i of the fit is half hour (i - 1) mod 48 of the day. */
    static final int CYCLE_START = 11;
    /** A run time is at most e^12 s (about 45 h), an inter-arrival at most e^13 s: longer draws are drawn again. */
    static final double MAX_LOG_RUNTIME = 12;
    static final double MAX_LOG_INTERARRIVAL = 13;

    private static final int INTERACTIVE = 0;
    private static final int BATCH = 1;

    private final JobClass[] classes = new JobClass[2];
    private final Drand48 random;
    private final double[][] weights = new double[2][BUCKETS];
    private final int[] bucket = new int[2];
    private final long[] next = new long[2];
    private final double[] points = new double[2];
    private final double[] remainder = new double[2];
    private int made;

    /** The published model (a machine of 128 nodes), seeded as {@code srand48(seed)}. */
    public LublinFeitelson(long seed) {
        this(seed, JobClass.BATCH, JobClass.INTERACTIVE);
    }

    public LublinFeitelson(long seed, JobClass batch, JobClass interactive) {
        classes[BATCH] = batch;
        classes[INTERACTIVE] = interactive;
        random = new Drand48(seed);
        for (int type = 0; type <= 1; type++) {
            JobClass c = classes[type];
            double sum = 0;
            for (int i = CYCLE_START; i < BUCKETS + CYCLE_START; i++) {
                double w = GammaFunctions.cdf(i + 0.5, c.anum(), c.bnum()) - GammaFunctions.cdf(i - 0.5, c.anum(), c.bnum());
                weights[type][(i - 1) % BUCKETS] = w;
                sum += w;
            }
            double mean = sum / BUCKETS;
            for (int i = 0; i < BUCKETS; i++) {
                weights[type][i] /= mean;
            }
        }
        advance(BATCH);
        advance(INTERACTIVE);
    }

    /** The next job. */
    public Job next() {
        int type = next[BATCH] < next[INTERACTIVE] ? BATCH : INTERACTIVE;
        long arrival = next[type];
        advance(type);
        JobClass c = classes[type];
        int nodes = size(c);
        long runtime = runtime(c, nodes);
        return new Job(++made, arrival, runtime, nodes, type == BATCH);
    }

    /** {@code count} jobs. */
    public List<Job> jobs(int count) {
        List<Job> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(next());
        }
        return out;
    }

    /**
     * Moves the class's next arrival on: the draw's e^g seconds become points (a bucket's worth of
     * seconds at the day's mean rate is one point), spent bucket by bucket at each bucket's weight
     * (a busy half hour costs more points, so arrivals come closer together there).
     */
    private void advance(int type) {
        JobClass c = classes[type];
        double g;
        do {
            g = GammaFunctions.variate(c.aarr(), c.barr(), random);
        } while (g > MAX_LOG_INTERARRIVAL);
        points[type] += Math.exp(g) / SECONDS_IN_BUCKET;
        int b = bucket[type];
        double seconds = 0;
        while (points[type] > weights[type][b]) {
            points[type] -= weights[type][b];
            b = (b + 1) % BUCKETS;
            seconds += SECONDS_IN_BUCKET;
        }
        double fraction = points[type] / weights[type][b];
        seconds += SECONDS_IN_BUCKET * (fraction - remainder[type]);
        remainder[type] = fraction;
        next[type] = (long) (next[type] + seconds); // whole seconds kept at each step, as the program's unsigned long
        bucket[type] = b;
    }

    private int size(JobClass c) {
        double u = random.next();
        if (u <= c.serialProb()) {
            return 1;
        }
        double low;
        double high;
        if (random.next() <= c.uProb()) {
            low = c.uLow();
            high = c.uMed();
        } else {
            low = c.uMed();
            high = c.uHigh();
        }
        double log2 = random.next() * (high - low) + low;
        if (u <= c.serialProb() + c.pow2Prob()) {
            log2 = (long) (log2 + 0.5);
        }
        return (int) (Math.pow(2, log2) + 0.5);
    }

    private long runtime(JobClass c, int nodes) {
        double p = Math.max(0, Math.min(1, c.pa() * nodes + c.pb()));
        double g;
        do {
            boolean first = random.next() <= p;
            g = first ? GammaFunctions.variate(c.a1(), c.b1(), random) : GammaFunctions.variate(c.a2(), c.b2(), random);
        } while (g > MAX_LOG_RUNTIME);
        return (long) Math.exp(g);
    }

    /**
     * The jobs in the Standard Workload Format as the authors' program writes them: its header,
     * then per job its number, arrival, run time, size and class (in the queue field: 1 batch, 0
     * interactive), every other field -1 but status 1 (completed).
     */
    public static String swf(List<Job> jobs, int maxNodes) {
        StringBuilder out = new StringBuilder();
        out.append("; Version: 2\n; Acknowledge: Uri Lublin, Hebrew University\n")
                .append("; Information: http://www.cs.huji.ac.il/labs/parallel/workload\n")
                .append("; MaxJobs: ").append(jobs.size()).append('\n')
                .append("; MaxRecords: ").append(jobs.size()).append('\n')
                .append("; MaxNodes: ").append(maxNodes).append('\n')
                .append("; MaxRuntime: ").append((int) Math.exp(MAX_LOG_RUNTIME)).append('\n');
        for (Job j : jobs) {
            out.append(String.format(Locale.ROOT, "%5d %7d -1 %7d %3d -1 -1 -1 -1 -1 1 -1 -1 -1 %d -1 -1 -1\n",
                    j.number(), j.arrival(), j.runtime(), j.nodes(), j.batch() ? 1 : 0));
        }
        return out.toString();
    }
}
