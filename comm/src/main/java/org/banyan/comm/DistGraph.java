package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A distributed graph topology (MPI_Dist_graph_create_adjacent) and its neighbour collectives
 * (MPI_Neighbor_allgather, MPI_Neighbor_alltoall): each rank names the ranks it receives from
 * ({@code sources}) and sends to ({@code destinations}); a stencil, a mesh's halo or an irregular
 * exchange is then one call. An edge may appear more than once; the k-th message along it goes to
 * the k-th place the receiver lists its sender. Messages travel on the topology's communicator's
 * collective context, so they never match a user's receive.
 */
public final class DistGraph {
    static final int NEIGHBOR_ALLGATHER = 30, NEIGHBOR_ALLTOALL = 31;

    private final Comm comm;
    private final int[] sources;
    private final int[] destinations;

    private DistGraph(Comm comm, int[] sources, int[] destinations) {
        this.comm = comm;
        this.sources = sources;
        this.destinations = destinations;
    }

    /**
     * MPI_Dist_graph_create_adjacent over {@code parent}: a new communicator of the same ranks
     * (no reordering: placement is made at launch). The graph is checked to be the same seen from
     * both ends of every edge (rank a lists b among its destinations as often as b lists a among
     * its sources); one that is not is an error on every rank, naming a pair. Collective.
     */
    public static DistGraph createAdjacent(Comm parent, int[] sources, int[] destinations) {
        int n = parent.size();
        for (int[] list : new int[][] {sources, destinations}) {
            for (int r : list) {
                parent.checkRank(r, "neighbour");
            }
        }
        int[] sendsTo = new int[n];
        for (int d : destinations) {
            sendsTo[d]++;
        }
        int[] sendsHere = new int[n];
        parent.alltoall(sendsTo, sendsHere); // how often each rank sends to this one
        int[] listed = new int[n];
        for (int s : sources) {
            listed[s]++;
        }
        int bad = -1;
        for (int r = 0; r < n && bad < 0; r++) {
            if (listed[r] != sendsHere[r]) {
                bad = r;
            }
        }
        long[] firstBad = new long[1]; // receiver * n + sender: long, as n * n passes an int from 46,341 ranks
        parent.allreduce(new long[] {bad < 0 ? Long.MAX_VALUE : (long) parent.rank() * n + bad}, firstBad, Op.MIN);
        if (firstBad[0] != Long.MAX_VALUE) {
            long receiver = firstBad[0] / n;
            long sender = firstBad[0] % n;
            throw new IllegalArgumentException("the graph's two ends disagree: rank " + receiver + " lists rank " + sender
                    + " among its sources a different number of times than rank " + sender + " lists it among its destinations");
        }
        return new DistGraph(parent.dup(parent.name() + "_graph"), sources.clone(), destinations.clone());
    }

    /** The topology's communicator. */
    public Comm comm() {
        return comm;
    }

    /** MPI_Dist_graph_neighbors: the ranks this one receives from, in the order given. */
    public int[] sources() {
        return sources.clone();
    }

    /** The ranks this one sends to, in the order given. */
    public int[] destinations() {
        return destinations.clone();
    }

    /**
     * MPI_Neighbor_allgather: {@code send} goes to every destination; block i of {@code recv}
     * (each {@code send}'s size) gets what source i sent.
     */
    public void neighborAllgather(MemorySegment send, MemorySegment recv) {
        long block = send.byteSize();
        need(recv, block * sources.length, "neighborAllgather: the receive buffer");
        exchange(i -> recv.asSlice(i * block, block), i -> send, NEIGHBOR_ALLGATHER);
    }

    public void neighborAllgather(double[] send, double[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void neighborAllgather(long[] send, long[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void neighborAllgather(int[] send, int[] recv) {
        neighborAllgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    /**
     * MPI_Neighbor_alltoall: block i of {@code send} goes to destination i, block j of
     * {@code recv} comes from source j; blocks are {@code recv}'s size over the sources.
     */
    public void neighborAlltoall(MemorySegment send, MemorySegment recv, long block) {
        need(send, block * destinations.length, "neighborAlltoall: the send buffer");
        need(recv, block * sources.length, "neighborAlltoall: the receive buffer");
        exchange(i -> recv.asSlice(i * block, block), i -> send.asSlice(i * block, block), NEIGHBOR_ALLTOALL);
    }

    /** Blocks of {@code block} elements. */
    public void neighborAlltoall(double[] send, double[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Double.BYTES);
    }

    public void neighborAlltoall(long[] send, long[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Long.BYTES);
    }

    public void neighborAlltoall(int[] send, int[] recv, int block) {
        neighborAlltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), (long) block * Integer.BYTES);
    }

    private static void need(MemorySegment buffer, long bytes, String what) {
        if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException(what + " holds " + buffer.byteSize() + " bytes, not the " + bytes + " it needs");
        }
    }

    /** Every receive posted first, then every send, then all awaited. */
    private void exchange(java.util.function.LongFunction<MemorySegment> into, java.util.function.LongFunction<MemorySegment> out,
                          int tag) {
        int ctx = comm.context + 1;
        List<Request> pending = new ArrayList<>(sources.length + destinations.length);
        Comm c = comm;
        c.coll(); // behind this communicator's non-blocking collectives
        for (int i = 0; i < sources.length; i++) {
            pending.add(c.engine.receive(ctx, sources[i], tag, into.apply(i)));
        }
        for (int i = 0; i < destinations.length; i++) {
            pending.add(c.sendInternal(out.apply(i), destinations[i], tag, ctx, Engine.Traffic.INTERNAL));
        }
        Request.awaitAll(pending);
    }

    @Override
    public String toString() {
        return "DistGraph(sources " + Arrays.toString(sources) + ", destinations " + Arrays.toString(destinations) + ")";
    }
}
