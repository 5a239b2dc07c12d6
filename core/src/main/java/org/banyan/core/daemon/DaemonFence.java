package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.job.FenceData;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.OverlayMessage;

/**
 * Fences over the tree, as a daemon takes part: one {@link OverlayMessage.FenceEnter} up once its
 * local ranks and every child whose subtree hosts ranks have entered (a lost child counts as
 * entered: {@link TreeGather}'s policy), one {@link OverlayMessage.FenceRelease} down to those
 * children when the head releases the fence.
 */
final class DaemonFence {
    private final int jobId;
    private final int daemonId;
    private final DaemonOutbox out;
    private final List<Integer> fenceChildren = new ArrayList<>();
    private ChildTree tree;
    private boolean hasLocalRanks;
    private int seq;
    private TreeGather<FenceData> round;

    DaemonFence(int jobId, int daemonId, DaemonOutbox out) {
        this.jobId = jobId;
        this.daemonId = daemonId;
        this.out = out;
    }

    /** The job is known: the children whose subtrees host ranks, and whether this daemon hosts any. */
    void start(ChildTree tree, List<Integer> childrenWithRanks, boolean hasLocalRanks) {
        this.tree = tree;
        this.fenceChildren.addAll(childrenWithRanks);
        this.hasLocalRanks = hasLocalRanks;
        newRound();
    }

    private void newRound() {
        List<Integer> waitFor = new ArrayList<>();
        for (int c : fenceChildren) {
            if (!tree.isLost(c)) {
                waitFor.add(c);
            }
        }
        round = new TreeGather<>(waitFor, hasLocalRanks, FenceData.EMPTY, FenceData::merge);
    }

    void fromChild(int child, OverlayMessage.FenceEnter f) {
        if (round != null && f.seq() == seq && round.fromChild(child, new FenceData(f.puts(), f.owners()))) {
            enter();
        }
    }

    /** Every local rank entered (PmiServer). */
    void localReady(FenceData data) {
        if (round != null && round.local(data)) {
            enter();
        }
    }

    void childLost(int child) {
        if (round != null && round.childLost(child)) {
            enter();
        }
    }

    /** The head released the fence: pass it down, then to the local ranks ({@code pmi}, null when none). */
    void release(OverlayMessage.FenceRelease release, PmiServer pmi) {
        for (int c : fenceChildren) {
            if (out.isConnected(c)) {
                out.toChild(c, release);
            }
        }
        if (pmi != null) {
            pmi.onFenceRelease(release);
        }
        seq++;
        newRound();
    }

    private void enter() {
        FenceData d = round.result();
        out.up(new OverlayMessage.FenceEnter(jobId, daemonId, seq, d.puts(), d.owners()));
    }
}
