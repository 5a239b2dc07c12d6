package org.banyan.comm;

import org.banyan.place.CommMatrix;

/**
 * Reorder for a distributed graph given by each rank's own lists: rank 0 gathers every vertex's
 * lists (sources, their weights, destinations, their weights), {@link TopologyReorder} deals
 * the vertices out to the processes by TreeMatch on the edges weighed as their senders gave
 * them, and each process receives the lists of the vertex it now plays (those of the rank whose
 * number it takes), as the placement seed's runtime does.
 */
final class DistGraphReorder {
    private DistGraphReorder() {}

    /** Collective over {@code parent}; weights null for unweighted. */
    static DistGraph adjacent(Comm parent, int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights) {
        int n = parent.size();
        boolean root = parent.rank() == 0;
        int[] lengths = new int[2 * n]; // per vertex: its sources and its destinations
        parent.gather(new int[] {sources.length, destinations.length}, root ? lengths : null, 0);
        int[] counts = new int[n];
        int[] displs = new int[n];
        int total = 0;
        for (int v = 0; v < n && root; v++) {
            counts[v] = 2 * (lengths[2 * v] + lengths[2 * v + 1]);
            displs[v] = total;
            total += counts[v];
        }
        int[] lists = root ? new int[total] : null;
        parent.gatherv(laidOut(sources, sourceWeights, destinations, destinationWeights), lists, counts, displs, 0);
        TopologyReorder.Result r = TopologyReorder.run(parent, () -> {
            CommMatrix.Builder b = new CommMatrix.Builder(n);
            for (int v = 0; v < n; v++) {
                int s = lengths[2 * v];
                int d = lengths[2 * v + 1];
                int at = displs[v] + 2 * s;
                for (int k = 0; k < d; k++) {
                    b.add(v, lists[at + k], lists[at + d + k]);
                }
            }
            return b.build();
        });
        int[] roleLengths = new int[2];
        int[] byProcessLengths = new int[2 * n];
        int[] byProcessCounts = new int[n];
        int[] byProcessDispls = new int[n];
        int[] byProcess = null;
        if (root) {
            int at = 0;
            byProcess = new int[total];
            for (int p = 0; p < n; p++) {
                int v = r.newRanks()[p];
                byProcessLengths[2 * p] = lengths[2 * v];
                byProcessLengths[2 * p + 1] = lengths[2 * v + 1];
                byProcessCounts[p] = counts[v];
                byProcessDispls[p] = at;
                System.arraycopy(lists, displs[v], byProcess, at, counts[v]);
                at += counts[v];
            }
        }
        parent.scatter(root ? byProcessLengths : null, roleLengths, 0);
        int s = roleLengths[0];
        int d = roleLengths[1];
        int[] role = new int[2 * (s + d)];
        parent.scatterv(byProcess, byProcessCounts, byProcessDispls, role, 0);
        Comm ordered = parent.split(0, r.newRank());
        boolean weighted = sourceWeights != null || destinationWeights != null;
        return new DistGraph(ordered, java.util.Arrays.copyOfRange(role, 0, s),
                weighted ? java.util.Arrays.copyOfRange(role, s, 2 * s) : null, java.util.Arrays.copyOfRange(role, 2 * s, 2 * s + d),
                weighted ? java.util.Arrays.copyOfRange(role, 2 * s + d, 2 * s + 2 * d) : null, r.note());
    }

    /** Sources, their weights (1 when none), destinations, their weights, one after the other. */
    private static int[] laidOut(int[] sources, int[] sourceWeights, int[] destinations, int[] destinationWeights) {
        int s = sources.length;
        int d = destinations.length;
        int[] all = new int[2 * (s + d)];
        System.arraycopy(sources, 0, all, 0, s);
        for (int k = 0; k < s; k++) {
            all[s + k] = sourceWeights == null ? 1 : sourceWeights[k];
        }
        System.arraycopy(destinations, 0, all, 2 * s, d);
        for (int k = 0; k < d; k++) {
            all[2 * s + d + k] = destinationWeights == null ? 1 : destinationWeights[k];
        }
        return all;
    }
}
