package org.banyan.place;

/**
 * Reference communication patterns, for tests and the quality benchmark: what common programs'
 * matrices look like with ranks in their natural (row-major) order.
 */
public final class Patterns {
    private Patterns() {}

    /** A binomial-tree reduce: rank r sends {@code bytes} to r minus its lowest set bit. */
    public static CommMatrix binomialReduce(int n, double bytes) {
        CommMatrix.Builder b = new CommMatrix.Builder(n);
        for (int r = 1; r < n; r++) {
            b.add(r, r - Integer.lowestOneBit(r), bytes);
        }
        return b.build();
    }

    /** A 2-D five-point stencil on an x × y grid of ranks in row-major order, not periodic. */
    public static CommMatrix stencil2d(int x, int y, double bytes) {
        CommMatrix.Builder b = new CommMatrix.Builder(x * y);
        for (int j = 0; j < y; j++) {
            for (int i = 0; i < x; i++) {
                int r = j * x + i;
                if (i + 1 < x) {
                    b.add(r, r + 1, 2 * bytes);
                }
                if (j + 1 < y) {
                    b.add(r, r + x, 2 * bytes);
                }
            }
        }
        return b.build();
    }

    /** A 3-D seven-point stencil on an x × y × z grid of ranks in row-major order, not periodic. */
    public static CommMatrix stencil3d(int x, int y, int z, double bytes) {
        CommMatrix.Builder b = new CommMatrix.Builder(x * y * z);
        for (int k = 0; k < z; k++) {
            for (int j = 0; j < y; j++) {
                for (int i = 0; i < x; i++) {
                    int r = (k * y + j) * x + i;
                    if (i + 1 < x) {
                        b.add(r, r + 1, 2 * bytes);
                    }
                    if (j + 1 < y) {
                        b.add(r, r + x, 2 * bytes);
                    }
                    if (k + 1 < z) {
                        b.add(r, r + x * y, 2 * bytes);
                    }
                }
            }
        }
        return b.build();
    }

    /**
     * All-to-all inside blocks of {@code block} ranks that are spread across the ranks with a
     * stride (rank r is in block r mod (n / block)), as when sub-communicators are made with
     * {@code MPI_Comm_split(color = rank % k)}: round-robin separates every block's members.
     */
    public static CommMatrix stridedBlocks(int n, int block, double bytes) {
        if (n % block != 0) {
            throw new IllegalArgumentException(n + " ranks do not split into blocks of " + block);
        }
        int blocks = n / block;
        CommMatrix.Builder b = new CommMatrix.Builder(n);
        for (int r = 0; r < n; r++) {
            for (int s = r + blocks; s < n; s += blocks) {
                b.add(r, s, 2 * bytes);
            }
        }
        return b.build();
    }

    /** Rank order shuffled: the same pattern with ranks renumbered by {@code perm} (old rank i is perm[i]). */
    public static CommMatrix renumbered(CommMatrix m, int[] perm) {
        CommMatrix.Builder b = new CommMatrix.Builder(m.size());
        for (int i = 0; i < m.size(); i++) {
            for (int k = 0; k < m.degree(i); k++) {
                int j = m.neighbour(i, k);
                if (j > i) {
                    b.add(perm[i], perm[j], m.weight(i, k));
                }
            }
        }
        return b.build();
    }
}
