package org.banyan.comm;

/** The array collectives' buffers, checked in elements before anything is sent. */
final class BufferChecks {
    private BufferChecks() {}

    /**
     * An array collective's whole buffer (the root's, or every rank's for {@code root} -1) must be
     * exactly {@code size} blocks of the per-rank one, as mpi4py requires: a scatter of 1,002
     * doubles into 4 × 250 dropped two of them without a word.
     */
    static void exactBlocks(int rank, int size, String op, int root, int whole, int block) {
        if ((root < 0 || rank == root) && (whole < 0 || (long) block * size != whole)) {
            throw new IllegalArgumentException(op + ": " + (whole < 0 ? "no buffer" : whole + " elements") + " at "
                    + (root < 0 ? "each rank" : "the root") + " for " + size + " ranks of " + block
                    + ": it must be exactly " + (long) block * size);
        }
    }

    /** alltoall's send buffer must be {@code size} equal blocks of whole elements (10 doubles on 4 ranks made blocks of 2.5). */
    static void equalBlocks(int size, int send, int recv) {
        if (send % size != 0 || recv < send) {
            throw new IllegalArgumentException("alltoall: " + send + " elements do not make " + size
                    + " equal blocks (or the receive buffer, " + recv + ", is smaller)");
        }
    }

    /** A "v" collective's counts and displacements (elements): one each per rank, not negative, every block inside the buffer. */
    static void vector(String op, int size, int[] counts, int[] displs, long length) {
        long[] c = counts == null ? null : java.util.Arrays.stream(counts).asLongStream().toArray();
        long[] d = displs == null ? null : java.util.Arrays.stream(displs).asLongStream().toArray();
        vector(op, size, c, d, length);
    }

    static void vector(String op, int size, long[] counts, long[] displs, long length) {
        if (counts == null || displs == null || length < 0) {
            throw new IllegalArgumentException(op + ": no " + (counts == null ? "counts" : displs == null ? "displacements" : "buffer")
                    + " where they are read");
        }
        if (counts.length != size || displs.length != size) {
            throw new IllegalArgumentException(op + ": " + counts.length + " counts and " + displs.length + " displacements for "
                    + size + " ranks: one each per rank");
        }
        for (int r = 0; r < size; r++) {
            if (counts[r] < 0 || displs[r] < 0) {
                throw new IllegalArgumentException(op + ": rank " + r + "'s count " + counts[r] + " or displacement " + displs[r]
                        + " is negative");
            }
            if (displs[r] + counts[r] > length) {
                throw new IllegalArgumentException(op + ": rank " + r + "'s block (" + counts[r] + " at " + displs[r]
                        + ") ends past the buffer's " + length);
            }
        }
    }

    /**
     * Blocks of derived datatypes, one per rank or neighbour ({@code who}: "rank", "neighbour"):
     * a count, a byte displacement and a type each, none negative or null, each block within
     * {@code buffer}.
     */
    static void typedBlocks(String op, String who, int n, java.lang.foreign.MemorySegment buffer, int[] counts, long[] byteDispls,
                            Datatype[] types) {
        if (counts == null || byteDispls == null || types == null || counts.length != n || byteDispls.length != n
                || types.length != n) {
            throw new IllegalArgumentException(op + ": counts, displacements and types must be given, one each per " + who + " (" + n
                    + ")");
        }
        for (int r = 0; r < n; r++) {
            if (types[r] == null || counts[r] < 0 || byteDispls[r] < 0) {
                throw new IllegalArgumentException(op + ": " + who + " " + r + "'s type is null or its count " + counts[r]
                        + " or displacement " + byteDispls[r] + " is negative");
            }
            long end = byteDispls[r] + types[r].span(counts[r]);
            if (counts[r] > 0 && end > buffer.byteSize()) {
                throw new IllegalArgumentException(op + ": " + who + " " + r + "'s block (" + counts[r] + " elements at byte "
                        + byteDispls[r] + ") ends at byte " + end + ", past the buffer's " + buffer.byteSize());
            }
        }
    }
}
