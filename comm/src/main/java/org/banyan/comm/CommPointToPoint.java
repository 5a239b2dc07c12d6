package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The point-to-point half of a communicator's API that rests on its few primitives (the
 * non-blocking send and receive of a segment, their persistent forms, sendrecv): blocking calls,
 * every buffer type, buffered, ready and synchronous sends, and sendrecv_replace. {@link Comm}
 * implements the primitives; buffers of {@code byte[]}, {@code int[]}, {@code long[]},
 * {@code float[]}, {@code double[]}, {@link ByteBuffer} (position to limit) and
 * {@link MemorySegment} are equal everywhere.
 */
public abstract sealed class CommPointToPoint permits CommPointToPointParts {
    CommPointToPoint() {}

    /** MPI_Isend: starts sending {@code data} to {@code dest}; the request completes once it may be reused. */
    public abstract Request isend(MemorySegment data, int dest, int tag);

    /** MPI_Irecv: starts receiving into {@code buffer} from {@code source} (or {@link Comm#ANY_SOURCE}). */
    public abstract Request irecv(MemorySegment buffer, int source, int tag);

    /** MPI_Sendrecv: both at once (no deadlock between two ranks exchanging). */
    public Status sendrecv(MemorySegment send, int dest, int sendTag, MemorySegment recv, int source, int recvTag) {
        Request r = irecv(recv, source, recvTag);
        Request s = isend(send, dest, sendTag);
        Status st = r.await();
        s.await();
        return st;
    }

    /** MPI_Issend: completes only once a receive has taken the message, whatever its size. */
    public abstract Request issend(MemorySegment data, int dest, int tag);

    /** A receive of {@code count} elements of a derived datatype, unpacked into place when done. */
    public abstract Request irecv(MemorySegment buffer, int count, Datatype type, int source, int tag);

    /** MPI_Imrecv: receives a message {@link Comm#mprobe} or {@link Comm#improbe} took. */
    public abstract Request imrecv(MemorySegment buffer, Message m);

    public abstract PersistentRequest sendInit(MemorySegment data, int dest, int tag);

    public abstract PersistentRequest recvInit(MemorySegment buffer, int source, int tag);

    public void send(byte[] data, int dest, int tag) {
        isend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public void send(int[] data, int dest, int tag) {
        isend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public void send(long[] data, int dest, int tag) {
        isend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public void send(float[] data, int dest, int tag) {
        isend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public void send(double[] data, int dest, int tag) {
        isend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public void send(ByteBuffer data, int dest, int tag) {
        isend(MemorySegment.ofBuffer(data), dest, tag).await();
    }

    public void send(MemorySegment data, int dest, int tag) {
        isend(data, dest, tag).await();
    }

    public Status recv(byte[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag).await();
    }

    public Status recv(int[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag).await();
    }

    public Status recv(long[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag).await();
    }

    public Status recv(float[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag).await();
    }

    public Status recv(double[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag).await();
    }

    public Status recv(ByteBuffer buffer, int source, int tag) {
        return irecv(MemorySegment.ofBuffer(buffer), source, tag).await();
    }

    public Status recv(MemorySegment buffer, int source, int tag) {
        return irecv(buffer, source, tag).await();
    }

    public Request isend(byte[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(data), dest, tag);
    }

    public Request isend(double[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(data), dest, tag);
    }

    public Request isend(int[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(data), dest, tag);
    }

    public Request isend(float[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(data), dest, tag);
    }

    /** The buffer's position to its limit; it must stay unchanged until the request is done. */
    public Request isend(ByteBuffer data, int dest, int tag) {
        return isend(MemorySegment.ofBuffer(data), dest, tag);
    }

    public Request isend(long[] data, int dest, int tag) {
        return isend(MemorySegment.ofArray(data), dest, tag);
    }

    public Request irecv(byte[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag);
    }

    public Request irecv(double[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag);
    }

    public Request irecv(int[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag);
    }

    public Request irecv(float[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag);
    }

    /** Into the buffer's position to its limit (the position does not move). */
    public Request irecv(ByteBuffer buffer, int source, int tag) {
        return irecv(MemorySegment.ofBuffer(buffer), source, tag);
    }

    public Request irecv(long[] buffer, int source, int tag) {
        return irecv(MemorySegment.ofArray(buffer), source, tag);
    }

    public PersistentRequest sendInit(double[] data, int dest, int tag) {
        return sendInit(MemorySegment.ofArray(data), dest, tag);
    }

    public PersistentRequest recvInit(double[] buffer, int source, int tag) {
        return recvInit(MemorySegment.ofArray(buffer), source, tag);
    }

    /**
     * MPI_Bsend: returns once {@code data} is copied, whether or not the receive is posted; the
     * copy goes as the engine makes progress (any later call into the library, close included),
     * as from MPI's attached buffer. MPI_Rsend promises a posted receive, which {@link #send}
     * needs no promise for, so it is {@link #send}.
     */
    public void bsend(MemorySegment data, int dest, int tag) {
        if (data.byteSize() > Comm.MAX_MESSAGE_BYTES) {
            isend(data, dest, tag); // refused there, with the reason
            return;
        }
        byte[] copy = new byte[(int) data.byteSize()];
        MemorySegment.copy(data, 0, MemorySegment.ofArray(copy), 0, data.byteSize());
        isend(MemorySegment.ofArray(copy), dest, tag);
    }

    public void rsend(MemorySegment data, int dest, int tag) {
        send(data, dest, tag);
    }

    /** MPI_Sendrecv_replace: sends {@code buffer}'s contents and receives into the same buffer. */
    public Status sendrecvReplace(MemorySegment buffer, int dest, int sendTag, int source, int recvTag) {
        MemorySegment out = MemorySegment.ofArray(new byte[(int) buffer.byteSize()]);
        MemorySegment.copy(buffer, 0, out, 0, buffer.byteSize());
        return sendrecv(out, dest, sendTag, buffer, source, recvTag);
    }

    public Status sendrecvReplace(double[] buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofArray(buffer), dest, sendTag, source, recvTag);
    }

    public Status sendrecvReplace(int[] buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofArray(buffer), dest, sendTag, source, recvTag);
    }

    public Status sendrecv(double[] send, int dest, int sendTag, double[] recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), dest, sendTag, MemorySegment.ofArray(recv), source, recvTag);
    }

    public Status sendrecv(float[] send, int dest, int sendTag, float[] recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), dest, sendTag, MemorySegment.ofArray(recv), source, recvTag);
    }

    public Status sendrecv(long[] send, int dest, int sendTag, long[] recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), dest, sendTag, MemorySegment.ofArray(recv), source, recvTag);
    }

    public Status sendrecv(int[] send, int dest, int sendTag, int[] recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), dest, sendTag, MemorySegment.ofArray(recv), source, recvTag);
    }

    public Status sendrecv(byte[] send, int dest, int sendTag, byte[] recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofArray(send), dest, sendTag, MemorySegment.ofArray(recv), source, recvTag);
    }

    /** MPI_Ssend: returns once a receive has taken the message (a blocking {@link #issend}). */
    public void ssend(MemorySegment data, int dest, int tag) {
        issend(data, dest, tag).await();
    }

    public void ssend(byte[] data, int dest, int tag) {
        issend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public Request issend(byte[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(data), dest, tag);
    }

    public void ssend(int[] data, int dest, int tag) {
        issend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public Request issend(int[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(data), dest, tag);
    }

    public void ssend(long[] data, int dest, int tag) {
        issend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public Request issend(long[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(data), dest, tag);
    }

    public void ssend(float[] data, int dest, int tag) {
        issend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public Request issend(float[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(data), dest, tag);
    }

    public void ssend(double[] data, int dest, int tag) {
        issend(MemorySegment.ofArray(data), dest, tag).await();
    }

    public Request issend(double[] data, int dest, int tag) {
        return issend(MemorySegment.ofArray(data), dest, tag);
    }

    /** MPI_Mrecv: receives a message {@link Comm#mprobe} took (a blocking {@link #imrecv}). */
    public Status mrecv(MemorySegment buffer, Message m) {
        return imrecv(buffer, m).await();
    }

    public Status mrecv(byte[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m).await();
    }

    public Status mrecv(int[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m).await();
    }

    public Status mrecv(long[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m).await();
    }

    public Status mrecv(float[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m).await();
    }

    public Status mrecv(double[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m).await();
    }

    public void bsend(byte[] data, int dest, int tag) {
        bsend(MemorySegment.ofArray(data), dest, tag);
    }

    public void bsend(int[] data, int dest, int tag) {
        bsend(MemorySegment.ofArray(data), dest, tag);
    }

    public void bsend(long[] data, int dest, int tag) {
        bsend(MemorySegment.ofArray(data), dest, tag);
    }

    public void bsend(float[] data, int dest, int tag) {
        bsend(MemorySegment.ofArray(data), dest, tag);
    }

    public void bsend(double[] data, int dest, int tag) {
        bsend(MemorySegment.ofArray(data), dest, tag);
    }

    public void bsend(ByteBuffer data, int dest, int tag) {
        bsend(MemorySegment.ofBuffer(data), dest, tag);
    }

    public void rsend(byte[] data, int dest, int tag) {
        send(MemorySegment.ofArray(data), dest, tag);
    }

    public void rsend(int[] data, int dest, int tag) {
        send(MemorySegment.ofArray(data), dest, tag);
    }

    public void rsend(long[] data, int dest, int tag) {
        send(MemorySegment.ofArray(data), dest, tag);
    }

    public void rsend(float[] data, int dest, int tag) {
        send(MemorySegment.ofArray(data), dest, tag);
    }

    public void rsend(double[] data, int dest, int tag) {
        send(MemorySegment.ofArray(data), dest, tag);
    }

    public void rsend(ByteBuffer data, int dest, int tag) {
        send(MemorySegment.ofBuffer(data), dest, tag);
    }

    public void ssend(ByteBuffer data, int dest, int tag) {
        issend(MemorySegment.ofBuffer(data), dest, tag).await();
    }

    public Request issend(ByteBuffer data, int dest, int tag) {
        return issend(MemorySegment.ofBuffer(data), dest, tag);
    }

    public Status mrecv(ByteBuffer buffer, Message m) {
        return imrecv(MemorySegment.ofBuffer(buffer), m).await();
    }

    public Request imrecv(ByteBuffer buffer, Message m) {
        return imrecv(MemorySegment.ofBuffer(buffer), m);
    }

    public Request imrecv(byte[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m);
    }

    public Request imrecv(int[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m);
    }

    public Request imrecv(long[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m);
    }

    public Request imrecv(float[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m);
    }

    public Request imrecv(double[] buffer, Message m) {
        return imrecv(MemorySegment.ofArray(buffer), m);
    }

    public PersistentRequest sendInit(byte[] data, int dest, int tag) {
        return sendInit(MemorySegment.ofArray(data), dest, tag);
    }

    public PersistentRequest recvInit(byte[] buffer, int source, int tag) {
        return recvInit(MemorySegment.ofArray(buffer), source, tag);
    }

    public PersistentRequest sendInit(int[] data, int dest, int tag) {
        return sendInit(MemorySegment.ofArray(data), dest, tag);
    }

    public PersistentRequest recvInit(int[] buffer, int source, int tag) {
        return recvInit(MemorySegment.ofArray(buffer), source, tag);
    }

    public PersistentRequest sendInit(long[] data, int dest, int tag) {
        return sendInit(MemorySegment.ofArray(data), dest, tag);
    }

    public PersistentRequest recvInit(long[] buffer, int source, int tag) {
        return recvInit(MemorySegment.ofArray(buffer), source, tag);
    }

    public PersistentRequest sendInit(float[] data, int dest, int tag) {
        return sendInit(MemorySegment.ofArray(data), dest, tag);
    }

    public PersistentRequest recvInit(float[] buffer, int source, int tag) {
        return recvInit(MemorySegment.ofArray(buffer), source, tag);
    }

    public PersistentRequest sendInit(ByteBuffer data, int dest, int tag) {
        return sendInit(MemorySegment.ofBuffer(data), dest, tag);
    }

    public PersistentRequest recvInit(ByteBuffer buffer, int source, int tag) {
        return recvInit(MemorySegment.ofBuffer(buffer), source, tag);
    }

    public Status sendrecv(ByteBuffer send, int dest, int sendTag, ByteBuffer recv, int source, int recvTag) {
        return sendrecv(MemorySegment.ofBuffer(send), dest, sendTag, MemorySegment.ofBuffer(recv), source, recvTag);
    }

    public Status sendrecvReplace(ByteBuffer buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofBuffer(buffer), dest, sendTag, source, recvTag);
    }

    public Status sendrecvReplace(byte[] buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofArray(buffer), dest, sendTag, source, recvTag);
    }

    public Status sendrecvReplace(long[] buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofArray(buffer), dest, sendTag, source, recvTag);
    }

    public Status sendrecvReplace(float[] buffer, int dest, int sendTag, int source, int recvTag) {
        return sendrecvReplace(MemorySegment.ofArray(buffer), dest, sendTag, source, recvTag);
    }
}
