package org.banyan.rm.workload;

/**
 * How a malleable application runs at each size: Amdahl's law plus a communication term that
 * grows with the logarithm of the size, spread over a fixed number of iterations (the points at
 * which it checks with the resource manager), and what a resize costs (spawning the new ranks or
 * ending the old, and moving its data).
 *
 * <p>The three defaults stand for the seed's Conjugate Gradient, Jacobi and N-body. Their
 * parameters are Banyan's assumptions, not the seed's measurements (which this repository does
 * not have): a memory-bound solver with a 2 % serial part, a stencil with 1 %, and a
 * compute-bound N-body with 0.5 %, each about an hour of work on one node.
 *
 * @param name              as the seed calls it
 * @param serialFraction    Amdahl's serial part
 * @param oneNodeSeconds    the whole run on one node
 * @param commSecondsPerLog2 communication time added per doubling of the size, over the run
 * @param iterations        iterations, each ending with a check
 * @param minNodes          the fewest nodes it runs on
 * @param maxNodes          the most (its submitted size)
 * @param preferredNodes    the size it runs best at, or 0
 * @param dataGiB           the data redistributed on a resize
 * @param startSeconds      from the job's start to its first iteration (its ranks starting)
 * @param resizeFixedSeconds a resize's cost besides moving data (spawning or ending ranks)
 * @param checkPeriodSeconds the least time between two of its checks with the resource manager
 *                          (DMR's inhibitor, the seed's "scheduling period"); 0: at every iteration
 */
public record AppModel(String name, double serialFraction, double oneNodeSeconds, double commSecondsPerLog2, int iterations,
                       int minNodes, int maxNodes, int preferredNodes, double dataGiB, double startSeconds,
                       double resizeFixedSeconds, double checkPeriodSeconds) {
    /** An application that checks at every iteration. */
    public AppModel(String name, double serialFraction, double oneNodeSeconds, double commSecondsPerLog2, int iterations,
                    int minNodes, int maxNodes, int preferredNodes, double dataGiB, double startSeconds,
                    double resizeFixedSeconds) {
        this(name, serialFraction, oneNodeSeconds, commSecondsPerLog2, iterations, minNodes, maxNodes, preferredNodes, dataGiB,
                startSeconds, resizeFixedSeconds, 0);
    }

    /** Spawning or ending ranks, besides moving data, in the seed's applications. */
    static final double RESIZE_FIXED_SECONDS = 0.3;

    /** One of the seed's applications: ranks start at once, a resize costs {@value #RESIZE_FIXED_SECONDS} s besides its data. */
    public AppModel(String name, double serialFraction, double oneNodeSeconds, double commSecondsPerLog2, int iterations,
                    int minNodes, int maxNodes, int preferredNodes, double dataGiB) {
        this(name, serialFraction, oneNodeSeconds, commSecondsPerLog2, iterations, minNodes, maxNodes, preferredNodes, dataGiB,
                0, RESIZE_FIXED_SECONDS);
    }

    /**
     * The example FlexibleSleep as {@code bench/workload-real} runs it: {@code steps} steps of
     * {@code work} seconds of one host's work split over the hosts (a serial part {@code serial}
     * of it not split, no communication, its 100,000 doubles moved in no time), checking at every
     * step, with the measured cost of starting its ranks and of a resize.
     *
     * @param preferred the size it runs best at, or 0
     */
    public static AppModel flexibleSleep(int steps, double work, int min, int max, int preferred, double serial,
                                         double startSeconds, double resizeSeconds) {
        return new AppModel("flexible-sleep", serial, steps * work, 0, steps, min, max, preferred, 0, startSeconds, resizeSeconds);
    }
    /** Redistribution speed per node taking part (GiB/s). */
    static final double GIB_PER_SECOND_PER_NODE = 1.0;

    public static final AppModel CG = new AppModel("cg", 0.02, 4000, 6, 100, 2, 32, 8, 4);
    public static final AppModel JACOBI = new AppModel("jacobi", 0.01, 3000, 4, 100, 2, 32, 16, 2);
    public static final AppModel NBODY = new AppModel("nbody", 0.005, 6000, 2, 100, 1, 32, 32, 0.5);

    public static final java.util.List<AppModel> SEED_MIX = java.util.List.of(CG, JACOBI, NBODY);

    /** The whole run at {@code nodes} nodes. */
    public double runSeconds(int nodes) {
        return oneNodeSeconds * (serialFraction + (1 - serialFraction) / nodes) + commSecondsPerLog2 * log2(nodes);
    }

    public double iterationSeconds(int nodes) {
        return runSeconds(nodes) / iterations;
    }

    /** A resize from {@code from} to {@code to} nodes. */
    public double resizeSeconds(int from, int to) {
        return resizeFixedSeconds + dataGiB / (Math.min(from, to) * GIB_PER_SECOND_PER_NODE);
    }

    /** This application submitted at {@code maxNodes} instead (its minimum and preferred scaled along). */
    public AppModel withMax(int max) {
        double scale = (double) max / maxNodes;
        int min = Math.max(1, (int) Math.round(minNodes * scale));
        int pref = preferredNodes == 0 ? 0 : Math.max(min, Math.min(max, (int) Math.round(preferredNodes * scale)));
        return new AppModel(name, serialFraction, oneNodeSeconds, commSecondsPerLog2, iterations, min, max, pref, dataGiB,
                startSeconds, resizeFixedSeconds, checkPeriodSeconds);
    }

    /** This application with its one-node time chosen so that it runs {@code seconds} at {@code nodes}. */
    public AppModel runningFor(int nodes, double seconds) {
        double comm = commSecondsPerLog2 * log2(nodes) < seconds / 2 ? commSecondsPerLog2 : 0;
        double oneNode = (seconds - comm * log2(nodes)) / (serialFraction + (1 - serialFraction) / nodes);
        return new AppModel(name, serialFraction, oneNode, comm, iterations, minNodes, maxNodes, preferredNodes, dataGiB,
                startSeconds, resizeFixedSeconds, checkPeriodSeconds);
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }
}
