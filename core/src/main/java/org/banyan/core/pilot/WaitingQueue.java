package org.banyan.core.pilot;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The agent's waiting tasks, higher priority first, then in the order submitted: a FIFO per
 * priority, so that a bag of one priority costs a constant time a task. A heap over all of them
 * compared some thirty times per poll of a 10,000-task bag, 6 % of a DVM head's CPU.
 *
 * <p>A task that comes back (passed over by a scheduling pass, withdrawn from a daemon, its host
 * lost) is older than the ones queued behind it: it goes to a small heap of its priority's own,
 * and a poll takes the older of the two heads.
 */
final class WaitingQueue {
    private static final Comparator<AgentTask> BY_SEQ = Comparator.comparingLong(t -> t.seq);

    /** The tasks of one priority. */
    private static final class Level {
        final ArrayDeque<AgentTask> inOrder = new ArrayDeque<>();
        /** Tasks older than {@link #inOrder}'s last when they came; null until one does. */
        PriorityQueue<AgentTask> returned;

        void add(AgentTask t) {
            AgentTask last = inOrder.peekLast();
            if (last == null || last.seq < t.seq) {
                inOrder.addLast(t);
                return;
            }
            if (returned == null) {
                returned = new PriorityQueue<>(BY_SEQ);
            }
            returned.add(t);
        }

        AgentTask poll() {
            AgentTask first = inOrder.peekFirst();
            AgentTask back = returned == null ? null : returned.peek();
            if (back != null && (first == null || back.seq < first.seq)) {
                return returned.poll();
            }
            return inOrder.pollFirst();
        }

        boolean isEmpty() {
            return inOrder.isEmpty() && (returned == null || returned.isEmpty());
        }
    }

    /** By priority, highest first. */
    private final TreeMap<Integer, Level> levels = new TreeMap<>(Comparator.reverseOrder());
    /** The highest priority's level (null when empty), so that one priority needs no map lookup. */
    private Level top;
    private int topPriority;
    private int size;

    void add(AgentTask t) {
        int priority = t.request.priority();
        if (top != null && priority == topPriority) {
            top.add(t);
        } else {
            Level level = levels.get(priority);
            if (level == null) {
                level = new Level();
                levels.put(priority, level);
                if (top == null || priority > topPriority) {
                    top = level;
                    topPriority = priority;
                }
            }
            level.add(t);
        }
        size++;
    }

    void addAll(Iterable<AgentTask> tasks) {
        for (AgentTask t : tasks) {
            add(t);
        }
    }

    /** The first task, or null when none waits. */
    AgentTask poll() {
        if (top == null) {
            return null;
        }
        AgentTask t = top.poll();
        size--;
        if (top.isEmpty()) {
            levels.remove(topPriority);
            var next = levels.firstEntry();
            top = next == null ? null : next.getValue();
            topPriority = next == null ? 0 : next.getKey();
        }
        return t;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }
}
