package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * The agent's bookkeeping of tasks queued on daemons behind running ones (see {@link TaskAgent}):
 * each chain is a running task, then the tasks queued behind it in order, linked through
 * {@link AgentTask#after} and {@link AgentTask#next}. It finds the end of a chain with
 * room for a task of a given shape without scanning the running tasks: chain ends that may take
 * one wait by shape, and an entry that has since ended or got a successor is dropped when met.
 *
 * <p>It also keeps the queued tasks that may still be withdrawn to idle cores (neither canceled
 * nor holding a reservation), by shape in the order queued, so that a pass over idle cores
 * looks at the oldest of each shape and no further: walking every queued task on each event,
 * the tasks whose withdrawal was on its way included, made a simulated 1,000-host pilot spend
 * nine tenths of its time in that walk.
 */
final class TaskChains {
    /** How many tasks may be queued behind each running one, by shape. */
    private final ChainDepth depth;
    /**
     * Chain ends that may take a successor, by shape, oldest first; stale entries are dropped
     * when met, and a task that ends leaves at once ({@link #forget}): while cores are free no
     * task looks for a chain end, and every task started stayed here, with its request, for
     * the DVM's life.
     */
    private final Map<SlotRequest, LinkedHashSet<AgentTask>> ends = new HashMap<>();
    /** Tasks queued on daemons, in the order they were queued. */
    private final LinkedHashSet<AgentTask> queued = new LinkedHashSet<>();
    /** Queued tasks neither canceled nor holding a reservation, by shape, oldest first. */
    private final Map<SlotRequest, TreeSet<AgentTask>> withdrawable = new HashMap<>();
    private static final Comparator<AgentTask> QUEUE_ORDER = Comparator.comparingLong(t -> t.queuedAt);
    private long queuedSoFar;

    TaskChains(int maxDepth) {
        this.depth = new ChainDepth(maxDepth);
    }

    /** Whether tasks like this one may be queued at all: one-process executables without tags, when chains are on. */
    boolean accepts(TaskRequest r) {
        return depth.max() > 0 && !r.runsAsJob() && r.slots().colocate() == null && !r.slots().exclusive();
    }

    /** Whether some chain end may take a successor (a cheap test before polling the waiting tasks). */
    boolean anyEnds() {
        return !ends.isEmpty();
    }

    /** The end of a chain of this shape with room behind it, or null. */
    AgentTask endLike(SlotRequest shape) {
        LinkedHashSet<AgentTask> q = ends.get(shape);
        while (q != null && !q.isEmpty()) {
            AgentTask c = q.removeFirst();
            if (takesSuccessor(c)) {
                if (q.isEmpty()) {
                    ends.remove(shape);
                }
                return c;
            }
        }
        ends.remove(shape);
        return null;
    }

    /** {@code t} is queued behind {@code before}, the end of its chain. */
    void queueBehind(AgentTask t, AgentTask before) {
        before.next = t;
        t.after = before;
        t.queuedAt = queuedSoFar++;
        queued.add(t);
        mayWithdraw(t);
        offer(t);
    }

    /** A queued task leaves its chain, as its daemon did: the one behind it moves up. */
    void leave(AgentTask t) {
        queued.remove(t);
        mayNotWithdraw(t);
        t.after.next = t.next;
        if (t.next != null) {
            t.next.after = t.after;
        }
        t.after = null;
        t.next = null;
    }

    /** {@code t} leaves with the rest of its chain (their node is lost); the caller handles each of them. */
    void drop(AgentTask t) {
        queued.remove(t);
        mayNotWithdraw(t);
        t.after.next = null;
        t.after = null;
        t.next = null;
    }

    /** {@code t}, queued until now, was started by its daemon: it heads its chain. */
    void started(AgentTask t) {
        queued.remove(t);
        mayNotWithdraw(t);
    }

    /** Queued task {@code t} was canceled: its daemon is asked to drop it, not to give it up for idle cores. */
    void canceled(AgentTask t) {
        mayNotWithdraw(t);
    }

    /**
     * Reserves idle cores for the oldest queued tasks that fit them, as long as cores are free,
     * and returns those tasks: the agent withdraws each from its daemon. A shape that finds no
     * place is passed over for the rest of the pass, since a reservation only takes cores.
     */
    List<AgentTask> reserveIdleCores(AgentScheduler scheduler) {
        List<AgentTask> reserved = new ArrayList<>();
        if (withdrawable.isEmpty() || scheduler.freeCores() == 0) {
            return reserved;
        }
        PriorityQueue<TreeSet<AgentTask>> shapes = new PriorityQueue<>(Comparator.comparing(TreeSet::first, QUEUE_ORDER));
        shapes.addAll(withdrawable.values());
        while (!shapes.isEmpty() && scheduler.freeCores() > 0) {
            TreeSet<AgentTask> shape = shapes.poll();
            AgentTask t = shape.first();
            Placement p = scheduler.place(t.request.slots());
            if (p == null) {
                continue;
            }
            mayNotWithdraw(t);
            t.reserved = p;
            reserved.add(t);
            if (!shape.isEmpty()) {
                shapes.add(shape);
            }
        }
        return reserved;
    }

    /**
     * Node {@code node} is gone: reservations there are released, and the tasks queued in chains
     * that run there leave them (returned, oldest first, with any reservation still theirs;
     * they never started).
     */
    List<AgentTask> leaveNode(int node, AgentScheduler scheduler) {
        List<AgentTask> there = new ArrayList<>();
        for (AgentTask t : queued) {
            if (onNode(root(t).placement, node)) {
                there.add(t);
            }
            if (t.reserved != null && onNode(t.reserved, node)) {
                scheduler.release(t.reserved);
                t.reserved = null;
                if (!t.canceled) {
                    mayWithdraw(t);
                }
            }
        }
        there.forEach(this::drop);
        return there;
    }

    static boolean onNode(Placement p, int node) {
        return p.shares().stream().anyMatch(s -> s.node() == node);
    }

    private void mayWithdraw(AgentTask t) {
        withdrawable.computeIfAbsent(t.request.slots(), k -> new TreeSet<>(QUEUE_ORDER)).add(t);
    }

    private void mayNotWithdraw(AgentTask t) {
        TreeSet<AgentTask> shape = withdrawable.get(t.request.slots());
        if (shape != null && shape.remove(t) && shape.isEmpty()) {
            withdrawable.remove(t.request.slots());
        }
    }

    /** {@code t} may take a successor now (it runs, or moved up its chain): offered to tasks of its shape. */
    void offer(AgentTask t) {
        if (accepts(t.request) && takesSuccessor(t)) {
            ends.computeIfAbsent(t.request.slots(), k -> new LinkedHashSet<>()).add(t);
        }
    }

    /** {@code t} is over: it takes no successor. */
    void forget(AgentTask t) {
        LinkedHashSet<AgentTask> q = ends.get(t.request.slots());
        if (q != null && q.remove(t) && q.isEmpty()) {
            ends.remove(t.request.slots());
        }
    }

    /** Chain ends held for tasks to queue behind (stale ones included): for tests. */
    int endsHeld() {
        int n = 0;
        for (LinkedHashSet<AgentTask> q : ends.values()) {
            n += q.size();
        }
        return n;
    }

    /** A task of this shape ran this long: deeper chains behind short tasks. */
    void ran(SlotRequest shape, long runMicros) {
        depth.ran(shape, runMicros);
    }

    int queuedCount() {
        return queued.size();
    }

    /** The running task at the head of {@code t}'s chain: where the chain's tasks run. */
    static AgentTask root(AgentTask t) {
        while (t.after != null) {
            t = t.after;
        }
        return t;
    }

    static AgentTask end(AgentTask t) {
        while (t.next != null) {
            t = t.next;
        }
        return t;
    }

    /** How many tasks wait ahead of {@code t} in its chain (0 for a running task). */
    private static int place(AgentTask t) {
        int n = 0;
        for (AgentTask c = t; c.after != null; c = c.after) {
            n++;
        }
        return n;
    }

    /**
     * Whether a task may be queued behind {@code c}: the end of a chain with room, and not one the
     * agent asked its daemon to drop (canceled, or withdrawn and holding cores elsewhere).
     */
    private boolean takesSuccessor(AgentTask c) {
        return (c.state == TaskState.AGENT_EXECUTING || c.after != null) && c.next == null && !c.canceled
                && c.failure == null && c.reserved == null && place(c) < depth.of(c.request.slots());
    }
}
