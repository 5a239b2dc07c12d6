package org.banyan.sim;

import org.banyan.core.job.Modex;

/**
 * What simulated ranks do over PMI-1 before ending, the way an MPI library wires up: each rank
 * puts one value of {@code valueBytes} bytes, enters a fence, then gets the values it needs.
 *
 * @param modex      the job's modex mode
 * @param valueBytes size of each rank's value
 * @param gets       which values each rank reads after the fence
 */
public record ModexWorkload(Modex modex, int valueBytes, Gets gets) {
    public enum Gets {
        /** The two neighbours in rank order (a ring), as a nearest-neighbour code needs. */
        NEIGHBOURS,
        /** Every rank's, as an all-to-all address exchange does. */
        ALL
    }

    public ModexWorkload {
        if (valueBytes < 1 || valueBytes > 1024) {
            throw new IllegalArgumentException("value size must be 1 to 1024 bytes (PMI-1's vallen_max)");
        }
    }
}
