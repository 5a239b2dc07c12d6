package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The "v" collectives on derived datatypes (MPI_Gatherv, Scatterv, Allgatherv, Alltoallv with a
 * {@link Datatype} each side) and MPI_Alltoallw (a count, a byte displacement and a type per
 * peer, each side). As MPI's, counts are in elements of the type and the "v" forms'
 * displacements in the type's extents; each block travels packed and is unpacked into place, and
 * a block's two sides must carry the same bytes (a receive that gets another size fails naming
 * the rank, as the plain "v" collectives do). Every block is checked to lie within its buffer
 * before anything is sent.
 */
public abstract sealed class CommTypedVectors extends CommTypedCollectives permits CommArrayParts {
    CommTypedVectors() {}

    /**
     * MPI_Gatherv: rank r's {@code sendCount} elements into the root's {@code recv},
     * {@code recvCounts[r]} of them at {@code displs[r]} extents.
     */
    public void gatherv(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int[] recvCounts, int[] displs,
                        Datatype recvType, int root) {
        int n = asComm().size();
        boolean atRoot = asComm().rank == root;
        long[] counts = null;
        long[] packedDispls = null;
        MemorySegment all = null;
        if (atRoot) {
            need(recv, "gatherv");
            long[] at = places("gatherv", recv, recvCounts, extents(displs, recvType, n, "gatherv"), recvType);
            counts = packedCounts(recvCounts, recvType);
            packedDispls = runningSums(counts);
            all = Segments.staging(total(counts), "gatherv");
            asComm().vcoll().gatherv(sendType.pack(send, sendCount), all, counts, packedDispls, root);
            for (int r = 0; r < n; r++) {
                unpackAt(all, packedDispls[r], counts[r], recv, at[r], recvType, recvCounts[r]);
            }
            return;
        }
        asComm().vcoll().gatherv(sendType.pack(send, sendCount), null, null, null, root);
    }

    /** MPI_Scatterv: the root's {@code counts[r]} elements at {@code displs[r]} extents of {@code send} to rank r's {@code recv}. */
    public void scatterv(MemorySegment send, int[] counts, int[] displs, Datatype sendType, MemorySegment recv, int recvCount,
                         Datatype recvType, int root) {
        int n = asComm().size();
        recvType.check(recv, recvCount);
        MemorySegment mine = bytes(recvType, recvCount);
        if (asComm().rank == root) {
            need(send, "scatterv");
            long[] at = places("scatterv", send, counts, extents(displs, sendType, n, "scatterv"), sendType);
            long[] packed = packedCounts(counts, sendType);
            long[] packedDispls = runningSums(packed);
            MemorySegment all = Segments.staging(total(packed), "scatterv");
            for (int r = 0; r < n; r++) {
                packAt(send, at[r], sendType, counts[r], all, packedDispls[r]);
            }
            asComm().vcoll().scatterv(all, packed, packedDispls, mine, root);
        } else {
            asComm().vcoll().scatterv(null, null, null, mine, root);
        }
        recvType.unpack(mine, recv, recvCount);
    }

    /**
     * MPI_Allgatherv: every rank's {@code sendCount} elements into every {@code recv}, rank r's
     * {@code recvCounts[r]} at {@code displs[r]} extents.
     */
    public void allgatherv(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int[] recvCounts, int[] displs,
                           Datatype recvType) {
        int n = asComm().size();
        long[] at = places("allgatherv", recv, recvCounts, extents(displs, recvType, n, "allgatherv"), recvType);
        long[] counts = packedCounts(recvCounts, recvType);
        long[] packedDispls = runningSums(counts);
        MemorySegment all = Segments.staging(total(counts), "allgatherv");
        asComm().vcoll().allgatherv(sendType.pack(send, sendCount), all, counts, packedDispls);
        for (int r = 0; r < n; r++) {
            unpackAt(all, packedDispls[r], counts[r], recv, at[r], recvType, recvCounts[r]);
        }
    }

    /** MPI_Alltoallv on datatypes: displacements in extents of each side's type. */
    public void alltoallv(MemorySegment send, int[] sendCounts, int[] sendDispls, Datatype sendType, MemorySegment recv,
                          int[] recvCounts, int[] recvDispls, Datatype recvType) {
        int n = asComm().size();
        alltoallw(send, sendCounts, extents(sendDispls, sendType, n, "alltoallv (send)"), same(sendType, n), recv, recvCounts,
                extents(recvDispls, recvType, n, "alltoallv (receive)"), same(recvType, n), "alltoallv");
    }

    /**
     * MPI_Alltoallw: {@code sendCounts[p]} elements of {@code sendTypes[p]} from byte
     * {@code sendDispls[p]} of {@code send} to rank p; rank p's into {@code recv} at byte
     * {@code recvDispls[p]} as {@code recvCounts[p]} elements of {@code recvTypes[p]}.
     */
    public void alltoallw(MemorySegment send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, MemorySegment recv,
                          int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes, "alltoallw");
    }

    private void alltoallw(MemorySegment send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, MemorySegment recv,
                           int[] recvCounts, long[] recvDispls, Datatype[] recvTypes, String op) {
        int n = asComm().size();
        BufferChecks.typedBlocks(op + " (send)", "rank", n, send, sendCounts, sendDispls, sendTypes);
        BufferChecks.typedBlocks(op + " (receive)", "rank", n, recv, recvCounts, recvDispls, recvTypes);
        long[] out = new long[n];
        long[] in = new long[n];
        for (int r = 0; r < n; r++) {
            out[r] = sendCounts[r] * sendTypes[r].size();
            in[r] = recvCounts[r] * recvTypes[r].size();
        }
        long[] outAt = runningSums(out);
        long[] inAt = runningSums(in);
        MemorySegment packed = Segments.staging(total(out), op);
        for (int r = 0; r < n; r++) {
            packAt(send, sendDispls[r], sendTypes[r], sendCounts[r], packed, outAt[r]);
        }
        MemorySegment arrived = Segments.staging(total(in), op);
        asComm().vcoll().alltoallv(packed, out, outAt, arrived, in, inAt);
        for (int r = 0; r < n; r++) {
            unpackAt(arrived, inAt[r], in[r], recv, recvDispls[r], recvTypes[r], recvCounts[r]);
        }
    }

    private static Datatype[] same(Datatype type, int n) {
        Datatype[] t = new Datatype[n];
        java.util.Arrays.fill(t, type);
        return t;
    }

    /** Displacements in extents of {@code type}, as bytes. */
    private static long[] extents(int[] displs, Datatype type, int n, String op) {
        if (displs == null || displs.length != n) {
            throw new IllegalArgumentException(op + ": " + (displs == null ? "no" : displs.length) + " displacements for " + n
                    + " ranks: one per rank");
        }
        long[] bytes = new long[n];
        for (int r = 0; r < n; r++) {
            if (displs[r] < 0) {
                throw new IllegalArgumentException(op + ": rank " + r + "'s displacement " + displs[r] + " is negative");
            }
            bytes[r] = displs[r] * type.extent();
        }
        return bytes;
    }

    private static long[] places(String op, MemorySegment buffer, int[] counts, long[] byteDispls, Datatype type) {
        return places(op, buffer, counts, byteDispls, same(type, byteDispls.length));
    }

    /** Checks that each rank's block lies within {@code buffer}; gives the blocks' byte offsets. */
    private static long[] places(String op, MemorySegment buffer, int[] counts, long[] byteDispls, Datatype[] types) {
        BufferChecks.typedBlocks(op, "rank", types.length, buffer, counts, byteDispls, types);
        return byteDispls;
    }

    private static long[] packedCounts(int[] counts, Datatype type) {
        long[] b = new long[counts.length];
        for (int r = 0; r < counts.length; r++) {
            b[r] = counts[r] * type.size();
        }
        return b;
    }

    private static long[] runningSums(long[] sizes) {
        long[] at = new long[sizes.length];
        for (int r = 1; r < sizes.length; r++) {
            at[r] = at[r - 1] + sizes[r - 1];
        }
        return at;
    }

    private static long total(long[] sizes) {
        long sum = 0;
        for (long s : sizes) {
            sum += s;
        }
        return sum;
    }

    private static void packAt(MemorySegment buffer, long at, Datatype type, int count, MemorySegment packed, long packedAt) {
        if (count > 0) {
            MemorySegment block = type.pack(buffer.asSlice(at), count);
            MemorySegment.copy(block, 0, packed, packedAt, block.byteSize());
        }
    }

    private static void unpackAt(MemorySegment packed, long packedAt, long bytes, MemorySegment buffer, long at, Datatype type,
                                 int count) {
        if (count > 0) {
            type.unpack(packed.asSlice(packedAt, bytes), buffer.asSlice(at), count);
        }
    }


    public void gatherv(byte[] send, int sendCount, Datatype sendType, byte[] recv, int[] recvCounts, int[] displs, Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(byte[] send, int[] counts, int[] displs, Datatype sendType, byte[] recv, int recvCount, Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs, sendType, MemorySegment.ofArray(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(byte[] send, int sendCount, Datatype sendType, byte[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, byte[] recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, sendType, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(byte[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, byte[] recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvTypes);
    }

    public void gatherv(int[] send, int sendCount, Datatype sendType, int[] recv, int[] recvCounts, int[] displs, Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(int[] send, int[] counts, int[] displs, Datatype sendType, int[] recv, int recvCount, Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs, sendType, MemorySegment.ofArray(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(int[] send, int sendCount, Datatype sendType, int[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(int[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, int[] recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, sendType, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(int[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, int[] recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvTypes);
    }

    public void gatherv(long[] send, int sendCount, Datatype sendType, long[] recv, int[] recvCounts, int[] displs, Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(long[] send, int[] counts, int[] displs, Datatype sendType, long[] recv, int recvCount, Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs, sendType, MemorySegment.ofArray(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(long[] send, int sendCount, Datatype sendType, long[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(long[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, long[] recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, sendType, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(long[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, long[] recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvTypes);
    }

    public void gatherv(float[] send, int sendCount, Datatype sendType, float[] recv, int[] recvCounts, int[] displs, Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(float[] send, int[] counts, int[] displs, Datatype sendType, float[] recv, int recvCount, Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs, sendType, MemorySegment.ofArray(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(float[] send, int sendCount, Datatype sendType, float[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(float[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, float[] recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, sendType, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(float[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, float[] recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvTypes);
    }

    public void gatherv(double[] send, int sendCount, Datatype sendType, double[] recv, int[] recvCounts, int[] displs,
            Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(double[] send, int[] counts, int[] displs, Datatype sendType, double[] recv, int recvCount, Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), counts, displs, sendType, MemorySegment.ofArray(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(double[] send, int sendCount, Datatype sendType, double[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(double[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, double[] recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, sendType, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(double[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, double[] recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, recvTypes);
    }

    public void gatherv(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int[] recvCounts, int[] displs,
            Datatype recvType,
                        int root) {
        gatherv(MemorySegment.ofBuffer(send), sendCount, sendType, recv == null ? null : MemorySegment.ofBuffer(recv),
                recvCounts, displs, recvType, root);
    }

    public void scatterv(ByteBuffer send, int[] counts, int[] displs, Datatype sendType, ByteBuffer recv, int recvCount,
            Datatype recvType,
                         int root) {
        scatterv(send == null ? null : MemorySegment.ofBuffer(send), counts, displs, sendType, MemorySegment.ofBuffer(recv),
                recvCount, recvType, root);
    }

    public void allgatherv(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        allgatherv(MemorySegment.ofBuffer(send), sendCount, sendType, MemorySegment.ofBuffer(recv), recvCounts, displs, recvType);
    }

    public void alltoallv(ByteBuffer send, int[] sendCounts, int[] sendDispls, Datatype sendType, ByteBuffer recv, int[] recvCounts,
                          int[] recvDispls, Datatype recvType) {
        alltoallv(MemorySegment.ofBuffer(send), sendCounts, sendDispls, sendType, MemorySegment.ofBuffer(recv), recvCounts,
                recvDispls, recvType);
    }

    public void alltoallw(ByteBuffer send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, ByteBuffer recv, int[] recvCounts,
                          long[] recvDispls, Datatype[] recvTypes) {
        alltoallw(MemorySegment.ofBuffer(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofBuffer(recv), recvCounts,
                recvDispls, recvTypes);
    }
}
