package org.banyan.core.head;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;

/**
 * How a run (not a DVM) ends: once the last job of its family (its own and those its ranks
 * spawned) is over, the head finishes, first gathering every daemon's launch stats when the run
 * asked for a launch report and every daemon is still there to send them.
 */
final class RunEnding {
    private final Consumer<HeadAction> emit;
    private final Consumer<OverlayMessage> broadcast;
    private final IntConsumer finish;
    private final BooleanSupplier finished;
    private final boolean reportLaunch;
    /** Whether every job that ended so far had all its ranks report. */
    private boolean allReported = true;
    private int familyStatus;
    /** The stats being gathered, or null. */
    private TreeGather<Map<Integer, DaemonStats>> stats;

    /**
     * @param emit      the head's actions
     * @param broadcast a message to every daemon the head is connected to
     * @param finish    the head finishes with this status
     * @param finished  whether it has
     */
    RunEnding(Consumer<HeadAction> emit, Consumer<OverlayMessage> broadcast, IntConsumer finish, BooleanSupplier finished,
              boolean reportLaunch) {
        this.emit = emit;
        this.broadcast = broadcast;
        this.finish = finish;
        this.finished = finished;
        this.reportLaunch = reportLaunch;
    }

    /**
     * A job of the run ended with {@code status}; {@code familyStatus} is the family's once it has
     * no job left (null while it goes on).
     *
     * @param daemons the daemons still there, empty when any was lost
     */
    void jobEnded(int status, boolean reported, Integer familyStatus, List<Integer> daemons) {
        allReported &= reported;
        if (familyStatus == null) {
            return;
        }
        this.familyStatus = familyStatus;
        if (allReported && reportLaunch && !daemons.isEmpty()) {
            // Every daemon is still there (they leave on Shutdown): gather their stats first.
            emit.accept(new HeadAction.Milestone("all ranks ended"));
            stats = new TreeGather<>(List.copyOf(daemons), false, Map.of(), DaemonStats::merge);
            broadcast.accept(new OverlayMessage.CollectStats());
            emit.accept(new HeadAction.ArmTimer(HeadTimer.STATS_DEADLINE, HeadSettings.STATS_MILLIS));
            return;
        }
        finish.accept(status);
    }

    /** A child's subtree sent its stats. */
    void stats(int daemon, Map<Integer, DaemonStats> subtree) {
        if (stats != null && stats.fromChild(daemon, subtree)) {
            reportAndFinish();
        }
    }

    /** A child is gone: the gather no longer waits for its subtree. */
    void daemonLost(int daemon) {
        if (stats != null && stats.childLost(daemon)) {
            reportAndFinish();
        }
    }

    /** The gather's time is up: what came is reported. */
    void deadline() {
        reportAndFinish();
    }

    private void reportAndFinish() {
        if (!finished.getAsBoolean()) {
            emit.accept(new HeadAction.LaunchReport(Map.copyOf(stats.result())));
            finish.accept(familyStatus);
        }
    }
}
