package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Non-blocking exchanges (MPI_Igather, Iscatter, Iallgather, Ialltoall and their "v" forms), run
 * on the communicator's collective thread as {@link CommNonBlocking} describes; counts and
 * displacements of the "v" forms in elements for arrays, in bytes for memory segments and byte
 * buffers, as the blocking calls take them.
 */
public abstract sealed class CommNonBlockingExchanges extends CommNonBlocking permits CommNonBlockingTyped {
    CommNonBlockingExchanges() {}


    public Request igather(byte[] send, byte[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(int[] send, int[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(long[] send, long[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(float[] send, float[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(double[] send, double[] recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request igather(ByteBuffer send, ByteBuffer recv, int root) {
        return background(() -> gather(send, recv, root));
    }

    public Request iscatter(byte[] send, byte[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(int[] send, int[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(long[] send, long[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(float[] send, float[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(double[] send, double[] recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(MemorySegment send, MemorySegment recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iscatter(ByteBuffer send, ByteBuffer recv, int root) {
        return background(() -> scatter(send, recv, root));
    }

    public Request iallgather(byte[] send, byte[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(int[] send, int[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(long[] send, long[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(float[] send, float[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(double[] send, double[] recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(MemorySegment send, MemorySegment recv) {
        return background(() -> allgather(send, recv));
    }

    public Request iallgather(ByteBuffer send, ByteBuffer recv) {
        return background(() -> allgather(send, recv));
    }

    public Request ialltoall(byte[] send, byte[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(int[] send, int[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(long[] send, long[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(float[] send, float[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(double[] send, double[] recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(MemorySegment send, MemorySegment recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request ialltoall(ByteBuffer send, ByteBuffer recv) {
        return background(() -> alltoall(send, recv));
    }

    public Request igatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(float[] send, float[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(float[] send, int[] counts, int[] displs, float[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request igatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iscatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request iallgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
            long[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ialltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts,
            long[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }
}
