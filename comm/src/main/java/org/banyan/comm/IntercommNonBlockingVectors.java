package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * An intercommunicator's non-blocking "v" collectives (MPI_Igatherv, Iscatterv, Iallgatherv,
 * Ialltoallv on intercommunicators), as {@link IntercommNonBlocking}'s: counts and displacements
 * indexed by the other group's ranks, and like the buffers not to be changed until the request
 * is done.
 */
public abstract sealed class IntercommNonBlockingVectors extends IntercommNonBlocking permits Intercomm {
    IntercommNonBlockingVectors() {}

    public Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts, long[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(byte[] send, byte[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(byte[] send, int[] counts, int[] displs, byte[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(float[] send, float[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(float[] send, int[] counts, int[] displs, float[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request igatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs, int root) {
        return background(() -> gatherv(send, recv, counts, displs, root));
    }

    public Request iscatterv(ByteBuffer send, long[] counts, long[] displs, ByteBuffer recv, int root) {
        return background(() -> scatterv(send, counts, displs, recv, root));
    }

    public Request iallgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        return background(() -> allgatherv(send, recv, counts, displs));
    }

    public Request ialltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts, long[] recvDispls) {
        return background(() -> alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }
}
