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
public abstract sealed class CommArrayParts extends CommTypedCollectives permits CommNonBlocking {
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
                self().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, count) : null, Elem.INT, op, root);
    }

    public void allreduce(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 4, sendOffset, count), part(MemorySegment.ofArray(recv), 4, recvOffset, count),
                Elem.INT, op);
    }

    public void gather(int[] send, int sendOffset, int count, int[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, self().size())) : null,
                root);
    }

    public void scatter(int[] send, int sendOffset, int[] recv, int recvOffset, int count, int root) {
        scatter(self().rank == root ? part(MemorySegment.ofArray(send), 4, sendOffset, Math.multiplyExact(count, self().size())) : null,
                part(MemorySegment.ofArray(recv), 4, recvOffset, count), root);
    }

    public void allgather(int[] send, int sendOffset, int count, int[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, self().size())));
    }

    public void alltoall(int[] send, int sendOffset, int[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, self().size());
        alltoall(part(MemorySegment.ofArray(send), 4, sendOffset, all), part(MemorySegment.ofArray(recv), 4, recvOffset, all));
    }

    public void reduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, count) : null, Elem.LONG, op, root);
    }

    public void allreduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 8, sendOffset, count), part(MemorySegment.ofArray(recv), 8, recvOffset, count),
                Elem.LONG, op);
    }

    public void gather(long[] send, int sendOffset, int count, long[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, self().size())) : null,
                root);
    }

    public void scatter(long[] send, int sendOffset, long[] recv, int recvOffset, int count, int root) {
        scatter(self().rank == root ? part(MemorySegment.ofArray(send), 8, sendOffset, Math.multiplyExact(count, self().size())) : null,
                part(MemorySegment.ofArray(recv), 8, recvOffset, count), root);
    }

    public void allgather(long[] send, int sendOffset, int count, long[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, self().size())));
    }

    public void alltoall(long[] send, int sendOffset, long[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, self().size());
        alltoall(part(MemorySegment.ofArray(send), 8, sendOffset, all), part(MemorySegment.ofArray(recv), 8, recvOffset, all));
    }

    public void reduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, count) : null, Elem.FLOAT, op, root);
    }

    public void allreduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 4, sendOffset, count), part(MemorySegment.ofArray(recv), 4, recvOffset, count),
                Elem.FLOAT, op);
    }

    public void gather(float[] send, int sendOffset, int count, float[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, self().size())) : null,
                root);
    }

    public void scatter(float[] send, int sendOffset, float[] recv, int recvOffset, int count, int root) {
        scatter(self().rank == root ? part(MemorySegment.ofArray(send), 4, sendOffset, Math.multiplyExact(count, self().size())) : null,
                part(MemorySegment.ofArray(recv), 4, recvOffset, count), root);
    }

    public void allgather(float[] send, int sendOffset, int count, float[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 4, sendOffset, count),
                part(MemorySegment.ofArray(recv), 4, recvOffset, Math.multiplyExact(count, self().size())));
    }

    public void alltoall(float[] send, int sendOffset, float[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, self().size());
        alltoall(part(MemorySegment.ofArray(send), 4, sendOffset, all), part(MemorySegment.ofArray(recv), 4, recvOffset, all));
    }

    public void reduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op, int root) {
        reduce(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, count) : null, Elem.DOUBLE, op, root);
    }

    public void allreduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        allreduce(part(MemorySegment.ofArray(send), 8, sendOffset, count), part(MemorySegment.ofArray(recv), 8, recvOffset, count),
                Elem.DOUBLE, op);
    }

    public void gather(double[] send, int sendOffset, int count, double[] recv, int recvOffset, int root) {
        gather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                self().rank == root ? part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, self().size())) : null,
                root);
    }

    public void scatter(double[] send, int sendOffset, double[] recv, int recvOffset, int count, int root) {
        scatter(self().rank == root ? part(MemorySegment.ofArray(send), 8, sendOffset, Math.multiplyExact(count, self().size())) : null,
                part(MemorySegment.ofArray(recv), 8, recvOffset, count), root);
    }

    public void allgather(double[] send, int sendOffset, int count, double[] recv, int recvOffset) {
        allgather(part(MemorySegment.ofArray(send), 8, sendOffset, count),
                part(MemorySegment.ofArray(recv), 8, recvOffset, Math.multiplyExact(count, self().size())));
    }

    public void alltoall(double[] send, int sendOffset, double[] recv, int recvOffset, int count) {
        int all = Math.multiplyExact(count, self().size());
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
}
