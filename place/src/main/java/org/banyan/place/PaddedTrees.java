package org.banyan.place;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.banyan.topo.Topology;

/**
 * Placing on a machine whose tree has holes ({@link Topology#HOLE}: padding of an unbalanced
 * machine, PUs offline or not allowed). When the usable leaves still form a balanced tree (every
 * object of a level holds the same number of children with a usable leaf: a cgroup of whole
 * packages, one thread of every core) TreeMatch runs on that tree as it is ({@link #compressed}).
 * Otherwise it runs on the padded tree, and the processes it put on holes move to the free
 * usable leaves that cost them least ({@link #repaired}), after which moves and swaps that lower
 * SUM_COM are made while any is found, within a budget ({@link #refined}).
 */
final class PaddedTrees {
    /** Pair evaluations allowed to {@link #refined}. */
    private static final long REFINE_BUDGET = 20_000_000L;

    private PaddedTrees() {}

    /** A balanced tree of the usable leaves, and the leaf of the padded tree each of its leaves is. */
    record Compressed(Topology topology, int[] originalLeaf) {}

    /** The usable leaves as a balanced tree of the same levels, or null when they do not form one. */
    static Compressed compressed(Topology t) {
        int[] arities = new int[t.depth()];
        for (int d = 0; d < t.depth(); d++) {
            int[] usableInChild = t.usableUnder(d); // per object of level d
            int perParent = t.levels().get(d).arity();
            int arity = -1;
            for (int parent = 0; parent < usableInChild.length / perParent; parent++) {
                int nonEmpty = 0;
                for (int c = 0; c < perParent; c++) {
                    nonEmpty += usableInChild[parent * perParent + c] > 0 ? 1 : 0;
                }
                if (nonEmpty == 0) {
                    continue; // a hole's subtree: not in the compressed tree
                }
                if (arity >= 0 && nonEmpty != arity) {
                    return null;
                }
                arity = nonEmpty;
            }
            arities[d] = arity;
        }
        List<Topology.Level> levels = new ArrayList<>();
        for (int d = 0; d < t.depth(); d++) {
            Topology.Level l = t.levels().get(d);
            levels.add(new Topology.Level(l.name(), arities[d], l.cost()));
        }
        int[] original = new int[t.usableLeaves()];
        int[] os = new int[original.length];
        for (int leaf = 0, k = 0; leaf < t.leaves(); leaf++) {
            if (t.usable(leaf)) {
                original[k] = leaf;
                os[k++] = t.leafOsIndex()[leaf];
            }
        }
        return new Compressed(new Topology(levels, os), original);
    }

    /** What process {@code i} costs on {@code leaf}, against the others where they are (ignoring {@code except}). */
    private static double costAt(CommMatrix m, Topology t, int[] leafOf, int i, int leaf, int except) {
        double c = 0;
        for (int k = 0; k < m.degree(i); k++) {
            int j = m.neighbour(i, k);
            if (j != except) {
                c += m.weight(i, k) * t.cost(leaf, leafOf[j]);
            }
        }
        return c;
    }

    /** The placement with every process on a hole moved to the free usable leaf where it costs least. */
    static int[] repaired(CommMatrix m, Topology t, int[] leafOf) {
        int[] out = leafOf.clone();
        boolean[] taken = new boolean[t.leaves()];
        for (int leaf : out) {
            taken[leaf] = true;
        }
        for (int i = 0; i < out.length; i++) {
            if (t.usable(out[i])) {
                continue;
            }
            int best = -1;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int leaf = 0; leaf < t.leaves(); leaf++) {
                if (!taken[leaf] && t.usable(leaf)) {
                    double c = costAt(m, t, out, i, leaf, i);
                    if (c < bestCost - 1e-12) {
                        bestCost = c;
                        best = leaf;
                    }
                }
            }
            taken[out[i]] = false;
            out[i] = best;
            taken[best] = true;
        }
        return out;
    }

    /**
     * The placement improved by moving a process to a free usable leaf or swapping two processes
     * while that lowers SUM_COM (first improvement, in process order), within a budget.
     */
    static int[] refined(CommMatrix m, Topology t, int[] leafOf) {
        int[] out = leafOf.clone();
        int[] onLeaf = new int[t.leaves()];
        Arrays.fill(onLeaf, -1);
        for (int i = 0; i < out.length; i++) {
            onLeaf[out[i]] = i;
        }
        long budget = REFINE_BUDGET;
        boolean improved = true;
        while (improved && budget > 0) {
            improved = false;
            for (int i = 0; i < out.length && budget > 0; i++) {
                if (m.degree(i) == 0) {
                    continue;
                }
                double here = costAt(m, t, out, i, out[i], i);
                for (int leaf = 0; leaf < t.leaves() && budget > 0; leaf++) {
                    if (leaf == out[i] || !t.usable(leaf)) {
                        continue;
                    }
                    int j = onLeaf[leaf];
                    budget -= m.degree(i) + (j >= 0 ? m.degree(j) : 0);
                    double gain;
                    if (j < 0) {
                        gain = here - costAt(m, t, out, i, leaf, i);
                    } else { // i and j trade leaves: their own traffic keeps its cost
                        gain = costAt(m, t, out, i, out[i], j) + costAt(m, t, out, j, leaf, i)
                                - costAt(m, t, out, i, leaf, j) - costAt(m, t, out, j, out[i], i);
                    }
                    if (gain > 1e-9) {
                        int from = out[i];
                        out[i] = leaf;
                        onLeaf[leaf] = i;
                        onLeaf[from] = j;
                        if (j >= 0) {
                            out[j] = from;
                        }
                        here = costAt(m, t, out, i, out[i], i);
                        improved = true;
                    }
                }
            }
        }
        return out;
    }
}
