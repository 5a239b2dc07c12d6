package org.banyan.comm;

import java.util.Arrays;

/**
 * MPI_Dist_graph_create's exchange: any rank may name any edge, so each edge s -> d (with its
 * weight) is told to both its ends by one alltoallv; each rank then sorts what it was told into
 * its sources and destinations, in increasing rank order (an edge given twice, by weight).
 */
final class DistGraphEdges {
    private DistGraphEdges() {}

    /**
     * Collective. {@code weights} null: every edge 1.
     *
     * @return this rank's sources, their weights, its destinations, their weights
     */
    static int[][] exchange(Comm parent, int[] sources, int[] degrees, int[] destinations, int[] weights) {
        int n = parent.size();
        // each edge end is told as (peer code, weight): +d + 1 to s for a destination, -(s + 1) to d for a source
        int[] counts = new int[n];
        for (int i = 0, k = 0; i < sources.length; i++) {
            for (int j = 0; j < degrees[i]; j++, k++) {
                counts[sources[i]] += 2;
                counts[destinations[k]] += 2;
            }
        }
        int[] displs = new int[n];
        for (int r = 1; r < n; r++) {
            displs[r] = displs[r - 1] + counts[r - 1];
        }
        int[] notes = new int[Math.toIntExact(Arrays.stream(counts).asLongStream().sum())];
        int[] at = displs.clone();
        for (int i = 0, k = 0; i < sources.length; i++) {
            for (int j = 0; j < degrees[i]; j++, k++) {
                int w = weights == null ? 1 : weights[k];
                notes[at[sources[i]]++] = destinations[k] + 1;
                notes[at[sources[i]]++] = w;
                notes[at[destinations[k]]++] = -(sources[i] + 1);
                notes[at[destinations[k]]++] = w;
            }
        }
        int[] incoming = new int[n];
        parent.alltoall(counts, incoming);
        int[] inDispls = new int[n];
        for (int r = 1; r < n; r++) {
            inDispls[r] = inDispls[r - 1] + incoming[r - 1];
        }
        int[] told = new int[inDispls[n - 1] + incoming[n - 1]];
        parent.alltoallv(notes, counts, displs, told, incoming, inDispls);
        long[] in = new long[told.length / 2];
        long[] out = new long[told.length / 2];
        int ins = 0;
        int outs = 0;
        for (int e = 0; e < told.length; e += 2) { // (peer, weight) packed so that one sort orders both
            if (told[e] < 0) {
                in[ins++] = (long) (-told[e] - 1) << 32 | told[e + 1];
            } else {
                out[outs++] = (long) (told[e] - 1) << 32 | told[e + 1];
            }
        }
        long[] sortedIn = Arrays.copyOf(in, ins);
        long[] sortedOut = Arrays.copyOf(out, outs);
        Arrays.sort(sortedIn);
        Arrays.sort(sortedOut);
        return new int[][] {peers(sortedIn), weights(sortedIn), peers(sortedOut), weights(sortedOut)};
    }

    private static int[] peers(long[] packed) {
        return Arrays.stream(packed).mapToInt(p -> (int) (p >>> 32)).toArray();
    }

    private static int[] weights(long[] packed) {
        return Arrays.stream(packed).mapToInt(p -> (int) p).toArray();
    }
}
