package org.banyan.comm;

import java.util.Arrays;
import org.banyan.place.CommMatrix;
import org.banyan.place.PlacementCost;
import org.banyan.place.TreeMatch;
import org.banyan.topo.Topology;

/**
 * What {@code reorder} does for a topology (MPI_Cart_create, MPI_Dist_graph_create_adjacent), as
 * the placement seed does it through MPI_Dist_graph_create: the processes stay where they run, and
 * the ranks of the new communicator are dealt out to them by TreeMatch, so that the ranks the
 * topology makes talk most sit closest on the machine. Sans-I/O: given the pattern, the machine's
 * tree and where each process runs (its host and the first CPU it is bound to), it says each
 * process's new rank. The processes' leaves are the only ones TreeMatch may use (the rest of the
 * machine is holes), so each gets exactly one rank.
 */
final class Reordering {
    /**
     * The outcome: the new rank of each process (by its rank in the old communicator), or null
     * with the reason the order was kept.
     */
    record Outcome(int[] newRank, String kept, double costBefore, double costAfter) {
        static Outcome keep(String why) {
            return new Outcome(null, why, 0, 0);
        }
    }

    private Reordering() {}

    /**
     * @param pattern  who talks to whom, between the new ranks (the topology's vertices)
     * @param host     one host's tree (every host is taken to be alike)
     * @param hostOf   per process, its host's number
     * @param firstCpu per process, the OS index of the first CPU it is bound to, or -1 when unbound
     */
    static Outcome of(CommMatrix pattern, Topology host, int[] hostOf, int[] firstCpu) {
        int n = hostOf.length;
        for (int p = 0; p < n; p++) {
            if (firstCpu[p] < 0) {
                return Outcome.keep("rank " + p + " is not bound to CPUs (banyan run --bind-to core binds ranks)");
            }
        }
        int[] hostIndex = dense(hostOf);
        int hosts = Arrays.stream(hostIndex).max().orElse(-1) + 1;
        int perHost = host.leaves();
        int[] leafOfCpu = new int[Arrays.stream(host.leafOsIndex()).max().orElse(-1) + 1];
        Arrays.fill(leafOfCpu, -1);
        for (int leaf = 0; leaf < perHost; leaf++) {
            if (host.leafOsIndex()[leaf] != Topology.HOLE) {
                leafOfCpu[host.leafOsIndex()[leaf]] = leaf;
            }
        }
        Topology machine = hosts == 1 ? host : host.cluster(java.util.List.of(), hosts);
        int[] os = new int[machine.leaves()];
        Arrays.fill(os, Topology.HOLE);
        int[] leafOfProcess = new int[n];
        for (int p = 0; p < n; p++) {
            int cpu = firstCpu[p];
            if (cpu >= leafOfCpu.length || leafOfCpu[cpu] < 0) {
                return Outcome.keep("rank " + p + " is bound to CPU " + cpu + ", which the machine's topology does not show");
            }
            int leaf = hostIndex[p] * perHost + leafOfCpu[cpu];
            if (os[leaf] != Topology.HOLE) {
                return Outcome.keep("two ranks share CPU " + cpu + " of a host: there is no order to choose between them");
            }
            os[leaf] = cpu;
            leafOfProcess[p] = leaf;
        }
        Topology where = new Topology(machine.levels(), os);
        TreeMatch.Result placed = TreeMatch.map(pattern, where);
        int[] processAtLeaf = new int[machine.leaves()];
        Arrays.fill(processAtLeaf, -1);
        for (int p = 0; p < n; p++) {
            processAtLeaf[leafOfProcess[p]] = p;
        }
        int[] newRank = new int[n];
        for (int v = 0; v < n; v++) {
            newRank[processAtLeaf[placed.leafOf()[v]]] = v;
        }
        double before = PlacementCost.of(pattern, where, leafOfProcess).sumCom();
        double after = PlacementCost.of(pattern, where, placed.leafOf()).sumCom();
        if (after >= before) { // TreeMatch found nothing better than the order the processes have
            return new Outcome(null, "the ranks' order is already as good as TreeMatch's", before, before);
        }
        return new Outcome(newRank, null, before, after);
    }

    /** The hosts' numbers made 0, 1, ... in order of first appearance. */
    private static int[] dense(int[] hostOf) {
        java.util.Map<Integer, Integer> index = new java.util.LinkedHashMap<>();
        int[] out = new int[hostOf.length];
        for (int p = 0; p < hostOf.length; p++) {
            out[p] = index.computeIfAbsent(hostOf[p], h -> index.size());
        }
        return out;
    }

    /** The pattern of a cartesian grid: each rank with its neighbours along every dimension (both ways, wrapping where periodic). */
    static CommMatrix grid(int[] dims, boolean[] periods) {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        CommMatrix.Builder b = new CommMatrix.Builder(n);
        int[] coords = new int[dims.length];
        for (int r = 0; r < n; r++) {
            int rest = r;
            for (int d = dims.length - 1; d >= 0; d--) {
                coords[d] = rest % dims[d];
                rest /= dims[d];
            }
            int stride = 1;
            for (int d = dims.length - 1; d >= 0; d--) {
                int next = coords[d] + 1;
                if (next < dims[d] || periods[d] && dims[d] > 2) {
                    int neighbour = r + ((next % dims[d]) - coords[d]) * stride;
                    if (neighbour != r) {
                        b.add(r, neighbour, 1);
                        b.add(neighbour, r, 1);
                    }
                }
                stride *= dims[d];
            }
        }
        return b.build();
    }
}
