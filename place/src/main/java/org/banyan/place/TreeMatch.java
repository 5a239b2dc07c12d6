package org.banyan.place;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.banyan.topo.Topology;

/**
 * TreeMatch (Jeannot, Mercier, Tessier): maps the processes of a communication matrix onto the
 * leaves of a topology tree so that heavy talkers meet low in the tree. Written from the
 * published algorithm: from the leaves up, the processes are grouped by the arity of each level
 * (padding with dummy processes that do not communicate when the count does not divide), the
 * matrix is aggregated over the groups, and the groups are grouped again at the level above,
 * until one group is left; the tree of groups is then laid onto the topology, child by child.
 *
 * <p>Each level is grouped exhaustively (branch and bound, {@link ExhaustiveGrouping}) when it
 * has few enough partitions ({@link ExhaustiveGrouping#worthSearching}), and greedily with swap refinement
 * ({@link GreedyGrouping}) above. The same methods also split the processes from the root down
 * ({@link TopDownPartition}); the placement with the lower SUM_COM is kept. A machine with holes
 * (unbalanced, or with PUs that may not be used) is placed as {@link PaddedTrees} says, and no
 * process ever lands on a hole. The result is never worse (SUM_COM) than the reference
 * placements round-robin and by-node ({@link ReferencePlacements}), which are kept instead when
 * they are cheaper. Deterministic: the same input gives the same placement.
 */
public final class TreeMatch {
    /** Neighbour visits allowed to the swap passes of one level. */
    private static final long REFINE_BUDGET = 40_000_000L;
    /** Search nodes allowed to the branch and bound of one level. */
    private static final long SEARCH_BUDGET = 500_000L;

    /**
     * A placement.
     *
     * @param leafOf       per process, the topology leaf it goes to
     * @param exactLevels  levels whose grouping was searched exhaustively to the end
     * @param levels       levels grouped (those of arity above 1)
     * @param kept         which placement was the cheapest and kept
     */
    public record Result(int[] leafOf, int exactLevels, int levels, Kept kept) {}

    /** The placements {@link #map} chooses among. */
    public enum Kept {
        /** TreeMatch's grouping from the leaves up. */
        BOTTOM_UP,
        /** TreeMatch's partition from the root down ({@link TopDownPartition}). */
        TOP_DOWN,
        /** The reference {@link ReferencePlacements#roundRobin}, cheaper than both. */
        ROUND_ROBIN,
        /** The reference {@link ReferencePlacements#byNode}, cheaper than both. */
        BY_NODE
    }

    private TreeMatch() {}

    /**
     * Places the matrix's processes on the topology's usable leaves (levels of arity 1 are skipped).
     *
     * @throws IllegalArgumentException when there are more processes than usable leaves
     */
    public static Result map(CommMatrix matrix, Topology topology) {
        int n = matrix.size();
        ReferencePlacements.fits(n, topology);
        Result own;
        if (!topology.hasHoles()) {
            own = balanced(matrix, topology);
        } else {
            PaddedTrees.Compressed c = PaddedTrees.compressed(topology);
            if (c != null) {
                Result r = balanced(matrix, c.topology());
                int[] leafOf = new int[n];
                for (int i = 0; i < n; i++) {
                    leafOf[i] = c.originalLeaf()[r.leafOf()[i]];
                }
                own = new Result(leafOf, r.exactLevels(), r.levels(), r.kept());
            } else {
                Result r = balanced(matrix, topology);
                int[] leafOf = PaddedTrees.refined(matrix, topology, PaddedTrees.repaired(matrix, topology, r.leafOf()));
                own = new Result(leafOf, r.exactLevels(), r.levels(), r.kept());
            }
        }
        double cost = PlacementCost.of(matrix, topology, own.leafOf()).sumCom();
        Result best = own;
        for (Kept k : List.of(Kept.ROUND_ROBIN, Kept.BY_NODE)) {
            int[] ref = k == Kept.ROUND_ROBIN ? ReferencePlacements.roundRobin(n, topology) : ReferencePlacements.byNode(n, topology);
            double c = PlacementCost.of(matrix, topology, ref).sumCom();
            if (c < cost - 1e-9 * Math.max(1, cost)) {
                cost = c;
                best = new Result(ref, own.exactLevels(), own.levels(), k);
            }
        }
        return best;
    }

    /** TreeMatch proper, on a tree whose every leaf may be used (or, padded, before its repair). */
    private static Result balanced(CommMatrix matrix, Topology topology) {
        int n = matrix.size();
        List<Topology.Level> levels = topology.levels();
        GreedyGrouping greedy = new GreedyGrouping(REFINE_BUDGET);
        // groups.get(d): for level d (from the root), the members of each group formed there
        List<int[][]> groupsAt = new ArrayList<>();
        for (int d = 0; d < levels.size(); d++) {
            groupsAt.add(null);
        }
        CommMatrix current = matrix;
        int real = n;
        int exact = 0;
        int grouped = 0;
        for (int d = levels.size() - 1; d >= 0; d--) {
            int arity = levels.get(d).arity();
            int count = (real + arity - 1) / arity;
            CommMatrix padded = current.padded(count * arity);
            int[][] groups;
            if (arity == 1) {
                groups = GreedyGrouping.trivial(padded.size(), 1);
            } else {
                grouped++;
                if (ExhaustiveGrouping.worthSearching(padded.size(), arity)) {
                    ExhaustiveGrouping search = new ExhaustiveGrouping(greedy, SEARCH_BUDGET);
                    groups = search.group(padded, arity);
                    exact += search.exact() ? 1 : 0;
                } else {
                    groups = greedy.group(padded, arity);
                }
            }
            orderByFirstMember(groups);
            groupsAt.set(d, groups);
            current = padded.aggregate(Grouping.groupOf(groups, padded.size()), groups.length);
            real = count;
        }
        int[] leafOf = new int[n];
        lay(groupsAt, 0, 0, 0, topology, n, leafOf);
        int[] down = TopDownPartition.map(matrix, topology, greedy, SEARCH_BUDGET);
        if (PlacementCost.of(matrix, topology, down).sumCom() < PlacementCost.of(matrix, topology, leafOf).sumCom() - 1e-9) {
            return new Result(down, exact, grouped, Kept.TOP_DOWN);
        }
        return new Result(leafOf, exact, grouped, Kept.BOTTOM_UP);
    }

    /**
     * Sorts members (by index, so real before dummy) and groups (by their first member), so that
     * where traffic does not decide, the placement follows rank order.
     */
    private static void orderByFirstMember(int[][] groups) {
        for (int[] g : groups) {
            Arrays.sort(g);
        }
        Arrays.sort(groups, (x, y) -> Integer.compare(x[0], y[0]));
    }

    /** Puts entity {@code entity} of level d's groups (a group of level d, or a process) under leaf {@code base}. */
    private static void lay(List<int[][]> groupsAt, int d, int entity, int base, Topology t, int n, int[] leafOf) {
        if (d == groupsAt.size()) {
            if (entity < n) {
                leafOf[entity] = base;
            }
            return;
        }
        int[][] groups = groupsAt.get(d);
        if (entity >= groups.length) {
            return; // a dummy group: an empty subtree
        }
        int below = t.leavesUnder(d);
        int[] members = groups[entity];
        for (int c = 0; c < members.length; c++) {
            lay(groupsAt, d + 1, members[c], base + c * below, t, n, leafOf);
        }
    }
}
