package org.banyan.core.daemon;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.banyan.core.pilot.TaskSpec;
import org.banyan.core.wire.OverlayMessage;

/**
 * A DVM's tasks on this daemon: each started in its sandbox with its output going to files
 * there, signalled when the agent cancels it (SIGTERM, then SIGKILL after the grace), ended
 * with the daemon. Their ends go up with the ranks' ({@link ExitBatch}), as job
 * {@link OverlayMessage#TASKS}.
 *
 * <p>A task sent {@linkplain TaskSpec#after() after} a running one waits here and starts the
 * moment that one's process ends, on the thread that saw the end: the agent decided which task
 * takes those cores while they were busy, so a core does not sit idle for a round trip to the
 * head. A queued task that is signalled never starts; its end goes up at once, with the signal's
 * status. Signal 0 withdraws a task that is still queued and leaves a started one alone.
 */
final class LocalTasks {
    static final int KILL_GRACE_MILLIS = 2000;

    private final DaemonOutbox out;
    private final Consumer<OverlayMessage.RankExited> ends;
    private final Set<Integer> running = new LinkedHashSet<>();
    /** Running task → the task queued to start when it ends. */
    private final Map<Integer, TaskSpec> queued = new HashMap<>();
    /** Queued task → the running task it waits for. */
    private final Map<Integer, Integer> waitsFor = new HashMap<>();
    /** Sent SIGTERM, killed when the grace is over. */
    private final Set<Integer> dying = new LinkedHashSet<>();

    /** @param ends where the end of a queued task that never started goes (with the ranks' ends) */
    LocalTasks(DaemonOutbox out, Consumer<OverlayMessage.RankExited> ends) {
        this.out = out;
        this.ends = ends;
    }

    void run(OverlayMessage.RunTasks m) {
        for (TaskSpec t : m.tasks()) {
            if (t.after() != 0 && running.contains(t.after()) && !queued.containsKey(t.after())) {
                queued.put(t.after(), t);
                waitsFor.put(t.taskId(), t.after());
            } else {
                start(t); // what it waited for has ended already
            }
        }
    }

    private void start(TaskSpec t) {
        if (running.add(t.taskId())) {
            out.emit(new DaemonAction.StartRank(new RankLaunch(OverlayMessage.TASKS, t.taskId(), t.executable(), t.args(),
                    t.env(), t.sandbox(), true, false, t.stdout(), t.stderr())));
        }
    }

    void signal(OverlayMessage.SignalTasks m) {
        boolean terminating = false;
        for (int id : m.taskIds()) {
            Integer before = waitsFor.remove(id);
            if (before != null) {
                queued.remove(before);
                ends.accept(new OverlayMessage.RankExited(OverlayMessage.TASKS, id, 128 + m.signal(),
                        "", 0, 0));
            } else if (running.contains(id) && m.signal() != 0) { // 0: a withdrawal, too late
                out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, m.signal()));
                if (m.signal() == Signals.SIGTERM && dying.add(id)) {
                    terminating = true;
                }
            }
        }
        if (terminating) {
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, KILL_GRACE_MILLIS, OverlayMessage.TASKS));
        }
    }

    /** The grace is over: what was told to end and has not is killed. */
    void graceOver() {
        for (int id : dying) {
            if (running.contains(id)) {
                out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, Signals.SIGKILL));
            }
        }
        dying.clear();
    }

    /** A task's process ended (the task queued behind it starts); false when it was not known. */
    boolean ended(int taskId) {
        dying.remove(taskId);
        TaskSpec next = queued.remove(taskId);
        if (next != null) {
            waitsFor.remove(next.taskId());
            start(next);
        }
        return running.remove(taskId);
    }

    void signalAll(int signal) {
        queued.clear();
        waitsFor.clear();
        for (int id : running) {
            out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, signal));
        }
    }

    /** The daemon is ending without its parent: every task gets SIGTERM, then SIGKILL; queued ones never start. */
    void terminateAll() {
        queued.clear();
        waitsFor.clear();
        for (int id : running) {
            out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, Signals.SIGTERM));
            dying.add(id);
        }
        if (!running.isEmpty()) {
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, KILL_GRACE_MILLIS, OverlayMessage.TASKS));
        }
    }

    boolean idle() {
        return running.isEmpty();
    }
}
