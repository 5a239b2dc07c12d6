package org.banyan.core.tree;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;

/**
 * One round of an aggregation up the overlay tree, as a vertex sees it: the parts of the children
 * it waits for and, when it has one, its own part, merged into one value that goes up once.
 * The head (no part of its own) and the daemons run the same class; fences and the launch
 * statistics both use it.
 *
 * <p>Policy on a lost child, the same everywhere: it counts as done. Its subtree's part will
 * never come, and the loss travels up on its own (as {@code DaemonFailed}), where the head
 * decides what it means for the job; a gather that waited for it would hold every other vertex
 * too.
 *
 * @param <V> a part; {@code merge} must accept parts in any order
 */
public final class TreeGather<V> {
    private final Set<Integer> waitingFor = new HashSet<>();
    private final BinaryOperator<V> merge;
    private boolean localPending;
    private boolean anyPart;
    private boolean done;
    private V merged;

    /**
     * @param children the children whose parts this round waits for
     * @param local    whether this vertex contributes a part of its own
     * @param empty    the merge of no parts
     */
    public TreeGather(List<Integer> children, boolean local, V empty, BinaryOperator<V> merge) {
        waitingFor.addAll(children);
        this.localPending = local;
        this.merged = empty;
        this.merge = merge;
    }

    /** Takes child {@code child}'s part; true when the round is complete now. A repeated or unexpected part is ignored. */
    public boolean fromChild(int child, V part) {
        if (done || !waitingFor.remove(child)) {
            return false;
        }
        add(part);
        return check();
    }

    /** Takes this vertex's own part; true when the round is complete now. */
    public boolean local(V part) {
        if (done || !localPending) {
            return false;
        }
        localPending = false;
        add(part);
        return check();
    }

    /** Child {@code child} is gone: its part counts as given. True when the round is complete now. */
    public boolean childLost(int child) {
        if (done || !waitingFor.remove(child)) {
            return false;
        }
        return check();
    }

    /** Whether the child's part is still awaited. */
    public boolean awaits(int child) {
        return waitingFor.contains(child);
    }

    /** The parts merged so far: all of them once a call has returned true, what came in time otherwise. */
    public V result() {
        return merged;
    }

    private void add(V part) {
        merged = merge.apply(merged, part);
        anyPart = true;
    }

    /** Complete when nothing is awaited and at least one part came: a round of lost children only has nothing to say. */
    private boolean check() {
        if (!localPending && waitingFor.isEmpty() && anyPart) {
            done = true;
            return true;
        }
        return false;
    }
}
