package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * Non-blocking collectives (MPI_Ibarrier, Ibcast, Ireduce, Iallreduce, Igather, Iscatter,
 * Iallgather, Ialltoall, their "v" forms, Iscan, Iexscan, Ireduce_scatter(_block)): each starts
 * the blocking collective of the same name on the communicator's collective thread and returns a
 * {@link Request} that is done when it is. They run there one after the other in the order this
 * rank called them, and a blocking collective called meanwhile first waits for them, so every
 * rank's collectives meet in the order each rank made them, as MPI requires. That thread also
 * makes the library's progress while the caller computes: an overlap MPI libraries without a
 * progress thread give only inside MPI calls. The buffers belong to the collective until its
 * request is done.
 */
public abstract sealed class CommNonBlocking extends CommArrayParts permits Comm {
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

    public Request ibcast(double[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(float[] buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ibcast(MemorySegment buffer, int root) {
        return background(() -> bcast(buffer, root));
    }

    public Request ireduce(double[] send, double[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(long[] send, long[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(float[] send, float[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request ireduce(int[] send, int[] recv, Op op, int root) {
        return background(() -> reduce(send, recv, op, root));
    }

    public Request iallreduce(double[] send, double[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(long[] send, long[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(int[] send, int[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request iallreduce(float[] send, float[] recv, Op op) {
        return background(() -> allreduce(send, recv, op));
    }

    public Request igather(double[] send, double[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(int[] send, int[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(float[] send, float[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(long[] send, long[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(double[] send, double[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(long[] send, long[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(int[] send, int[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(float[] send, float[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iallgather(double[] send, double[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(long[] send, long[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(float[] send, float[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(int[] send, int[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(MemorySegment send, MemorySegment recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(double[] send, double[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(long[] send, long[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(float[] send, float[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(int[] send, int[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(MemorySegment send, MemorySegment recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request iscan(double[] send, double[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(long[] send, long[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iscan(int[] send, int[] recv, Op op) {
        return background(() -> scan(send, recv, op));
    }

    public Request iexscan(double[] send, double[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(long[] send, long[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request iexscan(int[] send, int[] recv, Op op) {
        return background(() -> exscan(send, recv, op));
    }

    public Request ireduceScatterBlock(double[] send, double[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(long[] send, long[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatterBlock(int[] send, int[] recv, Op op) {
        return background(() -> reduceScatterBlock(send, recv, op));
    }

    public Request ireduceScatter(double[] send, double[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(long[] send, long[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request ireduceScatter(int[] send, int[] recv, int[] counts, Op op) {
        return background(() -> reduceScatter(send, recv, counts, op));
    }

    public Request igatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }
}
