package org.banyan.core.pilot;

import java.util.HashMap;
import java.util.Map;

/**
 * How many tasks the agent queues behind each running task of one shape: as many as run, on
 * average, within {@link #HORIZON_MICROS}, between 1 and the pilot's maximum. Deep chains keep
 * short tasks' cores busy while ends and new tasks travel between daemon and head (on two busy
 * cores, chains of 6-10 ran a fifth more /bin/true tasks a second than chains of 3); a task
 * submitted later with a higher priority waits behind every queued one, so behind long tasks
 * the chains stay short. Until a task of the shape has ended, {@link #UNKNOWN} (capped by the
 * maximum). The mean is a moving one, so a bag whose tasks grow longer gets shorter chains.
 */
final class ChainDepth {
    /** The mean time a task may wait in a chain before it starts. */
    static final long HORIZON_MICROS = 10_000;
    /** The depth for a shape no task of which has ended yet. */
    static final int UNKNOWN = 3;
    /** Weight of the newest run time in the moving mean. */
    private static final double WEIGHT = 0.1;

    private final int max;
    private final Map<SlotRequest, Double> meanMicros = new HashMap<>();

    /** @param max the deepest chain; 0: no queueing */
    ChainDepth(int max) {
        this.max = max;
    }

    int max() {
        return max;
    }

    /** How many tasks may wait behind a running task of this shape. */
    int of(SlotRequest shape) {
        Double mean = meanMicros.get(shape);
        if (mean == null) {
            return Math.min(UNKNOWN, max);
        }
        return max == 0 ? 0 : Math.clamp((long) (HORIZON_MICROS / Math.max(1.0, mean)), 1, max);
    }

    /** A task of this shape ran for {@code micros} (from its start to its end on its node). */
    void ran(SlotRequest shape, long micros) {
        if (micros <= 0) {
            return; // not known (an MPI task's job, a task that never started)
        }
        meanMicros.merge(shape, (double) micros, (old, now) -> old + WEIGHT * (now - old));
    }
}
