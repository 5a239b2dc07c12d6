package org.banyan.rm;

/**
 * A job as the resource manager sees it: how many nodes it can run on and how it likes to
 * change. Sizes a malleable job may take go from {@code minNodes} by {@code factor} (2: doubling
 * and halving, the seed's case; 1: any size) up to {@code maxNodes}; a rigid job has
 * {@code minNodes == maxNodes}. Jobs are submitted at their maximum size and started there.
 *
 * @param id              the job's number
 * @param minNodes        the fewest nodes it runs on
 * @param maxNodes        the most nodes it can use (its submitted size)
 * @param preferredNodes  the size it runs best at, or 0 for none
 * @param factor          the step between sizes (≥ 1)
 * @param walltimeSeconds the user's run-time estimate at the submitted size (for backfill)
 */
public record JobRequest(int id, int minNodes, int maxNodes, int preferredNodes, int factor, double walltimeSeconds) {
    public JobRequest {
        if (minNodes < 1) {
            throw new IllegalArgumentException("job " + id + ": the minimum is " + minNodes + " nodes; it must be at least 1");
        }
        if (maxNodes < minNodes) {
            throw new IllegalArgumentException("job " + id + ": the maximum (" + maxNodes + ") is below the minimum (" + minNodes
                    + ")");
        }
        if (factor < 1) {
            throw new IllegalArgumentException("job " + id + ": the factor is " + factor + "; it must be at least 1");
        }
        if (preferredNodes != 0 && (preferredNodes < minNodes || preferredNodes > maxNodes)) {
            throw new IllegalArgumentException("job " + id + ": the preferred size " + preferredNodes + " is outside "
                    + minNodes + ".." + maxNodes);
        }
        if (factor > 1 && !reachable(minNodes, maxNodes, factor)) {
            throw new IllegalArgumentException("job " + id + ": " + maxNodes + " is not " + minNodes + " times a power of "
                    + factor);
        }
        if (preferredNodes != 0 && factor > 1 && !reachable(minNodes, preferredNodes, factor)) {
            throw new IllegalArgumentException("job " + id + ": the preferred size " + preferredNodes + " is not " + minNodes
                    + " times a power of " + factor);
        }
        if (!(walltimeSeconds > 0)) {
            throw new IllegalArgumentException("job " + id + ": the run-time estimate must be positive");
        }
    }

    /** Whether {@code to} is {@code from} times a power of {@code factor} (factor 1: any size up). */
    public static boolean reachable(int from, int to, int factor) {
        if (factor == 1) {
            return to >= from;
        }
        long s = from;
        while (s < to) {
            s *= factor;
        }
        return s == to;
    }

    public boolean malleable() {
        return maxNodes > minNodes;
    }

    /** The next size up from {@code size}, or {@code size} when it is the maximum. */
    public int up(int size) {
        return Math.min(maxNodes, factor == 1 ? size + 1 : size * factor);
    }

    /** The next size down from {@code size}, or {@code size} when it is the minimum. */
    public int down(int size) {
        return Math.max(minNodes, factor == 1 ? size - 1 : size / factor);
    }
}
