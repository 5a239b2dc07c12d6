package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * An intercommunicator's non-blocking collectives (MPI_Ibarrier, Ibcast, Ireduce, Iallreduce,
 * Iallgather, Ialltoall, Igather, Iscatter, Ireduce_scatter(_block) on intercommunicators; the
 * "v" forms are in {@link IntercommNonBlockingVectors}): each starts the blocking collective of
 * the same name ({@link IntercommCollectiveCalls}, with its meaning of roots and groups) on the
 * intercommunicator's collective thread and returns a {@link Request} that is done when it is.
 * As on a {@link Comm} ({@link CommNonBlocking}), they run there in the order this rank called
 * them, a blocking collective called meanwhile first waits for them, and the buffers belong to
 * the collective until its request is done.
 */
public abstract sealed class IntercommNonBlocking extends IntercommCollectiveCalls permits IntercommNonBlockingVectors {
    IntercommNonBlocking() {}

    /** Runs {@code body} on the intercommunicator's collective thread, after those started before it. */
    abstract Request background(Runnable body);

    public Request ibarrier() {
        return background(() -> barrier());
    }

    public Request ibcast(MemorySegment buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> allreduce(send, recv, type, op));
    }

    public Request ireduce(MemorySegment send, MemorySegment recv, Elem type, Op op, int root) {
        return background(() -> reduce(send, recv, type, op, root));
    }

    public Request iallgather(MemorySegment send, MemorySegment recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(MemorySegment send, MemorySegment recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op) {
        return background(() -> reduceScatter(send, recv, counts, type, op));
    }

    public Request ireduceScatterBlock(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        return background(() -> reduceScatterBlock(send, recv, type, op));
    }

    public Request ibcast(byte[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(byte[] send, byte[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request ireduce(byte[] send, byte[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallgather(byte[] send, byte[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(byte[] send, byte[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(byte[] send, byte[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(byte[] send, byte[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(byte[] send, byte[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatterBlock(byte[] send, byte[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ibcast(int[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(int[] send, int[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request ireduce(int[] send, int[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallgather(int[] send, int[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(int[] send, int[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(int[] send, int[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(int[] send, int[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(int[] send, int[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatterBlock(int[] send, int[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ibcast(long[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(long[] send, long[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request ireduce(long[] send, long[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallgather(long[] send, long[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(long[] send, long[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(long[] send, long[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(long[] send, long[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(long[] send, long[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatterBlock(long[] send, long[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ibcast(float[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(float[] send, float[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request ireduce(float[] send, float[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallgather(float[] send, float[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(float[] send, float[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(float[] send, float[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(float[] send, float[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(float[] send, float[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatterBlock(float[] send, float[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ibcast(double[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(double[] send, double[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request ireduce(double[] send, double[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallgather(double[] send, double[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(double[] send, double[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(double[] send, double[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(double[] send, double[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(double[] send, double[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatterBlock(double[] send, double[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ibcast(ByteBuffer buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request iallreduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> allreduce(send, recv, type, op));
    }

    public Request ireduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op, int root) {
        return background(() -> reduce(send, recv, type, op, root));
    }

    public Request iallgather(ByteBuffer send, ByteBuffer recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(ByteBuffer send, ByteBuffer recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igather(ByteBuffer send, ByteBuffer recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(ByteBuffer send, ByteBuffer recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request ireduceScatter(ByteBuffer send, ByteBuffer recv, int[] counts, Elem type, Op op) {
        return background(() -> reduceScatter(send, recv, counts, type, op));
    }

    public Request ireduceScatterBlock(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        return background(() -> reduceScatterBlock(send, recv, type, op));
    }
}
