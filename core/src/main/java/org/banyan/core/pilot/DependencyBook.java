package org.banyan.core.pilot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Tasks that wait for others to start or end before they are scheduled ({@link TaskDependency}):
 * each is filed under every task it waits on, and looked at only when one of those moves. The
 * DVM's agent keeps one by DVM task id, a task manager one by task uid. Whoever holds a book lets
 * a task wait only on tasks that exist already, so no cycle can form.
 *
 * @param <T> a waiting task
 * @param <K> how a task waited on is named (its id, its uid)
 */
public final class DependencyBook<T, K> {
    /** One condition: the task named {@code on} must reach what {@code kind} asks. */
    public record Condition<K>(TaskDependency.Kind kind, K on) {
        @Override
        public String toString() {
            return kind.word() + ":" + on;
        }
    }

    /** What became of held tasks when a task they wait on moved. */
    public record Outcome<T>(List<T> released, Map<T, String> failed) {}

    /** The held tasks waiting on each task, by its name; an entry no longer held is dropped when met. */
    private final Map<K, List<T>> byTask = new HashMap<>();
    /** Each held task's conditions not met yet. */
    private final Map<T, List<Condition<K>>> pending = new HashMap<>();
    /** Why a condition on a task {@code stateOf} does not know can never be met, after "names no task". */
    private final String unknown;

    /** @param unknown what a condition naming an unknown task is told, after "its dependency X names no task" */
    public DependencyBook(String unknown) {
        this.unknown = unknown;
    }

    /**
     * Files {@code t} under the tasks its {@code conditions} name, given their states now
     * ({@code stateOf}: null for a task that is not known). Returns why it can never run, or
     * null; {@link #isHeld} then says whether it waits.
     */
    public String hold(T t, List<Condition<K>> conditions, Function<K, TaskState> stateOf) {
        List<Condition<K>> open = new ArrayList<>();
        for (Condition<K> c : conditions) {
            TaskState s = stateOf.apply(c.on());
            if (s == null) {
                return "its dependency " + c + " names no task " + unknown;
            }
            Boolean met = c.kind().metBy(s);
            if (Boolean.FALSE.equals(met)) {
                return never(c, s);
            }
            if (met == null) {
                open.add(c);
            }
        }
        if (open.isEmpty()) {
            return null;
        }
        pending.put(t, open);
        for (Condition<K> c : open) {
            List<T> waiting = byTask.computeIfAbsent(c.on(), k -> new ArrayList<>(2));
            if (waiting.isEmpty() || waiting.getLast() != t) { // once, should it name a task twice
                waiting.add(t);
            }
        }
        return null;
    }

    public boolean isHeld(T t) {
        return !pending.isEmpty() && pending.containsKey(t);
    }

    /** What {@code t} waits for, as users wrote it: {@code waiting for afterok:7,afterany:9}. */
    public String waitingFor(T t) {
        return "waiting for " + String.join(",", pending.get(t).stream().map(Condition::toString).toList());
    }

    /** Whether a task waits on the one named {@code on}: the cheap test before {@link #reached}. */
    public boolean anyWaitOn(K on) {
        return !byTask.isEmpty() && byTask.containsKey(on);
    }

    /** The task named {@code on} reached {@code state}: the held tasks that now may run, and those that never can, with why. */
    public Outcome<T> reached(K on, TaskState state) {
        List<T> waiting = byTask.get(on);
        if (waiting == null) {
            return new Outcome<>(List.of(), Map.of());
        }
        List<T> released = new ArrayList<>();
        Map<T, String> failed = new LinkedHashMap<>();
        List<T> still = new ArrayList<>();
        for (T w : waiting) {
            List<Condition<K>> open = pending.get(w);
            if (open == null) { // canceled, or failed on another of its conditions
                continue;
            }
            boolean stillOnIt = false;
            for (Iterator<Condition<K>> it = open.iterator(); it.hasNext(); ) {
                Condition<K> c = it.next();
                if (!c.on().equals(on)) {
                    continue;
                }
                Boolean met = c.kind().metBy(state);
                if (Boolean.FALSE.equals(met)) {
                    failed.put(w, never(c, state));
                    break;
                }
                if (met == null) {
                    stillOnIt = true;
                } else {
                    it.remove();
                }
            }
            if (failed.containsKey(w)) {
                pending.remove(w);
            } else if (open.isEmpty()) {
                pending.remove(w);
                released.add(w);
            } else if (stillOnIt) {
                still.add(w);
            }
        }
        if (still.isEmpty()) {
            byTask.remove(on);
        } else {
            byTask.put(on, still);
        }
        return new Outcome<>(released, failed);
    }

    /** {@code t} waits no more (canceled); the lists it is filed in drop it when next met. */
    public void forget(T t) {
        if (!pending.isEmpty()) {
            pending.remove(t);
        }
    }

    /** Lets go of every held task, which it returns: none is released or failed after. */
    public List<T> drain() {
        List<T> all = List.copyOf(pending.keySet());
        pending.clear();
        byTask.clear();
        return all;
    }

    /** Tasks held. */
    public int count() {
        return pending.size();
    }

    private static String never(Condition<?> c, TaskState s) {
        return "its dependency " + c + " can no longer be met: task " + c.on() + " ended " + s;
    }
}
