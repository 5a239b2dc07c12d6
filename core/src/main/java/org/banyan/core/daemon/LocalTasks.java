package org.banyan.core.daemon;

import java.util.LinkedHashSet;
import java.util.Set;
import org.banyan.core.pilot.TaskSpec;
import org.banyan.core.wire.OverlayMessage;

/**
 * A DVM's tasks on this daemon: each started in its sandbox with its output going to files
 * there, signalled when the agent cancels it (SIGTERM, then SIGKILL after the grace), ended
 * with the daemon. Their ends go up with the ranks' ({@link ExitBatch}), as job
 * {@link OverlayMessage#TASKS}.
 */
final class LocalTasks {
    static final int KILL_GRACE_MILLIS = 2000;

    private final DaemonOutbox out;
    private final Set<Integer> running = new LinkedHashSet<>();
    /** Sent SIGTERM, killed when the grace is over. */
    private final Set<Integer> dying = new LinkedHashSet<>();

    LocalTasks(DaemonOutbox out) {
        this.out = out;
    }

    void run(OverlayMessage.RunTasks m) {
        for (TaskSpec t : m.tasks()) {
            if (running.add(t.taskId())) {
                out.emit(new DaemonAction.StartRank(new RankLaunch(OverlayMessage.TASKS, t.taskId(), t.executable(), t.args(),
                        t.env(), t.sandbox(), true, false, t.stdout(), t.stderr())));
            }
        }
    }

    void signal(OverlayMessage.SignalTasks m) {
        boolean terminating = false;
        for (int id : m.taskIds()) {
            if (running.contains(id)) {
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

    /** A task's process ended; false when it was not known. */
    boolean ended(int taskId) {
        dying.remove(taskId);
        return running.remove(taskId);
    }

    void signalAll(int signal) {
        for (int id : running) {
            out.emit(new DaemonAction.SignalRank(OverlayMessage.TASKS, id, signal));
        }
    }

    /** The daemon is ending without its parent: every task gets SIGTERM, then SIGKILL. */
    void terminateAll() {
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
