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
 * first, then as submitted. They are kept by {@link Kind} (shape, and the pilot they must run
 * on), so that a pilot takes, in that order, only tasks of the kinds it can run, without passing
 * over the others one by one: a bag has few kinds. A task canceled while it waits is left in place and skipped
 * when it comes up (a {@code PriorityQueue} removes by scanning). Not thread-safe: the task
 * manager's lock guards it.
 */
final class UnsentTasks {
    private static final Comparator<Task> ORDER = (a, b) -> {
        int pa = a.description().priority;
        int pb = b.description().priority;
        return pa != pb ? Integer.compare(pb, pa) : Long.compare(a.seq, b.seq);
    };

    /**
     * What decides which pilots may take a task: its ranks, cores, GPUs and tags, and the pilot it
     * names, if any. Equality written out, as {@link SlotRequest}'s is: it is looked up once per
     * task, in the DVM's JVM too (a bag runs there), under C1.
     */
    static final class Kind {
        private final SlotRequest slots;
        private final String pilot;

        Kind(SlotRequest slots, String pilot) {
            this.slots = slots;
            this.pilot = pilot;
        }

        SlotRequest slots() {
            return slots;
        }

        /** The pilot's uid, or null for any. */
        String pilot() {
            return pilot;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Kind k && slots.equals(k.slots) && java.util.Objects.equals(pilot, k.pilot);
        }

        @Override
        public int hashCode() {
            return slots.hashCode() * 31 + (pilot == null ? 0 : pilot.hashCode());
        }
    }

    static Kind kindOf(Task t) {
        return new Kind(t.slots(), t.description().pilot);
    }

    private final Map<Kind, PriorityQueue<Task>> byShape = new HashMap<>();
    private int size;
    private long next;

    /**
     * Gives {@code t} its place in the order, once: a task held for others keeps the place of its
     * submission among the tasks of its priority.
     */
    void number(Task t) {
        if (t.seq == 0) {
            t.seq = ++next;
        }
    }

    void add(Task t) {
        number(t);
        byShape.computeIfAbsent(kindOf(t), k -> new PriorityQueue<>(ORDER)).add(t);
        size++;
    }

    /** Up to {@code max} tasks that are not over, in order. */
    List<Task> take(int max) {
        return take(max, shape -> true);
    }

    /** Up to {@code max} tasks that are not over, of the kinds {@code fits} takes, in order. */
    List<Task> take(int max, Predicate<Kind> fits) {
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

    /** The kinds of the tasks queued. */
    List<Kind> kinds() {
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
