package org.banyan.core.dvm;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Which cores of each DVM host the running bound jobs hold, so that two jobs bound with
 * {@code --bind-to} never share a core (PRRTE's DVM keeps the same account). The scheduler
 * counts free cores; this picks which ones: the lowest a bound job does not hold. Jobs that do
 * not bind take none, as the kernel moves them anyway.
 */
final class BoundCores {
    private final Map<Integer, BitSet> heldOn = new HashMap<>();
    private final Map<Integer, int[][]> byJob = new HashMap<>();

    /**
     * Gives job {@code jobId} {@code wanted[i]} cores on host {@code i}, of the
     * {@code cores[i]} it has, and returns them per host (null where it wants none). A host with
     * fewer free than wanted (more slots than cores, or oversubscribed) repeats its free cores,
     * then all of them.
     */
    int[][] take(int jobId, int[] wanted, int[] cores) {
        int[][] out = new int[wanted.length][];
        int[][] taken = new int[wanted.length][];
        for (int i = 0; i < wanted.length; i++) {
            if (wanted[i] <= 0) {
                continue;
            }
            BitSet held = heldOn.computeIfAbsent(i, k -> new BitSet());
            int[] mine = new int[Math.min(wanted[i], Math.max(1, cores[i]))];
            int n = 0;
            for (int c = held.nextClearBit(0); c < cores[i] && n < mine.length; c = held.nextClearBit(c + 1)) {
                mine[n++] = c;
            }
            if (n == 0) {
                mine = allOf(cores[i]); // every core is held: share them all rather than pile on core 0
            } else {
                mine = java.util.Arrays.copyOf(mine, n);
                for (int c : mine) {
                    held.set(c);
                }
                taken[i] = mine;
            }
            out[i] = mine;
        }
        byJob.put(jobId, taken);
        return out;
    }

    /** Job {@code jobId} has ended: its cores are free for the next bound job. */
    void release(int jobId) {
        int[][] mine = byJob.remove(jobId);
        if (mine == null) {
            return;
        }
        for (int i = 0; i < mine.length; i++) {
            if (mine[i] == null) {
                continue;
            }
            for (int c : mine[i]) {
                heldOn.get(i).clear(c);
            }
        }
    }

    private static int[] allOf(int cores) {
        int[] all = new int[Math.max(1, cores)];
        for (int c = 0; c < all.length; c++) {
            all[c] = c;
        }
        return all;
    }
}
