package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The agent's tasks that wait for others ({@link TaskDependency}) before they are scheduled: each
 * is filed under every task it waits on, and looked at only when one of those starts or ends.
 * A task may wait only on tasks the DVM has already been given, so dependencies cannot form a
 * cycle. Nothing here is touched by a DVM whose tasks have no dependencies but one emptiness test
 * a start and an end.
 */
final class HeldTasks {
    /** What became of held tasks when a task they wait on moved. */
    record Outcome(List<TaskAgent.Task> released, Map<TaskAgent.Task, String> failed) {
        static final Outcome NONE = new Outcome(List.of(), Map.of());
    }

    /** The held tasks waiting on each task, by its id. */
    private final Map<Integer, List<TaskAgent.Task>> byTask = new HashMap<>();
    private int count;

    /**
     * Files {@code t} under the tasks it waits on, given what is known of each now ({@code stateOf}:
     * a task's state, null for a task the DVM does not know). Returns why it can never run, or null;
     * afterwards {@link #isHeld} says whether it waits.
     */
    String hold(TaskAgent.Task t, IntFunction<TaskState> stateOf) {
        List<TaskDependency> pending = new ArrayList<>();
        for (TaskDependency d : t.request.dependencies()) {
            TaskState s = stateOf.apply(d.taskId());
            if (s == null) {
                return "its dependency " + d + " names no task this DVM knows (ids are given in order, "
                        + "so a task can wait only on earlier ones; finished ones are kept as banyan wait keeps them)";
            }
            Boolean met = d.metBy(s);
            if (Boolean.FALSE.equals(met)) {
                return never(d, s);
            }
            if (met == null) {
                pending.add(d);
            }
        }
        if (pending.isEmpty()) {
            return null;
        }
        t.pending = pending;
        for (TaskDependency d : pending) {
            List<TaskAgent.Task> waiting = byTask.computeIfAbsent(d.taskId(), k -> new ArrayList<>(2));
            if (waiting.isEmpty() || waiting.getLast() != t) { // once, should it name a task twice
                waiting.add(t);
            }
        }
        count++;
        return null;
    }

    static boolean isHeld(TaskAgent.Task t) {
        return t.pending != null;
    }

    /** What {@code t} waits for, as users wrote it. */
    static String waitingFor(TaskAgent.Task t) {
        return "waiting for " + String.join(",", t.pending.stream().map(TaskDependency::toString).toList());
    }

    /** Whether a task waits on the task of {@code id}: the cheap test before {@link #reached}. */
    boolean anyWaitOn(int id) {
        return !byTask.isEmpty() && byTask.containsKey(id);
    }

    /** The task of {@code id} reached {@code state}: the held tasks that now may run, and those that never can. */
    Outcome reached(int id, TaskState state) {
        List<TaskAgent.Task> waiting = byTask.get(id);
        if (waiting == null) {
            return Outcome.NONE;
        }
        List<TaskAgent.Task> released = new ArrayList<>();
        Map<TaskAgent.Task, String> failed = new java.util.LinkedHashMap<>();
        List<TaskAgent.Task> still = new ArrayList<>();
        for (TaskAgent.Task w : waiting) {
            if (w.pending == null) { // canceled, or failed on another of its dependencies
                continue;
            }
            boolean stillOnIt = false;
            for (Iterator<TaskDependency> it = w.pending.iterator(); it.hasNext(); ) {
                TaskDependency d = it.next();
                if (d.taskId() != id) {
                    continue;
                }
                Boolean met = d.metBy(state);
                if (Boolean.FALSE.equals(met)) {
                    failed.put(w, never(d, state));
                    break;
                }
                if (met == null) {
                    stillOnIt = true;
                } else {
                    it.remove();
                }
            }
            if (failed.containsKey(w)) {
                forget(w);
            } else if (w.pending.isEmpty()) {
                forget(w);
                released.add(w);
            } else if (stillOnIt) {
                still.add(w);
            }
        }
        if (still.isEmpty()) {
            byTask.remove(id);
        } else {
            byTask.put(id, still);
        }
        return new Outcome(released, failed);
    }

    /** {@code t} waits no more (released, failed or canceled); the lists it is filed in drop it when next met. */
    void forget(TaskAgent.Task t) {
        if (t.pending != null) {
            t.pending = null;
            count--;
        }
    }

    /** Tasks held. */
    int count() {
        return count;
    }

    private static String never(TaskDependency d, TaskState s) {
        return "its dependency " + d + " can no longer be met: task " + d.taskId() + " ended " + s;
    }
}
