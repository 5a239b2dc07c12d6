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
 * <li>otherwise {@link #BATCH_MILLIS} after its first entry (tasks ending one by one);
 * <li>before the daemon exits.
 * </ul>
 */
final class ExitBatch {
    /** How long a batch collects ends before it goes up. */
    static final int BATCH_MILLIS = 10;

    private final DaemonOutbox out;
    private final List<OverlayMessage.RankExited> pending = new ArrayList<>();
    /** Per job: ranks of this daemon's subtree not yet known to have ended. */
    private final java.util.Map<Integer, Integer> subtreeRanksLeft = new java.util.HashMap<>();
    private boolean timerArmed;

    ExitBatch(DaemonOutbox out) {
        this.out = out;
    }

    /** A job is known: how many of its ranks this daemon's subtree hosts, itself included. */
    void start(int jobId, int subtreeRanks) {
        subtreeRanksLeft.put(jobId, subtreeRanks);
    }

    void add(OverlayMessage.RankExited e) {
        pending.add(e);
        int left = subtreeRanksLeft.merge(e.jobId(), -1, Integer::sum);
        if (e.status() != 0 || !e.note().isEmpty() || left <= 0) {
            flush();
        } else if (!timerArmed) {
            timerArmed = true;
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.EXIT_BATCH, BATCH_MILLIS));
        }
    }

    void timerFired() {
        timerArmed = false;
        flush();
    }

    void flush() {
        if (!pending.isEmpty()) {
            out.up(new OverlayMessage.RanksExited(List.copyOf(pending)));
            pending.clear();
        }
    }
}
