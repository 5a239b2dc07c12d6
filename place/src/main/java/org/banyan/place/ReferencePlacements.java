package org.banyan.place;

import java.util.SplittableRandom;
import org.banyan.topo.Topology;

/** The placements TreeMatch is compared with: what launchers do when told nothing. */
public final class ReferencePlacements {
    private ReferencePlacements() {}

    /** Rank i on leaf i: each host (socket, core) filled in turn, mpirun's {@code --map-by slot}. */
    public static int[] roundRobin(int n, Topology t) {
        fits(n, t);
        int[] leafOf = new int[n];
        for (int i = 0; i < n; i++) {
            leafOf[i] = i;
        }
        return leafOf;
    }

    /**
     * One rank per host in turn, mpirun's {@code --map-by node}: the hosts are the objects of the
     * level named {@code host} (the root's children when there is none).
     */
    public static int[] byNode(int n, Topology t) {
        fits(n, t);
        int level = Math.max(0, t.levelNamed("host"));
        int per = t.leavesUnder(level);
        int hosts = t.leaves() / per;
        int[] leafOf = new int[n];
        for (int i = 0; i < n; i++) {
            leafOf[i] = (i % hosts) * per + i / hosts;
        }
        return leafOf;
    }

    /** A uniformly random choice of distinct leaves, from a fixed seed. */
    public static int[] random(int n, Topology t, long seed) {
        fits(n, t);
        int[] leaves = new int[t.leaves()];
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = i;
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            int j = i + r.nextInt(leaves.length - i);
            int x = leaves[i];
            leaves[i] = leaves[j];
            leaves[j] = x;
        }
        return java.util.Arrays.copyOf(leaves, n);
    }

    private static void fits(int n, Topology t) {
        if (n > t.leaves()) {
            throw new IllegalArgumentException(n + " processes for the " + t.leaves() + " places of " + t);
        }
    }
}
