package org.banyan.pilot;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.banyan.core.pilot.TaskState;

/**
 * Waiting for tasks to reach states, for {@link TaskManager#waitTasks}: the manager counts the
 * tasks that end, and a waiter is woken when enough have ended for its condition to hold.
 */
final class TaskWaits {
    /** Tasks that reached a final state, ever: what waiters count on. */
    private long finals;
    /**
     * The value of {@link #finals} at which some waiter could be satisfied. Waking the waiter on
     * every task's end cost the client a context switch per task (7,000 per 10,000 tasks in
     * {@code perf sched}), for a condition that cannot hold before its last task ends.
     */
    private long wakeAt = Long.MAX_VALUE;
    /** Tasks taken by the manager, ever: each ends once, so all are over when {@link #finals} reaches it. */
    private long taken;

    /** The manager took {@code n} more tasks (before any of them can end). */
    synchronized void taken(int n) {
        taken += n;
    }

    /** Waits until every task taken so far has ended, counting ends only: no task is looked at. */
    synchronized void awaitAll() throws InterruptedException {
        long target = taken;
        while (finals < target) {
            wakeAt = Math.min(wakeAt, target);
            wait();
        }
    }

    /** A task reached a final state. */
    synchronized void ended() {
        finals++;
        if (finals >= wakeAt) {
            wakeAt = Long.MAX_VALUE; // each waiter woken sets it again
            notifyAll();
        }
    }

    /** As {@link TaskManager#waitTasks(Collection, Set, long)}. */
    List<TaskState> await(Collection<Task> tasks, Set<TaskState> states, long timeoutMillis)
            throws InterruptedException {
        long deadline = timeoutMillis > 0 ? System.currentTimeMillis() + timeoutMillis : Long.MAX_VALUE;
        List<Task> list = List.copyOf(tasks);
        // Tasks before `settled` are final, which they stay: each wake-up looks on from there.
        // Scanning from the start made waiting for n tasks O(n²): a client's CPU per task doubled
        // over 100,000 tasks, and the rate fell with it (bench/tasks 100000).
        int settled = 0;
        // Waiting only for final states, no task can satisfy it before all of its unfinished ones
        // end, so the waiter asks to be woken then. A waiter for other states too wakes on every
        // end, and polls for the states that are not final.
        boolean finalOnly = states.stream().allMatch(TaskState::isFinal);
        synchronized (this) {
            while (true) {
                while (settled < list.size() && list.get(settled).state().isFinal()) {
                    settled++;
                }
                boolean all = true;
                int unfinished = 0;
                for (int i = settled; i < list.size(); i++) {
                    TaskState st = list.get(i).state();
                    if (!st.isFinal()) {
                        unfinished++;
                        if (finalOnly) {
                            all = false; // and count on: the wake-up below needs every unfinished task
                        } else if (!states.contains(st)) {
                            all = false;
                            break;
                        }
                    }
                }
                long left = deadline - System.currentTimeMillis();
                if (all || left <= 0) {
                    break;
                }
                wakeAt = Math.min(wakeAt, finals + (finalOnly ? unfinished : 1));
                // Only a task's end can satisfy a waiter for final states, and every end is
                // counted; polling it every 100 ms rescanned its unfinished tasks ten times a
                // second for nothing (a tenth of the client's main thread over 30,000 tasks).
                wait(finalOnly ? left : Math.min(left, 100));
            }
        }
        return list.stream().map(Task::state).toList();
    }
}
