package org.banyan.comm;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A group of processes (MPI_Group): an ordered set, rank i being its i-th process. Made from a
 * communicator ({@link Comm#group()}) and from other groups; {@link Comm#create(Group)} makes a
 * communicator of one. Immutable; nothing is sent to make or combine groups.
 */
public final class Group {
    /** What {@link #rank()} and {@link #translateRanks} say for a process outside a group (MPI_UNDEFINED). */
    public static final int UNDEFINED = -32766;
    /** The members' world ranks, by rank in this group. */
    final int[] members;
    /** This process's world rank. */
    private final int me;

    Group(int[] members, int me) {
        this.members = members;
        this.me = me;
    }

    public int size() {
        return members.length;
    }

    /** This process's rank in the group, or {@link #UNDEFINED}. */
    public int rank() {
        return indexOf(me);
    }

    private int indexOf(int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return UNDEFINED;
    }

    /** MPI_Group_incl: the members of the given ranks, in that order. */
    public Group incl(int... ranks) {
        int[] m = new int[ranks.length];
        Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < ranks.length; i++) {
            check(ranks[i]);
            if (!seen.add(ranks[i])) {
                throw new IllegalArgumentException("rank " + ranks[i] + " is named twice");
            }
            m[i] = members[ranks[i]];
        }
        return new Group(m, me);
    }

    /** MPI_Group_excl: the members but the given ranks, in this group's order. */
    public Group excl(int... ranks) {
        Set<Integer> out = new java.util.HashSet<>();
        for (int r : ranks) {
            check(r);
            out.add(r);
        }
        return new Group(java.util.stream.IntStream.range(0, members.length).filter(i -> !out.contains(i)).map(i -> members[i])
                .toArray(), me);
    }

    /**
     * MPI_Group_range_incl: the members of the ranks each (first, last, stride) triple names, in
     * order ({@code {0, 6, 2}} is ranks 0, 2, 4 and 6; a negative stride counts down).
     */
    public Group rangeIncl(int[][] ranges) {
        return incl(expand(ranges));
    }

    /** MPI_Group_range_excl: the members but the ranks the triples name, in this group's order. */
    public Group rangeExcl(int[][] ranges) {
        return excl(expand(ranges));
    }

    private int[] expand(int[][] ranges) {
        java.util.List<Integer> ranks = new java.util.ArrayList<>();
        for (int[] t : ranges) {
            if (t.length != 3 || t[2] == 0) {
                throw new IllegalArgumentException("a range is (first, last, stride) with a stride other than 0, not "
                        + Arrays.toString(t));
            }
            check(t[0]);
            check(t[1]);
            for (long r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                ranks.add((int) r);
            }
        }
        return ranks.stream().mapToInt(Integer::intValue).toArray();
    }

    /** MPI_Group_union: this group's members, then the other's that are not in it. */
    public Group union(Group other) {
        Set<Integer> all = new LinkedHashSet<>();
        Arrays.stream(members).forEach(all::add);
        Arrays.stream(other.members).forEach(all::add);
        return new Group(all.stream().mapToInt(Integer::intValue).toArray(), me);
    }

    /** MPI_Group_intersection: this group's members that are also in the other, in this group's order. */
    public Group intersection(Group other) {
        return new Group(Arrays.stream(members).filter(w -> other.indexOf(w) != UNDEFINED).toArray(), me);
    }

    /** MPI_Group_difference: this group's members that are not in the other, in this group's order. */
    public Group difference(Group other) {
        return new Group(Arrays.stream(members).filter(w -> other.indexOf(w) == UNDEFINED).toArray(), me);
    }

    /** MPI_Group_translate_ranks: the ranks in {@code other} of the processes of these ranks here ({@link #UNDEFINED} when absent). */
    public int[] translateRanks(int[] ranks, Group other) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            check(ranks[i]);
            out[i] = other.indexOf(members[ranks[i]]);
        }
        return out;
    }

    /** MPI_Group_compare: IDENT (same members, same order), SIMILAR (same members), or UNEQUAL. */
    public Comparison compare(Group other) {
        if (Arrays.equals(members, other.members)) {
            return Comparison.IDENT;
        }
        int[] a = members.clone();
        int[] b = other.members.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? Comparison.SIMILAR : Comparison.UNEQUAL;
    }

    /** What {@link #compare} finds. */
    public enum Comparison { IDENT, SIMILAR, UNEQUAL }

    private void check(int rank) {
        if (rank < 0 || rank >= members.length) {
            throw new IllegalArgumentException("rank " + rank + " is out of range: the group has ranks 0 to " + (members.length - 1));
        }
    }

    @Override
    public String toString() {
        return "Group" + Arrays.toString(members);
    }
}
