package org.banyan.place;

import java.util.Arrays;

/**
 * How much each pair of processes communicates, symmetrised ({@code w(i,j) = m(i,j) + m(j,i)},
 * the diagonal dropped) and stored sparse: the neighbours of process i are
 * {@code neighbour[start[i] .. start[i + 1])} with their weights, in increasing order. Sparse
 * because the patterns worth placing (stencils, trees) have a few partners per process, and a
 * dense 65,536-process matrix would not fit; an all-to-all matrix costs 12 bytes a pair.
 */
public final class CommMatrix {
    private final int size;
    private final int[] start;
    private final int[] neighbour;
    private final double[] weight;

    private CommMatrix(int size, int[] start, int[] neighbour, double[] weight) {
        this.size = size;
        this.start = start;
        this.neighbour = neighbour;
        this.weight = weight;
    }

    /** From a dense directed matrix (row sends to column). */
    public static CommMatrix of(long[][] m) {
        Builder b = new Builder(m.length);
        for (int i = 0; i < m.length; i++) {
            if (m[i].length != m.length) {
                throw new IllegalArgumentException("row " + i + " has " + m[i].length + " values; the matrix is " + m.length
                        + " wide");
            }
            for (int j = 0; j < m.length; j++) {
                if (m[i][j] != 0) {
                    b.add(i, j, m[i][j]);
                }
            }
        }
        return b.build();
    }

    /** From a dense matrix of doubles (row sends to column). */
    public static CommMatrix of(double[][] m) {
        Builder b = new Builder(m.length);
        for (int i = 0; i < m.length; i++) {
            if (m[i].length != m.length) {
                throw new IllegalArgumentException("row " + i + " has " + m[i].length + " values; the matrix is " + m.length
                        + " wide");
            }
            for (int j = 0; j < m.length; j++) {
                if (m[i][j] != 0) {
                    b.add(i, j, m[i][j]);
                }
            }
        }
        return b.build();
    }

    public int size() {
        return size;
    }

    /** This matrix with dummy processes (no communication) appended up to {@code newSize}. */
    public CommMatrix padded(int newSize) {
        if (newSize == size) {
            return this;
        }
        int[] s = Arrays.copyOf(start, newSize + 1);
        Arrays.fill(s, size + 1, newSize + 1, start[size]);
        return new CommMatrix(newSize, s, neighbour, weight);
    }

    /**
     * The matrix between groups: {@code groupOf[i]} is process i's group (of {@code groups}); the
     * weight between two groups is the sum over their members' pairs, traffic inside a group gone.
     */
    public CommMatrix aggregate(int[] groupOf, int groups) {
        Builder b = new Builder(groups);
        for (int i = 0; i < size; i++) {
            for (int k = start[i]; k < start[i + 1]; k++) {
                int j = neighbour[k];
                if (j > i && groupOf[i] != groupOf[j]) {
                    b.add(groupOf[i], groupOf[j], weight[k]);
                }
            }
        }
        return b.build();
    }

    public int degree(int i) {
        return start[i + 1] - start[i];
    }

    /** The k-th neighbour of i (0 ≤ k < degree(i)). */
    public int neighbour(int i, int k) {
        return neighbour[start[i] + k];
    }

    public double weight(int i, int k) {
        return weight[start[i] + k];
    }

    /** w(i, j), by binary search in i's neighbours. */
    public double between(int i, int j) {
        int k = Arrays.binarySearch(neighbour, start[i], start[i + 1], j);
        return k < 0 ? 0 : weight[k];
    }

    /** The sum of w(i, j) over all pairs i < j. */
    public double total() {
        double t = 0;
        for (double w : weight) {
            t += w;
        }
        return t / 2;
    }

    /** Pairs that communicate (i < j). */
    public long pairs() {
        return neighbour.length / 2;
    }

    /**
     * Collects directed amounts, adds them up per unordered pair and sorts. Memory while
     * building: 16 bytes per {@link #add} call.
     */
    public static final class Builder {
        private final int size;
        private int n;
        private long[] keys = new long[16];
        private double[] values = new double[16];

        public Builder(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("a matrix of " + size + " processes");
            }
            this.size = size;
        }

        /** Adds {@code amount} sent from i to j (either direction counts the same). */
        public Builder add(int i, int j, double amount) {
            if (i < 0 || j < 0 || i >= size || j >= size) {
                throw new IllegalArgumentException("process " + Math.max(i, j) + " in a matrix of " + size);
            }
            if (amount < 0 || !Double.isFinite(amount)) {
                throw new IllegalArgumentException((amount < 0 ? "a negative amount" : "an amount that is not a number, "
                        + amount + ",") + " between " + i + " and " + j);
            }
            if (i == j || amount == 0) {
                return this;
            }
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
                values = Arrays.copyOf(values, n * 2);
            }
            keys[n] = (long) Math.min(i, j) * size + Math.max(i, j);
            values[n++] = amount;
            return this;
        }

        public CommMatrix build() {
            // bucket the entries by their low end, then sort each bucket by high end (packed with
            // the entry's index, so a primitive sort carries the value along) and merge repeats
            int[] rowStart = new int[size + 1];
            for (int e = 0; e < n; e++) {
                rowStart[(int) (keys[e] / size) + 1]++;
            }
            for (int i = 0; i < size; i++) {
                rowStart[i + 1] += rowStart[i];
            }
            int[] fill = Arrays.copyOf(rowStart, size);
            long[] packed = new long[n];
            for (int e = 0; e < n; e++) {
                int low = (int) (keys[e] / size);
                packed[fill[low]++] = (keys[e] % size) << 32 | e;
            }
            int[] lowOf = new int[n];
            int[] highOf = new int[n];
            double[] sum = new double[n];
            int u = 0;
            for (int low = 0; low < size; low++) {
                Arrays.sort(packed, rowStart[low], rowStart[low + 1]);
                for (int p = rowStart[low]; p < rowStart[low + 1]; p++) {
                    int high = (int) (packed[p] >>> 32);
                    double v = values[(int) packed[p]];
                    if (u > 0 && lowOf[u - 1] == low && highOf[u - 1] == high) {
                        sum[u - 1] += v;
                    } else {
                        lowOf[u] = low;
                        highOf[u] = high;
                        sum[u++] = v;
                    }
                }
            }
            int[] start = new int[size + 1];
            for (int e = 0; e < u; e++) {
                start[lowOf[e] + 1]++;
                start[highOf[e] + 1]++;
            }
            for (int i = 0; i < size; i++) {
                start[i + 1] += start[i];
            }
            int[] at = Arrays.copyOf(start, size);
            int[] nb = new int[start[size]];
            double[] w = new double[start[size]];
            // pairs come ordered by (low, high): a row gets its lower neighbours first, ascending,
            // in this pass, then its higher ones, ascending, in the next
            for (int e = 0; e < u; e++) {
                nb[at[highOf[e]]] = lowOf[e];
                w[at[highOf[e]]++] = sum[e];
            }
            for (int e = 0; e < u; e++) {
                nb[at[lowOf[e]]] = highOf[e];
                w[at[lowOf[e]]++] = sum[e];
            }
            return new CommMatrix(size, start, nb, w);
        }
    }
}
