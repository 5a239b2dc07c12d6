package org.banyan.core.job;

import java.util.Arrays;
import org.banyan.topo.CpuBinding;

/**
 * Where a job's ranks go beyond the node-level policy: to which host each rank goes when a
 * rankfile says so, and to which CPUs of its host each rank is bound. Carried in the job
 * description, so each daemon still computes its own share (distributed mapping): the binding
 * is resolved on each host against that host's topology.
 *
 * @param bindTo      mpirun's {@code --bind-to}; NONE leaves ranks where the kernel puts them
 * @param bySocket    {@code --map-by socket}: a host's ranks are dealt over its packages in turn
 * @param cpusPerRank cores given to each rank ({@code --cpus-per-rank})
 * @param report      {@code --report-bindings}: each daemon says where each of its ranks is bound
 * @param displayMap  {@code --display-map}: the head prints the job's map before its ranks start
 * @param nodeOf      per rank, its node (index into the job's nodes), or null to map by policy
 * @param slots       per rank, its rankfile slot ({@code 2}, {@code 0:1-3}...), or null
 * @param heldCores   per node of the job, the cores (logical indexes) its ranks there are bound
 *                    among, or null for the whole host: a DVM gives each bound job its own
 * @param reranked    {@code --rank-by} the other way than the host's ranks are spread: numbered in
 *                    core order although spread over the packages ({@code bySocket}), or dealt
 *                    over the packages although packed in core order
 */
public record RankPlacement(CpuBinding.Target bindTo, boolean bySocket, int cpusPerRank, boolean report,
                            boolean displayMap, int[] nodeOf, String[] slots, int[][] heldCores, boolean reranked) {
    /** Mapped by policy, not bound: what a job gets when nothing is said. */
    public static final RankPlacement NONE = new RankPlacement(CpuBinding.Target.NONE, false, 1, false, null, null);

    public RankPlacement(CpuBinding.Target bindTo, boolean bySocket, int cpusPerRank, boolean report, int[] nodeOf,
                         String[] slots) {
        this(bindTo, bySocket, cpusPerRank, report, false, nodeOf, slots, null, false);
    }

    public RankPlacement {
        if (cpusPerRank < 1) {
            throw new IllegalArgumentException("--cpus-per-rank must be at least 1, not " + cpusPerRank);
        }
        if ((nodeOf == null) != (slots == null) || (nodeOf != null && nodeOf.length != slots.length)) {
            throw new IllegalArgumentException("a rankfile placement gives a node and a slot to every rank");
        }
        nodeOf = nodeOf == null ? null : nodeOf.clone();
        slots = slots == null ? null : slots.clone();
        if (heldCores != null) {
            heldCores = heldCores.clone();
            for (int i = 0; i < heldCores.length; i++) {
                heldCores[i] = heldCores[i] == null ? null : heldCores[i].clone();
            }
        }
    }

    /** This placement with the cores a job holds on each of its nodes. */
    public RankPlacement withHeldCores(int[][] cores) {
        return new RankPlacement(bindTo, bySocket, cpusPerRank, report, displayMap, nodeOf, slots, cores, reranked);
    }

    /** This placement, its job's map printed or not ({@code --display-map}). */
    public RankPlacement withDisplayMap(boolean display) {
        return new RankPlacement(bindTo, bySocket, cpusPerRank, report, display, nodeOf, slots, heldCores, reranked);
    }

    /** This placement, a host's ranks numbered the other way than they are spread ({@code --rank-by}). */
    public RankPlacement withReranked(boolean other) {
        return new RankPlacement(bindTo, bySocket, cpusPerRank, report, displayMap, nodeOf, slots, heldCores, other);
    }

    /** Whether ranks are bound to CPUs at all. */
    public boolean binds() {
        return bindTo != CpuBinding.Target.NONE || slots != null;
    }

    /**
     * The CPUs of a rank on node {@code node} of the job, one of the {@code hostRanks} there, with
     * that host's binding calculator (empty: not bound).
     */
    public int[] cpus(CpuBinding host, int rank, int localRank, int node, int hostRanks) {
        if (slots != null) {
            return host.ofSlot(slots[rank]);
        }
        int[] held = heldCores == null || node >= heldCores.length ? null : heldCores[node];
        int dealt = reranked ? host.reranked(localRank, hostRanks, bySocket, cpusPerRank, held) : localRank;
        return host.of(dealt, bySocket, bindTo, cpusPerRank, held);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RankPlacement p && p.bindTo == bindTo && p.bySocket == bySocket && p.cpusPerRank == cpusPerRank
                && p.report == report && p.displayMap == displayMap && Arrays.equals(p.nodeOf, nodeOf) && Arrays.equals(p.slots, slots)
                && Arrays.deepEquals(p.heldCores, heldCores) && p.reranked == reranked;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nodeOf) * 31 + Arrays.hashCode(slots) + bindTo.hashCode() + cpusPerRank;
    }

    @Override
    public String toString() {
        return "RankPlacement[bindTo=" + bindTo + ", bySocket=" + bySocket + ", cpusPerRank=" + cpusPerRank + ", report="
                + report + (displayMap ? ", displayMap" : "") + (reranked ? ", reranked" : "") + (slots == null ? "" : ", rankfile of " + slots.length + " ranks")
                + (heldCores == null ? "" : ", held cores " + Arrays.deepToString(heldCores)) + "]";
    }
}
