package org.banyan.pilot;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;

/**
 * A task manager's tasks moving from state to state: each move is recorded in the task and the
 * profile, then told to the user's callbacks and to whoever waits for the tasks.
 *
 * <p>Callbacks run on the thread that made the move, often the one that reads a pilot's
 * updates. So a callback that throws is reported to that thread's uncaught-exception handler and
 * the next callback runs (it used to end the reader, and every task of its pilot stayed where it
 * was for ever), and a callback may not wait for tasks, which only that thread could move on.
 */
final class TaskTransitions {
    /** Bound while callbacks run: what they call may then not block on the thread they run on. */
    private static final ScopedValue<Boolean> IN_CALLBACK = ScopedValue.newInstance();

    private final Profile profile;
    private final List<BiConsumer<Task, TaskState>> callbacks = new CopyOnWriteArrayList<>();
    private final TaskWaits waits = new TaskWaits();

    TaskTransitions(Profile profile) {
        this.profile = profile;
    }

    void register(BiConsumer<Task, TaskState> callback) {
        callbacks.add(java.util.Objects.requireNonNull(callback, "callback"));
    }

    /** Whether this thread is running a task callback. */
    static boolean inCallback() {
        return IN_CALLBACK.orElse(false);
    }

    /** Moves {@code t} to {@code to} and tells the callbacks and waiters. */
    void move(Task t, TaskState to, long now, int code, String why) {
        if (advance(t, to, now, code, why)) {
            told(t, to);
        }
    }

    /**
     * Moves {@code t} to {@code to} without telling anyone yet (for a caller holding a lock that
     * a callback's own calls would need); {@link #told} once the lock is let go.
     */
    boolean advance(Task t, TaskState to, long now, int code, String why) {
        return t.advance(to, now, code, why, profile);
    }

    /** Tells the callbacks and waiters that {@code t} moved to {@code to}. */
    void told(Task t, TaskState to) {
        if (!callbacks.isEmpty()) {
            ScopedValue.where(IN_CALLBACK, true).run(new Telling(callbacks, t, to, profile));
        }
        toWaiters(to);
    }

    /**
     * Runs {@code work} as callbacks run ({@link #inCallback} is true in it), for a thread that
     * makes many moves in a row with {@link #moveWithin}: the scope is bound once for them all.
     * Only for Banyan's own work, which never waits for tasks.
     */
    void inCallbacks(Runnable work) {
        ScopedValue.where(IN_CALLBACK, true).run(work);
    }

    /**
     * What the task's agent said, inside {@link #inCallbacks}: the move, with output staging
     * first for a DONE task (and a FAILED one that ran, when it asks for {@code stageOnError}).
     */
    void fromAgent(Task t, ClientMessage.TaskUpdate u, TaskStaging staging) {
        if (u.execStartMicros() > 0) { // when its process really ran, as RADICAL-Pilot's exec_start/exec_stop
            profile.exec(u.execStartMicros(), u.execEndMicros(), t.uid());
        }
        if (u.state() == TaskState.DONE) {
            moveWithin(t, TaskState.AGENT_STAGING_OUTPUT, u.timeMicros(), 0, "");
            staging.stageOut(t, false, 0, "");
        } else if (u.state() == TaskState.FAILED && t.description().stageOnError
                && (u.execStartMicros() > 0 || t.reached(TaskState.AGENT_EXECUTING))) { // it ran: it may have left files
            moveWithin(t, TaskState.AGENT_STAGING_OUTPUT, u.timeMicros(), 0, "");
            staging.stageOut(t, true, u.exitCode(), u.detail());
        } else {
            moveWithin(t, u.state(), u.timeMicros(), u.exitCode(), u.detail());
        }
    }

    /** As {@link #move}, inside {@link #inCallbacks}. */
    void moveWithin(Task t, TaskState to, long now, int code, String why) {
        if (advance(t, to, now, code, why)) {
            new Telling(callbacks, t, to, profile).run();
            toWaiters(to);
        }
    }

    private void toWaiters(TaskState to) {
        if (to.isFinal()) {
            waits.ended();
        }
    }

    /**
     * One state change to the callbacks. A class, not a capturing lambda, which C1 builds through
     * a method handle and a VM call: this runs for each of a task's states.
     */
    private record Telling(List<BiConsumer<Task, TaskState>> callbacks, Task t, TaskState to, Profile profile)
            implements Runnable {
        @Override
        public void run() {
            for (BiConsumer<Task, TaskState> c : callbacks) {
                try {
                    c.accept(t, to);
                } catch (RuntimeException e) {
                    t.callbackThrew(e);
                    profile.event(Session.nowMicros(), "callback_failed", "tmgr", t.uid(), to.name(), describe(e));
                    reportUncaught(e);
                }
            }
        }
    }

    /** An exception in one line, for the profile: its class and message. */
    static String describe(Throwable e) {
        String m = e.getMessage();
        return (e.getClass().getName() + (m == null ? "" : ": " + m)).replace('\n', ' ').replace(',', ';');
    }

    /** What a user's callback or listener threw: to this thread's uncaught-exception handler, and on. */
    static void reportUncaught(RuntimeException e) {
        Thread self = Thread.currentThread();
        self.getUncaughtExceptionHandler().uncaughtException(self, e);
    }

    /** The manager took {@code n} more tasks. */
    void taken(int n) {
        waits.taken(n);
    }

    /** As {@link TaskManager#waitTasks()}. */
    void awaitAll() throws InterruptedException {
        if (inCallback()) {
            throw waitInCallback();
        }
        waits.awaitAll();
    }

    /** As {@link TaskManager#waitTasks(Collection, Set, long)}. */
    List<TaskState> await(Collection<Task> tasks, Set<TaskState> states, long timeoutMillis) throws InterruptedException {
        if (inCallback() && !tasks.stream().allMatch(t -> t.state().isFinal() || states.contains(t.state()))) {
            throw waitInCallback();
        }
        return waits.await(tasks, states, timeoutMillis);
    }

    private static IllegalStateException waitInCallback() {
        return new IllegalStateException("waitTasks in a task callback: the tasks it waits for cannot move on "
                + "until the callback returns");
    }
}
