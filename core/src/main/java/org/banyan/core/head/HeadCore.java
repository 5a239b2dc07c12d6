package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.banyan.core.daemon.Signals;
import org.banyan.core.job.FenceData;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.route.OverlayRouter;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of the head of one run, the root of the overlay tree: start its children,
 * adopt them (each then starts its own subtree), broadcast the job, gather contacts and fences,
 * collect rank ends, decide aborts, and say when the run is over and with which status.
 * Sans-I/O: events in, actions out. The head talks to its children only; their subtrees' traffic
 * reaches it relayed and aggregated. As the root of the routing topology too, it passes on the
 * daemon-to-daemon messages whose route climbs that high.
 *
 * <p>Exit status, as mpirun: 0 when every rank exits 0; otherwise that of the first rank to fail
 * (128+N for signal N), the code given to MPI_Abort, {@value HeadSettings#TIMEOUT_STATUS} for a
 * timeout, or {@value HeadSettings#DAEMON_LOST_STATUS} when a daemon is lost.
 */
public final class HeadCore {
    private final JobDescription job;
    private final RankMap map;
    private final HeadSettings settings;
    private final TopologySpec topologySpec;
    private final Topology topology;
    private final int daemons;
    private final List<HeadAction> actions = new ArrayList<>();
    private final List<Integer> children = new ArrayList<>();
    private final List<Integer> connected = new ArrayList<>();
    private final boolean[] lost;
    private final boolean[] rankDone;
    private final Map<Integer, String> hostOfDaemon = new HashMap<>();
    private final Map<Integer, String> contacts = new TreeMap<>();
    private final TopologySpec routingSpec;
    private final String headContact;
    private final OverlayRouter router;
    private final java.util.Set<Integer> peers = new java.util.HashSet<>();
    /** The job's name service (MPI_Publish_name): service name to port. */
    private final Map<String, String> names = new HashMap<>();
    private final List<Integer> fenceChildren = new ArrayList<>();
    private TreeGather<FenceData> fence;
    private int fenceSeq;
    private int ranksDone;
    private boolean allUp;
    private boolean terminating;
    private boolean finished;
    private int signalsSeen;
    private Integer failureStatus;
    private boolean statsRequested;
    private boolean anyLost;
    private TreeGather<Map<Integer, DaemonStats>> stats;

    /** @param topologySpec the overlay tree, routing included */
    public HeadCore(JobDescription job, RankMap map, HeadSettings settings, TopologySpec topologySpec) {
        this(job, map, settings, topologySpec, topologySpec, null);
    }

    /**
     * @param topologySpec the spawn tree
     * @param routingSpec  the routing topology daemon-to-daemon messages follow
     * @param headContact  where daemons reach the head's listener ({@code host:port}), for
     *                     routing children of the head that are not its spawn children; null
     *                     when there are none
     */
    public HeadCore(JobDescription job, RankMap map, HeadSettings settings, TopologySpec topologySpec,
                    TopologySpec routingSpec,
                    String headContact) {
        this.routingSpec = routingSpec;
        this.headContact = headContact;
        this.job = job;
        this.map = map;
        this.settings = settings;
        this.daemons = job.nodes().size();
        this.topologySpec = topologySpec;
        this.topology = topologySpec.over(daemons + 1);
        this.router = new OverlayRouter(routingSpec.over(daemons + 1), 0, new OverlayRouter.Links() {
            @Override
            public boolean isOpen(int v) {
                return topology.parent(v) == 0 ? connected.contains(Topology.daemonOfVertex(v)) : peers.contains(v);
            }

            @Override
            public void send(int v, OverlayMessage.Routed m) {
                emit(topology.parent(v) == 0 ? new HeadAction.SendToDaemon(Topology.daemonOfVertex(v), m)
                        : new HeadAction.SendToPeer(v, m));
            }
        });
        this.lost = new boolean[daemons];
        this.rankDone = new boolean[map.size()];
        for (int v : topology.children(0)) {
            int d = Topology.daemonOfVertex(v);
            children.add(d);
            if (subtreeHasRanks(v)) {
                fenceChildren.add(d);
            }
        }
        fence = new TreeGather<>(fenceChildren, false, FenceData.EMPTY, FenceData::merge);
    }

    /** The first actions, before any event: start the head's children. */
    public List<HeadAction> start() {
        actions.clear();
        for (int d : children) {
            emit(new HeadAction.SpawnDaemon(d, job.nodes().get(d).name()));
        }
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
            case HeadEvent.PeerUp(int v) -> {
                peers.add(v);
                router.opened(v);
            }
            case HeadEvent.FromPeer(int v, OverlayMessage message) -> {
                if (message instanceof OverlayMessage.Routed r) {
                    routed(r);
                }
            }
            case HeadEvent.PeerLost(int v, String reason) -> {
                peers.remove(v);
                router.closed(v);
                if (!terminating && router.lostWhileRunning(v, reason)) {
                    emit(new HeadAction.ArmTimer(HeadTimer.ROUTING_LINK_LOSS,
                            org.banyan.core.daemon.DaemonCore.ROUTING_LOSS_GRACE_MILLIS));
                }
            }
        }
        return List.copyOf(actions);
    }

    private void fromDaemon(int d, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello h -> hello(d, h);
            case OverlayMessage.Contacts c -> {
                contacts.putAll(c.contacts());
                if (!allUp && contacts.size() == daemons) {
                    allUp = true;
                    emit(new HeadAction.Milestone("all daemons up, contacts gathered"));
                    Map<Integer, String> all = new TreeMap<>(contacts);
                    if (headContact != null) {
                        all.put(Topology.daemonOfVertex(0), headContact);
                    }
                    broadcast(new OverlayMessage.AllContacts(Map.copyOf(all)));
                }
            }
            case OverlayMessage.Output o -> emit(new HeadAction.EmitOutput(o.rank(), o.stream(), o.data()));
            case OverlayMessage.OutputBatch batch -> {
                for (OverlayMessage.Output o : batch.chunks()) {
                    emit(new HeadAction.EmitOutput(o.rank(), o.stream(), o.data()));
                }
            }
            case OverlayMessage.RankExited e -> rankExited(e);
            case OverlayMessage.RanksExited batch -> batch.exits().forEach(this::rankExited);
            case OverlayMessage.AbortRequest a -> {
                String detail = a.message().isBlank() ? "" : ": " + a.message();
                fail(a.exitCode(), "rank " + a.rank() + " on " + host(map.nodeOf(Math.max(a.rank(), 0)))
                        + " called abort (MPI_Abort) with exit code " + a.exitCode() + detail);
            }
            case OverlayMessage.FenceEnter f -> fenceEnter(d, f);
            case OverlayMessage.Routed r -> routed(r);
            case OverlayMessage.DaemonFailed f -> daemonLost(f.daemonId(), f.reason());
            case OverlayMessage.Stats st -> {
                if (stats != null && stats.fromChild(d, st.stats())) {
                    reportAndFinish();
                }
            }
            default -> throw new IllegalStateException("the head does not expect " + message.getClass().getSimpleName());
        }
    }

    /** Passes a routed message on, or serves it when it is for the head (the name service). */
    private void routed(OverlayMessage.Routed m) {
        if (!router.route(m) || !(m instanceof OverlayMessage.NameRequest r)) {
            return;
        }
        boolean ok;
        String answer;
        switch (r.op()) {
            case 0 -> {
                ok = names.putIfAbsent(r.name(), r.port()) == null;
                answer = ok ? "" : "name_in_use";
            }
            case 1 -> {
                ok = names.remove(r.name()) != null;
                answer = ok ? "" : "name_not_found";
            }
            default -> {
                String port = names.get(r.name());
                ok = port != null;
                answer = ok ? port : "name_not_found";
            }
        }
        router.route(new OverlayMessage.NameReply(Topology.daemonOfVertex(0), r.from(), r.request(), r.op(), ok, answer));
    }

    private void hello(int d, OverlayMessage.DaemonHello h) {
        if (connected.contains(d)) {
            return;
        }
        connected.add(d);
        hostOfDaemon.put(d, h.host());
        if (connected.size() == 1) {
            emit(new HeadAction.Milestone("first daemon up"));
        }
        emit(new HeadAction.SendToDaemon(d, new OverlayMessage.Adopt(topologySpec, topology.size(),
                topology.hostsBelow(d, x -> job.nodes().get(x).name()), routingSpec)));
        router.opened(Topology.vertexOfDaemon(d));
        if (terminating) {
            // The job is already ending: this subtree never gets it, so its ranks will never run
            // and never report. They count as ended now.
            emit(new HeadAction.SendToDaemon(d, new OverlayMessage.TerminateJob(settings.graceMillis())));
            endRanksInSubtree(Topology.vertexOfDaemon(d));
            finishIfAllDone();
            return;
        }
        // Phase 3 does not wait for phase 2: the job goes down as soon as a subtree is adopted.
        emit(new HeadAction.SendToDaemon(d, new OverlayMessage.LaunchJob(job)));
        int stdinRank = job.stdinRank();
        if (stdinRank >= 0 && stdinRank < map.size()
                && topology.inSubtree(Topology.vertexOfDaemon(d), Topology.vertexOfDaemon(map.nodeOf(stdinRank)))) {
            emit(new HeadAction.ForwardStdin(d, stdinRank));
        }
        if (connected.size() == 1 && settings.timeoutMillis() > 0) {
            emit(new HeadAction.ArmTimer(HeadTimer.JOB_TIMEOUT, settings.timeoutMillis()));
        }
    }

    /** Whether any daemon at or below vertex {@code v} hosts a rank (it then takes part in fences). */
    private boolean subtreeHasRanks(int v) {
        return topology.anyInSubtree(v, x -> map.ranksOn(Topology.daemonOfVertex(x)) > 0);
    }

    /** Marks every rank of the daemons at or below vertex {@code v} as ended; true if any was still running. */
    private boolean endRanksInSubtree(int v) {
        boolean[] any = {false};
        topology.forEachInSubtree(v, x -> {
            int d = Topology.daemonOfVertex(x);
            for (int r : map.ranksOf(d)) {
                if (!rankDone[r]) {
                    rankDone[r] = true;
                    ranksDone++;
                    any[0] = true;
                }
            }
        });
        return any[0];
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

    private void fenceEnter(int child, OverlayMessage.FenceEnter f) {
        if (f.seq() == fenceSeq && fence.fromChild(child, new FenceData(f.puts(), f.owners()))) {
            releaseFence();
        }
    }

    /** Every child whose subtree hosts ranks entered, or was lost (TreeGather's policy): release the fence. */
    private void releaseFence() {
        FenceData all = fence.result();
        OverlayMessage release = new OverlayMessage.FenceRelease(fenceSeq, Map.copyOf(all.puts()),
                Map.copyOf(all.owners()));
        List<Integer> next = new ArrayList<>();
        for (int c : fenceChildren) {
            if (!lost[c]) {
                emit(new HeadAction.SendToDaemon(c, release));
                next.add(c);
            }
        }
        fenceSeq++;
        fence = new TreeGather<>(next, false, FenceData.EMPTY, FenceData::merge);
    }

    /** Daemon {@code d} is gone, and with it every daemon below it in the tree. */
    private void daemonLost(int d, String reason) {
        if (d < 0 || d >= daemons || lost[d]) {
            return;
        }
        String host = host(d);
        boolean hadWork = endRanksInSubtree(Topology.vertexOfDaemon(d));
        topology.forEachInSubtree(Topology.vertexOfDaemon(d), x -> lost[Topology.daemonOfVertex(x)] = true);
        connected.remove(Integer.valueOf(d));
        anyLost = true;
        if (fence.childLost(d)) {
            releaseFence();
        }
        if (hadWork || !allUp) {
            fail(HeadSettings.DAEMON_LOST_STATUS, "lost the daemon on " + host + ": " + reason);
        }
        if (stats != null && stats.childLost(d)) {
            reportAndFinish();
            return;
        }
        finishIfAllDone();
    }

    private void userSignal(int signal) {
        signalsSeen++;
        boolean ending = signal == Signals.SIGINT || signal == Signals.SIGTERM || signal == Signals.SIGHUP;
        if (connected.isEmpty()) {
            if (ending) {
                fail(128 + signal, "received " + Signals.name(signal) + " before the job started");
                finish(128 + signal);
            }
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
                if (!allUp) {
                    List<String> missing = new ArrayList<>();
                    for (int d = 0; d < daemons; d++) {
                        if (!contacts.containsKey(d) && !lost[d]) {
                            missing.add(job.nodes().get(d).name());
                        }
                    }
                    if (!missing.isEmpty()) {
                        emit(new HeadAction.Report("banyan run: no daemon connected within "
                                + settings.daemonStartMillis() / 1000.0 + " s from " + summarize(missing)));
                        if (failureStatus == null) {
                            failureStatus = HeadSettings.DAEMON_LOST_STATUS;
                        }
                        finish(failureStatus);
                    }
                }
            }
            case JOB_TIMEOUT -> {
                String secs = settings.timeoutMillis() % 1000 == 0
                        ? Long.toString(settings.timeoutMillis() / 1000) : Double.toString(settings.timeoutMillis() / 1000.0);
                fail(HeadSettings.TIMEOUT_STATUS, "job timed out after " + secs + " s; ending all ranks");
            }
            case STATS_DEADLINE -> reportAndFinish();
            case ROUTING_LINK_LOSS -> {
                // The spawn tree names a dead daemon's real cause within the wait; a loss still
                // unexplained now is the loss of the daemon at the link's other end.
                for (Map.Entry<Integer, String> e : router.takeUnexplainedLosses().entrySet()) {
                    if (!terminating) {
                        daemonLost(Topology.daemonOfVertex(e.getKey()), "routing link closed: " + e.getValue());
                    }
                }
            }
            case TEARDOWN_DEADLINE -> {
                emit(new HeadAction.Report("banyan run: " + (rankDone.length - ranksDone)
                        + " rank(s) did not report their end; giving up on them"));
                finish(failureStatus == null ? HeadSettings.DAEMON_LOST_STATUS : failureStatus);
            }
        }
    }

    private static String summarize(List<String> hosts) {
        if (hosts.size() <= 5) {
            return String.join(", ", hosts);
        }
        return String.join(", ", hosts.subList(0, 5)) + " and " + (hosts.size() - 5) + " more";
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
        finishIfAllDone();
    }

    private void finishIfAllDone() {
        if (ranksDone != rankDone.length || statsRequested) {
            return;
        }
        if (settings.reportLaunch() && !anyLost && !connected.isEmpty()) {
            // Every daemon is still there (they leave on Shutdown): gather their stats first.
            statsRequested = true;
            emit(new HeadAction.Milestone("all ranks ended"));
            stats = new TreeGather<>(List.copyOf(connected), false, Map.of(), HeadCore::mergeStats);
            broadcast(new OverlayMessage.CollectStats());
            emit(new HeadAction.ArmTimer(HeadTimer.STATS_DEADLINE, HeadSettings.STATS_MILLIS));
            return;
        }
        finish(failureStatus == null ? 0 : failureStatus);
    }

    private static Map<Integer, DaemonStats> mergeStats(Map<Integer, DaemonStats> a, Map<Integer, DaemonStats> b) {
        Map<Integer, DaemonStats> m = new TreeMap<>(a);
        m.putAll(b);
        return m;
    }

    private void reportAndFinish() {
        if (!finished) {
            emit(new HeadAction.LaunchReport(Map.copyOf(stats.result())));
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
        for (int d : connected) {
            emit(new HeadAction.SendToDaemon(d, message));
        }
    }

    private String host(int daemon) {
        String h = hostOfDaemon.get(daemon);
        return h != null ? h : job.nodes().get(daemon).name();
    }

    private void emit(HeadAction a) {
        actions.add(a);
    }
}
