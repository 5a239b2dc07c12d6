package org.banyan.pilot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The tasks a task manager holds that no pilot has yet, in the order they go: higher priority
 * first, then as submitted. A task canceled while it waits is left in place and skipped when it
 * comes up (a {@code PriorityQueue} removes by scanning). Not thread-safe: the task manager's
 * lock guards it.
 */
final class UnsentTasks {
    private static final Comparator<Task> ORDER = (a, b) -> {
        int pa = a.description().priority;
        int pb = b.description().priority;
        return pa != pb ? Integer.compare(pb, pa) : Long.compare(a.seq, b.seq);
    };

    private final PriorityQueue<Task> queue = new PriorityQueue<>(ORDER);
    private long next;

    void add(Task t) {
        t.seq = next++;
        queue.add(t);
    }

    /** Up to {@code max} tasks that are not over, in order. */
    List<Task> take(int max) {
        List<Task> out = new ArrayList<>(Math.min(max, queue.size()));
        while (out.size() < max && !queue.isEmpty()) {
            Task t = queue.poll();
            if (!t.state().isFinal()) {
                out.add(t);
            }
        }
        return out;
    }

    /** Every task still queued that is not over; the queue is left empty. */
    List<Task> drain() {
        return take(Integer.MAX_VALUE);
    }

    /** Tasks queued, those canceled while they waited included. */
    int size() {
        return queue.size();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }
}
