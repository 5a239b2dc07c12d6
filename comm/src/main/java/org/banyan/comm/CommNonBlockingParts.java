package org.banyan.comm;

/**
 * The non-blocking forms of the collectives on parts of arrays ({@code &a[offset]} and a count,
 * as {@link CommArrayParts} takes them), run on the communicator's collective thread as
 * {@link CommNonBlocking} describes; a part that does not fit its array is refused when the
 * collective runs, through its request.
 */
public abstract sealed class CommNonBlockingParts extends CommNonBlockingTyped permits CommSpawning {
    CommNonBlockingParts() {}


    public Request ibcast(byte[] buffer, int offset, int count, int root) {
        return background(() -> bcast(buffer, offset, count, root));
    }

    public Request ibcast(int[] buffer, int offset, int count, int root) {
        return background(() -> bcast(buffer, offset, count, root));
    }

    public Request ibcast(long[] buffer, int offset, int count, int root) {
        return background(() -> bcast(buffer, offset, count, root));
    }

    public Request ibcast(float[] buffer, int offset, int count, int root) {
        return background(() -> bcast(buffer, offset, count, root));
    }

    public Request ibcast(double[] buffer, int offset, int count, int root) {
        return background(() -> bcast(buffer, offset, count, root));
    }

    public Request ireduce(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op, int root) {
        return background(() -> reduce(send, sendOffset, recv, recvOffset, count, op, root));
    }

    public Request ireduce(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op, int root) {
        return background(() -> reduce(send, sendOffset, recv, recvOffset, count, op, root));
    }

    public Request ireduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op, int root) {
        return background(() -> reduce(send, sendOffset, recv, recvOffset, count, op, root));
    }

    public Request ireduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op, int root) {
        return background(() -> reduce(send, sendOffset, recv, recvOffset, count, op, root));
    }

    public Request ireduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op, int root) {
        return background(() -> reduce(send, sendOffset, recv, recvOffset, count, op, root));
    }

    public Request iallreduce(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        return background(() -> allreduce(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iallreduce(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        return background(() -> allreduce(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iallreduce(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        return background(() -> allreduce(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iallreduce(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        return background(() -> allreduce(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iallreduce(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        return background(() -> allreduce(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iscan(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        return background(() -> scan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iscan(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        return background(() -> scan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iscan(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        return background(() -> scan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iscan(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        return background(() -> scan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iscan(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        return background(() -> scan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iexscan(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, Op op) {
        return background(() -> exscan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iexscan(int[] send, int sendOffset, int[] recv, int recvOffset, int count, Op op) {
        return background(() -> exscan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iexscan(long[] send, int sendOffset, long[] recv, int recvOffset, int count, Op op) {
        return background(() -> exscan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iexscan(float[] send, int sendOffset, float[] recv, int recvOffset, int count, Op op) {
        return background(() -> exscan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request iexscan(double[] send, int sendOffset, double[] recv, int recvOffset, int count, Op op) {
        return background(() -> exscan(send, sendOffset, recv, recvOffset, count, op));
    }

    public Request igather(byte[] send, int sendOffset, int count, byte[] recv, int recvOffset, int root) {
        return background(() -> gather(send, sendOffset, count, recv, recvOffset, root));
    }

    public Request igather(int[] send, int sendOffset, int count, int[] recv, int recvOffset, int root) {
        return background(() -> gather(send, sendOffset, count, recv, recvOffset, root));
    }

    public Request igather(long[] send, int sendOffset, int count, long[] recv, int recvOffset, int root) {
        return background(() -> gather(send, sendOffset, count, recv, recvOffset, root));
    }

    public Request igather(float[] send, int sendOffset, int count, float[] recv, int recvOffset, int root) {
        return background(() -> gather(send, sendOffset, count, recv, recvOffset, root));
    }

    public Request igather(double[] send, int sendOffset, int count, double[] recv, int recvOffset, int root) {
        return background(() -> gather(send, sendOffset, count, recv, recvOffset, root));
    }

    public Request iscatter(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count, int root) {
        return background(() -> scatter(send, sendOffset, recv, recvOffset, count, root));
    }

    public Request iscatter(int[] send, int sendOffset, int[] recv, int recvOffset, int count, int root) {
        return background(() -> scatter(send, sendOffset, recv, recvOffset, count, root));
    }

    public Request iscatter(long[] send, int sendOffset, long[] recv, int recvOffset, int count, int root) {
        return background(() -> scatter(send, sendOffset, recv, recvOffset, count, root));
    }

    public Request iscatter(float[] send, int sendOffset, float[] recv, int recvOffset, int count, int root) {
        return background(() -> scatter(send, sendOffset, recv, recvOffset, count, root));
    }

    public Request iscatter(double[] send, int sendOffset, double[] recv, int recvOffset, int count, int root) {
        return background(() -> scatter(send, sendOffset, recv, recvOffset, count, root));
    }

    public Request iallgather(byte[] send, int sendOffset, int count, byte[] recv, int recvOffset) {
        return background(() -> allgather(send, sendOffset, count, recv, recvOffset));
    }

    public Request iallgather(int[] send, int sendOffset, int count, int[] recv, int recvOffset) {
        return background(() -> allgather(send, sendOffset, count, recv, recvOffset));
    }

    public Request iallgather(long[] send, int sendOffset, int count, long[] recv, int recvOffset) {
        return background(() -> allgather(send, sendOffset, count, recv, recvOffset));
    }

    public Request iallgather(float[] send, int sendOffset, int count, float[] recv, int recvOffset) {
        return background(() -> allgather(send, sendOffset, count, recv, recvOffset));
    }

    public Request iallgather(double[] send, int sendOffset, int count, double[] recv, int recvOffset) {
        return background(() -> allgather(send, sendOffset, count, recv, recvOffset));
    }

    public Request ialltoall(byte[] send, int sendOffset, byte[] recv, int recvOffset, int count) {
        return background(() -> alltoall(send, sendOffset, recv, recvOffset, count));
    }

    public Request ialltoall(int[] send, int sendOffset, int[] recv, int recvOffset, int count) {
        return background(() -> alltoall(send, sendOffset, recv, recvOffset, count));
    }

    public Request ialltoall(long[] send, int sendOffset, long[] recv, int recvOffset, int count) {
        return background(() -> alltoall(send, sendOffset, recv, recvOffset, count));
    }

    public Request ialltoall(float[] send, int sendOffset, float[] recv, int recvOffset, int count) {
        return background(() -> alltoall(send, sendOffset, recv, recvOffset, count));
    }

    public Request ialltoall(double[] send, int sendOffset, double[] recv, int recvOffset, int count) {
        return background(() -> alltoall(send, sendOffset, recv, recvOffset, count));
    }

    public Request igatherv(byte[] send, int sendOffset, int sendCount, byte[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, sendOffset, sendCount, recv, counts, displs, root));
    }

    public Request igatherv(int[] send, int sendOffset, int sendCount, int[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, sendOffset, sendCount, recv, counts, displs, root));
    }

    public Request igatherv(long[] send, int sendOffset, int sendCount, long[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, sendOffset, sendCount, recv, counts, displs, root));
    }

    public Request igatherv(float[] send, int sendOffset, int sendCount, float[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, sendOffset, sendCount, recv, counts, displs, root));
    }

    public Request igatherv(double[] send, int sendOffset, int sendCount, double[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, sendOffset, sendCount, recv, counts, displs, root));
    }

    public Request iscatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int recvOffset, int recvCount, int root) {
        return background(() -> scatterv(send, counts, displs, recv, recvOffset, recvCount, root));
    }

    public Request iscatterv(int[] send, int[] counts, int[] displs, int[] recv, int recvOffset, int recvCount, int root) {
        return background(() -> scatterv(send, counts, displs, recv, recvOffset, recvCount, root));
    }

    public Request iscatterv(long[] send, int[] counts, int[] displs, long[] recv, int recvOffset, int recvCount, int root) {
        return background(() -> scatterv(send, counts, displs, recv, recvOffset, recvCount, root));
    }

    public Request iscatterv(float[] send, int[] counts, int[] displs, float[] recv, int recvOffset, int recvCount, int root) {
        return background(() -> scatterv(send, counts, displs, recv, recvOffset, recvCount, root));
    }

    public Request iscatterv(double[] send, int[] counts, int[] displs, double[] recv, int recvOffset, int recvCount, int root) {
        return background(() -> scatterv(send, counts, displs, recv, recvOffset, recvCount, root));
    }

    public Request iallgatherv(byte[] send, int sendOffset, int sendCount, byte[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, sendOffset, sendCount, recv, counts, displs));
    }

    public Request iallgatherv(int[] send, int sendOffset, int sendCount, int[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, sendOffset, sendCount, recv, counts, displs));
    }

    public Request iallgatherv(long[] send, int sendOffset, int sendCount, long[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, sendOffset, sendCount, recv, counts, displs));
    }

    public Request iallgatherv(float[] send, int sendOffset, int sendCount, float[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, sendOffset, sendCount, recv, counts, displs));
    }

    public Request iallgatherv(double[] send, int sendOffset, int sendCount, double[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, sendOffset, sendCount, recv, counts, displs));
    }
}
