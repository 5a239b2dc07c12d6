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
 * <p>A task sent {@linkplain TaskSpec#after() after} another waits here and starts the moment
 * that one's process ends, on the thread that saw the end: the agent decided which task takes
 * those cores while they were busy, so a core does not sit idle for a round trip to the head.
 * Tasks queue behind queued ones too, in chains behind a running task. A queued task that is
 * signalled never starts: it leaves its chain (the one behind it moves up) and its end goes up at
 * once, with the signal's status. Signal 0 withdraws a task that is still queued and leaves a
 * started one alone. The agent never queues behind a task it asked to be dropped, and its
 * messages arrive in order, so both sides see the same chains.
 *
 * <p>While every running task has a successor here, the head need not hear of ends at once
 * ({@link #fed}): {@link ExitBatch} then lets them gather for its window.
 */
final class LocalTasks {
    static final int KILL_GRACE_MILLIS = 2000;

    private final DaemonOutbox out;
    private final Consumer<OverlayMessage.RankExited> ends;
    private final Set<Integer> running = new LinkedHashSet<>();
    /** Running or queued task → the task queued to start when it ends. */
    private final Map<Integer, TaskSpec> queued = new HashMap<>();
    /** Queued task → the task it waits for. */
    private final Map<Integer, Integer> waitsFor = new HashMap<>();
    /** Running tasks with nothing queued behind them. */
    private int unfed;
    /** Sent SIGTERM, killed when the grace is over. */
    private final Set<Integer> dying = new LinkedHashSet<>();
    /** The daemon is ending: no task starts any more ({@link #terminateAll}). */
    private boolean ending;

    /** @param ends where the end of a queued task that never started goes (with the ranks' ends) */
    LocalTasks(DaemonOutbox out, Consumer<OverlayMessage.RankExited> ends) {
        this.out = out;
        this.ends = ends;
    }

    void run(OverlayMessage.RunTasks m) {
        for (TaskSpec t : m.tasks()) {
            if (ending) { // the daemon is going: the task never starts, and its end goes up as a queued one's
                ends.accept(new OverlayMessage.RankExited(OverlayMessage.TASKS, t.taskId(), 128 + Signals.SIGTERM, "", 0, 0));
                continue;
            }
            int after = t.after();
            if (after != 0 && (running.contains(after) || waitsFor.containsKey(after)) && !queued.containsKey(after)) {
                queued.put(after, t);
                waitsFor.put(t.taskId(), after);
                if (running.contains(after)) {
                    unfed--;
                }
            } else {
                start(t); // what it waited for has ended already
            }
        }
    }

    /** Every running task has the next one queued behind it. */
    boolean fed() {
        return unfed == 0 && !running.isEmpty();
    }

    private void start(TaskSpec t) {
        if (running.add(t.taskId())) {
            if (!queued.containsKey(t.taskId())) {
                unfed++;
            }
            out.emit(new DaemonAction.StartRank(RankLaunch.task(t.taskId(), t.executable(), t.args(), t.env(), t.sandbox(),
                    t.stdout(), t.stderr(), t.stdin())));
        }
    }

    void signal(OverlayMessage.SignalTasks m) {
        boolean terminating = false;
        for (int id : m.taskIds()) {
            Integer before = waitsFor.remove(id);
            if (before != null) { // it leaves its chain: the one behind it moves up
                queued.remove(before);
                TaskSpec behind = queued.remove(id);
                if (behind != null) {
                    queued.put(before, behind);
                    waitsFor.put(behind.taskId(), before);
                } else if (running.contains(before)) {
                    unfed++;
                }
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
        boolean known = running.remove(taskId);
        TaskSpec next = queued.remove(taskId);
        if (next != null) {
            waitsFor.remove(next.taskId());
            start(next);
        } else if (known) {
            unfed--;
        }
        return known;
    }

    void signalAll(int signal) {
        queued.clear();
        waitsFor.clear();
        unfed = running.size();
        for (int id : running) {
            out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, signal));
        }
    }

    /**
     * The daemon is ending (its parent is gone, or it was signaled): every task gets SIGTERM,
     * then SIGKILL; queued ones, and any sent after, never start, and their ends go up (for a
     * parent that is still there) with SIGTERM's status.
     */
    void terminateAll() {
        ending = true;
        for (int id : waitsFor.keySet()) {
            ends.accept(new OverlayMessage.RankExited(OverlayMessage.TASKS, id, 128 + Signals.SIGTERM, "", 0, 0));
        }
        queued.clear();
        waitsFor.clear();
        unfed = running.size();
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
