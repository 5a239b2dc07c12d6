package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * Calls on a part of an array, as C passes {@code &a[offset]} and a count: sendrecv (a halo
 * exchange within one array), and broadcast, reductions, gather, scatter, allgather and
 * all-to-all, with an offset into each array and a
 * count of elements per rank (a gather's or scatter's whole part is size() times that, an
 * all-to-all's too, in blocks of {@code count}). A part that does not fit its array is refused
 * before anything is sent.
 */
public abstract sealed class CommArrayParts extends CommTypedVectors permits CommNonBlocking {
    CommArrayParts() {}

    public void bcast(byte[] buffer, int offset, int count, int root) {
        bcast(part(MemorySegment.ofArray(buffer), 1, offset, count), root);
    }

    public void bcast(int[] buffer, int offset, int count, int root) {
        bcast(part(MemorySegment.ofArray(buffer), 4, offset, count), root);
    }

    public void bcast(long[] buffer, int offset, int count, int root) {
        bcast(part(MemorySegment.ofArray(buffer), 8, offset, count), root);
    }

    public void bcast(float[] buffer, int offset, int count, int root) {
        bcast(part(MemorySegment.ofArray(buffer), 4, offset, count), root);
    }

    public void bcast(double[] buffer, int offset, int count, int root) {
        bcast(part(MemorySegment.ofArray(buffer), 8, offset, count), root);
    }

    public void reduce(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, count) : null, Elem.INT, op, root);
    }

    public void allreduce(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 4, sendOffset, count), part(MemorySegment.ofArray(recv), 4, recvOffset, count),
                Elem.INT, op);
    }

    public void gather(int[] send, int sendOffset, int count, int[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, asComm().size())) : null,
                root);
    }

    public void scatter(int[] send, int sendOffset, int[] recv, int recvOffset, int count, int root) {
        scatter(asComm().rank == root ? part(MemorySegment.ofArray(send), 4, sendOffset, Math.multiplyExact(count, asComm().size())) : null,
                part(MemorySegment.ofArray(recv), 4, recvOffset, count), root);
    }

    public void allgather(int[] send, int sendOffset, int count, int[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, asComm().size())));
    }

    public void alltoall(int[] send, int sendOffset, int[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, asComm().size());
        alltoall(part(MemorySegment.ofArray(send), 4, sendOffset, all), part(MemorySegment.ofArray(recv), 4, recvOffset, all));
    }

    public void reduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, count) : null, Elem.LONG, op, root);
    }

    public void allreduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 8, sendOffset, count), part(MemorySegment.ofArray(recv), 8, recvOffset, count),
                Elem.LONG, op);
    }

    public void gather(long[] send, int sendOffset, int count, long[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, asComm().size())) : null,
                root);
    }

    public void scatter(long[] send, int sendOffset, long[] recv, int recvOffset, int count, int root) {
        scatter(asComm().rank == root ? part(MemorySegment.ofArray(send), 8, sendOffset, Math.multiplyExact(count, asComm().size())) : null,
                part(MemorySegment.ofArray(recv), 8, recvOffset, count), root);
    }

    public void allgather(long[] send, int sendOffset, int count, long[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, asComm().size())));
    }

    public void alltoall(long[] send, int sendOffset, long[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, asComm().size());
        alltoall(part(MemorySegment.ofArray(send), 8, sendOffset, all), part(MemorySegment.ofArray(recv), 8, recvOffset, all));
    }

    public void reduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, count) : null, Elem.FLOAT, op, root);
    }

    public void allreduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 4, sendOffset, count), part(MemorySegment.ofArray(recv), 4, recvOffset, count),
                Elem.FLOAT, op);
    }

    public void gather(float[] send, int sendOffset, int count, float[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, asComm().size())) : null,
                root);
    }

    public void scatter(float[] send, int sendOffset, float[] recv, int recvOffset, int count, int root) {
        scatter(asComm().rank == root ? part(MemorySegment.ofArray(send), 4, sendOffset, Math.multiplyExact(count, asComm().size())) : null,
                part(MemorySegment.ofArray(recv), 4, recvOffset, count), root);
    }

    public void allgather(float[] send, int sendOffset, int count, float[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, asComm().size())));
    }

    public void alltoall(float[] send, int sendOffset, float[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, asComm().size());
        alltoall(part(MemorySegment.ofArray(send), 4, sendOffset, all), part(MemorySegment.ofArray(recv), 4, recvOffset, all));
    }

    public void reduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, count) : null, Elem.DOUBLE, op, root);
    }

    public void allreduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 8, sendOffset, count), part(MemorySegment.ofArray(recv), 8, recvOffset, count),
                Elem.DOUBLE, op);
    }

    public void gather(double[] send, int sendOffset, int count, double[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, asComm().size())) : null,
                root);
    }

    public void scatter(double[] send, int sendOffset, double[] recv, int recvOffset, int count, int root) {
        scatter(asComm().rank == root ? part(MemorySegment.ofArray(send), 8, sendOffset, Math.multiplyExact(count, asComm().size())) : null,
                part(MemorySegment.ofArray(recv), 8, recvOffset, count), root);
    }

    public void allgather(double[] send, int sendOffset, int count, double[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, asComm().size())));
    }

    public void alltoall(double[] send, int sendOffset, double[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, asComm().size());
        alltoall(part(MemorySegment.ofArray(send), 8, sendOffset, all), part(MemorySegment.ofArray(recv), 8, recvOffset, all));
    }

    /** MPI_Sendrecv on parts of arrays (a halo exchange within one array: the send part and the receive part may be of the same array, apart). */
    public Status sendrecv(byte[] send, int sendOffset, int sendCount, int dest, int sendTag, byte[] recv, int recvOffset,
                           int recvCount, int source, int recvTag) {
        return sendrecv(part(MemorySegment.ofArray(send), 1, sendOffset, sendCount), dest, sendTag,
                part(MemorySegment.ofArray(recv), 1, recvOffset, recvCount), source, recvTag);
    }

    public Status sendrecv(int[] send, int sendOffset, int sendCount, int dest, int sendTag, int[] recv, int recvOffset,
                           int recvCount, int source, int recvTag) {
        return sendrecv(part(MemorySegment.ofArray(send), 4, sendOffset, sendCount), dest, sendTag,
                part(MemorySegment.ofArray(recv), 4, recvOffset, recvCount), source, recvTag);
    }

    public Status sendrecv(long[] send, int sendOffset, int sendCount, int dest, int sendTag, long[] recv, int recvOffset,
                           int recvCount, int source, int recvTag) {
        return sendrecv(part(MemorySegment.ofArray(send), 8, sendOffset, sendCount), dest, sendTag,
                part(MemorySegment.ofArray(recv), 8, recvOffset, recvCount), source, recvTag);
    }

    public Status sendrecv(float[] send, int sendOffset, int sendCount, int dest, int sendTag, float[] recv, int recvOffset,
                           int recvCount, int source, int recvTag) {
        return sendrecv(part(MemorySegment.ofArray(send), 4, sendOffset, sendCount), dest, sendTag,
                part(MemorySegment.ofArray(recv), 4, recvOffset, recvCount), source, recvTag);
    }

    public Status sendrecv(double[] send, int sendOffset, int sendCount, int dest, int sendTag, double[] recv, int recvOffset,
                           int recvCount, int source, int recvTag) {
        return sendrecv(part(MemorySegment.ofArray(send), 8, sendOffset, sendCount), dest, sendTag,
                part(MemorySegment.ofArray(recv), 8, recvOffset, recvCount), source, recvTag);
    }

    public void reduce(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 1, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 1, recvOffset, count) : null, Elem.BYTE, op, root);
    }

    public void allreduce(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 1, sendOffset, count), part(MemorySegment.ofArray(recv), 1, recvOffset, count),
                Elem.BYTE, op);
    }

    public void gather(byte[] send, int sendOffset, int count, byte[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 1, sendOffset, count),
                asComm().rank == root ? part(MemorySegment.ofArray(recv), 1, recvOffset, Math.multiplyExact(count, asComm().size())) : null,
                root);
    }

    public void scatter(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, int root) {
        scatter(asComm().rank == root ? part(MemorySegment.ofArray(send), 1, sendOffset, Math.multiplyExact(count, asComm().size())) : null,
                part(MemorySegment.ofArray(recv), 1, recvOffset, count), root);
    }

    public void allgather(byte[] send, int sendOffset, int count, byte[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 1, sendOffset, count),
                part(MemorySegment.ofArray(recv), 1, recvOffset, Math.multiplyExact(count, asComm().size())));
    }

    public void alltoall(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, asComm().size());
        alltoall(part(MemorySegment.ofArray(send), 1, sendOffset, all), part(MemorySegment.ofArray(recv), 1, recvOffset, all));
    }

    public void scan(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        scan(part(MemorySegment.ofArray(send), Byte.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv), Byte.BYTES,
                recvOffset, count),
                Elem.BYTE, op);
    }

    public void exscan(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        exscan(part(MemorySegment.ofArray(send), Byte.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv), Byte.BYTES,
                recvOffset, count),
                Elem.BYTE, op);
    }

    /** MPI_Gatherv of a part of {@code send}; the root's displacements place each rank's block in {@code recv}. */
    public void gatherv(byte[] send, int sendOffset, int sendCount, byte[] recv, int[] counts, int[] displs, int root) {
        gathervElements(part(MemorySegment.ofArray(send), Byte.BYTES, sendOffset, sendCount),
                recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Byte.BYTES);
    }

    /** MPI_Scatterv into a part of {@code recv}. */
    public void scatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int recvOffset, int recvCount, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                part(MemorySegment.ofArray(recv), Byte.BYTES, recvOffset, recvCount), root, Byte.BYTES);
    }

    /** MPI_Allgatherv of a part of {@code send}. */
    public void allgatherv(byte[] send, int sendOffset, int sendCount, byte[] recv, int[] counts, int[] displs) {
        allgathervElements(part(MemorySegment.ofArray(send), Byte.BYTES, sendOffset, sendCount), MemorySegment.ofArray(recv),
                recv.length,
                counts, displs, Byte.BYTES);
    }

    public void scan(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        scan(part(MemorySegment.ofArray(send), Integer.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv),
                Integer.BYTES, recvOffset, count),
                Elem.INT, op);
    }

    public void exscan(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        exscan(part(MemorySegment.ofArray(send), Integer.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv),
                Integer.BYTES, recvOffset, count),
                Elem.INT, op);
    }

    /** MPI_Gatherv of a part of {@code send}; the root's displacements place each rank's block in {@code recv}. */
    public void gatherv(int[] send, int sendOffset, int sendCount, int[] recv, int[] counts, int[] displs, int root) {
        gathervElements(part(MemorySegment.ofArray(send), Integer.BYTES, sendOffset, sendCount),
                recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Integer.BYTES);
    }

    /** MPI_Scatterv into a part of {@code recv}. */
    public void scatterv(int[] send, int[] counts, int[] displs, int[] recv, int recvOffset, int recvCount, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                part(MemorySegment.ofArray(recv), Integer.BYTES, recvOffset, recvCount), root, Integer.BYTES);
    }

    /** MPI_Allgatherv of a part of {@code send}. */
    public void allgatherv(int[] send, int sendOffset, int sendCount, int[] recv, int[] counts, int[] displs) {
        allgathervElements(part(MemorySegment.ofArray(send), Integer.BYTES, sendOffset, sendCount),
                MemorySegment.ofArray(recv), recv.length,
                counts, displs, Integer.BYTES);
    }

    public void scan(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        scan(part(MemorySegment.ofArray(send), Long.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv), Long.BYTES,
                recvOffset, count),
                Elem.LONG, op);
    }

    public void exscan(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        exscan(part(MemorySegment.ofArray(send), Long.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv), Long.BYTES,
                recvOffset, count),
                Elem.LONG, op);
    }

    /** MPI_Gatherv of a part of {@code send}; the root's displacements place each rank's block in {@code recv}. */
    public void gatherv(long[] send, int sendOffset, int sendCount, long[] recv, int[] counts, int[] displs, int root) {
        gathervElements(part(MemorySegment.ofArray(send), Long.BYTES, sendOffset, sendCount),
                recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Long.BYTES);
    }

    /** MPI_Scatterv into a part of {@code recv}. */
    public void scatterv(long[] send, int[] counts, int[] displs, long[] recv, int recvOffset, int recvCount, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                part(MemorySegment.ofArray(recv), Long.BYTES, recvOffset, recvCount), root, Long.BYTES);
    }

    /** MPI_Allgatherv of a part of {@code send}. */
    public void allgatherv(long[] send, int sendOffset, int sendCount, long[] recv, int[] counts, int[] displs) {
        allgathervElements(part(MemorySegment.ofArray(send), Long.BYTES, sendOffset, sendCount), MemorySegment.ofArray(recv),
                recv.length,
                counts, displs, Long.BYTES);
    }

    public void scan(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        scan(part(MemorySegment.ofArray(send), Float.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv), Float.BYTES,
                recvOffset, count),
                Elem.FLOAT, op);
    }

    public void exscan(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        exscan(part(MemorySegment.ofArray(send), Float.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv),
                Float.BYTES, recvOffset, count),
                Elem.FLOAT, op);
    }

    /** MPI_Gatherv of a part of {@code send}; the root's displacements place each rank's block in {@code recv}. */
    public void gatherv(float[] send, int sendOffset, int sendCount, float[] recv, int[] counts, int[] displs, int root) {
        gathervElements(part(MemorySegment.ofArray(send), Float.BYTES, sendOffset, sendCount),
                recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Float.BYTES);
    }

    /** MPI_Scatterv into a part of {@code recv}. */
    public void scatterv(float[] send, int[] counts, int[] displs, float[] recv, int recvOffset, int recvCount, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                part(MemorySegment.ofArray(recv), Float.BYTES, recvOffset, recvCount), root, Float.BYTES);
    }

    /** MPI_Allgatherv of a part of {@code send}. */
    public void allgatherv(float[] send, int sendOffset, int sendCount, float[] recv, int[] counts, int[] displs) {
        allgathervElements(part(MemorySegment.ofArray(send), Float.BYTES, sendOffset, sendCount), MemorySegment.ofArray(recv),
                recv.length,
                counts, displs, Float.BYTES);
    }

    public void scan(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        scan(part(MemorySegment.ofArray(send), Double.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv),
                Double.BYTES, recvOffset, count),
                Elem.DOUBLE, op);
    }

    public void exscan(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        exscan(part(MemorySegment.ofArray(send), Double.BYTES, sendOffset, count), part(MemorySegment.ofArray(recv),
                Double.BYTES, recvOffset, count),
                Elem.DOUBLE, op);
    }

    /** MPI_Gatherv of a part of {@code send}; the root's displacements place each rank's block in {@code recv}. */
    public void gatherv(double[] send, int sendOffset, int sendCount, double[] recv, int[] counts, int[] displs, int root) {
        gathervElements(part(MemorySegment.ofArray(send), Double.BYTES, sendOffset, sendCount),
                recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Double.BYTES);
    }

    /** MPI_Scatterv into a part of {@code recv}. */
    public void scatterv(double[] send, int[] counts, int[] displs, double[] recv, int recvOffset, int recvCount, int root) {
        scattervElements(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                part(MemorySegment.ofArray(recv), Double.BYTES, recvOffset, recvCount), root, Double.BYTES);
    }

    /** MPI_Allgatherv of a part of {@code send}. */
    public void allgatherv(double[] send, int sendOffset, int sendCount, double[] recv, int[] counts, int[] displs) {
        allgathervElements(part(MemorySegment.ofArray(send), Double.BYTES, sendOffset, sendCount), MemorySegment.ofArray(recv),
                recv.length,
                counts, displs, Double.BYTES);
    }
}
