package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * Stdin for one rank, routed down the spawn tree towards the daemon that hosts it, or for every
 * rank ({@link JobDescription#STDIN_ALL}), written to this daemon's and passed to every child;
 * held, in order, for a child on the way that has not said hello yet. Up the tree go the counts
 * of what each local rank has taken ({@link OverlayMessage.StdinTaken}), every
 * {@link #REPORT_EVERY} bytes and when it takes no more: the head's flow control.
 */
final class StdinRelay {
    /**
     * How often a rank's progress is reported, in bytes; below the head's window (4 MiB), so a
     * reader blocked at the window always hears of the bytes that free it.
     */
    static final long REPORT_EVERY = 1L << 20;
    private final ChildTree tree;
    private final DaemonOutbox out;
    private final Map<Integer, List<OverlayMessage.StdinData>> held = new HashMap<>();
    /** Bytes last reported per job and rank (key: job << 32 | rank). */
    private final Map<Long, Long> reported = new HashMap<>();

    StdinRelay(ChildTree tree, DaemonOutbox out) {
        this.tree = tree;
        this.out = out;
    }

    /** @param running this daemon's ranks still running; {@code map} is null before the job came */
    void relay(OverlayMessage.StdinData stdin, RankMap map, Set<Integer> running) {
        if (map == null) {
            return;
        }
        if (stdin.rank() == JobDescription.STDIN_ALL) {
            for (int rank : running) {
                out.emit(new DaemonAction.WriteStdin(stdin.jobId(), rank, stdin.data()));
            }
            for (int child : tree.children()) {
                pass(child, stdin);
            }
            return;
        }
        int owner = map.nodeOf(stdin.rank());
        if (owner == tree.daemonId()) {
            if (running.contains(stdin.rank())) {
                out.emit(new DaemonAction.WriteStdin(stdin.jobId(), stdin.rank(), stdin.data()));
            }
            return;
        }
        int next = tree.topology().nextHop(tree.vertex(), Topology.vertexOfDaemon(owner));
        if (next > 0) {
            pass(Topology.daemonOfVertex(next), stdin);
        }
    }

    private void pass(int child, OverlayMessage.StdinData stdin) {
        if (out.isConnected(child)) {
            out.toChild(child, stdin);
        } else if (!tree.isLost(child)) {
            held.computeIfAbsent(child, c -> new ArrayList<>()).add(stdin);
        }
    }

    /** A local rank's writer has handed it {@code total} bytes in all ({@code < 0}: it takes no more). */
    void written(int jobId, int rank, long total) {
        long key = (long) jobId << 32 | (rank & 0xFFFFFFFFL);
        if (total < 0) {
            reported.remove(key);
            out.up(new OverlayMessage.StdinTaken(jobId, rank, OverlayMessage.StdinTaken.STDIN_CLOSED));
            return;
        }
        long last = reported.getOrDefault(key, 0L);
        if (total - last >= REPORT_EVERY) {
            reported.put(key, total);
            out.up(new OverlayMessage.StdinTaken(jobId, rank, total));
        }
    }

    /** A child said hello: what was held for it goes now. */
    void catchUp(int child) {
        for (OverlayMessage.StdinData s : held.getOrDefault(child, List.of())) {
            out.toChild(child, s);
        }
        held.remove(child);
    }
}
