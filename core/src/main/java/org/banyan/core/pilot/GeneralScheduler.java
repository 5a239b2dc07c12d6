package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The general scheduler: ranks × cores per rank, GPUs, multi-node MPI tasks, colocation tags,
 * exclusive nodes. It never scans every core, nor every node, per decision: nodes sit in buckets
 * by their free cores (intrusive doubly linked lists over arrays), so a one-node request looks at
 * the buckets from its size up (best fit: the fullest node that still fits, which keeps whole
 * nodes free for wide tasks) and a multi-node request takes nodes from the emptiest bucket down.
 * A decision costs O(cores per node + nodes it looks at), whatever the pilot's size; only GPU
 * requests may walk a bucket for a node with GPUs left.
 */
public final class GeneralScheduler implements AgentScheduler {
    private static final int NONE = -1;

    private final int[] totalCores;
    private final int[] freeCores;
    /**
     * Which GPUs are free, a bit each (as {@link Placement.Share#gpuIds}), and which a held node
     * will give back: the one GPU ledger, counts are their bits.
     */
    private final long[] freeGpuIds;
    private final long[] heldGpuIds;
    private final int[] nodeGpus;
    private final boolean[] lost;
    private final boolean[] exclusiveHeld;
    /** Nodes the resource manager holds ({@link #hold}), and what they will give back. */
    private final boolean[] held;
    private final int[] heldCores;
    /** Per bucket (free cores), its first node; per node, its neighbours in its bucket. */
    private final int[] head;
    private final int[] next;
    private final int[] prev;
    private final int maxCores;
    private final int total;
    /** GPUs of the node with the most, and of all nodes: what no request may exceed. */
    private int maxGpus;
    private int totalGpus;
    private int free;
    /** Nodes lost for good ({@link #nodeGone}); null until one is. */
    private boolean[] gone;
    private boolean anyGone;
    /** Largest node, cores, most GPUs on a node and GPUs over the nodes not gone; recounted when stale. */
    private int[] left = new int[4];
    private boolean leftStale;
    /** Colocation: the node of a tag, and how many placements hold it there. */
    private final Map<String, int[]> tags = new HashMap<>();

    public GeneralScheduler(List<NodeResources> nodes) {
        int n = nodes.size();
        totalCores = new int[n];
        freeCores = new int[n];
        freeGpuIds = new long[n];
        heldGpuIds = new long[n];
        nodeGpus = new int[n];
        lost = new boolean[n];
        exclusiveHeld = new boolean[n];
        held = new boolean[n];
        heldCores = new int[n];
        next = new int[n];
        prev = new int[n];
        int max = 0;
        int sum = 0;
        int mostGpus = 0;
        int gpus = 0;
        for (int i = 0; i < n; i++) {
            totalCores[i] = nodes.get(i).cores();
            freeCores[i] = totalCores[i];
            nodeGpus[i] = nodes.get(i).gpus();
            freeGpuIds[i] = allGpus(nodeGpus[i]);
            max = Math.max(max, totalCores[i]);
            sum += totalCores[i];
            mostGpus = Math.max(mostGpus, nodeGpus[i]);
            gpus += nodeGpus[i];
        }
        maxCores = max;
        total = sum;
        maxGpus = mostGpus;
        totalGpus = gpus;
        free = sum;
        head = new int[max + 1];
        Arrays.fill(head, NONE);
        for (int i = n - 1; i >= 0; i--) {
            link(i);
        }
    }

    @Override
    public Placement place(SlotRequest r) {
        if (neverFits(r) != null || r.cores() > free) {
            return null;
        }
        if (r.colocate() != null && tags.containsKey(r.colocate())) {
            int node = tags.get(r.colocate())[0];
            return fitsOn(node, r) ? take(List.of(new Placement.Share(node, r.ranks(), r.cores(), r.ranks() * r.gpusPerRank())),
                    r) : null;
        }
        if (r.exclusive()) {
            return placeExclusive(r);
        }
        int node = bestFit(r);
        if (node != NONE) {
            return take(List.of(new Placement.Share(node, r.ranks(), r.cores(), r.ranks() * r.gpusPerRank())), r);
        }
        if (r.colocate() != null) {
            return null; // a tag's tasks share one node: wait for one with room for all of this task
        }
        return placeAcross(r);
    }

    /** The fullest node with room for the whole request, or NONE. */
    private int bestFit(SlotRequest r) {
        for (int c = r.cores(); c <= maxCores; c++) {
            for (int node = head[c]; node != NONE; node = next[node]) {
                if (freeGpus(node) >= r.ranks() * r.gpusPerRank()) {
                    return node; // an exclusive node has no free core: it is never in a bucket looked at
                }
            }
        }
        return NONE;
    }

    /** Ranks spread over several nodes, emptiest first; null (nothing taken) when they do not fit now. */
    private Placement placeAcross(SlotRequest r) {
        List<Placement.Share> shares = new ArrayList<>();
        int left = r.ranks();
        for (int c = maxCores; c >= r.coresPerRank() && left > 0; c--) {
            for (int node = head[c]; node != NONE && left > 0; node = next[node]) {
                if (exclusiveHeld[node]) {
                    continue;
                }
                int byCores = freeCores[node] / r.coresPerRank();
                int byGpus = r.gpusPerRank() == 0 ? Integer.MAX_VALUE : freeGpus(node) / r.gpusPerRank();
                int ranks = Math.min(left, Math.min(byCores, byGpus));
                if (ranks > 0) {
                    shares.add(new Placement.Share(node, ranks, ranks * r.coresPerRank(), ranks * r.gpusPerRank()));
                    left -= ranks;
                }
            }
        }
        return left > 0 ? null : take(shares, r);
    }

    /** Whole idle nodes (free = total, so each sits in the bucket of its own size), largest first. */
    private Placement placeExclusive(SlotRequest r) {
        List<Placement.Share> shares = new ArrayList<>();
        int left = r.ranks();
        for (int c = maxCores; c >= r.coresPerRank() && left > 0; c--) {
            for (int node = head[c]; node != NONE && left > 0; node = next[node]) {
                if (freeCores[node] != totalCores[node]) {
                    continue;
                }
                int byGpus = r.gpusPerRank() == 0 ? Integer.MAX_VALUE : freeGpus(node) / r.gpusPerRank();
                int ranks = Math.min(left, Math.min(totalCores[node] / r.coresPerRank(), byGpus));
                if (ranks > 0) {
                    shares.add(new Placement.Share(node, ranks, totalCores[node], ranks * r.gpusPerRank()));
                    left -= ranks;
                }
            }
        }
        if (left > 0) {
            return null;
        }
        Placement p = take(shares, r);
        for (Placement.Share s : shares) {
            exclusiveHeld[s.node()] = true;
        }
        return p;
    }

    private boolean fitsOn(int node, SlotRequest r) {
        return !lost[node] && !exclusiveHeld[node] && freeCores[node] >= r.cores()
                && freeGpus(node) >= r.ranks() * r.gpusPerRank();
    }

    private Placement take(List<Placement.Share> shares, SlotRequest r) {
        List<Placement.Share> taken = shares;
        if (r.gpusPerRank() > 0) {
            taken = new ArrayList<>(shares.size());
            for (Placement.Share s : shares) { // the lowest free GPUs of each node: a task's own, told to it
                long ids = 0;
                long left = freeGpuIds[s.node()];
                for (int k = 0; k < s.gpus(); k++) {
                    long lowest = left & -left;
                    ids |= lowest;
                    left &= ~lowest;
                }
                assert Long.bitCount(ids) == s.gpus() : "over-placed the GPUs of node " + s.node();
                freeGpuIds[s.node()] = left;
                taken.add(new Placement.Share(s.node(), s.ranks(), s.cores(), s.gpus(), ids));
            }
        }
        for (Placement.Share s : taken) {
            assert freeCores[s.node()] >= s.cores() : "over-placed node " + s.node();
            unlink(s.node());
            freeCores[s.node()] -= s.cores();
            free -= s.cores();
            link(s.node());
        }
        if (r.colocate() != null) {
            tags.computeIfAbsent(r.colocate(), t -> new int[] {shares.getFirst().node(), 0})[1]++;
        }
        return new Placement(taken, r.colocate());
    }

    private static long allGpus(int gpus) {
        return gpus == 64 ? -1L : (1L << gpus) - 1;
    }

    /**
     * Takes the whole of {@code node} for a job the resource manager placed there: its free cores
     * and GPUs now, and those other placements give back while it is held, until {@link #unhold}.
     * False for a lost node.
     */
    public boolean hold(int node) {
        if (lost[node] || held[node]) {
            return false;
        }
        unlink(node);
        heldCores[node] = freeCores[node];
        heldGpuIds[node] = freeGpuIds[node];
        free -= freeCores[node];
        freeCores[node] = 0;
        freeGpuIds[node] = 0;
        held[node] = true;
        link(node);
        return true;
    }

    /** Gives a held node back to the agent's tasks and jobs. */
    public void unhold(int node) {
        if (!held[node]) {
            return;
        }
        held[node] = false;
        if (lost[node]) {
            return;
        }
        unlink(node);
        freeCores[node] += heldCores[node];
        freeGpuIds[node] |= heldGpuIds[node];
        free += heldCores[node];
        heldCores[node] = 0;
        heldGpuIds[node] = 0;
        link(node);
    }

    @Override
    public void release(Placement p) {
        for (Placement.Share s : p.shares()) {
            if (lost[s.node()]) {
                continue;
            }
            if (held[s.node()]) {
                heldCores[s.node()] += s.cores();
                heldGpuIds[s.node()] |= s.gpuIds();
                continue;
            }
            unlink(s.node());
            freeCores[s.node()] += s.cores();
            freeGpuIds[s.node()] |= s.gpuIds();
            free += s.cores();
            assert freeCores[s.node()] <= totalCores[s.node()] : "released more than node " + s.node() + " has";
            exclusiveHeld[s.node()] = false;
            link(s.node());
        }
        if (p.colocate() != null) {
            int[] t = tags.get(p.colocate());
            if (t != null && --t[1] == 0) {
                tags.remove(p.colocate());
            }
        }
    }

    @Override
    public String neverFits(SlotRequest r) {
        if (anyGone) {
            if (leftStale) {
                countWhatIsLeft();
            }
            String never = neverFits(r, left[0], left[1], left[2], left[3], " left");
            return never == null || left[1] > 0 ? never : "no host is left (" + never + ")";
        }
        return neverFits(r, maxCores, total, maxGpus, totalGpus, "");
    }

    private static String neverFits(SlotRequest r, int maxCores, int total, int maxGpus, int totalGpus, String left) {
        String pilot = left.isEmpty() ? "the pilot has" : "the hosts left have";
        if (r.coresPerRank() > maxCores) {
            return "a rank of " + r.coresPerRank() + " cores does not fit any node" + left + " (the largest has " + maxCores + ")";
        }
        if (r.cores() > total) {
            return r.cores() + " cores requested but " + pilot + " " + total;
        }
        if (r.colocate() != null && r.cores() > maxCores) {
            return "a colocated task must fit one node: " + r.cores() + " cores, the largest node" + left + " has " + maxCores;
        }
        // Checked as cores are: a task asking for GPUs the pilot does not have waited for ever.
        if (r.gpusPerRank() > maxGpus) {
            return "a rank of " + r.gpusPerRank() + " GPU(s) does not fit any node" + left + " (" + (maxGpus == 0 && left.isEmpty()
                    ? "the pilot has no GPU: none was found on its hosts or declared with dvm start --gpus-per-host or PilotDescription.gpus)"
                    : "the most any node" + left + " has is " + maxGpus + ")");
        }
        if ((long) r.ranks() * r.gpusPerRank() > totalGpus) {
            return r.ranks() * r.gpusPerRank() + " GPUs requested but " + pilot + " " + totalGpus;
        }
        return null;
    }

    /**
     * Node {@code node} is lost for good (its daemon died): as {@link #nodeLost}, and from now on
     * {@link #neverFits} judges by the nodes left, so that a task only it could run fails instead
     * of waiting for ever. A node out of service for now (given back, vacant) is only
     * {@linkplain #nodeLost lost}: tasks may wait for it.
     */
    @Override
    public void nodeGone(int node) {
        nodeLost(node);
        if (gone == null) {
            gone = new boolean[totalCores.length];
        }
        gone[node] = true;
        anyGone = true;
        leftStale = true;
    }

    private void countWhatIsLeft() {
        int[] c = new int[4];
        for (int i = 0; i < totalCores.length; i++) {
            if (!gone[i]) {
                c[0] = Math.max(c[0], totalCores[i]);
                c[1] += totalCores[i];
                c[2] = Math.max(c[2], nodeGpus[i]);
                c[3] += nodeGpus[i];
            }
        }
        left = c;
        leftStale = false;
    }

    @Override
    public int freeCores() {
        return free;
    }

    @Override
    public int freeCoresOn(int node) {
        return freeCores[node];
    }

    /**
     * Node {@code node} has {@code gpus} GPUs, found once its daemon was up (a DVM's GPUs are
     * counted on their hosts unless declared). Only while none of its GPUs is taken and the
     * resource manager does not hold it, or while it is lost (it comes back with all of them):
     * returns false, and changes nothing, otherwise.
     */
    public boolean gpusFound(int node, int gpus) {
        if (gpus < 0 || gpus > NodeResources.MAX_GPUS) {
            throw new IllegalArgumentException("a node of " + gpus + " GPUs: at most " + NodeResources.MAX_GPUS + " are told apart");
        }
        if (!lost[node] && (held[node] || freeGpuIds[node] != allGpus(nodeGpus[node]))) {
            return false;
        }
        int before = nodeGpus[node];
        nodeGpus[node] = gpus;
        leftStale = true;
        if (!lost[node]) {
            freeGpuIds[node] = allGpus(gpus);
        }
        totalGpus += gpus - before;
        if (gpus >= maxGpus) {
            maxGpus = gpus;
        } else if (before == maxGpus) {
            maxGpus = Arrays.stream(nodeGpus).max().orElse(0);
        }
        return true;
    }

    /** GPUs on one node, and how many of them are free (for {@code dvm status}). */
    @Override
    public int gpusOn(int node) {
        return nodeGpus[node];
    }

    public int freeGpusOn(int node) {
        return freeGpus(node);
    }

    private int freeGpus(int node) {
        return Long.bitCount(freeGpuIds[node]);
    }

    @Override
    public int totalCores() {
        return total;
    }

    @Override
    public void nodeLost(int node) {
        if (!lost[node]) {
            unlink(node);
            free -= freeCores[node];
            freeCores[node] = 0;
            lost[node] = true;
        }
    }

    /**
     * A node lost while nothing ran on it is back in service with all its cores (a DVM got a
     * host it gave back again).
     */
    public void nodeRestored(int node) {
        if (lost[node]) {
            lost[node] = false;
            freeCores[node] = totalCores[node];
            freeGpuIds[node] = allGpus(nodeGpus[node]);
            free += totalCores[node];
            link(node);
        }
    }

    private void link(int node) {
        if (lost[node]) {
            return;
        }
        int b = freeCores[node];
        prev[node] = NONE;
        next[node] = head[b];
        if (head[b] != NONE) {
            prev[head[b]] = node;
        }
        head[b] = node;
    }

    private void unlink(int node) {
        if (lost[node]) {
            return;
        }
        int b = freeCores[node];
        if (prev[node] != NONE) {
            next[prev[node]] = next[node];
        } else {
            head[b] = next[node];
        }
        if (next[node] != NONE) {
            prev[next[node]] = prev[node];
        }
    }
}
