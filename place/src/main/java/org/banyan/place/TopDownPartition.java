package org.banyan.place;

import java.util.Arrays;
import org.banyan.topo.Topology;

/**
 * The other direction: split the processes among the root's children (as many parts as needed,
 * each of at most the leaves under a child), then each part among its child's children, down to
 * the leaves, with the same grouping methods on the part's own matrix. Bottom-up grouping decides
 * the cheapest level first and the costliest last, on groups already formed; top-down decides the
 * costliest first, which suits matrices with geometry (stencils) better. {@link TreeMatch} runs
 * both and keeps the cheaper placement.
 */
final class TopDownPartition {
    private final CommMatrix m;
    private final Topology t;
    private final Grouping greedy;
    private final long searchBudget;
    private final int[] leafOf;
    private final int[] localOf;

    private TopDownPartition(CommMatrix m, Topology t, Grouping greedy, long searchBudget) {
        this.m = m;
        this.t = t;
        this.greedy = greedy;
        this.searchBudget = searchBudget;
        this.leafOf = new int[m.size()];
        this.localOf = new int[m.size()];
        Arrays.fill(localOf, -1);
    }

    static int[] map(CommMatrix m, Topology t, Grouping greedy, long searchBudget) {
        TopDownPartition p = new TopDownPartition(m, t, greedy, searchBudget);
        int[] all = new int[m.size()];
        Arrays.setAll(all, i -> i);
        p.split(all, 0, 0);
        return p.leafOf;
    }

    private void split(int[] members, int depth, int base) {
        if (depth == t.depth()) {
            leafOf[members[0]] = base;
            return;
        }
        int cap = t.leavesUnder(depth);
        if (members.length <= cap) { // fits under one child: keep it packed
            split(members, depth + 1, base);
            return;
        }
        int parts = (members.length + cap - 1) / cap;
        CommMatrix sub = induced(members).padded(parts * cap);
        int[][] groups;
        if (ExhaustiveGrouping.worthSearching(sub.size(), cap)) {
            groups = new ExhaustiveGrouping(greedy, searchBudget).group(sub, cap);
        } else {
            groups = greedy.group(sub, cap);
        }
        for (int[] g : groups) {
            Arrays.sort(g);
        }
        Arrays.sort(groups, (x, y) -> Integer.compare(x[0], y[0]));
        for (int c = 0; c < groups.length; c++) {
            int[] real = Arrays.stream(groups[c]).filter(i -> i < members.length).map(i -> members[i]).toArray();
            if (real.length > 0) {
                split(real, depth + 1, base + c * cap);
            }
        }
    }

    /** The matrix among {@code members}, numbered by their position. */
    private CommMatrix induced(int[] members) {
        for (int i = 0; i < members.length; i++) {
            localOf[members[i]] = i;
        }
        CommMatrix.Builder b = new CommMatrix.Builder(members.length);
        for (int i = 0; i < members.length; i++) {
            int g = members[i];
            for (int k = 0; k < m.degree(g); k++) {
                int j = localOf[m.neighbour(g, k)];
                if (j > i) {
                    b.add(i, j, m.weight(g, k));
                }
            }
        }
        for (int g : members) {
            localOf[g] = -1;
        }
        return b.build();
    }
}
