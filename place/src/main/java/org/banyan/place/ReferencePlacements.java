package org.banyan.place;

import java.util.SplittableRandom;
import org.banyan.topo.Topology;

/**
 * The placements TreeMatch is compared with: what launchers do when told nothing. On a machine
 * with holes ({@link Topology#HOLE}) they count usable leaves only, as mpirun counts the PUs it
 * may use.
 */
public final class ReferencePlacements {
    private ReferencePlacements() {}

    /** Rank i on the i-th usable leaf: each host (socket, core) filled in turn, mpirun's {@code --map-by slot}. */
    public static int[] roundRobin(int n, Topology t) {
        fits(n, t);
        int[] leafOf = new int[n];
        for (int leaf = 0, i = 0; i < n; leaf++) {
            if (t.usable(leaf)) {
                leafOf[i++] = leaf;
            }
        }
        return leafOf;
    }

    /**
     * One rank per host in turn, mpirun's {@code --map-by node}: the hosts are the objects of the
     * level named {@code host} (the root's children when there is none); a host whose usable
     * leaves are all taken is passed over.
     */
    public static int[] byNode(int n, Topology t) {
        fits(n, t);
        int level = Math.max(0, t.levelNamed("host"));
        int per = t.leavesUnder(level);
        int hosts = t.leaves() / per;
        int[] next = new int[hosts]; // per host, the next leaf to look at
        for (int h = 0; h < hosts; h++) {
            next[h] = h * per;
        }
        int[] leafOf = new int[n];
        for (int i = 0, h = 0; i < n; h = (h + 1) % hosts) {
            while (next[h] < (h + 1) * per && !t.usable(next[h])) {
                next[h]++;
            }
            if (next[h] < (h + 1) * per) {
                leafOf[i++] = next[h]++;
            }
        }
        return leafOf;
    }

    /** A uniformly random choice of distinct usable leaves, from a fixed seed. */
    public static int[] random(int n, Topology t, long seed) {
        fits(n, t);
        int[] leaves = java.util.stream.IntStream.range(0, t.leaves()).filter(t::usable).toArray();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            int j = i + r.nextInt(leaves.length - i);
            int x = leaves[i];
            leaves[i] = leaves[j];
            leaves[j] = x;
        }
        return java.util.Arrays.copyOf(leaves, n);
    }

    static void fits(int n, Topology t) {
        int usable = t.usableLeaves();
        if (n > usable) {
            throw new IllegalArgumentException(n + " processes for the " + usable + (usable < t.leaves() ? " usable" : "")
                    + " places of " + t);
        }
    }
}
