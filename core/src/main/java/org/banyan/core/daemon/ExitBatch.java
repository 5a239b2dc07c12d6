package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.wire.OverlayMessage;

/**
 * Rank ends travel up the tree batched per daemon: the local ends and those relayed from the
 * children go up together as one {@link OverlayMessage.RanksExited}, so the head receives a
 * message per child link and burst, not one per rank. A batch leaves
 * <ul>
 * <li>at once when it holds a failure (a non-zero status, a rank that could not start): the
 *     head must decide the job's fate without delay;
 * <li>at once when every rank of a job in this daemon's subtree has ended: the last word of a
 *     job, which for an MPI job makes one message per link in all;
 * <li>at once when no batch left in the last {@link #BATCH_MILLIS} (an end that comes alone is
 *     not delayed), and otherwise when that window closes: ends that come close together
 *     leave together, at most one message per window;
 * <li>when the daemon runs out of queued events ({@link DaemonEvent.Idle}) and the batch holds
 *     a task's end: a task's core is waited for by the next task, so it is worth a message;
 *     under load the events queue up and the ends still leave together. Without it, 100 %
 *     busy two-core pilots spent half of every task's time in the window. Unless every running
 *     task has its successor queued on this daemon: then no core waits for the head, and the
 *     ends gather for the window (a third fewer context switches per short task, measured).
 * <li>before the daemon exits.
 * </ul>
 */
final class ExitBatch {
    /** How long a batch collects ends before it goes up. */
    static final int BATCH_MILLIS = 2;

    private final DaemonOutbox out;
    private final List<OverlayMessage.RankExited> pending = new ArrayList<>();
    /** Per job: ranks of this daemon's subtree not yet known to have ended. */
    private final java.util.Map<Integer, Integer> subtreeRanksLeft = new java.util.HashMap<>();
    private boolean timerArmed;
    private boolean holdsTask;

    /** Whether every running task has its successor queued here (then task ends can wait for the window). */
    private final java.util.function.BooleanSupplier fed;

    ExitBatch(DaemonOutbox out, java.util.function.BooleanSupplier fed) {
        this.out = out;
        this.fed = fed;
    }

    /** A job is known: how many of its ranks this daemon's subtree hosts, itself included. */
    void start(int jobId, int subtreeRanks) {
        subtreeRanksLeft.put(jobId, subtreeRanks);
    }

    /** The job is over everywhere. */
    void forget(int jobId) {
        subtreeRanksLeft.remove(jobId);
    }

    void add(OverlayMessage.RankExited e) {
        pending.add(e);
        // A job known to this daemon completes; tasks (and jobs whose launch this daemon never saw) do not.
        Integer left = subtreeRanksLeft.computeIfPresent(e.jobId(), (j, n) -> n - 1);
        holdsTask |= left == null;
        if (e.status() != 0 || !e.note().isEmpty() || (left != null && left <= 0)) {
            flush();
        } else if (!timerArmed) {
            flush();
            openWindow();
        }
    }

    /** The daemon has nothing queued: held task ends go, unless no core waits for them (the window stays open). */
    void idle() {
        if (holdsTask && !fed.getAsBoolean()) {
            flush();
        }
    }

    /** The window closes: what came during it goes up, and a new window opens if anything did. */
    void timerFired() {
        timerArmed = false;
        if (!pending.isEmpty()) {
            flush();
            openWindow();
        }
    }

    private void openWindow() {
        timerArmed = true;
        out.emit(new DaemonAction.ArmTimer(DaemonTimer.EXIT_BATCH, BATCH_MILLIS));
    }

    void flush() {
        if (!pending.isEmpty()) {
            out.up(new OverlayMessage.RanksExited(List.copyOf(pending)));
            pending.clear();
        }
        holdsTask = false;
    }
}
