package org.banyan.core.tree;

/**
 * The binomial tree: the parent of v is v with its highest set bit cleared; the root has
 * log2(size) children, and every vertex is reached in at most log2(size) rounds.
 */
public record BinomialTree(int size) implements Topology {
    public BinomialTree {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive");
        }
    }

    @Override
    public int parent(int v) {
        return v == 0 ? -1 : v & ~Integer.highestOneBit(v);
    }

    @Override
    public int[] children(int v) {
        int low = v == 0 ? 1 : Integer.highestOneBit(v) << 1;
        int n = 0;
        for (long c = (long) v + low; c < size; low <<= 1, c = (long) v + low) {
            n++;
        }
        int[] out = new int[n];
        low = v == 0 ? 1 : Integer.highestOneBit(v) << 1;
        for (int i = 0; i < n; i++, low <<= 1) {
            out[i] = v + low;
        }
        return out;
    }
}
