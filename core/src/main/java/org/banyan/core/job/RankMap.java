package org.banyan.core.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The placement of every rank of a job, computed from the {@link JobDescription} alone so that
 * the head and each daemon arrive at the same answer without exchanging a map.
 * Memory is a few ints per rank.
 */
public final class RankMap {
    private final JobDescription job;
    private final int[] nodeOf;
    private final int[] localRankOf;
    private final int[] appOf;
    private final int[] ranksOnNode;
    /** Ranks grouped by node: those of node n are byNode[start[n] .. start[n + 1]). */
    private final int[] start;
    private final int[] byNode;
    /** The last map made, reused for the same job object (every simulated daemon shares one job). */
    private static volatile RankMap last;
    /** Computed once: every daemon of a simulated 100,000-host tree asks, and a loop over the nodes each time was quadratic. */
    private final int universeSize;
    private final int nodesWithRanks;
    private volatile String processMapping;

    private RankMap(JobDescription job, int[] nodeOf) {
        this.job = job;
        this.nodeOf = nodeOf;
        int size = nodeOf.length;
        this.localRankOf = new int[size];
        this.appOf = new int[size];
        this.ranksOnNode = new int[job.nodes().size()];
        for (int r = 0; r < size; r++) {
            localRankOf[r] = ranksOnNode[nodeOf[r]]++;
        }
        this.start = new int[ranksOnNode.length + 1];
        for (int n = 0; n < ranksOnNode.length; n++) {
            start[n + 1] = start[n] + ranksOnNode[n];
        }
        this.byNode = new int[size];
        int[] fill = java.util.Arrays.copyOf(start, ranksOnNode.length);
        for (int rank = 0; rank < size; rank++) {
            byNode[fill[nodeOf[rank]]++] = rank;
        }
        long slots = 0;
        int withRanks = 0;
        for (int n = 0; n < ranksOnNode.length; n++) {
            slots += job.nodes().get(n).slots();
            withRanks += ranksOnNode[n] > 0 ? 1 : 0;
        }
        this.universeSize = (int) Math.min(Integer.MAX_VALUE, slots > 0 ? slots : size);
        this.nodesWithRanks = withRanks;
        int r = 0;
        for (int a = 0; a < job.apps().size(); a++) {
            for (int i = 0; i < job.apps().get(a).count(); i++) {
                appOf[r++] = a;
            }
        }
    }

    /**
     * Maps the job, or throws {@link IllegalArgumentException} with a user-facing message when the
     * ranks do not fit the slots and oversubscription is off.
     */
    public static RankMap of(JobDescription job) {
        RankMap cached = last;
        if (cached != null && cached.job == job) {
            return cached;
        }
        RankMap made = compute(job);
        last = made;
        return made;
    }

    /** How to get more slots, in the refusal of more ranks than slots (a Slurm allocation says its own way). */
    public static final String MORE_SLOTS = "give more slots (--host NAME:SLOTS or a hostfile)";

    private static RankMap compute(JobDescription job) {
        int size = job.size();
        int slots = job.totalSlots();
        if (slots == 0) {
            throw new IllegalArgumentException("no slot is free on " + describeNodes(job.nodes()));
        }
        if (size > slots && !job.oversubscribe()) {
            throw new IllegalArgumentException(size + " ranks requested but only " + slots + " slot"
                    + (slots == 1 ? "" : "s") + " available on " + describeNodes(job.nodes())
                    + "; add --oversubscribe or " + MORE_SLOTS);
        }
        if (job.placement().nodeOf() != null) {
            return new RankMap(job, job.placement().nodeOf());
        }
        List<Node> nodes = job.nodes();
        int[] nodeOf = new int[size];
        int[] used = new int[nodes.size()];
        int rank = 0;
        // First pass honours slots; once every slot is used (only with oversubscription) the
        // remaining ranks are spread by the same policy as if every node had its slots again.
        while (rank < size) {
            if (job.mapping().fillsSlots()) {
                for (int n = 0; n < nodes.size() && rank < size; n++) {
                    for (; used[n] < nodes.get(n).slots() && rank < size; used[n]++) {
                        nodeOf[rank++] = n;
                    }
                }
            } else {
                boolean placed = true;
                while (placed && rank < size) {
                    placed = false;
                    for (int n = 0; n < nodes.size() && rank < size; n++) {
                        if (used[n] < nodes.get(n).slots()) {
                            nodeOf[rank++] = n;
                            used[n]++;
                            placed = true;
                        }
                    }
                }
            }
            // Every slot is taken (only reachable with oversubscription): lay the remaining ranks
            // by the same policy, as if each node offered its slots once more.
            Arrays.fill(used, 0);
        }
        if (job.mapping().fillsSlots() == job.mapping().numbersByNode()) { // --rank-by the other way than mapped
            nodeOf = renumbered(nodeOf, nodes.size(), job.mapping().numbersByNode());
        }
        return new RankMap(job, nodeOf);
    }

    /**
     * The same number of ranks on each node, numbered node after node, or round robin over the
     * nodes that have ranks left ({@code byNode}): mpirun's {@code --rank-by}.
     */
    private static int[] renumbered(int[] nodeOf, int nodes, boolean byNode) {
        int[] left = new int[nodes];
        for (int n : nodeOf) {
            left[n]++;
        }
        int[] out = new int[nodeOf.length];
        int rank = 0;
        if (!byNode) {
            for (int n = 0; n < nodes; n++) {
                for (int k = 0; k < left[n]; k++) {
                    out[rank++] = n;
                }
            }
            return out;
        }
        while (rank < out.length) {
            for (int n = 0; n < nodes; n++) {
                if (left[n] > 0) {
                    left[n]--;
                    out[rank++] = n;
                }
            }
        }
        return out;
    }

    private static String describeNodes(List<Node> nodes) {
        if (nodes.size() == 1) {
            return nodes.getFirst().name();
        }
        return nodes.size() + " hosts";
    }

    public JobDescription job() {
        return job;
    }

    public int size() {
        return nodeOf.length;
    }

    /**
     * MPI_UNIVERSE_SIZE: the slots of the job's hosts, as mpirun gives it (a manager started
     * alone on four slots learns it may spawn three workers), even when the job oversubscribes
     * them (Open MPI 4.1.4's mpirun: 2 for -n 4 --oversubscribe on two cores, 3 for -n 5 on
     * localhost:3); a DVM's job has only the slots it was given, and one given none its size.
     */
    public int universeSize() {
        return universeSize;
    }

    /** How many of the job's nodes run ranks. */
    public int nodesWithRanks() {
        return nodesWithRanks;
    }

    public int nodeOf(int rank) {
        return nodeOf[rank];
    }

    public int localRankOf(int rank) {
        return localRankOf[rank];
    }

    public int appOf(int rank) {
        return appOf[rank];
    }

    public int ranksOn(int node) {
        return ranksOnNode[node];
    }

    /** The ranks placed on one node, in increasing order. */
    public int[] ranksOf(int node) {
        return java.util.Arrays.copyOfRange(byNode, start[node], start[node + 1]);
    }

    /**
     * The value of the {@code PMI_process_mapping} key as MPICH reads it:
     * {@code (vector,(firstNode,nodeCount,ranksPerNode),...)}, where the blocks repeat cyclically
     * over the ranks. Returns the shortest such description, or the empty vector when the layout
     * has no regular form (MPICH then falls back to exchanging host names).
     */
    public String processMapping() {
        String m = processMapping;
        if (m == null) {
            m = computeProcessMapping();
            processMapping = m;
        }
        return m;
    }

    private String computeProcessMapping() {
        // Nodes are numbered in the order ranks first appear on them: MPICH takes the numbers as
        // dense node ids, and a DVM's job may skip hosts whose slots other jobs use.
        int[] label = new int[job.nodes().size()];
        Arrays.fill(label, -1);
        int labels = 0;
        // Runs of consecutive ranks on the same node.
        List<int[]> runs = new ArrayList<>();
        for (int r = 0; r < nodeOf.length; r++) {
            int node = nodeOf[r];
            if (label[node] < 0) {
                label[node] = labels++;
            }
            if (!runs.isEmpty() && runs.getLast()[0] == label[node]) {
                runs.getLast()[1]++;
            } else {
                runs.add(new int[] {label[node], 1});
            }
        }
        // Group runs into blocks (start, count, width): consecutive nodes with equal widths.
        List<int[]> blocks = new ArrayList<>();
        for (int[] run : runs) {
            int[] last = blocks.isEmpty() ? null : blocks.getLast();
            if (last != null && last[2] == run[1] && last[0] + last[1] == run[0]) {
                last[1]++;
            } else {
                blocks.add(new int[] {run[0], 1, run[1]});
            }
        }
        // The shortest prefix of blocks whose cyclic repetition gives all blocks.
        int period = blocks.size();
        for (int p = 1; p < blocks.size(); p++) {
            if (blocks.size() % p != 0) {
                continue;
            }
            boolean repeats = true;
            for (int i = p; i < blocks.size() && repeats; i++) {
                repeats = Arrays.equals(blocks.get(i), blocks.get(i % p));
            }
            if (repeats) {
                period = p;
                break;
            }
        }
        StringBuilder sb = new StringBuilder("(vector");
        for (int i = 0; i < period; i++) {
            int[] b = blocks.get(i);
            sb.append(",(").append(b[0]).append(',').append(b[1]).append(',').append(b[2]).append(')');
        }
        return sb.append(')').toString();
    }
}
