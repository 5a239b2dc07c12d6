package org.banyan.pilot;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.banyan.core.pilot.DependencyBook;
import org.banyan.core.pilot.TaskState;

/**
 * A task manager's tasks that wait for others of its own ({@link TaskDescription#after}) before
 * they go to a pilot: TMGR_SCHEDULING_PENDING until the tasks they name have started or ended as
 * asked, then among the manager's waiting tasks; one whose condition can no longer be met fails,
 * and the tasks that wait on it in turn. It hears every move of the manager's tasks from the
 * first task held on (a manager without such tasks pays nothing). Thread-safe: moves come from
 * every pilot's reader and from the user's threads.
 */
final class HeldTasks {
    private record Reached(Task task, TaskState state) {}

    private final DependencyBook<Task, String> book = new DependencyBook<>("of this task manager");
    private final TaskTransitions transitions;
    private final Consumer<List<Task>> release;
    private final BiConsumer<Task, String> fail;
    /** Whether {@link #moved} hears the manager's moves yet. */
    private boolean listening;
    /** How many tasks are held, read without the lock: a move with none held costs a test. */
    private volatile int held;
    /** The moves this thread is settling: a failure that fails more is settled in turn, not by recursion. */
    private final ThreadLocal<ArrayDeque<Reached>> settling = new ThreadLocal<>();

    /**
     * @param release takes tasks that may go to a pilot now (in a task callback)
     * @param fail    fails a task that never can, with why
     */
    HeldTasks(TaskTransitions transitions, Consumer<List<Task>> release, BiConsumer<Task, String> fail) {
        this.transitions = transitions;
        this.release = release;
        this.fail = fail;
    }

    /** Refuses what {@code d} cannot wait for: a task of another manager, whose moves {@code manager} does not see. */
    void check(TaskDescription d, TaskManager manager, boolean detached) {
        for (var c : d.after) {
            if (c.on().manager != manager) {
                throw new IllegalArgumentException("after(" + c.on().uid() + "): a task of another task manager, "
                        + "whose moves this one does not see");
            }
        }
        if (!d.after.isEmpty() && detached) {
            throw new IllegalArgumentException("after(...): a detached task manager lets go of its tasks, so it cannot "
                    + "hold one back; name DVM ids with dependencies(\"afterok:ID\") instead");
        }
    }

    /**
     * Holds {@code t} until the tasks it names have moved as asked, judged by their states now;
     * fails it when that can never be. Returns whether it is held or failed; false: it goes on
     * as any other task. Under this lock, and after this book hears moves: a task that moves
     * meanwhile is seen either here or in {@link #moved}, never in neither.
     */
    boolean hold(Task t) {
        String never;
        synchronized (this) {
            if (!listening) {
                transitions.register(this::moved);
                listening = true;
            }
            // Raised before the states are read: a move whose thread then sees none held has
            // already changed the state read below, so this task cannot wait for it unseen.
            held = book.count() + 1;
            Map<String, Task> named = new HashMap<>();
            List<DependencyBook.Condition<String>> conditions = t.description().after.stream().map(c -> {
                named.put(c.on().uid(), c.on());
                return new DependencyBook.Condition<>(c.kind(), c.on().uid());
            }).toList();
            never = book.hold(t, conditions, uid -> named.get(uid).state());
            held = book.count();
            if (never == null) {
                return book.isHeld(t);
            }
        }
        fail.accept(t, never);
        return true;
    }

    /** Lets go of every held task (the manager is closing and cancels them): none is released or failed after. */
    synchronized List<Task> drain() {
        List<Task> all = book.drain();
        held = 0;
        return all;
    }

    /** {@code t} moved to {@code to}: the tasks held on it may go, or fail. */
    private void moved(Task t, TaskState to) {
        if (held == 0 || to != TaskState.AGENT_EXECUTING && !to.isFinal()) {
            return;
        }
        ArrayDeque<Reached> queue = settling.get();
        if (queue != null) {
            queue.add(new Reached(t, to));
            return;
        }
        queue = new ArrayDeque<>();
        queue.add(new Reached(t, to));
        settling.set(queue);
        try {
            while (!queue.isEmpty()) {
                Reached r = queue.poll();
                DependencyBook.Outcome<Task> o;
                synchronized (this) {
                    if (r.state().isFinal()) {
                        book.forget(r.task()); // a held task canceled
                        held = book.count();
                    }
                    if (!book.anyWaitOn(r.task().uid())) {
                        continue;
                    }
                    o = book.reached(r.task().uid(), r.state());
                    held = book.count();
                }
                if (!o.released().isEmpty()) {
                    release.accept(o.released());
                }
                o.failed().forEach(fail);
            }
        } finally {
            settling.remove();
        }
    }
}
