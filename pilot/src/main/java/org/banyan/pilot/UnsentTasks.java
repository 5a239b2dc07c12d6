package org.banyan.pilot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.banyan.core.pilot.SlotRequest;

/**
 * The tasks a task manager holds that no pilot has yet, in the order they go: higher priority
 * first, then as submitted. They are kept by shape (ranks, cores, GPUs, tags), so that a pilot
 * takes, in that order, only tasks of the shapes it can run, without passing over the others
 * one by one: a bag has few shapes. A task canceled while it waits is left in place and skipped
 * when it comes up (a {@code PriorityQueue} removes by scanning). Not thread-safe: the task
 * manager's lock guards it.
 */
final class UnsentTasks {
    private static final Comparator<Task> ORDER = (a, b) -> {
        int pa = a.description().priority;
        int pb = b.description().priority;
        return pa != pb ? Integer.compare(pb, pa) : Long.compare(a.seq, b.seq);
    };

    private final Map<SlotRequest, PriorityQueue<Task>> byShape = new HashMap<>();
    private int size;
    private long next;

    void add(Task t) {
        t.seq = next++;
        byShape.computeIfAbsent(t.slots(), k -> new PriorityQueue<>(ORDER)).add(t);
        size++;
    }

    /** Up to {@code max} tasks that are not over, in order. */
    List<Task> take(int max) {
        return take(max, shape -> true);
    }

    /** Up to {@code max} tasks that are not over, of the shapes {@code fits} takes, in order. */
    List<Task> take(int max, Predicate<SlotRequest> fits) {
        List<PriorityQueue<Task>> open = new ArrayList<>(byShape.size());
        byShape.forEach((shape, queue) -> {
            if (fits.test(shape)) {
                open.add(queue);
            }
        });
        List<Task> out = new ArrayList<>(Math.min(max, size));
        while (out.size() < max) {
            PriorityQueue<Task> first = null;
            for (PriorityQueue<Task> q : open) {
                if (!q.isEmpty() && (first == null || ORDER.compare(q.peek(), first.peek()) < 0)) {
                    first = q;
                }
            }
            if (first == null) {
                break;
            }
            Task t = first.poll();
            size--;
            if (!t.state().isFinal()) {
                out.add(t);
            }
        }
        byShape.values().removeIf(PriorityQueue::isEmpty);
        return out;
    }

    /** Every task still queued that is not over; the queue is left empty. */
    List<Task> drain() {
        return take(Integer.MAX_VALUE);
    }

    /** The shapes of the tasks queued. */
    List<SlotRequest> shapes() {
        return List.copyOf(byShape.keySet());
    }

    /** Tasks queued, those canceled while they waited included. */
    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }
}
