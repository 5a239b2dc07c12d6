package org.banyan.place;

import java.util.Arrays;

/**
 * Grouping for small levels: a branch-and-bound search over every partition into groups of the
 * arity, starting from the greedy grouping's value and pruning branches that cannot beat the
 * best so far (the bound: everything still unplaced could end up inside a group). Each partition
 * is visited once: a group always takes the lowest free process, then the rest in increasing
 * order. The search stops after {@code nodeBudget} nodes and keeps the best grouping found;
 * {@link #exact()} tells whether it finished.
 */
final class ExhaustiveGrouping implements Grouping {
    /** Sizes up to this are searched (beyond, even a pruned search rarely ends within its budget; and free sets stay one long). */
    static final int MAX_SIZE = 32;
    private static final double EPS = 1e-9;

    private final Grouping start;
    private final long nodeBudget;
    private boolean exact;

    private double[][] w;
    private int arity;
    private int[][] current;
    private int[][] best;
    private double bestInside;
    private long nodes;

    ExhaustiveGrouping(Grouping start, long nodeBudget) {
        this.start = start;
        this.nodeBudget = nodeBudget;
    }

    /** Partitions worth searching: beyond, the budget would run out before the search ends. */
    static final double MAX_PARTITIONS = 2e6;

    /** Whether a level of {@code size} members in groups of {@code arity} is small enough to search. */
    static boolean worthSearching(int size, int arity) {
        if (size > MAX_SIZE) {
            return false;
        }
        // size! / (arity!^groups · groups!), in logarithms
        int groups = size / arity;
        double log = logFactorial(size) - groups * logFactorial(arity) - logFactorial(groups);
        return log <= Math.log(MAX_PARTITIONS);
    }

    private static double logFactorial(int n) {
        double s = 0;
        for (int i = 2; i <= n; i++) {
            s += Math.log(i);
        }
        return s;
    }

    /** Whether the last {@link #group} call searched every partition. */
    boolean exact() {
        return exact;
    }

    @Override
    public int[][] group(CommMatrix m, int arity) {
        int p = m.size();
        if (p > MAX_SIZE) {
            throw new IllegalArgumentException("an exhaustive grouping of " + p + " processes");
        }
        best = start.group(m, arity);
        bestInside = Grouping.inside(m, best);
        if (arity == 1 || arity == p) {
            exact = true;
            return best;
        }
        this.arity = arity;
        w = new double[p][p];
        for (int i = 0; i < p; i++) {
            for (int k = 0; k < m.degree(i); k++) {
                w[i][m.neighbour(i, k)] = m.weight(i, k);
            }
        }
        current = new int[p / arity][arity];
        nodes = 0;
        exact = search(0, (1L << p) - 1, 0, m.total());
        for (int[] g : best) {
            Arrays.sort(g);
        }
        return best;
    }

    /** Fills group {@code g} onward; false when the budget ran out. */
    private boolean search(int g, long free, double inside, double remaining) {
        if (++nodes > nodeBudget) {
            return false;
        }
        if (free == 0) {
            if (inside > bestInside + EPS) {
                bestInside = inside;
                for (int i = 0; i < current.length; i++) {
                    best[i] = current[i].clone();
                }
            }
            return true;
        }
        if (inside + remaining <= bestInside + EPS) {
            return true;
        }
        int first = Long.numberOfTrailingZeros(free);
        current[g][0] = first;
        return choose(g, 1, free & ~(1L << first), first, 0, inside, remaining);
    }

    /** Picks member {@code filled} of group g among free processes above {@code after}. */
    private boolean choose(int g, int filled, long free, int after, double groupInside, double inside, double remaining) {
        if (filled == arity) {
            // the traffic of this group's members with the still-free processes can no longer be inside
            double lost = 0;
            for (int member : current[g]) {
                for (long f = free; f != 0; f &= f - 1) {
                    lost += w[member][Long.numberOfTrailingZeros(f)];
                }
            }
            return search(g + 1, free, inside + groupInside, remaining - groupInside - lost);
        }
        int need = arity - filled;
        for (long f = free & -1L << (after + 1); Long.bitCount(f) >= need; f &= f - 1) {
            int x = Long.numberOfTrailingZeros(f);
            double add = 0;
            for (int i = 0; i < filled; i++) {
                add += w[current[g][i]][x];
            }
            current[g][filled] = x;
            if (!choose(g, filled + 1, free & ~(1L << x), x, groupInside + add, inside, remaining)) {
                return false;
            }
        }
        return true;
    }
}
