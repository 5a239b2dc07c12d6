package org.banyan.place;

/**
 * One step of TreeMatch: split the processes (or groups of the level below) of a matrix into
 * groups of {@code arity}, keeping as much of the communication as possible inside groups.
 * The matrix's size is a multiple of the arity (TreeMatch pads it with dummy processes).
 */
interface Grouping {
    /** {@code size / arity} groups of {@code arity} members each; every process in exactly one. */
    int[][] group(CommMatrix m, int arity);

    /** The communication kept inside groups by a grouping: what every grouping maximises. */
    static double inside(CommMatrix m, int[][] groups) {
        int[] groupOf = groupOf(groups, m.size());
        double in = 0;
        for (int i = 0; i < m.size(); i++) {
            for (int k = 0; k < m.degree(i); k++) {
                int j = m.neighbour(i, k);
                if (j > i && groupOf[j] == groupOf[i]) {
                    in += m.weight(i, k);
                }
            }
        }
        return in;
    }

    static int[] groupOf(int[][] groups, int size) {
        int[] of = new int[size];
        for (int g = 0; g < groups.length; g++) {
            for (int member : groups[g]) {
                of[member] = g;
            }
        }
        return of;
    }
}
