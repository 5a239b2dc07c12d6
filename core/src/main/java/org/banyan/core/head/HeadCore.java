package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.daemon.DaemonCore;
import org.banyan.core.daemon.Signals;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.route.OverlayRouter;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of the head of one run, the root of the overlay tree: start its children,
 * adopt them (each then starts its own subtree), gather contacts, serve the name service and
 * the routed messages whose route climbs to the root, and say when the run is over and with
 * which status. The job itself — launch, rank ends, fences, aborts, signals, timeout — is a
 * {@link JobControl}; a run holds one more for each job its ranks spawn (MPI_Comm_spawn through
 * PMIx: {@link SpawnPlacement}), whose output comes out as {@link HeadAction.ForJob}, and ends
 * with the last of them. Sans-I/O: events in, actions out. The head talks to its children only;
 * their subtrees' traffic reaches it relayed and aggregated.
 *
 * <p>The head of a persistent DVM is the same core built with {@link #forDvm}: it holds no job
 * at first, says {@link HeadAction.Ready} once every daemon is up, runs each
 * {@link HeadEvent.Submit}ted job with a {@link JobControl} of its own (the job's output and
 * reports come out as {@link HeadAction.ForJob}, its end as {@link HeadAction.JobEnded}), and
 * finishes only on {@link HeadEvent.Stop}, a signal, or when it cannot start its daemons.
 */
public final class HeadCore {
    private final List<Node> nodes;
    private final HeadSettings settings;
    /** Null for a DVM. */
    private final JobDescription runJob;
    private final TopologySpec topologySpec;
    private final Topology topology;
    private final int daemons;
    private final List<HeadAction> actions = new ArrayList<>();
    private final List<Integer> children = new ArrayList<>();
    private final HeadDaemons up;
    /** The daemons that said hello and are not gone (a live view of {@link #up}'s). */
    private final Set<Integer> connected;
    private final boolean[] lost;
    private final TopologySpec routingSpec;
    private final OverlayRouter router;
    private final Set<Integer> peers = new HashSet<>();
    private final SpawnedJobs spawns;
    private final HeadRequests requests;
    private final Map<Integer, JobControl> jobs = new LinkedHashMap<>();
    private boolean finished;
    private boolean anyLost;
    private final ReleasedDaemons released;
    private final RunEnding ending;
    private final JobOutlet.Head jobOutletHead = new JobOutlet.Head() {
        @Override
        public void emit(HeadAction action) {
            HeadCore.this.emit(action);
        }

        @Override
        public void broadcast(OverlayMessage m) {
            HeadCore.this.broadcast(m);
        }

        @Override
        public void jobFinished(int jobId, int status, boolean allReported) {
            HeadCore.this.jobFinished(jobId, status, allReported);
        }
    };

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
                    TopologySpec routingSpec, String headContact) {
        this(job.nodes(), job, map, settings, topologySpec, routingSpec, headContact);
    }

    /**
     * The head of a persistent DVM over {@code nodes}: no job until one is submitted.
     *
     * @param settings the daemon start timeout and the grace of teardowns; jobs bring their own timeout
     * @param vacant   slots with no daemon at first (a DVM that may grow into them:
     *                 {@link HeadEvent.RejoinDaemons} fills them), each a child of the head with
     *                 nothing below it
     */
    public static HeadCore forDvm(List<Node> nodes, HeadSettings settings, TopologySpec topologySpec,
                                  TopologySpec routingSpec, String headContact, Set<Integer> vacant) {
        HeadCore core = new HeadCore(nodes, null, null, settings, topologySpec, routingSpec, headContact);
        vacant.forEach(d -> core.released.vacant(d, core.lost));
        return core;
    }

    private HeadCore(List<Node> nodes, JobDescription job, RankMap map, HeadSettings settings, TopologySpec topologySpec,
                     TopologySpec routingSpec, String headContact) {
        this.routingSpec = routingSpec;
        this.nodes = new ArrayList<>(nodes);
        this.up = new HeadDaemons(this.nodes, headContact);
        this.connected = up.connected();
        this.runJob = job;
        this.settings = settings;
        this.daemons = nodes.size();
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
        this.released = new ReleasedDaemons(topology);
        this.ending = new RunEnding(this::emit, this::broadcast, this::finish, () -> finished, settings.reportLaunch());
        for (int v : topology.children(0)) {
            children.add(Topology.daemonOfVertex(v));
        }
        if (job != null) {
            jobs.put(job.jobId(), newJob(job, map, settings));
        }
        this.spawns = new SpawnedJobs(new SpawnedJobs.Host() {
            @Override
            public void start(JobDescription job, HeadSettings jobSettings) {
                startJob(job, jobSettings);
            }

            @Override
            public void emit(HeadAction action) {
                HeadCore.this.emit(action);
            }

            @Override
            public void route(OverlayMessage.Routed m) {
                router.route(m);
            }
        }, java.util.Collections.unmodifiableMap(jobs), job, daemons, settings, job != null ? job.jobId() + 1 : 0);
        this.requests = new HeadRequests(spawns, nspace -> {
            for (JobControl j : jobs.values()) {
                if (nspace.equals(j.job().pmixNamespace())) {
                    return j.map();
                }
            }
            return null;
        }, router::route, this::emit, job == null);
    }

    private JobControl newJob(JobDescription job, RankMap map, HeadSettings jobSettings) {
        return new JobControl(job, map, jobSettings, topology, children, new JobOutlet(job.jobId(),
                runJob == null ? -1 : runJob.jobId(), jobOutletHead, d -> lost[d], this::host));
    }

    /** Does {@code what} with job {@code jobId}, unless it is over. */
    private void withJob(int jobId, java.util.function.Consumer<JobControl> what) {
        JobControl j = jobs.get(jobId);
        if (j != null) {
            what.accept(j);
        }
    }

    /** Whether any job is being torn down: routing-link losses are consequences then. */
    private boolean anyTerminating() { // rare (a routing link lost): a stream's cost does not matter
        return jobs.values().stream().anyMatch(JobControl::terminating);
    }

    /** The first actions, before any event: start the head's children. */
    public List<HeadAction> start() {
        actions.clear();
        if (runJob != null) {
            jobs.get(runJob.jobId()).displayMapIfAsked();
        }
        for (int d : children) {
            if (!lost[d]) {
                emit(new HeadAction.SpawnDaemon(d, nodes.get(d).name()));
            }
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
            case HeadEvent.TimerFired(HeadTimer timer, int jobId) -> timer(timer, jobId);
            case HeadEvent.Submit(JobDescription job, HeadSettings jobSettings) -> submit(job, jobSettings);
            case HeadEvent.SpawnAnswer(var request, JobDescription job, HeadSettings jobSettings, String refusal) ->
                    spawns.answered(request, job, jobSettings, refusal);
            case HeadEvent.SignalJob(int jobId, int signal) -> withJob(jobId, j -> j.userSignal(signal));
            case HeadEvent.FailJob(int jobId, int status, String why) -> withJob(jobId, j -> j.fail(status, why));
            case HeadEvent.CancelJob(int jobId, String why) ->
                    withJob(jobId, j -> j.fail(HeadSettings.DAEMON_LOST_STATUS, why));
            case HeadEvent.Stop() -> stop();
            case HeadEvent.ReleaseDaemons(List<Integer> ids) -> released.release(ids, lost)
                    .forEach(d -> router.route(new OverlayMessage.Leave(Topology.daemonOfVertex(0), d)));
            case HeadEvent.RejoinDaemons(Map<Integer, String> hosts) -> released.rejoin(hosts, lost,
                    (host, d) -> nodes.set(d, new Node(host, nodes.get(d).slots()))).forEach(this::emit);
            case HeadEvent.Route(OverlayMessage.Routed m) -> router.route(m);
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
                if (!anyTerminating() && router.lostWhileRunning(v, reason)) {
                    emit(new HeadAction.ArmTimer(HeadTimer.ROUTING_LINK_LOSS, DaemonCore.ROUTING_LOSS_GRACE_MILLIS));
                }
            }
        }
        return List.copyOf(actions);
    }

    private void fromDaemon(int d, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello h -> hello(d, h);
            case OverlayMessage.Contacts c -> {
                boolean nowAllUp = up.contactsCame(c.contacts(), daemons - released.vacantAtStart());
                if (runJob == null && !c.gpus().isEmpty()) {
                    emit(new HeadAction.GpusFound(c.gpus()));
                }
                if (released.contactsCame(d)) {
                    emit(new HeadAction.SendToDaemon(d, up.allContacts()));
                    emit(new HeadAction.DaemonRejoined(d));
                }
                if (nowAllUp) {
                    emit(new HeadAction.Milestone("all daemons up, contacts gathered"));
                    broadcast(up.allContacts());
                    if (runJob == null) {
                        emit(new HeadAction.Ready());
                    }
                }
            }
            case OverlayMessage.OutputBatch batch -> batch.chunks().forEach(o -> toJob(d, o.jobId(), o));
            case OverlayMessage.RanksExited batch -> {
                List<OverlayMessage.RankExited> taskEnds = new ArrayList<>();
                for (OverlayMessage.RankExited e : batch.exits()) {
                    if (e.jobId() == OverlayMessage.TASKS && runJob == null) {
                        taskEnds.add(e);
                    } else {
                        toJob(d, e.jobId(), e);
                    }
                }
                if (!taskEnds.isEmpty()) {
                    emit(new HeadAction.TasksEnded(taskEnds));
                }
            }
            case OverlayMessage.Output o -> toJob(d, o.jobId(), o);
            case OverlayMessage.RankExited e -> toJob(d, e.jobId(), e);
            case OverlayMessage.AbortRequest a -> toJob(d, a.jobId(), a);
            case OverlayMessage.StdinTaken t -> toJob(d, t.jobId(), t);
            case OverlayMessage.RankAlone a -> toJob(d, a.jobId(), a);
            case OverlayMessage.RankUnfinalized u -> toJob(d, u.jobId(), u);
            case OverlayMessage.FenceEnter f -> toJob(d, f.jobId(), f);
            case OverlayMessage.Routed r -> routed(r);
            case OverlayMessage.DaemonFailed f -> daemonLost(f.daemonId(), f.reason());
            case OverlayMessage.Stats st -> ending.stats(d, st.stats());
            default -> throw new IllegalStateException("the head does not expect " + message.getClass().getSimpleName());
        }
    }

    private void toJob(int d, int jobId, OverlayMessage m) {
        withJob(jobId, j -> j.message(d, m));
    }

    /** DVM: the job goes down every adopted subtree at once (all daemons are up). */
    private void submit(JobDescription job, HeadSettings jobSettings) {
        if (runJob != null || jobs.containsKey(job.jobId())) {
            throw new IllegalStateException("job " + job.jobId() + " cannot be submitted here");
        }
        startJob(job, jobSettings);
    }

    /** A job after the daemons came: down every adopted subtree at once; lost subtrees' ranks count as ended. */
    private void startJob(JobDescription job, HeadSettings jobSettings) {
        JobControl j = newJob(job, RankMap.of(job), jobSettings);
        jobs.put(job.jobId(), j);
        j.displayMapIfAsked();
        for (int d : List.copyOf(connected)) {
            j.adopted(d);
        }
        for (int d : children) {
            if (lost[d]) {
                j.daemonLost(d, host(d), "lost before the job", true);
            }
        }
    }

    /** DVM: every job killed, every daemon told to go, and the head finishes. */
    private void stop() {
        for (JobControl j : List.copyOf(jobs.values())) {
            broadcast(new OverlayMessage.KillJob(j.jobId()));
            jobFinished(j.jobId(), 128 + Signals.SIGTERM, false);
        }
        finish(0);
    }

    /** Passes a routed message on, or serves it when it is for the head (names, connects, spawns, resizes). */
    private void routed(OverlayMessage.Routed m) {
        if (router.route(m)) {
            requests.serve(m);
        }
    }

    private void hello(int d, OverlayMessage.DaemonHello h) {
        if (!up.hello(d, h.host())) {
            return;
        }
        if (connected.size() == 1) {
            emit(new HeadAction.Milestone("first daemon up"));
        }
        emit(new HeadAction.SendToDaemon(d, new OverlayMessage.Adopt(topologySpec, topology.size(),
                topology.hostsBelow(d, x -> nodes.get(x).name()), routingSpec)));
        router.opened(Topology.vertexOfDaemon(d));
        if (released.isReleased(d)) {
            return; // rejoining: no running job involves a host given back; the next ones will
        }
        for (JobControl j : List.copyOf(jobs.values())) {
            j.adopted(d);
        }
    }

    /** Daemon {@code d} is gone, and with it every daemon below it in the tree. */
    private void daemonLost(int d, String reason) {
        if (d < 0 || d >= daemons || lost[d]) {
            return;
        }
        if (released.isReleased(d)) {
            released.gone(d, lost).forEach(g -> emit(new HeadAction.DaemonReleased(g)));
            up.gone(d);
            ending.daemonLost(d);
            return;
        }
        String host = host(d);
        List<Integer> gone = new ArrayList<>();
        topology.forEachInSubtree(Topology.vertexOfDaemon(d), x -> {
            int lostId = Topology.daemonOfVertex(x);
            if (!lost[lostId]) {
                lost[lostId] = true;
                gone.add(lostId);
            }
        });
        if (runJob == null) {
            emit(new HeadAction.DaemonsLost(gone, "lost the daemon on " + host + ": " + reason));
        }
        up.gone(d);
        anyLost = true;
        if (runJob == null && !up.allUp()) { // a DVM comes up whole, as PRRTE's, or not: its wait would never end
            emit(new HeadAction.Report("the DVM cannot come up without its daemon on " + host + "; stopping"));
            finish(HeadSettings.DAEMON_LOST_STATUS);
            return;
        }
        for (JobControl j : List.copyOf(jobs.values())) {
            j.daemonLost(d, host, reason, up.allUp());
        }
        ending.daemonLost(d);
    }

    private void userSignal(int signal) {
        boolean ending = Signals.ends(signal);
        if (runJob == null) {
            if (ending) {
                stop();
            }
            return;
        }
        JobControl job = jobs.get(runJob.jobId());
        if (connected.isEmpty()) {
            if (signal == Signals.SIGTSTP) {
                emit(new HeadAction.Suspend());
            } else if (ending && job != null) {
                job.fail(128 + signal, "received " + Signals.name(signal) + " before the job started");
                finish(128 + signal);
            }
            return;
        }
        // Ctrl-Z: the ranks lead process groups of their own, so the terminal stops only this
        // process; they are stopped as Open MPI's forwarding does (SIGSTOP, which no program can
        // ignore), then the driver stops this process. The shell's SIGCONT (fg, bg) comes here
        // alone and is passed on.
        int forwarded = signal == Signals.SIGTSTP ? Signals.SIGSTOP : signal;
        for (JobControl j : List.copyOf(jobs.values())) {
            j.userSignal(forwarded);
        }
        if (signal == Signals.SIGTSTP) {
            emit(new HeadAction.Suspend());
        }
    }

    private void timer(HeadTimer timer, int jobId) {
        switch (timer) {
            case DAEMON_START -> {
                if (!up.allUp()) {
                    List<String> missing = up.missing(lost);
                    if (!missing.isEmpty()) {
                        emit(new HeadAction.Report((runJob == null ? "" : "banyan run: ") + "no daemon connected within "
                                + settings.daemonStartMillis() / 1000.0 + " s from " + HostNames.summarize(missing)));
                        if (runJob != null && !jobs.isEmpty()) {
                            List.copyOf(jobs.values()).forEach(j -> j.abandon(HeadSettings.DAEMON_LOST_STATUS));
                        } else {
                            finish(HeadSettings.DAEMON_LOST_STATUS);
                        }
                    }
                }
            }
            case JOB_TIMEOUT, TEARDOWN_DEADLINE, SIGNAL_ECHO -> withJob(jobId, j -> j.timer(timer));
            case STATS_DEADLINE -> ending.deadline();
            case NAME_WAIT -> requests.nameWaitExpired(jobId); // the timer carries the wait's id
            case ROUTING_LINK_LOSS -> {
                // The spawn tree names a dead daemon's real cause within the wait; a loss still
                // unexplained now is the loss of the daemon at the link's other end.
                for (Map.Entry<Integer, String> e : router.takeUnexplainedLosses().entrySet()) {
                    if (!anyTerminating()) {
                        daemonLost(Topology.daemonOfVertex(e.getKey()), "routing link closed: " + e.getValue());
                    }
                }
            }
        }
    }

    /**
     * A job is over. A DVM says so and goes on; a run gathers the launch report first when asked
     * and every daemon is still there, then finishes.
     */
    private void jobFinished(int jobId, int status, boolean allReported) {
        requests.jobOver(jobId);
        jobs.remove(jobId);
        SpawnedJobs.Ended e = spawns.ended(jobId, status, Set.copyOf(jobs.keySet()));
        for (int other : e.toFail()) {
            JobControl j = jobs.get(other);
            if (j != null) {
                j.fail(status, "job " + jobId + " failed; ending job " + other);
            }
        }
        if (runJob == null) {
            // the daemons let go of it; its client hears of its family's end
            broadcast(new OverlayMessage.ForgetJob(jobId));
            if (e.spawned()) {
                emit(new HeadAction.JobEnded(jobId, status));
            }
            if (e.familyStatus() != null) {
                emit(new HeadAction.JobEnded(e.root(), e.familyStatus()));
            }
            return;
        }
        // A run is one family: it ends with its last job
        ending.jobEnded(status, allReported, e.familyStatus(), anyLost ? List.of() : List.copyOf(connected));
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
        return up.host(daemon);
    }

    private void emit(HeadAction a) {
        actions.add(a);
    }
}
