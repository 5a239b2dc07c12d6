package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Modex;
import org.banyan.core.job.RankMap;
import org.banyan.core.route.OverlayRouter;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of one node daemon, without sockets, threads or clocks.
 *
 * <p>A daemon is a vertex of the overlay tree. Once its parent adopts it (telling it the tree
 * and the hosts below it) it starts its own children (tree spawn), gathers the contacts of its
 * subtree and sends them up in one message (phase 2); it maps its own ranks from the job
 * description and starts them as soon as the description arrives, while phase 2 goes on
 * (phase 3). Upward traffic of its subtree (output, rank ends, aborts, failures) is relayed;
 * fences are aggregated, one message up and one down per link; downward traffic is flooded to
 * the children, or routed towards the one daemon it concerns (stdin).
 *
 * <p>Daemon-to-daemon messages ({@link OverlayMessage.Routed}: lazy key fetches) follow the
 * routing topology instead, which may differ from the spawn tree: once phase 2 has brought
 * every contact, a daemon whose routing parent is not a spawn neighbour dials it.
 */
public final class DaemonCore {
    /** Grace between SIGTERM and SIGKILL when the parent is gone and cannot say. */
    static final int TERM_GRACE_WITHOUT_PARENT_MILLIS = 2000;
    /** How long a closed routing link waits for the spawn tree to report a failure first. */
    public static final int ROUTING_LOSS_GRACE_MILLIS = 1000;

    private final int daemonId;
    private final int vertex;
    private final String contact;
    private final String pmiAddress;
    private final String daemonUri;
    private final String processTablePath;
    private final List<DaemonAction> actions = new ArrayList<>();
    private final java.util.function.Supplier<DaemonStats> statsProbe;
    private final Map<Integer, DaemonStats> statsGathered = new TreeMap<>();
    private final Set<Integer> statsPending = new HashSet<>();
    private boolean collectingStats;
    private final Set<Integer> running = new LinkedHashSet<>();

    // The tree, from Adopt.
    private String topologySpec;
    private Topology topology;
    private Map<Integer, String> hostsBelow = Map.of();
    private final List<Integer> children = new ArrayList<>();
    private final Set<Integer> connected = new LinkedHashSet<>();
    private final Set<Integer> lostChildren = new HashSet<>();
    /** Children that said hello before this daemon was adopted itself. */
    private final List<Integer> earlyHellos = new ArrayList<>();
    private String routingSpec;
    private Topology routing;
    private OverlayRouter router;
    /** Routing neighbours joined by a link of their own (not a spawn link), by vertex. */
    private final Set<Integer> peers = new HashSet<>();
    private int nextFetch;
    /** Stdin for a child that has not said hello yet, in order. */
    private final Map<Integer, List<OverlayMessage.StdinData>> heldStdin = new HashMap<>();

    // Phase 2.
    private final Map<Integer, String> gathered = new TreeMap<>();
    private final Set<Integer> contactsPending = new HashSet<>();
    private boolean contactsSent;
    private OverlayMessage.AllContacts allContacts;

    // The job.
    private JobDescription job;
    private RankMap map;
    private PmiServer pmi;
    private int localRanks;
    private final List<Integer> fenceChildren = new ArrayList<>();
    private int fenceSeq;
    private Map<String, String> fencePuts = new LinkedHashMap<>();
    private Map<String, Integer> fenceOwners = new LinkedHashMap<>();
    private boolean localInFence;
    private final Set<Integer> childrenInFence = new HashSet<>();

    // Ending.
    private Integer terminateGrace;
    private boolean killed;
    private boolean terminating;
    private boolean parentGone;
    private boolean exited;

    /**
     * @param contact    where this daemon listens for its children, {@code host:port}
     * @param pmiAddress {@code host:port} of this daemon's PMI listener, given to ranks as PMI_PORT
     * @param daemonUri  how local clients reach this daemon, given to ranks as BANYAN_DAEMON_URI
     */
    public DaemonCore(int daemonId, String contact, String pmiAddress, String daemonUri) {
        this(daemonId, contact, pmiAddress, daemonUri, () -> new DaemonStats(0, 0, 0, 0, 0));
    }

    /** @param statsProbe this daemon's own measurements, read when the head collects stats */
    public DaemonCore(int daemonId, String contact, String pmiAddress, String daemonUri,
                      java.util.function.Supplier<DaemonStats> statsProbe) {
        this(daemonId, contact, pmiAddress, daemonUri, statsProbe, null);
    }

    /**
     * @param processTablePath where the node-local process table goes (a file in shared memory),
     *                         given to ranks as BANYAN_PROCTABLE; null for none
     */
    public DaemonCore(int daemonId, String contact, String pmiAddress, String daemonUri,
                      java.util.function.Supplier<DaemonStats> statsProbe, String processTablePath) {
        this.processTablePath = processTablePath;
        this.statsProbe = statsProbe;
        this.daemonId = daemonId;
        this.vertex = Topology.vertexOfDaemon(daemonId);
        this.contact = contact;
        this.pmiAddress = pmiAddress;
        this.daemonUri = daemonUri;
    }

    /** Handles one event and returns what the driver must do, in order. */
    public List<DaemonAction> handle(DaemonEvent event) {
        actions.clear();
        if (exited) {
            return List.of();
        }
        switch (event) {
            case DaemonEvent.FromParent(OverlayMessage message) -> fromParent(message);
            case DaemonEvent.ParentLost lost -> {
                parentGone = true;
                if (router != null) {
                    router.closed(topology.parent(vertex));
                }
                flood(new OverlayMessage.TerminateJob(TERM_GRACE_WITHOUT_PARENT_MILLIS));
                terminate(TERM_GRACE_WITHOUT_PARENT_MILLIS);
                exitIfIdle();
            }
            case DaemonEvent.FromChild(int child, OverlayMessage message) -> fromChild(child, message);
            case DaemonEvent.ChildLost(int child, String reason) -> {
                if (lostChildren.add(child) && !exited) {
                    connected.remove(child);
                    if (router != null) {
                        router.closed(Topology.vertexOfDaemon(child));
                    }
                    up(new OverlayMessage.DaemonFailed(child, hostOf(child), reason));
                }
            }
            case DaemonEvent.RankEnded ended -> {
                if (running.remove(ended.rank())) {
                    if (pmi != null) {
                        pmi.onRankEnded(ended.rank());
                    }
                    up(new OverlayMessage.RankExited(ended.rank(), ended.status(), ended.note()));
                }
                if (parentGone) {
                    exitIfIdle();
                }
            }
            case DaemonEvent.PmiLine(int conn, String line) -> {
                if (pmi != null) {
                    pmi.onLine(conn, line);
                }
            }
            case DaemonEvent.PmiFrame(int conn, String body) -> {
                if (pmi != null) {
                    pmi.onFrame(conn, body);
                }
            }
            case DaemonEvent.PmiClosed(int conn) -> {
                if (pmi != null) {
                    pmi.onConnClosed(conn);
                }
            }
            case DaemonEvent.PeerUp(int v) -> {
                peers.add(v);
                if (router != null) {
                    router.opened(v);
                }
            }
            case DaemonEvent.FromPeer(int v, OverlayMessage message) -> {
                if (message instanceof OverlayMessage.Routed r) {
                    routed(r);
                }
            }
            case DaemonEvent.PeerLost(int v, String reason) -> {
                peers.remove(v);
                if (router != null) {
                    router.closed(v);
                }
                if (v > 0 && router != null && !terminating && !parentGone && !killed
                        && router.lostWhileRunning(v, reason)) {
                    emit(new DaemonAction.ArmTimer(DaemonTimer.ROUTING_LINK_LOSS, ROUTING_LOSS_GRACE_MILLIS));
                }
            }
            case DaemonEvent.TimerFired(DaemonTimer timer) -> {
                if (timer == DaemonTimer.KILL_GRACE) {
                    signalAll(Signals.SIGKILL);
                } else if (timer == DaemonTimer.ROUTING_LINK_LOSS) {
                    for (Map.Entry<Integer, String> e : router.takeUnexplainedLosses().entrySet()) {
                        if (!terminating && !parentGone && !killed) {
                            int d = Topology.daemonOfVertex(e.getKey());
                            up(new OverlayMessage.DaemonFailed(d, hostOf(d), "routing link closed: " + e.getValue()));
                        }
                    }
                }
            }
        }
        return List.copyOf(actions);
    }

    private void fromParent(OverlayMessage message) {
        switch (message) {
            case OverlayMessage.Adopt adopt -> adopt(adopt);
            case OverlayMessage.LaunchJob(JobDescription j) -> {
                launch(j);
                for (int c : connected) {
                    emit(new DaemonAction.SendToChild(c, message));
                }
            }
            case OverlayMessage.AllContacts all -> {
                allContacts = all;
                flood(all);
                dialRoutingParent(all);
            }
            case OverlayMessage.Routed r -> routed(r);
            case OverlayMessage.StdinData stdin -> stdin(stdin);
            case OverlayMessage.SignalRanks(int signal) -> {
                flood(message);
                signalAll(signal);
            }
            case OverlayMessage.TerminateJob(int grace) -> {
                terminateGrace = grace;
                flood(message);
                terminate(grace);
            }
            case OverlayMessage.KillJob k -> {
                killed = true;
                flood(message);
                signalAll(Signals.SIGKILL);
            }
            case OverlayMessage.FenceRelease release -> {
                fenceOwners = new LinkedHashMap<>();
                for (int c : fenceChildren) {
                    if (connected.contains(c)) {
                        emit(new DaemonAction.SendToChild(c, release));
                    }
                }
                if (pmi != null) {
                    pmi.onFenceRelease(release);
                }
                fenceSeq++;
                fencePuts = new LinkedHashMap<>();
                localInFence = false;
                childrenInFence.clear();
            }
            case OverlayMessage.Shutdown s -> {
                flood(message);
                signalAll(Signals.SIGKILL);
                exit();
            }
            case OverlayMessage.CollectStats c -> {
                if (!collectingStats) {
                    collectingStats = true;
                    statsPending.addAll(connected);
                    flood(message);
                    maybeSendStats();
                }
            }
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName()
                    + " from its parent");
        }
    }

    private void adopt(OverlayMessage.Adopt adopt) {
        if (topology != null) {
            return;
        }
        topologySpec = adopt.topology();
        topology = Topology.parse(adopt.topology(), adopt.vertices());
        hostsBelow = adopt.hostsBelow();
        routingSpec = adopt.routing();
        routing = Topology.parse(routingSpec, adopt.vertices());
        router = new OverlayRouter(routing, vertex, new OverlayRouter.Links() {
            @Override
            public boolean isOpen(int v) {
                if (v == topology.parent(vertex)) {
                    return !parentGone;
                }
                if (topology.parent(v) == vertex) {
                    return connected.contains(Topology.daemonOfVertex(v));
                }
                return peers.contains(v);
            }

            @Override
            public void send(int v, OverlayMessage.Routed m) {
                if (v == topology.parent(vertex)) {
                    up(m);
                } else if (topology.parent(v) == vertex) {
                    emit(new DaemonAction.SendToChild(Topology.daemonOfVertex(v), m));
                } else {
                    emit(new DaemonAction.SendToPeer(v, m));
                }
            }
        });
        gathered.put(daemonId, contact);
        for (int v : topology.children(vertex)) {
            int child = Topology.daemonOfVertex(v);
            children.add(child);
            contactsPending.add(child);
            emit(new DaemonAction.SpawnChild(child, hostOf(child)));
        }
        for (int child : earlyHellos) {
            childHello(child);
        }
        earlyHellos.clear();
        maybeSendContacts();
    }

    private void fromChild(int child, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello hello -> {
                if (topology == null) {
                    // A child started with this daemon by one Slurm step can be quicker than the
                    // adoption of its parent: it is adopted in turn once this daemon is.
                    earlyHellos.add(child);
                    return;
                }
                childHello(child);
            }
            case OverlayMessage.Contacts c -> {
                gathered.putAll(c.contacts());
                contactsPending.remove(child);
                maybeSendContacts();
            }
            case OverlayMessage.FenceEnter f -> {
                if (f.seq() == fenceSeq && childrenInFence.add(child)) {
                    fencePuts.putAll(f.puts());
                    fenceOwners.putAll(f.owners());
                    maybeEnterFence();
                }
            }
            case OverlayMessage.Stats st -> {
                statsGathered.putAll(st.stats());
                statsPending.remove(child);
                maybeSendStats();
            }
            case OverlayMessage.Output o -> up(o);
            case OverlayMessage.OutputBatch o -> up(o);
            case OverlayMessage.RankExited e -> up(e);
            case OverlayMessage.AbortRequest a -> up(a);
            case OverlayMessage.DaemonFailed f -> up(f);
            case OverlayMessage.Routed r -> routed(r);
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName()
                    + " from a child");
        }
    }

    /**
     * Dials the routing parent when no spawn link joins them already; the routing children
     * that are not spawn neighbours dial this daemon the same way.
     */
    private void dialRoutingParent(OverlayMessage.AllContacts all) {
        int rp = router.parent();
        if (rp < 0 || rp == topology.parent(vertex) || topology.parent(rp) == vertex || peers.contains(rp)) {
            return;
        }
        String c = all.contacts().get(Topology.daemonOfVertex(rp));
        if (c != null) {
            emit(new DaemonAction.ConnectPeer(rp, c));
        }
    }

    private void routed(OverlayMessage.Routed m) {
        if (router == null || !router.route(m)) {
            return;
        }
        switch (m) {
            case OverlayMessage.KvsFetch f -> router.route(new OverlayMessage.KvsFetched(daemonId, f.from(), f.request(),
                    f.key(), pmi == null ? null : pmi.localValue(f.key())));
            case OverlayMessage.KvsFetched f -> {
                if (pmi != null) {
                    pmi.onFetched(f.key(), f.value());
                }
            }
            case OverlayMessage.NameReply r -> {
                if (pmi != null) {
                    pmi.onNameReply(r.request(), r.op(), r.ok(), r.portOrReason());
                }
            }
            case OverlayMessage.NameRequest r -> {
                // Only the head serves names; a request cannot end its route at a daemon.
            }
        }
    }

    /** PmiServer: a get needs the value of {@code key}, held by daemon {@code owner}. */
    private void fetch(int owner, String key) {
        router.route(new OverlayMessage.KvsFetch(daemonId, owner, nextFetch++, key));
    }

    /** A child said hello: adopt it, and tell it what it missed. */
    private void childHello(int child) {
        connected.add(child);
        emit(new DaemonAction.SendToChild(child, new OverlayMessage.Adopt(topologySpec, topology.size(),
                topology.hostsBelow(child, hostsBelow::get), routingSpec)));
        if (job != null) {
            emit(new DaemonAction.SendToChild(child, new OverlayMessage.LaunchJob(job)));
        }
        if (allContacts != null) {
            emit(new DaemonAction.SendToChild(child, allContacts));
        }
        if (killed) {
            emit(new DaemonAction.SendToChild(child, new OverlayMessage.KillJob()));
        } else if (terminateGrace != null) {
            emit(new DaemonAction.SendToChild(child, new OverlayMessage.TerminateJob(terminateGrace)));
        }
        for (OverlayMessage.StdinData held : heldStdin.getOrDefault(child, List.of())) {
            emit(new DaemonAction.SendToChild(child, held));
        }
        heldStdin.remove(child);
        router.opened(Topology.vertexOfDaemon(child));
    }

    private void maybeSendStats() {
        if (collectingStats && statsPending.isEmpty()) {
            collectingStats = false;
            statsGathered.put(daemonId, statsProbe.get());
            up(new OverlayMessage.Stats(Map.copyOf(statsGathered)));
            statsGathered.clear();
        }
    }

    private void maybeSendContacts() {
        if (!contactsSent && contactsPending.isEmpty()) {
            contactsSent = true;
            up(new OverlayMessage.Contacts(Map.copyOf(gathered)));
        }
    }

    private void launch(JobDescription j) {
        if (job != null) {
            return;
        }
        job = j;
        map = RankMap.of(job);
        int[] mine = map.ranksOf(daemonId);
        localRanks = mine.length;
        for (int c : children) {
            if (subtreeHasRanks(Topology.vertexOfDaemon(c))) {
                fenceChildren.add(c);
            }
        }
        Set<Integer> local = new LinkedHashSet<>();
        for (int r : mine) {
            local.add(r);
        }
        pmi = new PmiServer(map, local, daemonId, this::emit, new PmiServer.Daemon() {
            @Override
            public void fenceReady(Map<String, String> puts, Map<String, Integer> owners) {
                localFenceReady(puts, owners);
            }

            @Override
            public void fetch(int owner, String key) {
                DaemonCore.this.fetch(owner, key);
            }

            @Override
            public void nameRequest(int request, int op, String name, String port) {
                router.route(new OverlayMessage.NameRequest(daemonId, Topology.daemonOfVertex(0), request, op, name,
                        port));
            }
        });
        String host = job.nodes().get(daemonId).name();
        if (processTablePath != null && mine.length > 0) {
            emit(new DaemonAction.WriteProcessTable(processTablePath, org.banyan.core.job.ProcessTable.encode(map)));
        }
        for (int rank : mine) {
            AppContext app = job.apps().get(map.appOf(rank));
            Map<String, String> env = new HashMap<>(app.env());
            String r = Integer.toString(rank);
            String size = Integer.toString(map.size());
            String localRank = Integer.toString(map.localRankOf(rank));
            env.put("PMI_PORT", pmiAddress);
            env.put("PMI_ID", r);
            env.put("PMI_RANK", r);
            env.put("PMI_SIZE", size);
            env.put("MPI_LOCALNRANKS", Integer.toString(localRanks));
            env.put("MPI_LOCALRANKID", localRank);
            env.put("OMPI_COMM_WORLD_RANK", r);
            env.put("OMPI_COMM_WORLD_SIZE", size);
            env.put("OMPI_COMM_WORLD_LOCAL_RANK", localRank);
            env.put("OMPI_COMM_WORLD_LOCAL_SIZE", Integer.toString(localRanks));
            env.put("BANYAN_RANK", r);
            env.put("BANYAN_SIZE", size);
            env.put("BANYAN_LOCAL_RANK", localRank);
            env.put("BANYAN_NODE_RANK", Integer.toString(daemonId));
            env.put("BANYAN_JOBID", Integer.toString(job.jobId()));
            env.put("BANYAN_APPNUM", Integer.toString(map.appOf(rank)));
            env.put("BANYAN_DAEMON_URI", daemonUri);
            if (processTablePath != null) {
                env.put("BANYAN_PROCTABLE", processTablePath);
            }
            // As Hydra sets them: unbuffered Fortran output, and MPICH ch3's idea of the host name.
            env.put("GFORTRAN_UNBUFFERED_PRECONNECTED", "y");
            env.put("MPIR_CVAR_CH3_INTERFACE_HOSTNAME", host);
            running.add(rank);
            boolean explicit = app.workdir() != null;
            emit(new DaemonAction.StartRank(new RankLaunch(rank, app.executable(), app.args(), env,
                    explicit ? app.workdir() : job.launchDir(), explicit, rank == job.stdinRank())));
        }
    }

    /** Whether any daemon at or below vertex {@code v} hosts a rank (it then takes part in fences). */
    private boolean subtreeHasRanks(int v) {
        return topology.anyInSubtree(v, x -> map.ranksOn(Topology.daemonOfVertex(x)) > 0);
    }

    /** PmiServer: every local rank entered the fence. */
    private void localFenceReady(Map<String, String> puts, Map<String, Integer> owners) {
        localInFence = true;
        fencePuts.putAll(puts);
        fenceOwners.putAll(owners);
        maybeEnterFence();
    }

    private void maybeEnterFence() {
        if (localRanks > 0 && !localInFence) {
            return;
        }
        for (int c : fenceChildren) {
            if (!childrenInFence.contains(c)) {
                return;
            }
        }
        if (localRanks == 0 && childrenInFence.isEmpty()) {
            return;
        }
        up(new OverlayMessage.FenceEnter(daemonId, fenceSeq, fencePuts, fenceOwners));
        fencePuts = new LinkedHashMap<>();
        fenceOwners = new LinkedHashMap<>();
    }

    private void stdin(OverlayMessage.StdinData stdin) {
        if (map == null) {
            return;
        }
        int owner = map.nodeOf(stdin.rank());
        if (owner == daemonId) {
            if (running.contains(stdin.rank())) {
                emit(new DaemonAction.WriteStdin(stdin.rank(), stdin.data()));
            }
        } else {
            int next = topology.nextHop(vertex, Topology.vertexOfDaemon(owner));
            if (next > 0) {
                int child = Topology.daemonOfVertex(next);
                if (connected.contains(child)) {
                    emit(new DaemonAction.SendToChild(child, stdin));
                } else if (!lostChildren.contains(child)) {
                    heldStdin.computeIfAbsent(child, c -> new ArrayList<>()).add(stdin);
                }
            }
        }
    }

    private String hostOf(int daemon) {
        String h = hostsBelow.get(daemon);
        if (h == null && job != null && daemon >= 0 && daemon < job.nodes().size()) {
            h = job.nodes().get(daemon).name();
        }
        return h != null ? h : "daemon " + daemon;
    }

    private void flood(OverlayMessage m) {
        for (int c : connected) {
            emit(new DaemonAction.SendToChild(c, m));
        }
    }

    private void up(OverlayMessage m) {
        if (!parentGone) {
            emit(new DaemonAction.SendToParent(m));
        }
    }

    private void terminate(int graceMillis) {
        if (terminating) {
            return;
        }
        terminating = true;
        if (!running.isEmpty()) {
            signalAll(Signals.SIGTERM);
            emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, graceMillis));
        }
    }

    private void signalAll(int signal) {
        for (int rank : running) {
            emit(new DaemonAction.SignalRank(rank, signal));
        }
    }

    private void exitIfIdle() {
        if (running.isEmpty()) {
            exit();
        }
    }

    private void exit() {
        if (!exited) {
            emit(new DaemonAction.Exit());
            exited = true;
        }
    }

    private void emit(DaemonAction action) {
        actions.add(action);
    }
}
