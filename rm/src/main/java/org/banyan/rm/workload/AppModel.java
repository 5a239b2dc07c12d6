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
 */
public record AppModel(String name, double serialFraction, double oneNodeSeconds, double commSecondsPerLog2, int iterations,
                       int minNodes, int maxNodes, int preferredNodes, double dataGiB) {
    /** Spawning or ending ranks, besides moving data. */
    static final double RESIZE_FIXED_SECONDS = 0.3;
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
        return RESIZE_FIXED_SECONDS + dataGiB / (Math.min(from, to) * GIB_PER_SECOND_PER_NODE);
    }

    /** This application submitted at {@code maxNodes} instead (its minimum and preferred scaled along). */
    public AppModel withMax(int max) {
        double scale = (double) max / maxNodes;
        int min = Math.max(1, (int) Math.round(minNodes * scale));
        int pref = preferredNodes == 0 ? 0 : Math.max(min, Math.min(max, (int) Math.round(preferredNodes * scale)));
        return new AppModel(name, serialFraction, oneNodeSeconds, commSecondsPerLog2, iterations, min, max, pref, dataGiB);
    }

    /** This application with its one-node time chosen so that it runs {@code seconds} at {@code nodes}. */
    public AppModel runningFor(int nodes, double seconds) {
        double comm = commSecondsPerLog2 * log2(nodes) < seconds / 2 ? commSecondsPerLog2 : 0;
        double oneNode = (seconds - comm * log2(nodes)) / (serialFraction + (1 - serialFraction) / nodes);
        return new AppModel(name, serialFraction, oneNode, comm, iterations, minNodes, maxNodes, preferredNodes, dataGiB);
    }

    private static double log2(int n) {
        return Math.log(n) / Math.log(2);
    }
}
