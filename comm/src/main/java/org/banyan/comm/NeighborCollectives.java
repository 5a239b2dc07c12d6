package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * The neighbour collectives of a process topology ({@link DistGraph} extends it):
 * MPI_Neighbor_allgather(v), alltoall(v) and alltoallw, each rank sending to its destinations
 * and receiving from its sources, in the orders the topology gives them. Counts and
 * displacements are in elements for arrays and in bytes for memory segments and byte buffers
 * (alltoallw's displacements in bytes for every buffer, as MPI's). Every block received is checked
 * to have the size expected: neighbours that disagree on a count get a {@link CommException}
 * naming the source instead of a silent shift. A neighbour that is {@link Comm#PROC_NULL} (the
 * edge of a non-periodic grid) keeps its place in the buffers; nothing goes to it or comes from
 * it, and its receive block is left as it was.
 */
public abstract sealed class NeighborCollectives permits NeighborNonBlocking {
    static final int NEIGHBOR_ALLGATHER = 30, NEIGHBOR_ALLTOALL = 31, NEIGHBOR_ALLGATHERV = 32, NEIGHBOR_ALLTOALLV = 33,
            NEIGHBOR_ALLTOALLW = 34;

    NeighborCollectives() {}

    /** The topology's communicator. */
    public abstract Comm comm();

    abstract int[] sourceRanks();

    abstract int[] destinationRanks();

    /** The tag of the message to destination {@code i} of an operation whose tag is {@code base}. */
    int sendTag(int i, int base) {
        return base;
    }

    /** The tag of the message from source {@code j} of an operation whose tag is {@code base}. */
    int receiveTag(int j, int base) {
        return base;
    }

    /**
     * MPI_Neighbor_allgather: {@code send} goes to every destination; block i of {@code recv}
     * (each {@code send}'s size) gets what source i sent.
     */
    public void neighborAllgather(MemorySegment send, MemorySegment recv) {
        long block = send.byteSize();
        need(recv, block * sourceRanks().length, "neighborAllgather: the receive buffer");
        exchange(i -> recv.asSlice(i * block, block), i -> send, NEIGHBOR_ALLGATHER, "neighborAllgather");
    }

    /**
     * MPI_Neighbor_alltoall: block i of {@code send} goes to destination i, block j of
     * {@code recv} comes from source j; blocks of {@code block} bytes.
     */
    public void neighborAlltoall(MemorySegment send, MemorySegment recv, long block) {
        need(send, block * destinationRanks().length, "neighborAlltoall: the send buffer");
        need(recv, block * sourceRanks().length, "neighborAlltoall: the receive buffer");
        exchange(i -> recv.asSlice(i * block, block), i -> send.asSlice(i * block, block), NEIGHBOR_ALLTOALL, "neighborAlltoall");
    }

    /**
     * MPI_Neighbor_allgatherv: {@code send} goes to every destination; source i's block goes into
     * {@code recv} at byte {@code displs[i]}, {@code counts[i]} bytes.
     */
    public void neighborAllgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.byteSize());
        exchange(i -> recv.asSlice(displs[i], counts[i]), i -> send, NEIGHBOR_ALLGATHERV, "neighborAllgatherv");
    }

    /**
     * MPI_Neighbor_alltoallv: {@code sendCounts[i]} bytes of {@code send} from
     * {@code sendDispls[i]} go to destination i; source j's go into {@code recv} at
     * {@code recvDispls[j]}, {@code recvCounts[j]} of them.
     */
    public void neighborAlltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
                                  long[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.byteSize());
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.byteSize());
        exchange(i -> recv.asSlice(recvDispls[i], recvCounts[i]), i -> send.asSlice(sendDispls[i], sendCounts[i]),
                NEIGHBOR_ALLTOALLV, "neighborAlltoallv");
    }

    /**
     * MPI_Neighbor_alltoallw: {@code sendCounts[i]} elements of {@code sendTypes[i]} from byte
     * {@code sendDispls[i]} of {@code send} to destination i (packed); source j's into
     * {@code recv} at byte {@code recvDispls[j]} as {@code recvCounts[j]} elements of
     * {@code recvTypes[j]}.
     */
    public void neighborAlltoallw(MemorySegment send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, MemorySegment recv,
                                  int[] recvCounts, long[] recvDispls, Datatype[] recvTypes) {
        int out = destinationRanks().length;
        int in = sourceRanks().length;
        BufferChecks.typedBlocks("neighborAlltoallw (send)", "neighbour", out, send, sendCounts, sendDispls, sendTypes);
        BufferChecks.typedBlocks("neighborAlltoallw (receive)", "neighbour", in, recv, recvCounts, recvDispls, recvTypes);
        MemorySegment[] packed = new MemorySegment[out];
        for (int i = 0; i < out; i++) {
            packed[i] = sendTypes[i].pack(send.asSlice(sendDispls[i]), sendCounts[i]);
        }
        MemorySegment[] arrived = new MemorySegment[in];
        for (int j = 0; j < in; j++) {
            arrived[j] = Segments.staging(recvCounts[j] * recvTypes[j].size(), "neighborAlltoallw");
        }
        exchange(j -> arrived[j], i -> packed[i], NEIGHBOR_ALLTOALLW, "neighborAlltoallw");
        int[] sources = sourceRanks();
        for (int j = 0; j < in; j++) {
            if (recvCounts[j] > 0 && sources[j] != Comm.PROC_NULL) {
                recvTypes[j].unpack(arrived[j], recv.asSlice(recvDispls[j]), recvCounts[j]);
            }
        }
    }

    public void neighborAllgatherv(ByteBuffer send, ByteBuffer recv, long[] counts, long[] displs) {
        neighborAllgatherv(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), counts, displs);
    }

    public void neighborAlltoallv(ByteBuffer send, long[] sendCounts, long[] sendDispls, ByteBuffer recv, long[] recvCounts,
                                  long[] recvDispls) {
        neighborAlltoallv(MemorySegment.ofBuffer(send), sendCounts, sendDispls, MemorySegment.ofBuffer(recv), recvCounts, recvDispls);
    }

    public void neighborAllgather(ByteBuffer send, ByteBuffer recv) {
        neighborAllgather(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
    }

    /** Blocks of {@code block} bytes. */
    public void neighborAlltoall(ByteBuffer send, ByteBuffer recv, long block) {
        neighborAlltoall(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), block);
    }


    public void neighborAllgather(byte[] send, byte[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(byte[] send, byte[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Byte.BYTES);
    }

    public void neighborAllgatherv(byte[] send, byte[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.length);
        neighborAllgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), CommVectorCollectives.bytes(counts, Byte.BYTES),
                CommVectorCollectives.bytes(displs, Byte.BYTES));
    }

    public void neighborAlltoallv(byte[] send, int[] sendCounts, int[] sendDispls, byte[] recv, int[] recvCounts, int[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.length);
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.length);
        neighborAlltoallv(MemorySegment.ofArray(send), CommVectorCollectives.bytes(sendCounts, Byte.BYTES),
                CommVectorCollectives.bytes(sendDispls, Byte.BYTES),
                MemorySegment.ofArray(recv), CommVectorCollectives.bytes(recvCounts, Byte.BYTES),
                        CommVectorCollectives.bytes(recvDispls, Byte.BYTES));
    }

    public void neighborAlltoallw(byte[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, byte[] recv, int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv),
                recvCounts, recvDispls, recvTypes);
    }

    public void neighborAllgather(int[] send, int[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(int[] send, int[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Integer.BYTES);
    }

    public void neighborAllgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.length);
        neighborAllgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), CommVectorCollectives.bytes(counts, Integer.BYTES),
                CommVectorCollectives.bytes(displs, Integer.BYTES));
    }

    public void neighborAlltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.length);
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.length);
        neighborAlltoallv(MemorySegment.ofArray(send), CommVectorCollectives.bytes(sendCounts, Integer.BYTES),
                CommVectorCollectives.bytes(sendDispls, Integer.BYTES),
                MemorySegment.ofArray(recv), CommVectorCollectives.bytes(recvCounts, Integer.BYTES),
                        CommVectorCollectives.bytes(recvDispls, Integer.BYTES));
    }

    public void neighborAlltoallw(int[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, int[] recv, int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv),
                recvCounts, recvDispls, recvTypes);
    }

    public void neighborAllgather(long[] send, long[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(long[] send, long[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Long.BYTES);
    }

    public void neighborAllgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.length);
        neighborAllgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), CommVectorCollectives.bytes(counts, Long.BYTES),
                CommVectorCollectives.bytes(displs, Long.BYTES));
    }

    public void neighborAlltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.length);
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.length);
        neighborAlltoallv(MemorySegment.ofArray(send), CommVectorCollectives.bytes(sendCounts, Long.BYTES),
                CommVectorCollectives.bytes(sendDispls, Long.BYTES),
                MemorySegment.ofArray(recv), CommVectorCollectives.bytes(recvCounts, Long.BYTES),
                        CommVectorCollectives.bytes(recvDispls, Long.BYTES));
    }

    public void neighborAlltoallw(long[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, long[] recv, int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv),
                recvCounts, recvDispls, recvTypes);
    }

    public void neighborAllgather(float[] send, float[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(float[] send, float[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Float.BYTES);
    }

    public void neighborAllgatherv(float[] send, float[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.length);
        neighborAllgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), CommVectorCollectives.bytes(counts, Float.BYTES),
                CommVectorCollectives.bytes(displs, Float.BYTES));
    }

    public void neighborAlltoallv(float[] send, int[] sendCounts, int[] sendDispls, float[] recv, int[] recvCounts, int[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.length);
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.length);
        neighborAlltoallv(MemorySegment.ofArray(send), CommVectorCollectives.bytes(sendCounts, Float.BYTES),
                CommVectorCollectives.bytes(sendDispls, Float.BYTES),
                MemorySegment.ofArray(recv), CommVectorCollectives.bytes(recvCounts, Float.BYTES),
                        CommVectorCollectives.bytes(recvDispls, Float.BYTES));
    }

    public void neighborAlltoallw(float[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, float[] recv,
            int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv),
                recvCounts, recvDispls, recvTypes);
    }

    public void neighborAllgather(double[] send, double[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(double[] send, double[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Double.BYTES);
    }

    public void neighborAllgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("neighborAllgatherv", sourceRanks().length, counts, displs, recv.length);
        neighborAllgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), CommVectorCollectives.bytes(counts, Double.BYTES),
                CommVectorCollectives.bytes(displs, Double.BYTES));
    }

    public void neighborAlltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts,
            int[] recvDispls) {
        BufferChecks.vector("neighborAlltoallv (send)", destinationRanks().length, sendCounts, sendDispls, send.length);
        BufferChecks.vector("neighborAlltoallv (receive)", sourceRanks().length, recvCounts, recvDispls, recv.length);
        neighborAlltoallv(MemorySegment.ofArray(send), CommVectorCollectives.bytes(sendCounts, Double.BYTES),
                CommVectorCollectives.bytes(sendDispls, Double.BYTES),
                MemorySegment.ofArray(recv), CommVectorCollectives.bytes(recvCounts, Double.BYTES),
                        CommVectorCollectives.bytes(recvDispls, Double.BYTES));
    }

    public void neighborAlltoallw(double[] send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, double[] recv,
            int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofArray(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofArray(recv),
                recvCounts, recvDispls, recvTypes);
    }

    public void neighborAlltoallw(ByteBuffer send, int[] sendCounts, long[] sendDispls, Datatype[] sendTypes, ByteBuffer recv,
            int[] recvCounts,
                                  long[] recvDispls, Datatype[] recvTypes) {
        neighborAlltoallw(MemorySegment.ofBuffer(send), sendCounts, sendDispls, sendTypes, MemorySegment.ofBuffer(recv),
                recvCounts, recvDispls, recvTypes);
    }

    private static void need(MemorySegment buffer, long bytes, String what) {
        if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException(what + " holds " + buffer.byteSize() + " bytes, not the " + bytes + " it needs");
        }
    }

    private static void awaitAll(Request[] requests) {
        for (Request r : requests) {
            if (r != null) {
                r.await();
            }
        }
    }

    /** Every receive posted first, then every send, then all awaited; each receive checked to have filled its block. */
    private void exchange(IntFunction<MemorySegment> into, IntFunction<MemorySegment> out, int tag, String op) {
        Comm c = comm();
        int[] sources = sourceRanks();
        int[] destinations = destinationRanks();
        int ctx = c.context + 1;
        c.coll(); // behind this communicator's non-blocking collectives
        Request[] in = new Request[sources.length];
        long[] expected = new long[sources.length];
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != Comm.PROC_NULL) {
                MemorySegment block = into.apply(i);
                expected[i] = block.byteSize();
                in[i] = c.engine.receive(ctx, sources[i], receiveTag(i, tag), block);
            }
        }
        Request[] sent = new Request[destinations.length];
        for (int i = 0; i < destinations.length; i++) {
            if (destinations[i] != Comm.PROC_NULL) {
                sent[i] = c.sendInternal(out.apply(i), destinations[i], sendTag(i, tag), ctx, Engine.Traffic.INTERNAL);
            }
        }
        for (int i = 0; i < sources.length; i++) {
            if (in[i] != null) {
                VectorCollectives.received(in[i], expected[i], "source " + i + " (rank " + sources[i] + ")", op);
            }
        }
        awaitAll(sent);
    }
}
