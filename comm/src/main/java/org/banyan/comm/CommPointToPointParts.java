package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Point-to-point calls on derived datatypes ({@code count} elements of a {@link Datatype}, sent
 * packed and unpacked into place) and on parts of arrays ({@code offset} and {@code count}, as C
 * passes {@code &a[offset]}), for every buffer type {@link CommPointToPoint} takes.
 */
public abstract sealed class CommPointToPointParts extends CommPointToPoint permits CommCollectives, IntercommCollectiveCalls {
    CommPointToPointParts() {}

    /**
     * Sends {@code count} elements of {@code type} from {@code buffer} (a derived datatype: they
     * go packed in one message; the buffer is free again when this returns).
     */
    public void send(MemorySegment buffer, int count, Datatype type, int dest, int tag) {
        isend(type.pack(buffer, count), dest, tag).await();
    }

    /** Starts sending {@code count} elements of {@code type}; they are packed at once, so the buffer is free when this returns. */
    public Request isend(MemorySegment buffer, int count, Datatype type, int dest, int tag) {
        return isend(type.pack(buffer, count), dest, tag);
    }

    public Status recv(MemorySegment buffer, int count, Datatype type, int source, int tag) {
        return irecv(buffer, count, type, source, tag).await();
    }

    /** MPI_Sendrecv with derived datatypes: a halo exchange of strided data in one call. */
    public Status sendrecv(MemorySegment send, int sendCount, Datatype sendType, int dest, int sendTag, MemorySegment recv,
                           int recvCount, Datatype recvType, int source, int recvTag) {
        Request r = irecv(recv, recvCount, recvType, source, recvTag);
        Request s = isend(send, sendCount, sendType, dest, sendTag);
        Status st = r.await();
        s.await();
        return st;
    }

    public void send(byte[] buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Status recv(byte[] buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public Request isend(byte[] buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Request irecv(byte[] buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public void send(int[] buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Status recv(int[] buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public Request isend(int[] buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Request irecv(int[] buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public void send(long[] buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Status recv(long[] buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public Request isend(long[] buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Request irecv(long[] buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public void send(float[] buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Status recv(float[] buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public Request isend(float[] buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Request irecv(float[] buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public void send(double[] buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Status recv(double[] buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    public Request isend(double[] buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofArray(buffer), count, type, dest, tag);
    }

    public Request irecv(double[] buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), count, type, source, tag);
    }

    /**
     * {@code count} elements of {@code array} from index {@code offset}: the (offset, count) form
     * of every array call below, as C's {@code MPI_Send(&a[offset], count, ...)}.
     */
    static MemorySegment part(MemorySegment array, int elementBytes, int offset, int count) {
        long length = array.byteSize() / elementBytes;
        if (offset < 0 || count < 0 || (long) offset + count > length) {
            throw new IllegalArgumentException("elements " + offset + " to " + ((long) offset + count) + " are outside an array of "
                    + length);
        }
        return array.asSlice((long) offset * elementBytes, (long) count * elementBytes);
    }

    public void send(byte[] data, int offset, int count, int dest, int tag) {
        send(part(MemorySegment.ofArray(data), 1, offset, count), dest, tag);
    }

    public Request isend(byte[] data, int offset, int count, int dest, int tag) {
        return isend(part(MemorySegment.ofArray(data), 1, offset, count), dest, tag);
    }

    public Status recv(byte[] data, int offset, int count, int source, int tag) {
        return recv(part(MemorySegment.ofArray(data), 1, offset, count), source, tag);
    }

    public Request irecv(byte[] data, int offset, int count, int source, int tag) {
        return irecv(part(MemorySegment.ofArray(data), 1, offset, count), source, tag);
    }

    public void send(int[] data, int offset, int count, int dest, int tag) {
        send(part(MemorySegment.ofArray(data), 4, offset, count), dest, tag);
    }

    public Request isend(int[] data, int offset, int count, int dest, int tag) {
        return isend(part(MemorySegment.ofArray(data), 4, offset, count), dest, tag);
    }

    public Status recv(int[] data, int offset, int count, int source, int tag) {
        return recv(part(MemorySegment.ofArray(data), 4, offset, count), source, tag);
    }

    public Request irecv(int[] data, int offset, int count, int source, int tag) {
        return irecv(part(MemorySegment.ofArray(data), 4, offset, count), source, tag);
    }

    public void send(long[] data, int offset, int count, int dest, int tag) {
        send(part(MemorySegment.ofArray(data), 8, offset, count), dest, tag);
    }

    public Request isend(long[] data, int offset, int count, int dest, int tag) {
        return isend(part(MemorySegment.ofArray(data), 8, offset, count), dest, tag);
    }

    public Status recv(long[] data, int offset, int count, int source, int tag) {
        return recv(part(MemorySegment.ofArray(data), 8, offset, count), source, tag);
    }

    public Request irecv(long[] data, int offset, int count, int source, int tag) {
        return irecv(part(MemorySegment.ofArray(data), 8, offset, count), source, tag);
    }

    public void send(float[] data, int offset, int count, int dest, int tag) {
        send(part(MemorySegment.ofArray(data), 4, offset, count), dest, tag);
    }

    public Request isend(float[] data, int offset, int count, int dest, int tag) {
        return isend(part(MemorySegment.ofArray(data), 4, offset, count), dest, tag);
    }

    public Status recv(float[] data, int offset, int count, int source, int tag) {
        return recv(part(MemorySegment.ofArray(data), 4, offset, count), source, tag);
    }

    public Request irecv(float[] data, int offset, int count, int source, int tag) {
        return irecv(part(MemorySegment.ofArray(data), 4, offset, count), source, tag);
    }

    public void send(double[] data, int offset, int count, int dest, int tag) {
        send(part(MemorySegment.ofArray(data), 8, offset, count), dest, tag);
    }

    public Request isend(double[] data, int offset, int count, int dest, int tag) {
        return isend(part(MemorySegment.ofArray(data), 8, offset, count), dest, tag);
    }

    public Status recv(double[] data, int offset, int count, int source, int tag) {
        return recv(part(MemorySegment.ofArray(data), 8, offset, count), source, tag);
    }

    public Request irecv(double[] data, int offset, int count, int source, int tag) {
        return irecv(part(MemorySegment.ofArray(data), 8, offset, count), source, tag);
    }

    public void send(ByteBuffer buffer, int count, Datatype type, int dest, int tag) {
        send(MemorySegment.ofBuffer(buffer), count, type, dest, tag);
    }

    public Status recv(ByteBuffer buffer, int count, Datatype type, int source, int tag) {
        return recv(MemorySegment.ofBuffer(buffer), count, type, source, tag);
    }

    public Request isend(ByteBuffer buffer, int count, Datatype type, int dest, int tag) {
        return isend(MemorySegment.ofBuffer(buffer), count, type, dest, tag);
    }

    public Request irecv(ByteBuffer buffer, int count, Datatype type, int source, int tag) {
        return irecv(MemorySegment.ofBuffer(buffer), count, type, source, tag);
    }

    public Status sendrecv(ByteBuffer send, int sendCount, Datatype sendType, int dest, int sendTag, ByteBuffer recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofBuffer(send), sendCount, sendType, dest, sendTag, MemorySegment.ofBuffer(recv), recvCount,
                recvType, source, recvTag);
    }

    public Status sendrecv(byte[] send, int sendCount, Datatype sendType, int dest, int sendTag, byte[] recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), sendCount, sendType, dest, sendTag, MemorySegment.ofArray(recv), recvCount,
                recvType, source, recvTag);
    }

    public Status sendrecv(int[] send, int sendCount, Datatype sendType, int dest, int sendTag, int[] recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), sendCount, sendType, dest, sendTag, MemorySegment.ofArray(recv), recvCount,
                recvType, source, recvTag);
    }

    public Status sendrecv(long[] send, int sendCount, Datatype sendType, int dest, int sendTag, long[] recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), sendCount, sendType, dest, sendTag, MemorySegment.ofArray(recv), recvCount,
                recvType, source, recvTag);
    }

    public Status sendrecv(float[] send, int sendCount, Datatype sendType, int dest, int sendTag, float[] recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), sendCount, sendType, dest, sendTag, MemorySegment.ofArray(recv), recvCount,
                recvType, source, recvTag);
    }

    public Status sendrecv(double[] send, int sendCount, Datatype sendType, int dest, int sendTag, double[] recv, int recvCount,
                           Datatype recvType, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), sendCount, sendType, dest, sendTag, MemorySegment.ofArray(recv), recvCount,
                recvType, source, recvTag);
    }
}
