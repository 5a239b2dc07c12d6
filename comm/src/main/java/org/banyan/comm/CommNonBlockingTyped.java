package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The non-blocking forms of the collectives on derived datatypes (MPI_Ibcast, Igather(v),
 * Iscatter(v), Iallgather(v), Ialltoall(v/w), Ireduce, Iallreduce, Iscan, Iexscan with
 * datatypes), run on the communicator's collective thread as {@link CommNonBlocking} describes,
 * every buffer type alike.
 */
public abstract sealed class CommNonBlockingTyped extends CommNonBlockingExchanges permits CommNonBlockingParts {
    CommNonBlockingTyped() {}


    public Request ibcast(byte[] buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(int[] buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(long[] buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(float[] buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(double[] buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(MemorySegment buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request ibcast(ByteBuffer buffer, int count, Datatype type, int root) {
        return background(() -> bcast(buffer, count, type, root));
    }

    public Request igather(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request igather(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> gather(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType,
            int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatter(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatter(send, sendCount, sendType, recv, recvCount, recvType, root));
    }

    public Request iallgather(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount,
            Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request iallgather(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType) {
        return background(() -> allgather(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount,
            Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request ialltoall(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType) {
        return background(() -> alltoall(send, sendCount, sendType, recv, recvCount, recvType));
    }

    public Request igatherv(byte[] send, int sendCount, Datatype sendType, byte[] recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(int[] send, int sendCount, Datatype sendType, int[] recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(long[] send, int sendCount, Datatype sendType, long[] recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(float[] send, int sendCount, Datatype sendType, float[] recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(double[] send, int sendCount, Datatype sendType, double[] recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int[] recvCounts,
            int[] displs, Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request igatherv(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int[] recvCounts, int[] displs,
            Datatype recvType, int root) {
        return background(() -> gatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType, root));
    }

    public Request iscatterv(byte[] send, int[] counts, int[] displs, Datatype sendType, byte[] recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(int[] send, int[] counts, int[] displs, Datatype sendType, int[] recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(long[] send, int[] counts, int[] displs, Datatype sendType, long[] recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(float[] send, int[] counts, int[] displs, Datatype sendType, float[] recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(double[] send, int[] counts, int[] displs, Datatype sendType, double[] recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(MemorySegment send, int[] counts, int[] displs, Datatype sendType, MemorySegment recv,
            int recvCount, Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iscatterv(ByteBuffer send, int[] counts, int[] displs, Datatype sendType, ByteBuffer recv, int recvCount,
            Datatype recvType, int root) {
        return background(() -> scatterv(send, counts, displs, sendType, recv, recvCount, recvType, root));
    }

    public Request iallgatherv(byte[] send, int sendCount, Datatype sendType, byte[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(int[] send, int sendCount, Datatype sendType, int[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(long[] send, int sendCount, Datatype sendType, long[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(float[] send, int sendCount, Datatype sendType, float[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(double[] send, int sendCount, Datatype sendType, double[] recv, int[] recvCounts, int[] displs,
            Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int[] recvCounts,
            int[] displs, Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request iallgatherv(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int[] recvCounts,
            int[] displs, Datatype recvType) {
        return background(() -> allgatherv(send, sendCount, sendType, recv, recvCounts, displs, recvType));
    }

    public Request ialltoallv(byte[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, byte[] recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(int[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, int[] recv, int[] recvCounts,
            int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(long[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, long[] recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(float[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, float[] recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(double[] send, int[] sendCounts, int[] sendDispls, Datatype sendType, double[] recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(MemorySegment send, int[] sendCounts, int[] sendDispls, Datatype sendType, MemorySegment recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallv(ByteBuffer send, int[] sendCounts, int[] sendDispls, Datatype sendType, ByteBuffer recv,
            int[] recvCounts, int[] recvDispls, Datatype recvType) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, sendType, recv, recvCounts, recvDispls, recvType));
    }

    public Request ialltoallw(byte[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, byte[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(int[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, int[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(long[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, long[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(float[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, float[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(double[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, double[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(MemorySegment send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes,
            MemorySegment recv, int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ialltoallw(ByteBuffer send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, ByteBuffer recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return background(() -> alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, recvTypes));
    }

    public Request ireduce(byte[] send, byte[] recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(int[] send, int[] recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(long[] send, long[] recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(float[] send, float[] recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(double[] send, double[] recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request ireduce(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op, int root) {
        return background(() -> reduce(send, recv, count, type, op, root));
    }

    public Request iallreduce(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(int[] send, int[] recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(long[] send, long[] recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(float[] send, float[] recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(double[] send, double[] recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iallreduce(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        return background(() -> allreduce(send, recv, count, type, op));
    }

    public Request iscan(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(int[] send, int[] recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(long[] send, long[] recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(float[] send, float[] recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(double[] send, double[] recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iscan(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        return background(() -> scan(send, recv, count, type, op));
    }

    public Request iexscan(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(int[] send, int[] recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(long[] send, long[] recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(float[] send, float[] recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(double[] send, double[] recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }

    public Request iexscan(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        return background(() -> exscan(send, recv, count, type, op));
    }
}
