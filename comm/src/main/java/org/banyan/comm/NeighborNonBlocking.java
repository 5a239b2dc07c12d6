package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The non-blocking neighbour collectives (MPI_Ineighbor_allgather(v), _alltoall(v), _alltoallw):
 * each runs the blocking one on the topology's communicator's collective thread, after the
 * collectives started on it before, as {@link CommNonBlocking} describes; the buffers belong to
 * it until its request is done.
 */
public abstract sealed class NeighborNonBlocking extends NeighborCollectives permits DistGraph, Cartesian {
    NeighborNonBlocking() {}


    public Request ineighborAllgather(byte[] send, byte[] recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(int[] send, int[] recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(long[] send, long[] recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(float[] send, float[] recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(double[] send, double[] recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(MemorySegment send, MemorySegment recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAllgather(ByteBuffer send, ByteBuffer recv) {
        return comm().background(() -> neighborAllgather(send, recv));
    }

    public Request ineighborAlltoall(byte[] send, byte[] recv, int block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(int[] send, int[] recv, int block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(long[] send, long[] recv, int block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(float[] send, float[] recv, int block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(double[] send, double[] recv, int block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(MemorySegment send, MemorySegment recv, long block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAlltoall(ByteBuffer send, ByteBuffer recv, long block) {
        return comm().background(() -> neighborAlltoall(send, recv, block));
    }

    public Request ineighborAllgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAllgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        return comm().background(() -> neighborAllgatherv(send, recv, counts, displs));
    }

    public Request ineighborAlltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts,
            int[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts,
            int[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts,
            int[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts,
            int[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
            long[] recvCounts, long[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv,
            long[] recvCounts, long[] recvDispls) {
        return comm().background(() -> neighborAlltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls));
    }

    public Request ineighborAlltoallw(byte[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, byte[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(int[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, int[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(long[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, long[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(float[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, float[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(double[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, double[] recv,
            int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(MemorySegment send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes,
            MemorySegment recv, int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }

    public Request ineighborAlltoallw(ByteBuffer send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes,
            ByteBuffer recv, int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        return comm().background(() -> neighborAlltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls,
                recvTypes));
    }
}
