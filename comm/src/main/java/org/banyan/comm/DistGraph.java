package org.banyan.comm;

import java.util.Arrays;

/**
 * A distributed graph topology (MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create) and its
 * neighbour collectives ({@link NeighborCollectives}: MPI_Neighbor_allgather(v), alltoall(v), alltoallw): each rank receives
 * from its {@code sources} and sends to its {@code destinations}; a stencil, a mesh's halo or an
 * irregular exchange is then one call. An edge may appear more than once; the k-th message along
 * it goes to the k-th place the receiver lists its sender. Messages travel on the topology's
 * communicator's collective context, so they never match a user's receive.
 */
public final class DistGraph extends NeighborNonBlocking {

    private final Comm comm;
    private final int[] sources;
    private final int[] destinations;
    /** The edges' weights, in the lists' order (all 1 when none were given). */
    private final int[] sourceWeights;
    private final int[] destinationWeights;
    private final String reorderNote;

    private DistGraph(Comm comm, int[] sources, int[] destinations) {
        this(comm, sources, null, destinations, null, null);
    }

    private DistGraph(Comm comm, int[] sources, int[] destinations, String reorderNote) {
        this(comm, sources, null, destinations, null, reorderNote);
    }

    /** Weights null: every edge weighs 1. */
    DistGraph(Comm comm, int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights, String reorderNote) {
        this.comm = comm;
        this.sources = sources;
        this.destinations = destinations;
        this.sourceWeights = sourceWeights != null ? sourceWeights : ones(sources.length);
        this.destinationWeights = destinationWeights != null ? destinationWeights : ones(destinations.length);
        this.reorderNote = reorderNote;
    }

    private static int[] ones(int n) {
        int[] w = new int[n];
        java.util.Arrays.fill(w, 1);
        return w;
    }

    /**
     * MPI_Dist_graph_create_adjacent over {@code parent}: a new communicator of the same ranks
     * (no reordering: placement is made at launch). The graph is checked to be the same seen from
     * both ends of every edge (rank a lists b among its destinations as often as b lists a among
     * its sources); one that is not is an error on every rank, naming a pair. Collective.
     */
    public static DistGraph createAdjacent(Comm parent, int[] sources, int[] destinations) {
        return createAdjacent(parent, sources, destinations, false);
    }

    /**
     * MPI_Dist_graph_create_adjacent with {@code reorder}: when true, the graph's vertices (the
     * ranks as given here) are dealt out to the processes by TreeMatch so that the edges' ends
     * sit close on the machine; the process that gets new rank v takes vertex v's sources and
     * destinations (those rank v gave), as the placement seed's runtime does. When the ranks are
     * not bound to CPUs, or share them, the order is kept; {@link #reorderNote()} says what was
     * done. Collective.
     */
    public static DistGraph createAdjacent(Comm parent, int[] sources, int[] destinations, boolean reorder) {
        return createAdjacent(parent, sources, null, destinations, null, reorder);
    }

    /**
     * MPI_Dist_graph_create_adjacent with weights (null: MPI_UNWEIGHTED, every edge 1): a weight
     * per source and per destination, 0 or more, in the lists' order; reorder weighs each edge so
     * (the destinations' weights, as each edge's sender gives it). Collective.
     */
    public static DistGraph createAdjacent(Comm parent, int[] sources, int[] sourceWeights, int[] destinations,
                                           int[] destinationWeights, boolean reorder) {
        weights(sources, sourceWeights, "source");
        weights(destinations, destinationWeights, "destination");
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
        if (!reorder) {
            return new DistGraph(parent.dup(parent.name() + "_graph"), sources.clone(), sourceWeights == null ? null
                    : sourceWeights.clone(), destinations.clone(),
                            destinationWeights == null ? null : destinationWeights.clone(), null);
        }
        return DistGraphReorder.adjacent(parent, sources, sourceWeights, destinations, destinationWeights);
    }

    private static void weights(int[] ranks, int[] weights, String what) {
        if (weights == null) {
            return;
        }
        if (weights.length != ranks.length) {
            throw new IllegalArgumentException(weights.length + " " + what + " weights for " + ranks.length + " " + what + "s");
        }
        for (int w : weights) {
            if (w < 0) {
                throw new IllegalArgumentException("a " + what + " weight of " + w + ": weights are 0 or more");
            }
        }
    }

    /** What {@code reorder} did, in a line ("reordered by TreeMatch: ..." or "order kept: why"), or null when it was not asked. */
    public String reorderNote() {
        return reorderNote;
    }

    /**
     * MPI_Dist_graph_create: any rank may name any edges: rank {@code sources[i]} sends to the next
     * {@code degrees[i]} ranks of {@code destinations}. Each rank then learns its own sources and
     * destinations (in increasing rank order, an edge given twice counted twice), whoever named
     * them. A new communicator of the same ranks (no reordering). Collective.
     */
    public static DistGraph create(Comm parent, int[] sources, int[] degrees, int[] destinations) {
        return create(parent, sources, degrees, destinations, false);
    }

    /** MPI_Dist_graph_create with {@code reorder}: as {@link #createAdjacent(Comm, int[], int[], boolean)} does once each rank knows its lists. */
    public static DistGraph create(Comm parent, int[] sources, int[] degrees, int[] destinations, boolean reorder) {
        return create(parent, sources, degrees, destinations, null, reorder);
    }

    /**
     * MPI_Dist_graph_create with weights: {@code weights[k]} (0 or more; null: MPI_UNWEIGHTED)
     * weighs the k-th edge given, and comes to both its ends ({@link #sourceWeights()},
     * {@link #destinationWeights()}; an edge given twice, in increasing weight) and to reorder's
     * pattern. Collective.
     */
    public static DistGraph create(Comm parent, int[] sources, int[] degrees, int[] destinations, int[] weights, boolean reorder) {
        if (sources.length != degrees.length) {
            throw new IllegalArgumentException("Dist_graph_create: " + sources.length + " sources and " + degrees.length
                    + " degrees: one degree per source");
        }
        long edges = 0;
        for (int i = 0; i < sources.length; i++) {
            parent.checkRank(sources[i], "source");
            if (degrees[i] < 0) {
                throw new IllegalArgumentException("Dist_graph_create: source " + sources[i] + " has degree " + degrees[i]);
            }
            edges += degrees[i];
        }
        if (edges != destinations.length) {
            throw new IllegalArgumentException("Dist_graph_create: the degrees add up to " + edges + " edges, and "
                    + destinations.length + " destinations are given");
        }
        for (int d : destinations) {
            parent.checkRank(d, "destination");
        }
        weights(destinations, weights, "edge");
        int[][] lists = DistGraphEdges.exchange(parent, sources, degrees, destinations, weights);
        int[] sw = weights == null ? null : lists[1];
        int[] dw = weights == null ? null : lists[3];
        return reorder ? DistGraphReorder.adjacent(parent, lists[0], sw, lists[2], dw)
                : new DistGraph(parent.dup(parent.name() + "_graph"), lists[0], sw, lists[2], dw, null);
    }

    /**
     * MPI_Graph_create: every rank gives the whole graph, as MPI's {@code index} and {@code edges}
     * (node i's neighbours are {@code edges[index[i - 1]]} up to {@code edges[index[i]]}); the
     * first {@code index.length} ranks become its nodes, each sending to and receiving from its
     * neighbours, the others get null (MPI_COMM_NULL). The graph must be the same on every rank
     * (checked) and symmetric, as MPI's neighbour collectives need it to be. No reordering.
     * Collective.
     */
    public static DistGraph graph(Comm parent, int[] index, int[] edges) {
        return graph(parent, index, edges, false);
    }

    /**
     * MPI_Graph_create with {@code reorder}: the nodes are dealt out to the processes by TreeMatch
     * (see {@link #createAdjacent(Comm, int[], int[], boolean)}); the process that gets new rank v
     * is node v, with node v's neighbours. Collective.
     */
    public static DistGraph graph(Comm parent, int[] index, int[] edges, boolean reorder) {
        // first, so that every rank finds the same fault below, or none
        long hash = 31L * java.util.Arrays.hashCode(index) + java.util.Arrays.hashCode(edges);
        long[] least = new long[2]; // the smallest hash, and minus the largest
        parent.allreduce(new long[] {hash, -hash}, least, Op.MIN);
        if (least[0] != -least[1]) {
            throw new IllegalArgumentException("Graph_create: the ranks gave different graphs; every rank gives the whole graph");
        }
        int nodes = index.length;
        if (nodes > parent.size()) {
            throw new IllegalArgumentException("Graph_create: " + nodes + " nodes for " + parent.size() + " ranks");
        }
        java.util.Map<Long, Integer> count = new java.util.HashMap<>(); // edges a -> b by a * nodes + b
        for (int i = 0; i < nodes; i++) {
            int from = i == 0 ? 0 : index[i - 1];
            if (index[i] < from || index[i] > edges.length) {
                throw new IllegalArgumentException("Graph_create: index[" + i + "] = " + index[i] + " is below the one before it or past the "
                        + edges.length + " edges");
            }
            for (int k = from; k < index[i]; k++) {
                if (edges[k] < 0 || edges[k] >= nodes) {
                    throw new IllegalArgumentException("Graph_create: edge " + k + " goes to node " + edges[k] + ", not one of the "
                            + nodes + " nodes");
                }
                count.merge((long) i * nodes + edges[k], 1, Integer::sum);
            }
        }
        if (nodes > 0 && index[nodes - 1] != edges.length) {
            throw new IllegalArgumentException("Graph_create: index ends at " + index[nodes - 1] + " but " + edges.length + " edges are given");
        }
        for (var e : new java.util.TreeMap<>(count).entrySet()) {
            long a = e.getKey() / nodes;
            long b = e.getKey() % nodes;
            int back = count.getOrDefault(b * nodes + a, 0);
            if (back != e.getValue()) {
                throw new IllegalArgumentException("Graph_create: node " + a + " lists node " + b + " " + e.getValue()
                        + " times and node " + b + " lists node " + a + " " + back
                        + " times: the graph must be symmetric for its neighbour collectives");
            }
        }
        int me = parent.rank();
        Comm nodesComm = parent.split(me < nodes ? 0 : -1, me);
        if (nodesComm == null) {
            return null;
        }
        String note = null;
        if (reorder) {
            TopologyReorder.Result r = TopologyReorder.run(nodesComm, () -> {
                org.banyan.place.CommMatrix.Builder b = new org.banyan.place.CommMatrix.Builder(nodes);
                for (int v = 0; v < nodes; v++) {
                    for (int k = v == 0 ? 0 : index[v - 1]; k < index[v]; k++) {
                        b.add(v, edges[k], 1);
                    }
                }
                return b.build();
            });
            Comm ordered = nodesComm.split(0, r.newRank());
            nodesComm.close();
            nodesComm = ordered;
            me = r.newRank();
            note = r.note();
        }
        int[] neighbours = java.util.Arrays.copyOfRange(edges, me == 0 ? 0 : index[me - 1], index[me]);
        return new DistGraph(nodesComm, neighbours, neighbours.clone(), note);
    }

    /** The topology's communicator. */
    @Override
    public Comm comm() {
        return comm;
    }

    @Override
    int[] sourceRanks() {
        return sources;
    }

    @Override
    int[] destinationRanks() {
        return destinations;
    }

    /** MPI_Dist_graph_neighbors: the ranks this one receives from, in the order given. */
    public int[] sources() {
        return sources.clone();
    }

    /** The ranks this one sends to, in the order given. */
    public int[] destinations() {
        return destinations.clone();
    }

    /** MPI_Dist_graph_neighbors' source weights, in {@link #sources()}' order (all 1 when none were given). */
    public int[] sourceWeights() {
        return sourceWeights.clone();
    }

    /** The destinations' weights, in {@link #destinations()}' order (all 1 when none were given). */
    public int[] destinationWeights() {
        return destinationWeights.clone();
    }

    @Override
    public String toString() {
        return "DistGraph(sources " + Arrays.toString(sources) + ", destinations " + Arrays.toString(destinations) + ")";
    }
}
