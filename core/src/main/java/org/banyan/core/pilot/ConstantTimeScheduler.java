package org.banyan.core.pilot;

import java.util.List;

/**
 * The seed's constant-time scheduler for homogeneous tasks: the first request fixes the slot
 * size (its cores, one node); every node is cut into as many slots of that size as fit, and the
 * free slots form a stack, so placing and releasing are O(1) whatever the pilot's size. A task of
 * another shape never fits ({@link #neverFits} says why): mixed workloads belong to
 * {@link GeneralScheduler}.
 */
public final class ConstantTimeScheduler implements AgentScheduler {
    private final List<NodeResources> nodes;
    private final boolean[] lost;
    private int slotCores;
    /** Stack of free slots, by the node each is on. */
    private int[] stack;
    private int top;
    private int total;
    /** Slots on the stack that are on lost nodes: skipped when they come up, not counted free. */
    private int stale;

    public ConstantTimeScheduler(List<NodeResources> nodes) {
        this.nodes = List.copyOf(nodes);
        this.lost = new boolean[nodes.size()];
        for (NodeResources n : nodes) {
            total += n.cores();
        }
    }

    private void cut(int size) {
        slotCores = size;
        int slots = 0;
        for (NodeResources n : nodes) {
            slots += n.cores() / size;
        }
        stack = new int[slots];
        // Pushed in reverse so that node 0's slots are placed first.
        for (int node = nodes.size() - 1; node >= 0; node--) {
            for (int k = 0; k < nodes.get(node).cores() / size; k++) {
                stack[top++] = node;
            }
        }
    }

    @Override
    public Placement place(SlotRequest r) {
        if (stack == null && neverFits(r) == null) {
            cut(r.cores());
        }
        if (neverFits(r) != null) {
            return null;
        }
        while (top > 0) {
            int node = stack[--top];
            if (!lost[node]) {
                return new Placement(List.of(new Placement.Share(node, 1, slotCores, 0)), null);
            }
            stale--;
        }
        return null;
    }

    @Override
    public void release(Placement p) {
        int node = p.shares().getFirst().node();
        if (!lost[node]) {
            assert top < stack.length : "more slots released than placed";
            stack[top++] = node;
        }
    }

    @Override
    public String neverFits(SlotRequest r) {
        if (r.ranks() != 1 || r.gpusPerRank() != 0 || r.colocate() != null || r.exclusive()) {
            return "the constant-time scheduler takes one-rank CPU tasks without tags (use the general scheduler)";
        }
        if (stack != null && r.cores() != slotCores) {
            return "the constant-time scheduler cut the pilot into " + slotCores + "-core slots; this task asks "
                    + r.cores();
        }
        for (NodeResources n : nodes) {
            if (n.cores() >= r.cores()) {
                return null;
            }
        }
        return "a task of " + r.cores() + " cores does not fit any node";
    }

    @Override
    public int freeCores() {
        if (stack == null) {
            int free = 0;
            for (int node = 0; node < nodes.size(); node++) {
                free += lost[node] ? 0 : nodes.get(node).cores();
            }
            return free;
        }
        return (top - stale) * slotCores;
    }

    @Override
    public int freeCoresOn(int node) {
        if (stack == null) {
            return lost[node] ? 0 : nodes.get(node).cores();
        }
        int n = 0;
        for (int i = 0; i < top; i++) {
            n += stack[i] == node ? slotCores : 0;
        }
        return lost[node] ? 0 : n;
    }

    @Override
    public int totalCores() {
        return total;
    }

    @Override
    public void nodeLost(int node) {
        if (lost[node]) {
            return;
        }
        lost[node] = true;
        for (int i = 0; stack != null && i < top; i++) { // once per lost node: a scan is fine here
            stale += stack[i] == node ? 1 : 0;
        }
    }
}
