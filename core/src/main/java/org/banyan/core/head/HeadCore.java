package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.daemon.Signals;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of the head of one run: wait for the daemons, broadcast the job, gather
 * fences, collect rank ends, decide aborts, and say when the run is over and with which status.
 * Sans-I/O: events in, actions out.
 *
 * <p>Exit status, as mpirun: 0 when every rank exits 0; otherwise that of the first rank to fail
 * (128+N for signal N), the code given to MPI_Abort, {@value HeadSettings#TIMEOUT_STATUS} for a
 * timeout, or {@value HeadSettings#DAEMON_LOST_STATUS} when a daemon is lost.
 */
public final class HeadCore {
    private final JobDescription job;
    private final RankMap map;
    private final HeadSettings settings;
    private final List<HeadAction> actions = new ArrayList<>();
    private final boolean[] hello;
    private final boolean[] lost;
    private final boolean[] rankDone;
    private final Map<Integer, String> hostOfDaemon = new HashMap<>();
    private final Map<String, String> fencePuts = new LinkedHashMap<>();
    private final boolean[] inFence;
    private int fenceSeq;
    private int helloCount;
    private int ranksDone;
    private boolean launched;
    private boolean terminating;
    private boolean finished;
    private int signalsSeen;
    private Integer failureStatus;

    public HeadCore(JobDescription job, RankMap map, HeadSettings settings) {
        this.job = job;
        this.map = map;
        this.settings = settings;
        int daemons = job.nodes().size();
        this.hello = new boolean[daemons];
        this.lost = new boolean[daemons];
        this.inFence = new boolean[daemons];
        this.rankDone = new boolean[map.size()];
    }

    /** The first actions, before any event. */
    public List<HeadAction> start() {
        actions.clear();
        emit(new HeadAction.ArmTimer(HeadTimer.DAEMON_START, settings.daemonStartMillis()));
        return List.copyOf(actions);
    }

    public List<HeadAction> handle(HeadEvent event) {
        actions.clear();
        if (finished) {
            return List.of();
        }
        switch (event) {
            case HeadEvent.FromDaemon(int daemonId, OverlayMessage message) -> fromDaemon(daemonId, message);
            case HeadEvent.DaemonLost(int daemonId, String reason) -> daemonLost(daemonId, reason);
            case HeadEvent.UserSignal(int signal) -> userSignal(signal);
            case HeadEvent.TimerFired(HeadTimer timer) -> timer(timer);
        }
        return List.copyOf(actions);
    }

    private void fromDaemon(int d, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello h -> {
                if (!hello[d]) {
                    hello[d] = true;
                    helloCount++;
                    hostOfDaemon.put(d, h.host());
                }
                if (helloCount == hello.length && !launched && !terminating) {
                    launch();
                }
            }
            case OverlayMessage.Output o -> emit(new HeadAction.EmitOutput(o.rank(), o.stream(), o.data()));
            case OverlayMessage.RankExited e -> rankExited(e);
            case OverlayMessage.AbortRequest a -> {
                String detail = a.message().isBlank() ? "" : ": " + a.message();
                fail(a.exitCode(), "rank " + a.rank() + " on " + host(map.nodeOf(Math.max(a.rank(), 0)))
                        + " called abort (MPI_Abort) with exit code " + a.exitCode() + detail);
            }
            case OverlayMessage.FenceEnter f -> fenceEnter(f);
            default -> throw new IllegalStateException("the head does not expect " + message.getClass().getSimpleName());
        }
    }

    private void launch() {
        launched = true;
        for (int d = 0; d < hello.length; d++) {
            emit(new HeadAction.SendToDaemon(d, new OverlayMessage.LaunchJob(job)));
        }
        if (job.stdinRank() >= 0 && job.stdinRank() < map.size()) {
            emit(new HeadAction.ForwardStdin(map.nodeOf(job.stdinRank()), job.stdinRank()));
        }
        if (settings.timeoutMillis() > 0) {
            emit(new HeadAction.ArmTimer(HeadTimer.JOB_TIMEOUT, settings.timeoutMillis()));
        }
    }

    private void rankExited(OverlayMessage.RankExited e) {
        if (e.rank() < 0 || e.rank() >= rankDone.length || rankDone[e.rank()]) {
            return;
        }
        rankDone[e.rank()] = true;
        ranksDone++;
        if (!e.note().isEmpty()) {
            fail(e.status(), "rank " + e.rank() + " on " + host(map.nodeOf(e.rank())) + " could not start: " + e.note());
        } else if (e.status() != 0) {
            fail(e.status(), "rank " + e.rank() + " on " + host(map.nodeOf(e.rank())) + " "
                    + Signals.describeStatus(e.status()) + (terminating ? "" : "; ending the job"));
        }
        finishIfAllDone();
    }

    private void fenceEnter(OverlayMessage.FenceEnter f) {
        if (f.seq() != fenceSeq || inFence[f.daemonId()]) {
            return;
        }
        inFence[f.daemonId()] = true;
        fencePuts.putAll(f.puts());
        maybeReleaseFence();
    }

    private void maybeReleaseFence() {
        for (int d = 0; d < inFence.length; d++) {
            if (map.ranksOn(d) > 0 && !inFence[d] && !lost[d]) {
                return;
            }
        }
        Map<String, String> all = Map.copyOf(fencePuts);
        for (int d = 0; d < inFence.length; d++) {
            if (map.ranksOn(d) > 0 && !lost[d]) {
                emit(new HeadAction.SendToDaemon(d, new OverlayMessage.FenceRelease(fenceSeq, all)));
            }
            inFence[d] = false;
        }
        fencePuts.clear();
        fenceSeq++;
    }

    private void daemonLost(int d, String reason) {
        if (lost[d]) {
            return;
        }
        lost[d] = true;
        boolean hadWork = false;
        for (int r : map.ranksOf(d)) {
            if (!rankDone[r]) {
                rankDone[r] = true;
                ranksDone++;
                hadWork = true;
            }
        }
        if (hadWork || !launched) {
            fail(HeadSettings.DAEMON_LOST_STATUS, "lost the daemon on " + host(d) + ": " + reason);
        }
        finishIfAllDone();
    }

    private void userSignal(int signal) {
        signalsSeen++;
        boolean ending = signal == Signals.SIGINT || signal == Signals.SIGTERM || signal == Signals.SIGHUP;
        if (!launched) {
            fail(128 + signal, "received " + Signals.name(signal) + " before the job started");
            return;
        }
        if (ending && signalsSeen > 1) {
            emit(new HeadAction.Report("banyan run: received " + Signals.name(signal) + " again; killing all ranks"));
            if (failureStatus == null) {
                failureStatus = 128 + signal;
            }
            terminating = true;
            broadcast(new OverlayMessage.KillJob());
            emit(new HeadAction.ArmTimer(HeadTimer.TEARDOWN_DEADLINE, HeadSettings.TEARDOWN_SLACK_MILLIS));
            return;
        }
        broadcast(new OverlayMessage.SignalRanks(signal));
    }

    private void timer(HeadTimer timer) {
        switch (timer) {
            case DAEMON_START -> {
                if (!launched) {
                    List<String> missing = new ArrayList<>();
                    for (int d = 0; d < hello.length; d++) {
                        if (!hello[d]) {
                            missing.add(job.nodes().get(d).name());
                        }
                    }
                    emit(new HeadAction.Report("banyan run: no daemon connected within "
                            + settings.daemonStartMillis() / 1000.0 + " s from " + String.join(", ", missing)));
                    finish(HeadSettings.DAEMON_LOST_STATUS);
                }
            }
            case JOB_TIMEOUT -> {
                String secs = settings.timeoutMillis() % 1000 == 0
                        ? Long.toString(settings.timeoutMillis() / 1000) : Double.toString(settings.timeoutMillis() / 1000.0);
                fail(HeadSettings.TIMEOUT_STATUS, "job timed out after " + secs + " s; ending all ranks");
            }
            case TEARDOWN_DEADLINE -> {
                emit(new HeadAction.Report("banyan run: " + (rankDone.length - ranksDone)
                        + " rank(s) did not report their end; giving up on them"));
                finish(failureStatus == null ? HeadSettings.DAEMON_LOST_STATUS : failureStatus);
            }
        }
    }

    /** Records the first failure, reports it, and ends the job. Later failures are consequences. */
    private void fail(int status, String message) {
        if (failureStatus == null) {
            failureStatus = status;
            emit(new HeadAction.Report("banyan run: " + message));
        }
        if (!terminating) {
            terminating = true;
            broadcast(new OverlayMessage.TerminateJob(settings.graceMillis()));
            emit(new HeadAction.ArmTimer(HeadTimer.TEARDOWN_DEADLINE,
                    settings.graceMillis() + HeadSettings.TEARDOWN_SLACK_MILLIS));
        }
        if (!launched && failureStatus != null) {
            finish(failureStatus);
        }
    }

    private void finishIfAllDone() {
        if (ranksDone == rankDone.length && launched) {
            finish(failureStatus == null ? 0 : failureStatus);
        }
    }

    private void finish(int status) {
        if (finished) {
            return;
        }
        broadcast(new OverlayMessage.Shutdown());
        emit(new HeadAction.Finish(status));
        finished = true;
    }

    private void broadcast(OverlayMessage message) {
        for (int d = 0; d < hello.length; d++) {
            if (hello[d] && !lost[d]) {
                emit(new HeadAction.SendToDaemon(d, message));
            }
        }
    }

    private String host(int daemon) {
        String h = hostOfDaemon.get(daemon);
        return h != null ? h : job.nodes().get(daemon).name();
    }

    private void emit(HeadAction a) {
        actions.add(a);
    }

    public boolean finished() {
        return finished;
    }
}
