package org.banyan.comm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The blocks a rank may need at its next resizes, allocated before the resize needs them: a new
 * block's first touch (the JVM zeroing memory the kernel has not given this process yet, page by
 * page) cost more than moving the data into it (docs/malleability.md). Two sources:
 *
 * <ul>
 *   <li><b>prepared</b>: blocks for world sizes the program names, allocated on a background
 *       thread while it computes;
 *   <li><b>reused</b>: the blocks a resize replaced, kept for a later resize that needs the same
 *       length (a shrink and the expansion back, or the same shrink again).
 * </ul>
 *
 * One block of a length is kept per array, and one replaced block besides the prepared lengths,
 * so memory stays bounded over any number of resizes; a block is handed out once. Not thread-safe: the
 * rank's thread calls it, the background threads only complete their futures.
 */
final class PreparedBlocks {
    private final long length;
    private final int arrays;
    private final int[] worldSizes;
    private final int rank;

    /**
     * For this rank ({@code rank} in every world), {@code arrays} arrays of {@code length}
     * elements, block-distributed, prepared for worlds of {@code worldSizes} ranks.
     */
    PreparedBlocks(long length, int arrays, int[] worldSizes, int rank) {
        if (arrays < 1) {
            throw new IllegalArgumentException("prepareBlocks: " + arrays + " arrays");
        }
        for (int size : worldSizes) {
            if (size < 1) {
                throw new IllegalArgumentException("prepareBlocks: a world of " + size + " ranks");
            }
            if (BlockRedistribution.blockLength(length, size, 0) > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("prepareBlocks: blocks of " + length + " elements over " + size
                        + " ranks do not fit an array");
            }
        }
        this.length = length;
        this.arrays = arrays;
        this.worldSizes = worldSizes.clone();
        this.rank = rank;
    }

    /**
     * Starts allocating this rank's blocks for the prepared sizes it has none for, except the
     * size of the world it is in now (its blocks are those it holds).
     */
    void ahead(int currentSize) {
        for (int size : worldSizes) {
            if (size != currentSize && rank < size) {
                for (int i = 0; i < arrays; i++) {
                    prepare(i, (int) BlockRedistribution.blockLength(length, size, rank));
                }
            }
        }
    }

    /**
     * For a rank an expansion starts, before it joins: allocates the blocks it will arrive with,
     * in a world of {@code size} ranks.
     */
    void arriving(int size) {
        for (int i = 0; i < arrays; i++) {
            prepare(i, (int) BlockRedistribution.blockLength(length, size, rank));
        }
    }

    /** Per array index: blocks by length, ready or being allocated. */
    private final List<Map<Integer, CompletableFuture<double[]>>> byArray = new ArrayList<>();
    /** Per array index: the length of the one replaced block kept (0: none); prepared lengths are kept apart. */
    private final List<Integer> reused = new ArrayList<>();
    /** Per array index: the lengths asked for by {@link #prepare}, kept however many resizes pass. */
    private final List<java.util.Set<Integer>> prepared = new ArrayList<>();

    /** Allocates, in the background, a block of {@code elements} for array {@code index} unless one is kept. */
    private void prepare(int index, int elements) {
        Map<Integer, CompletableFuture<double[]>> kept = kept(index);
        if (elements <= 0 || kept.containsKey(elements)) {
            return;
        }
        prepared.get(index).add(elements);
        CompletableFuture<double[]> block = new CompletableFuture<>();
        kept.put(elements, block);
        Thread.ofPlatform().daemon().name("banyan-dmr-prepare").start(() -> {
            try {
                block.complete(new double[elements]);
            } catch (Throwable t) { // OutOfMemoryError: the resize allocates its own, as without preparing
                block.completeExceptionally(t);
            }
        });
    }

    /**
     * Keeps a block a resize replaced, for a later one of its length: the block of a length
     * prepared for, or else the only replaced block kept for this array (the one before goes).
     */
    void keep(int index, double[] block) {
        Map<Integer, CompletableFuture<double[]>> kept = kept(index);
        if (block.length == 0 || kept.containsKey(block.length)) {
            return;
        }
        if (!prepared.get(index).contains(block.length)) {
            int before = reused.get(index);
            if (before != 0 && !prepared.get(index).contains(before)) {
                kept.remove(before);
            }
            reused.set(index, block.length);
        }
        kept.put(block.length, CompletableFuture.completedFuture(block));
    }

    /**
     * A block of exactly {@code elements} for array {@code index}: a kept one (waiting for its
     * allocation to finish if it is under way), else a new one.
     */
    double[] take(int index, int elements) {
        CompletableFuture<double[]> f = kept(index).remove(elements);
        if (f != null) {
            try {
                return f.join();
            } catch (RuntimeException e) {
                // its allocation failed: try once more now, where the failure is the program's to see
            }
        }
        return new double[elements];
    }

    /** How many blocks are kept or being prepared (for tests). */
    int count() {
        return byArray.stream().mapToInt(Map::size).sum();
    }

    private Map<Integer, CompletableFuture<double[]>> kept(int index) {
        while (byArray.size() <= index) {
            byArray.add(new HashMap<>());
            reused.add(0);
            prepared.add(new java.util.HashSet<>());
        }
        return byArray.get(index);
    }
}
