package org.banyan.place;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * Grouping for large levels: grow each group from a seed by adding free processes connected to
 * it, then improve the grouping by swaps between groups that keep more traffic inside. Two seed
 * orders are tried (rank order, which suits patterns laid out in rank order, and peripheral
 * first, which suits the rest) and the better result is kept.
 *
 * <p>Cost: growing is O(size × arity × degree); the swap passes stop after {@code budget}
 * neighbour visits, so a dense matrix costs a bounded time too. Everything is deterministic:
 * ties go to the lower index and the budget counts work, not time.
 */
final class GreedyGrouping implements Grouping {
    private static final double EPS = 1e-9;
    private final long budget;

    GreedyGrouping(long budget) {
        this.budget = budget;
    }

    @Override
    public int[][] group(CommMatrix m, int arity) {
        int p = m.size();
        if (arity == 1 || arity == p) {
            return trivial(p, arity);
        }
        int[][] best = null;
        double bestInside = -1;
        for (boolean peripheral : new boolean[] {false, true}) {
            int[][] groups = grow(m, arity, peripheral);
            refine(m, groups, budget / 2);
            double in = Grouping.inside(m, groups);
            if (in > bestInside + EPS) {
                best = groups;
                bestInside = in;
            }
        }
        return best;
    }

    static int[][] trivial(int p, int arity) {
        int[][] g = new int[p / arity][arity];
        for (int i = 0; i < p; i++) {
            g[i / arity][i % arity] = i;
        }
        return g;
    }

    /**
     * Greedy graph growing: each group starts from a seed and takes, one at a time, the free
     * process that adds the most traffic inside the group net of what it leaves outside
     * ({@code 2 · to group − to free processes}). Seeds come in rank order, or (peripheral) as
     * the free process with the least traffic to other free ones, which grows groups from the
     * edge of what is left and leaves fewer fragments for the last groups.
     */
    private static int[][] grow(CommMatrix m, int arity, boolean peripheral) {
        int p = m.size();
        int[][] groups = new int[p / arity][arity];
        boolean[] taken = new boolean[p];
        double[] conn = new double[p];
        double[] free = new double[p];
        int[] cand = new int[p];
        boolean[] isCand = new boolean[p];
        PriorityQueue<double[]> seeds = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Double.compare(x[0], y[0])
                : Double.compare(x[1], y[1]));
        for (int i = 0; i < p; i++) {
            for (int k = 0; k < m.degree(i); k++) {
                free[i] += m.weight(i, k);
            }
            if (peripheral) {
                seeds.add(new double[] {free[i], i});
            }
        }
        int cursor = 0;
        for (int[] group : groups) {
            int nc = 0;
            int next;
            if (peripheral) {
                double[] top;
                do {
                    top = seeds.poll();
                } while (taken[(int) top[1]] || top[0] != free[(int) top[1]]);
                next = (int) top[1];
            } else {
                while (taken[cursor]) {
                    cursor++;
                }
                next = cursor;
            }
            for (int filled = 0; filled < arity; filled++) {
                if (filled > 0) {
                    next = -1;
                    double nextScore = 0;
                    for (int c = 0; c < nc; c++) {
                        int x = cand[c];
                        double score = 2 * conn[x] - free[x];
                        if (!taken[x] && (next < 0 || score > nextScore + EPS || (score > nextScore - EPS && x < next))) {
                            next = x;
                            nextScore = score;
                        }
                    }
                    if (next < 0) { // nothing connected is free: the lowest free process joins
                        while (taken[cursor]) {
                            cursor++;
                        }
                        next = cursor;
                    }
                }
                group[filled] = next;
                taken[next] = true;
                for (int k = 0; k < m.degree(next); k++) {
                    int j = m.neighbour(next, k);
                    if (!taken[j]) {
                        conn[j] += m.weight(next, k);
                        free[j] -= m.weight(next, k);
                        if (peripheral) {
                            seeds.add(new double[] {free[j], j});
                        }
                        if (!isCand[j]) {
                            isCand[j] = true;
                            cand[nc++] = j;
                        }
                    }
                }
            }
            for (int c = 0; c < nc; c++) {
                conn[cand[c]] = 0;
                isCand[cand[c]] = false;
            }
        }
        return groups;
    }

    /** Swaps that keep more traffic inside groups, until none helps or the budget is spent. */
    static void refine(CommMatrix m, int[][] groups, long budget) {
        int p = m.size();
        int[] groupOf = Grouping.groupOf(groups, p);
        int[] slotOf = new int[p];
        for (int[] g : groups) {
            for (int s = 0; s < g.length; s++) {
                slotOf[g[s]] = s;
            }
        }
        double[] toGroup = new double[groups.length];
        int[] touched = new int[groups.length];
        long work = 0;
        boolean improved = true;
        for (int pass = 0; pass < 20 && improved && work < budget; pass++) {
            improved = false;
            for (int u = 0; u < p && work < budget; u++) {
                int a = groupOf[u];
                int nt = 0;
                for (int k = 0; k < m.degree(u); k++) {
                    int g = groupOf[m.neighbour(u, k)];
                    if (toGroup[g] == 0) {
                        touched[nt++] = g;
                    }
                    toGroup[g] += m.weight(u, k);
                }
                work += m.degree(u);
                int target = -1;
                for (int t = 0; t < nt; t++) {
                    int g = touched[t];
                    if (g != a && toGroup[g] > toGroup[a] + EPS
                            && (target < 0 || toGroup[g] > toGroup[target] + EPS || (toGroup[g] > toGroup[target] - EPS && g < target))) {
                        target = g;
                    }
                }
                if (target >= 0) {
                    double gainU = toGroup[target] - toGroup[a];
                    int bestX = -1;
                    double bestGain = EPS;
                    for (int x : groups[target]) {
                        double gain = gainU + connection(m, x, groupOf, a) - connection(m, x, groupOf, target)
                                - 2 * m.between(u, x);
                        work += 2L * m.degree(x);
                        if (gain > bestGain) {
                            bestGain = gain;
                            bestX = x;
                        }
                    }
                    if (bestX >= 0) {
                        int su = slotOf[u];
                        int sx = slotOf[bestX];
                        groups[a][su] = bestX;
                        groups[target][sx] = u;
                        groupOf[u] = target;
                        groupOf[bestX] = a;
                        slotOf[u] = sx;
                        slotOf[bestX] = su;
                        improved = true;
                    }
                }
                for (int t = 0; t < nt; t++) {
                    toGroup[touched[t]] = 0;
                }
            }
        }
        for (int[] g : groups) {
            Arrays.sort(g);
        }
    }

    private static double connection(CommMatrix m, int x, int[] groupOf, int group) {
        double c = 0;
        for (int k = 0; k < m.degree(x); k++) {
            if (groupOf[m.neighbour(x, k)] == group) {
                c += m.weight(x, k);
            }
        }
        return c;
    }
}
