package org.banyan.core.tree;

/** The complete k-ary tree in breadth-first numbering: parent(v) = (v - 1) / k. */
public record KaryTree(int size, int k) implements Topology {
    public KaryTree {
        if (size < 1 || k < 1) {
            throw new IllegalArgumentException("size and k must be positive");
        }
    }

    @Override
    public int parent(int v) {
        return v == 0 ? -1 : (v - 1) / k;
    }

    @Override
    public int[] children(int v) {
        long first = (long) v * k + 1;
        if (first >= size) {
            return new int[0];
        }
        int n = (int) Math.min(k, size - first);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = (int) first + i;
        }
        return out;
    }
}
