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
        int[] touched = new int[p];
        // lazy heaps: an entry is current while its score is the process's score and it is free
        PriorityQueue<double[]> seeds = new PriorityQueue<>(GreedyGrouping::bySmallScoreThenIndex);
        // ties go to the candidate found first: growth then proceeds in rings around the seed
        // (compact groups) instead of along the rank order (strips)
        PriorityQueue<double[]> cand = new PriorityQueue<>(GreedyGrouping::byLargeScoreThenFound);
        int[] found = new int[p];
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
            int nt = 0;
            cand.clear();
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
                    while (!cand.isEmpty()) {
                        double[] top = cand.poll();
                        int x = (int) top[1];
                        if (!taken[x] && top[0] == 2 * conn[x] - free[x]) {
                            next = x;
                            break;
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
                        if (conn[j] == 0) {
                            found[j] = nt;
                            touched[nt++] = j;
                        }
                        conn[j] += m.weight(next, k);
                        free[j] -= m.weight(next, k);
                        if (peripheral) {
                            seeds.add(new double[] {free[j], j});
                        }
                        cand.add(new double[] {2 * conn[j] - free[j], j, found[j]});
                    }
                }
            }
            for (int t = 0; t < nt; t++) {
                conn[touched[t]] = 0;
            }
        }
        return groups;
    }

    private static int bySmallScoreThenIndex(double[] x, double[] y) {
        return x[0] != y[0] ? Double.compare(x[0], y[0]) : Double.compare(x[1], y[1]);
    }

    private static int byLargeScoreThenFound(double[] x, double[] y) {
        return x[0] != y[0] ? Double.compare(y[0], x[0]) : Double.compare(x[2], y[2]);
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
                    for (int x : candidates(m, u, groups[target], groupOf, target)) {
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

    /**
     * Who u may swap with in group {@code target}: every member of a small group; in a large one
     * the members within two links of u (its neighbours there and theirs), where the gains are.
     */
    private static int[] candidates(CommMatrix m, int u, int[] target, int[] groupOf, int group) {
        if (target.length <= 64) {
            return target;
        }
        java.util.LinkedHashSet<Integer> near = new java.util.LinkedHashSet<>();
        for (int k = 0; k < m.degree(u); k++) {
            int v = m.neighbour(u, k);
            if (groupOf[v] == group) {
                near.add(v);
            }
            for (int l = 0; l < m.degree(v) && near.size() < 64; l++) {
                int x = m.neighbour(v, l);
                if (groupOf[x] == group) {
                    near.add(x);
                }
            }
        }
        if (near.isEmpty()) { // u's partners are all elsewhere: any member that talks least to its group will do
            near.add(target[0]);
        }
        return near.stream().mapToInt(Integer::intValue).toArray();
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
