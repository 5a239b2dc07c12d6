package org.banyan.core.head;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.daemon.Signals;
import org.banyan.core.job.FenceData;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.OverlayMessage;

/**
 * One job as the head controls it: the job goes down each subtree as soon as it is adopted,
 * rank ends come up, fences are released, and the head decides when the job fails (the first
 * failure: a rank's status, an abort, a lost daemon with work, a timeout, the user's signal),
 * ends it, and with which status it is over. Sans-I/O, like the cores that hold it:
 * {@link HeadCore} holds one for {@code banyan run}, a DVM's controller one per job.
 *
 * <p>Exit status, as mpirun: 0 when every rank exits 0; otherwise that of the first rank to fail
 * (128+N for signal N), the code given to MPI_Abort, {@value HeadSettings#TIMEOUT_STATUS} for a
 * timeout, or {@value HeadSettings#DAEMON_LOST_STATUS} when a daemon is lost.
 */
public final class JobControl {
    /** What a job needs from the vertex that holds it: the tree's links, and where its news go. */
    public interface Host {
        /** To every daemon among the head's children that is connected. */
        void broadcast(OverlayMessage m);

        /** To one of the head's children. */
        void send(int daemonId, OverlayMessage m);

        /** Output, reports, stdin forwarding and the job's timers, in {@link HeadAction}'s terms. */
        void emit(HeadAction action);

        /** Whether {@code daemonId} (or the subtree it heads) is lost. */
        boolean isLost(int daemonId);

        String hostOf(int daemonId);

        /**
         * The job is over with {@code status}; {@code allReported} is false when the head gave
         * up waiting for ranks that never reported (the teardown deadline).
         */
        void finished(int status, boolean allReported);
    }

    private final JobDescription job;
    private final RankMap map;
    private final HeadSettings settings;
    private final Topology topology;
    private final Host host;
    private final boolean[] rankDone;
    private final List<Integer> fenceChildren = new ArrayList<>();
    /** With {@code --stdin all}: the children with ranks below them that do not have the job yet. */
    private final java.util.Set<Integer> stdinWaitsFor = new java.util.HashSet<>();
    /** The flow control of the job's stdin, from its first forward on; null before, or without stdin. */
    private StdinWindow stdinWindow;
    private TreeGather<FenceData> fence;
    private int fenceSeq;
    private int ranksDone;
    private int adopted;
    private boolean terminating;
    private boolean finished;
    private int signalsSeen;
    /** The ending signal whose echo would not count as a second one ({@link HeadTimer#SIGNAL_ECHO}); 0: none. */
    private int echoOf;
    private Integer failureStatus;
    /** Each rank's exit status, kept only when every one is to be printed ({@link HeadSettings#allExitCodes}). */
    private final int[] exitCodes;
    private static final int UNKNOWN = Integer.MIN_VALUE;
    /** The status of a job one of whose ranks ran MPI as a singleton. */
    static final int SINGLETON_STATUS = 1;

    /** @param headChildren the daemons that are the head's children in {@code topology} */
    public JobControl(JobDescription job, RankMap map, HeadSettings settings, Topology topology,
                      List<Integer> headChildren, Host host) {
        this.job = job;
        this.map = map;
        this.settings = settings;
        this.topology = topology;
        this.host = host;
        this.rankDone = new boolean[map.size()];
        this.exitCodes = settings.allExitCodes() ? new int[map.size()] : null;
        if (exitCodes != null) {
            java.util.Arrays.fill(exitCodes, UNKNOWN);
        }
        for (int d : headChildren) {
            if (topology.anyInSubtree(Topology.vertexOfDaemon(d), x -> map.ranksOn(Topology.daemonOfVertex(x)) > 0)) {
                fenceChildren.add(d);
            }
        }
        fence = new TreeGather<>(fenceChildren, false, FenceData.EMPTY, FenceData::merge);
        if (job.stdinRank() == JobDescription.STDIN_ALL) {
            stdinWaitsFor.addAll(fenceChildren);
        }
    }

    /** {@code --display-map}: the job's map on its standard error, before the job goes down the tree. */
    void displayMapIfAsked() {
        if (job.placement().displayMap()) {
            for (String line : org.banyan.core.job.JobMapText.lines(job, map)) {
                host.emit(new HeadAction.Report(line));
            }
        }
    }

    /** The command this job's lines are said by ({@code banyan run}, {@code banyan dvm submit}). */
    String command() {
        return settings.command();
    }

    public JobDescription job() {
        return job;
    }

    public int jobId() {
        return job.jobId();
    }

    /** Where the job's ranks are. */
    public RankMap map() {
        return map;
    }

    public boolean terminating() {
        return terminating;
    }

    public boolean finished() {
        return finished;
    }

    /** The status of the first failure, or null while there is none. */
    public Integer failureStatus() {
        return failureStatus;
    }

    /**
     * The head's child {@code d} was adopted (or, for a DVM, the job starts over an adopted
     * tree): the job goes down its subtree. Phase 3 does not wait for phase 2.
     */
    public void adopted(int d) {
        if (finished) {
            return;
        }
        if (terminating) {
            // The job is already ending: this subtree never gets it, so its ranks will never run
            // and never report. They count as ended now.
            host.send(d, new OverlayMessage.TerminateJob(job.jobId(), settings.graceMillis()));
            endRanksInSubtree(Topology.vertexOfDaemon(d));
            finishIfAllDone();
            return;
        }
        host.send(d, new OverlayMessage.LaunchJob(job));
        int stdinRank = job.stdinRank();
        if (stdinRank >= 0 && stdinRank < map.size()
                && topology.inSubtree(Topology.vertexOfDaemon(d), Topology.vertexOfDaemon(map.nodeOf(stdinRank)))) {
            stdinWindow = new StdinWindow(rankDone[stdinRank] ? List.of() : List.of(stdinRank));
            host.emit(new HeadAction.ForwardStdin(List.of(d), stdinRank));
            host.emit(new HeadAction.StdinCredit(stdinWindow.limit()));
        } else if (stdinWaitsFor.remove(d) && stdinWaitsFor.isEmpty()) {
            // stdin read before the last subtree had the job would never reach its ranks
            List<Integer> reading = new ArrayList<>();
            for (int r = 0; r < rankDone.length; r++) {
                if (!rankDone[r]) {
                    reading.add(r);
                }
            }
            stdinWindow = new StdinWindow(reading);
            host.emit(new HeadAction.ForwardStdin(fenceChildren, JobDescription.STDIN_ALL));
            host.emit(new HeadAction.StdinCredit(stdinWindow.limit()));
        }
        if (++adopted == 1 && settings.timeoutMillis() > 0) {
            host.emit(new HeadAction.ArmTimer(HeadTimer.JOB_TIMEOUT, settings.timeoutMillis()));
        }
    }

    /** A message of this job from the head's child {@code d}. */
    public void message(int d, OverlayMessage message) {
        if (finished) {
            return;
        }
        switch (message) {
            case OverlayMessage.Output o -> host.emit(new HeadAction.EmitOutput(o.rank(), o.stream(), o.data()));
            case OverlayMessage.RankExited e -> rankExited(e);
            case OverlayMessage.StdinTaken t -> {
                if (stdinWindow != null && stdinWindow.taken(t.rank(), t.bytes())) {
                    host.emit(new HeadAction.StdinCredit(stdinWindow.limit()));
                }
            }
            case OverlayMessage.AbortRequest a -> {
                String detail = a.message().isBlank() ? "" : ": " + a.message();
                fail(a.exitCode(), "rank " + named(a.rank()) + " on " + host.hostOf(map.nodeOf(Math.max(a.rank(), 0)))
                        + " called abort (MPI_Abort) with exit code " + a.exitCode() + detail);
            }
            case OverlayMessage.RankAlone a -> fail(SINGLETON_STATUS, "rank " + named(a.rank()) + " on "
                    + host.hostOf(map.nodeOf(Math.max(a.rank(), 0))) + " started MPI on its own, a singleton outside the job's "
                    + map.size() + " ranks: " + a.evidence() + " and never reached banyan's PMI or PMIx server; ending the job");
            case OverlayMessage.RankUnfinalized u -> fail(1, "rank " + named(u.rank()) + " on "
                    + host.hostOf(map.nodeOf(Math.max(u.rank(), 0))) + " exited with status 0 without finalizing: it wired up "
                    + "(MPI_Init) and never reached MPI_Finalize (or a banyan-comm world's close()); ending the job, whose other "
                    + "ranks would wait for it");
            case OverlayMessage.FenceEnter f -> {
                if (f.seq() == fenceSeq && fence.fromChild(d, new FenceData(f.puts(), f.owners()))) {
                    releaseFence();
                }
            }
            default -> throw new IllegalStateException("not a job's message: " + message.getClass().getSimpleName());
        }
    }

    /** A rank as its user knows it: an expansion's ranks by their world ranks ({@link HeadSettings#rankBase}). */
    private int named(int rank) {
        return rank < 0 ? rank : settings.rankBase() + rank;
    }

    private void rankExited(OverlayMessage.RankExited e) {
        if (e.rank() < 0 || e.rank() >= rankDone.length || rankDone[e.rank()]) {
            return;
        }
        rankDone[e.rank()] = true;
        ranksDone++;
        stdinReaderEnded(e.rank());
        if (exitCodes != null) {
            exitCodes[e.rank()] = e.status();
        }
        host.emit(new HeadAction.RankEnded(e.rank(), e.status()));
        if (!e.note().isEmpty() || e.status() != 0) {
            // a spawned job's rank numbers repeat its parent's: its job says whose rank it is
            String what = (job.spawnedBy() >= 0 ? "job " + job.jobId() + " " : "") + "rank " + named(e.rank()) + " on "
                    + host.hostOf(map.nodeOf(e.rank())) + " "
                    + (e.note().isEmpty() ? Signals.describeStatus(e.status(), e.signaled()) : "could not start: " + e.note());
            if (settings.keepGoing() && !terminating) { // every failure said, each on its own
                failureStatus = failureStatus == null ? e.status() : failureStatus;
                host.emit(new HeadAction.Report(settings.command() + ": " + what + "; the other ranks go on"));
            } else {
                fail(e.status(), what + (terminating || !e.note().isEmpty() ? "" : "; ending the job"));
            }
        }
        finishIfAllDone();
    }

    /** Every child whose subtree hosts ranks entered, or was lost (TreeGather's policy): release the fence. */
    private void releaseFence() {
        FenceData all = fence.result();
        OverlayMessage release = new OverlayMessage.FenceRelease(job.jobId(), fenceSeq, Map.copyOf(all.puts()),
                Map.copyOf(all.owners()));
        List<Integer> next = new ArrayList<>();
        for (int c : fenceChildren) {
            if (!host.isLost(c)) {
                host.send(c, release);
                next.add(c);
            }
        }
        fenceSeq++;
        fence = new TreeGather<>(next, false, FenceData.EMPTY, FenceData::merge);
    }

    /**
     * Daemon {@code d} is gone, and with it every daemon below it: their ranks count as ended,
     * and the job fails if any of them was still running, or if the daemons were not all up
     * yet ({@code allUp} false).
     */
    public void daemonLost(int d, String hostName, String reason, boolean allUp) {
        if (finished) {
            return;
        }
        boolean hadWork = endRanksInSubtree(Topology.vertexOfDaemon(d));
        if (fence.childLost(d)) {
            releaseFence();
        }
        if (hadWork || !allUp) {
            fail(HeadSettings.DAEMON_LOST_STATUS, "lost the daemon on " + hostName + ": " + reason);
        }
        finishIfAllDone();
    }

    /** The user's signal: forwarded to the ranks; a second SIGINT, SIGTERM or SIGHUP kills them. */
    public void userSignal(int signal) {
        if (finished) {
            return;
        }
        boolean ending = Signals.ends(signal);
        if (ending && signal == echoOf) {
            return; // the same delivery, to this process and again to its group
        }
        if (ending && ++signalsSeen > 1) {
            host.emit(new HeadAction.Report(settings.command() + ": received " + Signals.name(signal) + " again; killing all ranks"));
            if (failureStatus == null) {
                failureStatus = 128 + signal;
            }
            terminating = true;
            host.broadcast(new OverlayMessage.KillJob(job.jobId()));
            host.emit(new HeadAction.ArmTimer(HeadTimer.TEARDOWN_DEADLINE, HeadSettings.TEARDOWN_SLACK_MILLIS));
            return;
        }
        if (ending) {
            echoOf = signal;
            host.emit(new HeadAction.ArmTimer(HeadTimer.SIGNAL_ECHO, HeadSettings.SIGNAL_ECHO_MILLIS));
        }
        host.broadcast(new OverlayMessage.SignalRanks(job.jobId(), signal));
    }

    /** The job's own timers: its timeout, and the deadline of its teardown. */
    public void timer(HeadTimer timer) {
        if (finished) {
            return;
        }
        switch (timer) {
            case JOB_TIMEOUT -> {
                String secs = settings.timeoutMillis() % 1000 == 0
                        ? Long.toString(settings.timeoutMillis() / 1000) : Double.toString(settings.timeoutMillis() / 1000.0);
                fail(HeadSettings.TIMEOUT_STATUS, "job timed out after " + secs + " s; ending all ranks");
                if (settings.stateOnTimeout()) {
                    host.emit(new HeadAction.Report(settings.command() + ": still running at the timeout: " + byHost(r -> !rankDone[r], Integer::toString)));
                }
            }
            case TEARDOWN_DEADLINE -> {
                host.emit(new HeadAction.Report(settings.command() + ": " + (rankDone.length - ranksDone)
                        + " rank(s) did not report their end; giving up on them"));
                finish(failureStatus == null ? HeadSettings.DAEMON_LOST_STATUS : failureStatus, false);
            }
            case SIGNAL_ECHO -> echoOf = 0;
            default -> throw new IllegalStateException(timer + " is not a job's timer");
        }
    }

    /** Records the first failure, reports it, and ends the job. Later failures are consequences. */
    public void fail(int status, String message) {
        if (finished) {
            return;
        }
        if (failureStatus == null) {
            failureStatus = status;
            host.emit(new HeadAction.Report(settings.command() + ": " + message));
        }
        if (!terminating) {
            terminating = true;
            host.broadcast(new OverlayMessage.TerminateJob(job.jobId(), settings.graceMillis()));
            host.emit(new HeadAction.ArmTimer(HeadTimer.TEARDOWN_DEADLINE,
                    settings.graceMillis() + HeadSettings.TEARDOWN_SLACK_MILLIS));
        }
        finishIfAllDone();
    }

    /** Ends the job now with {@code status}, whatever is still running (daemons that never came). */
    public void abandon(int status) {
        if (failureStatus == null) {
            failureStatus = status;
        }
        finish(failureStatus, false);
    }

    /** Marks every rank of the daemons at or below vertex {@code v} as ended; true if any was still running. */
    private boolean endRanksInSubtree(int v) {
        boolean[] any = {false};
        topology.forEachInSubtree(v, x -> {
            for (int r : map.ranksOf(Topology.daemonOfVertex(x))) {
                if (!rankDone[r]) {
                    rankDone[r] = true;
                    ranksDone++;
                    stdinReaderEnded(r);
                    any[0] = true;
                }
            }
        });
        return any[0];
    }

    /** A rank that ended reads no more stdin: it no longer holds the reader back. */
    private void stdinReaderEnded(int rank) {
        if (stdinWindow != null && stdinWindow.ended(rank)) {
            host.emit(new HeadAction.StdinCredit(stdinWindow.limit()));
        }
    }

    private void finishIfAllDone() {
        if (ranksDone == rankDone.length) {
            finish(failureStatus == null ? 0 : failureStatus, true);
        }
    }

    private void finish(int status, boolean allReported) {
        if (!finished) {
            finished = true;
            if (exitCodes != null) {
                host.emit(new HeadAction.Report(settings.command() + ": exit codes: " + exitCodesByHost()));
            }
            host.finished(status, allReported);
        }
    }

    /**
     * Every rank's exit status, by host in the job's order and by rank on each, as Hydra's
     * {@code -print-all-exitcodes} lists them ({@code [node1] 0,1 [node2] 0}; Hydra gives the raw
     * wait statuses, 256 for exit 1, this the statuses banyan reports, 128+N for signal N); a rank
     * whose end never came (its daemon lost) is {@code ?}.
     */
    private String exitCodesByHost() {
        return byHost(r -> true, r -> exitCodes[r] == UNKNOWN ? "?" : Integer.toString(exitCodes[r]));
    }

    /** The ranks {@code which} takes, by host in the job's order and by rank on each, each as {@code shown} gives it. */
    private String byHost(java.util.function.IntPredicate which, java.util.function.IntFunction<String> shown) {
        StringBuilder b = new StringBuilder();
        for (int node = 0; node < job.nodes().size(); node++) {
            StringBuilder on = new StringBuilder();
            for (int r : map.ranksOf(node)) {
                if (which.test(r)) {
                    on.append(on.isEmpty() ? "" : ",").append(shown.apply(r));
                }
            }
            if (!on.isEmpty()) {
                b.append(b.isEmpty() ? "" : " ").append('[').append(host.hostOf(node)).append("] ").append(on);
            }
        }
        return b.toString();
    }
}
