package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The collective half of an intercommunicator's API ({@link Intercomm} extends it), MPI's for
 * intercommunicators: a rooted one (bcast, reduce, gather(v), scatter(v)) goes from the root's
 * group to the other, the root giving {@link Intercomm#ROOT}, the rest of its group
 * {@link Comm#PROC_NULL} and the other group the root's rank there; an all-to-all one gives each
 * group what the other had: allreduce the other group's reduction, allgather(v) its blocks,
 * alltoall(v) a block from each of its ranks, reduce-scatter its reduction dealt over this group
 * by this group's counts (MPI defines no scan here). Counts and displacements of the "v" forms
 * are indexed by the other group's ranks, in elements for arrays and in bytes for memory segments
 * and byte buffers; memory segments and byte buffers name their values' {@link Elem} for
 * reductions. Buffers a rank does not use (a non-root's receive buffer) may be null.
 */
public abstract sealed class IntercommCollectiveCalls extends CommPointToPointParts permits IntercommNonBlocking {
    IntercommCollectiveCalls() {}

    abstract IntercommCollectives collectives();

    abstract IntercommVectors vectors();

    abstract void checkOpen();

    /** MPI_Barrier over both groups: no rank leaves before every rank of both has entered. */
    public void barrier() {
        checkOpen();
        collectives().barrier();
    }

    /** MPI_Bcast from the root's group to the other: {@code root} is {@link Intercomm#ROOT}, {@link Comm#PROC_NULL} or the root's remote rank. */
    public void bcast(MemorySegment buffer, int root) {
        checkOpen();
        collectives().bcast(buffer, root);
    }

    /** MPI_Allreduce: each group's {@code recv} gets the reduction of the other group's {@code send}s. */
    public void allreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        checkOpen();
        collectives().allreduce(send, recv, type, op);
    }

    /** MPI_Reduce: the root's {@code recv} gets the reduction of the other group's {@code send}s ({@code root} as in {@link #bcast}). */
    public void reduce(MemorySegment send, MemorySegment recv, Elem type, Op op, int root) {
        checkOpen();
        collectives().reduce(send, recv, type, op, root);
    }

    /** MPI_Allgather: each group's {@code recv} gets the other group's blocks, rank by rank. */
    public void allgather(MemorySegment send, MemorySegment recv) {
        checkOpen();
        collectives().allgather(send, recv);
    }

    /** MPI_Alltoall: block j of {@code send} to remote rank j; remote rank j's block into block j of {@code recv}. */
    public void alltoall(MemorySegment send, MemorySegment recv) {
        checkOpen();
        collectives().alltoall(send, recv);
    }

    /** MPI_Gather: the root's {@code recv} gets every remote rank's {@code send}, rank by rank ({@code root} as in {@link #bcast}). */
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        checkOpen();
        collectives().gather(send, recv, root);
    }

    /** MPI_Scatter: remote rank j's {@code recv} gets block j of the root's {@code send} ({@code root} as in {@link #bcast}). */
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        checkOpen();
        collectives().scatter(send, recv, root);
    }

    /** MPI_Gatherv: the root's {@code recv} gets remote rank j's {@code counts[j]} bytes at {@code displs[j]}. */
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        checkOpen();
        vectors().gatherv(send, recv, counts, displs, root);
    }

    /** MPI_Scatterv: remote rank j's {@code recv} gets the root's {@code counts[j]} bytes from {@code displs[j]}. */
    public void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        checkOpen();
        vectors().scatterv(send, counts, displs, recv, root);
    }

    /** MPI_Allgatherv: each group's {@code recv} gets remote rank j's {@code send} at {@code displs[j]} ({@code counts[j]} bytes). */
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        checkOpen();
        vectors().allgatherv(send, recv, counts, displs);
    }

    /** MPI_Alltoallv: a block to and from each remote rank, counts and displacements in bytes. */
    public void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
                          long[] recvDispls) {
        checkOpen();
        vectors().alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    /**
     * MPI_Reduce_scatter: the reduction of the other group's {@code send}s, this group's rank r
     * getting the next {@code counts[r]} values; {@code send} holds as many values as
     * {@code counts} adds up to, and the two groups' counts add up to the same.
     */
    public void reduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op) {
        checkOpen();
        vectors().reduceScatter(send, recv, counts, type, op);
    }

    /** MPI_Reduce_scatter_block: as {@link #reduceScatter} with every count {@code recv}'s length. */
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        int[] counts = new int[size()];
        java.util.Arrays.fill(counts, CommTypedCollectives.values(recv, type, "reduceScatterBlock"));
        reduceScatter(send, recv, counts, type, op);
    }

    public abstract int size();

    public abstract int remoteSize();


    public void bcast(byte[] buffer, int root) {
        bcast(MemorySegment.ofArray(buffer), root);
    }

    public void allreduce(byte[] send, byte[] recv, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.BYTE, op);
    }

    public void reduce(byte[] send, byte[] recv, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), Elem.BYTE,
                op, root);
    }

    public void allgather(byte[] send, byte[] recv) {
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(byte[] send, byte[] recv) {
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(byte[] send, byte[] recv, int root) {
        gather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void scatter(byte[] send, byte[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void reduceScatter(byte[] send, byte[] recv, int[] counts, Op op) {
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.BYTE, op);
    }

    public void reduceScatterBlock(byte[] send, byte[] recv, Op op) {
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.BYTE, op);
    }

    public void gatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                bytesOrNull(counts, Byte.BYTES), bytesOrNull(displs, Byte.BYTES), root);
    }

    public void scatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), bytesOrNull(counts, Byte.BYTES),
                bytesOrNull(displs, Byte.BYTES), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void allgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytesOrNull(counts, Byte.BYTES),
                bytesOrNull(displs, Byte.BYTES));
    }

    public void alltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), bytesOrNull(sendCounts, Byte.BYTES), bytesOrNull(sendDispls, Byte.BYTES),
                MemorySegment.ofArray(recv),
                bytesOrNull(recvCounts, Byte.BYTES), bytesOrNull(recvDispls, Byte.BYTES));
    }

    public void bcast(int[] buffer, int root) {
        bcast(MemorySegment.ofArray(buffer), root);
    }

    public void allreduce(int[] send, int[] recv, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, op);
    }

    public void reduce(int[] send, int[] recv, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), Elem.INT,
                op, root);
    }

    public void allgather(int[] send, int[] recv) {
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(int[] send, int[] recv) {
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(int[] send, int[] recv, int root) {
        gather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void scatter(int[] send, int[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void reduceScatter(int[] send, int[] recv, int[] counts, Op op) {
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.INT, op);
    }

    public void reduceScatterBlock(int[] send, int[] recv, Op op) {
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, op);
    }

    public void gatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                bytesOrNull(counts, Integer.BYTES), bytesOrNull(displs, Integer.BYTES), root);
    }

    public void scatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), bytesOrNull(counts, Integer.BYTES),
                bytesOrNull(displs, Integer.BYTES), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void allgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytesOrNull(counts, Integer.BYTES),
                bytesOrNull(displs, Integer.BYTES));
    }

    public void alltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), bytesOrNull(sendCounts, Integer.BYTES), bytesOrNull(sendDispls, Integer.BYTES),
                MemorySegment.ofArray(recv),
                bytesOrNull(recvCounts, Integer.BYTES), bytesOrNull(recvDispls, Integer.BYTES));
    }

    public void bcast(long[] buffer, int root) {
        bcast(MemorySegment.ofArray(buffer), root);
    }

    public void allreduce(long[] send, long[] recv, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, op);
    }

    public void reduce(long[] send, long[] recv, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), Elem.LONG,
                op, root);
    }

    public void allgather(long[] send, long[] recv) {
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(long[] send, long[] recv) {
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(long[] send, long[] recv, int root) {
        gather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void scatter(long[] send, long[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void reduceScatter(long[] send, long[] recv, int[] counts, Op op) {
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.LONG, op);
    }

    public void reduceScatterBlock(long[] send, long[] recv, Op op) {
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, op);
    }

    public void gatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                bytesOrNull(counts, Long.BYTES), bytesOrNull(displs, Long.BYTES), root);
    }

    public void scatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), bytesOrNull(counts, Long.BYTES),
                bytesOrNull(displs, Long.BYTES), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void allgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytesOrNull(counts, Long.BYTES),
                bytesOrNull(displs, Long.BYTES));
    }

    public void alltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), bytesOrNull(sendCounts, Long.BYTES), bytesOrNull(sendDispls, Long.BYTES),
                MemorySegment.ofArray(recv),
                bytesOrNull(recvCounts, Long.BYTES), bytesOrNull(recvDispls, Long.BYTES));
    }

    public void bcast(float[] buffer, int root) {
        bcast(MemorySegment.ofArray(buffer), root);
    }

    public void allreduce(float[] send, float[] recv, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, op);
    }

    public void reduce(float[] send, float[] recv, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                Elem.FLOAT, op, root);
    }

    public void allgather(float[] send, float[] recv) {
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(float[] send, float[] recv) {
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(float[] send, float[] recv, int root) {
        gather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void scatter(float[] send, float[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void reduceScatter(float[] send, float[] recv, int[] counts, Op op) {
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.FLOAT, op);
    }

    public void reduceScatterBlock(float[] send, float[] recv, Op op) {
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, op);
    }

    public void gatherv(float[] send, float[] recv, int[] counts, int[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                bytesOrNull(counts, Float.BYTES), bytesOrNull(displs, Float.BYTES), root);
    }

    public void scatterv(float[] send, int[] counts, int[] displs, float[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), bytesOrNull(counts, Float.BYTES),
                bytesOrNull(displs, Float.BYTES), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void allgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytesOrNull(counts, Float.BYTES),
                bytesOrNull(displs, Float.BYTES));
    }

    public void alltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), bytesOrNull(sendCounts, Float.BYTES), bytesOrNull(sendDispls, Float.BYTES),
                MemorySegment.ofArray(recv),
                bytesOrNull(recvCounts, Float.BYTES), bytesOrNull(recvDispls, Float.BYTES));
    }

    public void bcast(double[] buffer, int root) {
        bcast(MemorySegment.ofArray(buffer), root);
    }

    public void allreduce(double[] send, double[] recv, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, op);
    }

    public void reduce(double[] send, double[] recv, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                Elem.DOUBLE, op, root);
    }

    public void allgather(double[] send, double[] recv) {
        allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(double[] send, double[] recv) {
        alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(double[] send, double[] recv, int root) {
        gather(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void scatter(double[] send, double[] recv, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void reduceScatter(double[] send, double[] recv, int[] counts, Op op) {
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.DOUBLE, op);
    }

    public void reduceScatterBlock(double[] send, double[] recv, Op op) {
        reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, op);
    }

    public void gatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv),
                bytesOrNull(counts, Double.BYTES), bytesOrNull(displs, Double.BYTES), root);
    }

    public void scatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), bytesOrNull(counts, Double.BYTES),
                bytesOrNull(displs, Double.BYTES), recv == null ? null : MemorySegment.ofArray(recv), root);
    }

    public void allgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytesOrNull(counts, Double.BYTES),
                bytesOrNull(displs, Double.BYTES));
    }

    public void alltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), bytesOrNull(sendCounts, Double.BYTES), bytesOrNull(sendDispls, Double.BYTES),
                MemorySegment.ofArray(recv),
                bytesOrNull(recvCounts, Double.BYTES), bytesOrNull(recvDispls, Double.BYTES));
    }

    public void bcast(ByteBuffer buffer, int root) {
        bcast(MemorySegment.ofBuffer(buffer), root);
    }

    public void allreduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        allreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    public void reduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op, int root) {
        reduce(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type, op, root);
    }

    public void allgather(ByteBuffer send, ByteBuffer recv) {
        allgather(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
    }

    public void alltoall(ByteBuffer send, ByteBuffer recv) {
        alltoall(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
    }

    public void gather(ByteBuffer send, ByteBuffer recv, int root) {
        gather(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    public void scatter(ByteBuffer send, ByteBuffer recv, int root) {
        scatter(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    public void reduceScatter(ByteBuffer send, ByteBuffer recv, int[] counts, Elem type, Op op) {
        reduceScatter(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), counts, type, op);
    }

    public void reduceScatterBlock(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        reduceScatterBlock(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    public void gatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        gatherv(send == null ? null : MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), counts,
                displs, root);
    }

    public void scatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofBuffer(send), counts, displs,
                recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    public void allgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        allgatherv(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), counts, displs);
    }

    public void alltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts,
                          long[] recvDispls) {
        alltoallv(MemorySegment.ofBuffer(send), sendCounts, sendDispls, MemorySegment.ofBuffer(recv), recvCounts, recvDispls);
    }

    private static long[] bytesOrNull(int[] elements, int size) {
        return elements == null ? null : CommVectorCollectives.bytes(elements, size);
    }
}
