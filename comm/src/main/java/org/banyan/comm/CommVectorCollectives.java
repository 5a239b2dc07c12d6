package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The "v" collectives (MPI_Gatherv, Scatterv, Allgatherv, Alltoallv): a count and a displacement
 * per rank, in elements for arrays and in bytes for {@link MemorySegment}s and
 * {@link ByteBuffer}s (position to limit). A root-only buffer, count or displacement may be null
 * elsewhere. Every block is checked to lie within its buffer before anything is sent; the
 * algorithms are {@link VectorCollectives}'.
 */
public abstract sealed class CommVectorCollectives extends CommCollectives permits CommTypedCollectives {
    CommVectorCollectives() {}

    /**
     * MPI_Gatherv: each rank's {@code send} into the root's {@code recv}, rank r's
     * {@code counts[r]} elements at {@code displs[r]}; {@code recv}, {@code counts} and
     * {@code displs} are read at the root only (null elsewhere is fine).
     */
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        boolean atRoot = asComm().rank == root;
        if (atRoot) {
            BufferChecks.vector("gatherv", asComm().group.length, counts, displs, recv == null ? -1 : recv.byteSize());
        }
        asComm().vcoll().gatherv(send, atRoot ? recv : null, atRoot ? counts : null, atRoot ? displs : null, root);
    }

    /**
     * MPI_Scatterv: the root's {@code send}, rank r's {@code counts[r]} elements from
     * {@code displs[r]}, into each rank's {@code recv} (read at the root only: {@code send},
     * {@code counts}, {@code displs}).
     */
    public void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        boolean atRoot = asComm().rank == root;
        if (atRoot) {
            BufferChecks.vector("scatterv", asComm().group.length, counts, displs, send == null ? -1 : send.byteSize());
        }
        asComm().vcoll().scatterv(atRoot ? send : null, atRoot ? counts : null, atRoot ? displs : null, recv, root);
    }

    /**
     * MPI_Allgatherv: every rank's {@code send} into every rank's {@code recv}, rank r's
     * {@code counts[r]} elements at {@code displs[r]}.
     */
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        BufferChecks.vector("allgatherv", asComm().group.length, counts, displs, recv.byteSize());
        asComm().vcoll().allgatherv(send, recv, counts, displs);
    }

    /**
     * MPI_Alltoallv: {@code sendCounts[p]} elements of {@code send} from {@code sendDispls[p]} to
     * rank p; rank p's into {@code recv} at {@code recvDispls[p]}, {@code recvCounts[p]} of them.
     */
    public void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
                          long[] recvDispls) {
        int n = asComm().group.length;
        BufferChecks.vector("alltoallv (send)", n, sendCounts, sendDispls, send.byteSize());
        BufferChecks.vector("alltoallv (receive)", n, recvCounts, recvDispls, recv.byteSize());
        asComm().vcoll().alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    public void gatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        gatherv(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), counts, displs, root);
    }

    public void scatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofBuffer(send), counts, displs, MemorySegment.ofBuffer(recv), root);
    }

    public void allgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        allgatherv(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), counts, displs);
    }

    public void alltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts,
                          long[] recvDispls) {
        alltoallv(MemorySegment.ofBuffer(send), sendCounts, sendDispls, MemorySegment.ofBuffer(recv), recvCounts, recvDispls);
    }


    public void gatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root) {
        gathervElements(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts,
                displs, root, Byte.BYTES);
    }

    public void scatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Byte.BYTES);
    }

    public void allgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        allgathervElements(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), recv.length, counts, displs, Byte.BYTES);
    }

    public void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Byte.BYTES);
    }

    public void gatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        gathervElements(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts,
                displs, root, Integer.BYTES);
    }

    public void scatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Integer.BYTES);
    }

    public void allgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        allgathervElements(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), recv.length, counts, displs, Integer.BYTES);
    }

    public void alltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Integer.BYTES);
    }

    public void gatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        gathervElements(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts,
                displs, root, Long.BYTES);
    }

    public void scatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Long.BYTES);
    }

    public void allgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        allgathervElements(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), recv.length, counts, displs, Long.BYTES);
    }

    public void alltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Long.BYTES);
    }

    public void gatherv(float[] send, float[] recv, int[] counts, int[] displs, int root) {
        gathervElements(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts,
                displs, root, Float.BYTES);
    }

    public void scatterv(float[] send, int[] counts, int[] displs, float[] recv, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Float.BYTES);
    }

    public void allgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        allgathervElements(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), recv.length, counts, displs, Float.BYTES);
    }

    public void alltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Float.BYTES);
    }

    public void gatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        gathervElements(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts,
                displs, root, Double.BYTES);
    }

    public void scatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Double.BYTES);
    }

    public void allgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        allgathervElements(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), recv.length, counts, displs, Double.BYTES);
    }

    public void alltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Double.BYTES);
    }

    void gathervElements(MemorySegment send, MemorySegment recv, int recvLength, int[] counts, int[] displs, int root, int elem) {
        boolean atRoot = asComm().rank == root;
        if (atRoot) {
            BufferChecks.vector("gatherv", asComm().group.length, counts, displs, recvLength);
        }
        asComm().vcoll().gatherv(send, atRoot ? recv : null, atRoot ? bytes(counts, elem) : null, atRoot ? bytes(displs, elem) : null,
                root);
    }

    void scattervElements(MemorySegment send, int sendLength, int[] counts, int[] displs, MemorySegment recv, int root, int elem) {
        boolean atRoot = asComm().rank == root;
        if (atRoot) {
            BufferChecks.vector("scatterv", asComm().group.length, counts, displs, sendLength);
        }
        asComm().vcoll().scatterv(atRoot ? send : null, atRoot ? bytes(counts, elem) : null, atRoot ? bytes(displs, elem) : null, recv,
                root);
    }

    private void alltoallv(MemorySegment send, int sendLength, int[] sendCounts, int[] sendDispls, MemorySegment recv,
                           int recvLength, int[] recvCounts, int[] recvDispls, int elem) {
        int n = asComm().group.length;
        BufferChecks.vector("alltoallv (send)", n, sendCounts, sendDispls, sendLength);
        BufferChecks.vector("alltoallv (receive)", n, recvCounts, recvDispls, recvLength);
        asComm().vcoll().alltoallv(send, bytes(sendCounts, elem), bytes(sendDispls, elem), recv, bytes(recvCounts, elem),
                bytes(recvDispls, elem));
    }

    void allgathervElements(MemorySegment send, MemorySegment recv, int recvLength, int[] counts, int[] displs, int elem) {
        BufferChecks.vector("allgatherv", asComm().group.length, counts, displs, recvLength);
        asComm().vcoll().allgatherv(send, recv, bytes(counts, elem), bytes(displs, elem));
    }

    /** Element counts or displacements in bytes. */
    static long[] bytes(int[] elements, int size) {
        long[] b = new long[elements.length];
        for (int i = 0; i < elements.length; i++) {
            b[i] = (long) elements[i] * size;
        }
        return b;
    }
}
