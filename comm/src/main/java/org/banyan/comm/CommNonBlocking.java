package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Non-blocking collectives (MPI_Ibarrier, Ibcast, Ireduce, Iallreduce, Iscan, Iexscan,
 * Ireduce_scatter(_block); the exchanges are in {@link CommNonBlockingExchanges}): each starts
 * the blocking collective of the same name on the communicator's collective thread and returns a
 * {@link Request} that is done when it is. They run there one after the other in the order this
 * rank called them, and a blocking collective called meanwhile first waits for them, so every
 * rank's collectives meet in the order each rank made them, as MPI requires. That thread also
 * makes the library's progress while the caller computes: an overlap MPI libraries without a
 * progress thread give only inside MPI calls. The buffers belong to the collective until its
 * request is done. Every buffer type of the blocking calls is taken; memory segments and byte
 * buffers name their values' {@link Elem} for reductions.
 */
public abstract sealed class CommNonBlocking extends CommArrayParts permits CommNonBlockingExchanges {
    CommNonBlocking() {}

    /** Runs {@code body} on the communicator's collective thread, after those started before it. */
    abstract Request background(Runnable body);

    public Request ibarrier() {
        return background(this::barrier);
    }


    public Request ibcast(byte[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(int[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(long[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(float[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(double[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(MemorySegment buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(ByteBuffer buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ireduce(byte[] send, byte[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(int[] send, int[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(long[] send, long[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(float[] send, float[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(double[] send, double[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(MemorySegment send, MemorySegment recv, Elem type, Op op, int root) {
        return background(() -> reduce(send, recv, type, op, root));
    }

    public Request ireduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op, int root) {
        return background(() -> reduce(send, recv, type, op, root));
    }

    public Request iallreduce(byte[] send, byte[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(int[] send, int[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(long[] send, long[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(float[] send, float[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(double[] send, double[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> allreduce(send, recv, type, op));
    }

    public Request iallreduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> allreduce(send, recv, type, op));
    }

    public Request iscan(byte[] send, byte[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(int[] send, int[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(long[] send, long[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(float[] send, float[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(double[] send, double[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> scan(send, recv, type, op));
    }

    public Request iscan(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> scan(send, recv, type, op));
    }

    public Request iexscan(byte[] send, byte[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(int[] send, int[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(long[] send, long[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(float[] send, float[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(double[] send, double[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> exscan(send, recv, type, op));
    }

    public Request iexscan(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> exscan(send, recv, type, op));
    }

    public Request ireduceScatterBlock(byte[] send, byte[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(int[] send, int[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(long[] send, long[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(float[] send, float[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(double[] send, double[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> reduceScatterBlock(send, recv, type, op));
    }

    public Request ireduceScatterBlock(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> reduceScatterBlock(send, recv, type, op));
    }

    public Request ireduceScatter(byte[] send, byte[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(int[] send, int[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(long[] send, long[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(float[] send, float[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(double[] send, double[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op) {
        return background(() -> reduceScatter(send, recv, counts, type, op));
    }

    public Request ireduceScatter(ByteBuffer send, ByteBuffer recv, int[] counts, Elem type, Op op) {
        return background(() -> reduceScatter(send, recv, counts, type, op));
    }
}
