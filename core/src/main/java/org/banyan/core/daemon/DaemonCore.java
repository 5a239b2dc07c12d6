package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.banyan.core.job.FenceData;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.ProcessTable;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of one node daemon, without sockets, threads or clocks: one {@link #handle}
 * that dispatches each event to the protocol it belongs to, one class each —
 * {@link ChildTree} (adoption and tree spawn), {@link ContactGather} (phase 2),
 * {@link RankEnvironment} (the local share of the job: phase 3), {@link DaemonFence},
 * {@link DaemonRouting} (daemon-to-daemon messages), {@link StdinRelay}, the launch statistics
 * ({@link TreeGather}), and the teardown kept here.
 *
 * <p>A daemon is a vertex of the overlay tree. Once its parent adopts it it starts its own
 * children, gathers the contacts of its subtree and sends them up in one message; it maps its
 * own ranks from the job description and starts them as soon as the description arrives, while
 * phase 2 goes on. Upward traffic of its subtree (output, rank ends, aborts, failures) is
 * relayed; downward traffic is flooded to the children, or routed towards the one daemon it
 * concerns (stdin).
 */
public final class DaemonCore {
    /** Grace between SIGTERM and SIGKILL when the parent is gone and cannot say. */
    static final int TERM_GRACE_WITHOUT_PARENT_MILLIS = 2000;
    /** How long a closed routing link waits for the spawn tree to report a failure first. */
    public static final int ROUTING_LOSS_GRACE_MILLIS = 1000;

    private final int daemonId;
    private final String contact;
    private final String pmiAddress;
    private final String daemonUri;
    private final String processTablePath;
    private final Supplier<DaemonStats> statsProbe;
    private final DaemonOutbox out = new DaemonOutbox();
    private final ChildTree tree;
    private final ContactGather contacts;
    private final DaemonRouting routing;
    private final DaemonFence fence;
    private final StdinRelay stdin;
    private final ExitBatch exits;
    private TreeGather<Map<Integer, DaemonStats>> stats;

    // The job.
    private JobDescription job;
    private RankMap map;
    private PmiServer pmi;
    private final Set<Integer> running = new LinkedHashSet<>();

    // Ending.
    private Integer terminateGrace;
    private boolean killed;
    private boolean terminating;
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
                      Supplier<DaemonStats> statsProbe) {
        this(daemonId, contact, pmiAddress, daemonUri, statsProbe, null);
    }

    /**
     * @param processTablePath where the node-local process table goes (a file in shared memory),
     *                         given to ranks as BANYAN_PROCTABLE; null for none
     */
    public DaemonCore(int daemonId, String contact, String pmiAddress, String daemonUri,
                      Supplier<DaemonStats> statsProbe, String processTablePath) {
        this.processTablePath = processTablePath;
        this.statsProbe = statsProbe;
        this.daemonId = daemonId;
        this.contact = contact;
        this.pmiAddress = pmiAddress;
        this.daemonUri = daemonUri;
        this.tree = new ChildTree(daemonId, out);
        this.contacts = new ContactGather(out);
        this.routing = new DaemonRouting(tree, out);
        this.fence = new DaemonFence(daemonId, out);
        this.stdin = new StdinRelay(tree, out);
        this.exits = new ExitBatch(out);
    }

    /** Handles one event and returns what the driver must do, in order. */
    public List<DaemonAction> handle(DaemonEvent event) {
        if (exited) {
            return List.of();
        }
        switch (event) {
            case DaemonEvent.FromParent(OverlayMessage message) -> fromParent(message);
            case DaemonEvent.ParentLost lost -> {
                out.parentGone();
                if (tree.adopted()) {
                    routing.closed(tree.parentVertex());
                }
                out.flood(new OverlayMessage.TerminateJob(TERM_GRACE_WITHOUT_PARENT_MILLIS));
                terminate(TERM_GRACE_WITHOUT_PARENT_MILLIS);
                exitIfIdle();
            }
            case DaemonEvent.FromChild(int child, OverlayMessage message) -> fromChild(child, message);
            case DaemonEvent.ChildLost(int child, String reason) -> childLost(child, reason);
            case DaemonEvent.RankEnded ended -> {
                if (running.remove(ended.rank())) {
                    if (pmi != null) {
                        pmi.onRankEnded(ended.rank());
                    }
                    exits.add(new OverlayMessage.RankExited(ended.rank(), ended.status(), ended.note()));
                }
                if (out.isParentGone()) {
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
            case DaemonEvent.PeerUp(int v) -> routing.peerUp(v);
            case DaemonEvent.FromPeer(int v, OverlayMessage message) -> {
                if (message instanceof OverlayMessage.Routed r) {
                    routing.routed(r, endpoint());
                }
            }
            case DaemonEvent.PeerLost(int v, String reason) -> {
                if (routing.peerLost(v, reason, ending())) {
                    out.emit(new DaemonAction.ArmTimer(DaemonTimer.ROUTING_LINK_LOSS, ROUTING_LOSS_GRACE_MILLIS));
                }
            }
            case DaemonEvent.TimerFired(DaemonTimer timer) -> {
                if (timer == DaemonTimer.KILL_GRACE) {
                    signalAll(Signals.SIGKILL);
                } else if (timer == DaemonTimer.EXIT_BATCH) {
                    exits.timerFired();
                } else if (timer == DaemonTimer.ROUTING_LINK_LOSS) {
                    for (Map.Entry<Integer, String> e : routing.takeUnexplainedLosses().entrySet()) {
                        if (!ending()) {
                            int d = Topology.daemonOfVertex(e.getKey());
                            out.up(new OverlayMessage.DaemonFailed(d, tree.hostOf(d, job),
                                    "routing link closed: " + e.getValue()));
                        }
                    }
                }
            }
        }
        return out.drain();
    }

    private void fromParent(OverlayMessage message) {
        switch (message) {
            case OverlayMessage.Adopt adopt -> adopt(adopt);
            case OverlayMessage.LaunchJob(JobDescription j) -> {
                launch(j);
                for (int c : out.connectedChildren()) {
                    out.toChild(c, message);
                }
            }
            case OverlayMessage.AllContacts all -> {
                contacts.all(all);
                routing.dialParent(all);
            }
            case OverlayMessage.Routed r -> routing.routed(r, endpoint());
            case OverlayMessage.StdinData s -> stdin.relay(s, map, running);
            case OverlayMessage.SignalRanks(int signal) -> {
                out.flood(message);
                signalAll(signal);
            }
            case OverlayMessage.TerminateJob(int grace) -> {
                terminateGrace = grace;
                out.flood(message);
                terminate(grace);
            }
            case OverlayMessage.KillJob k -> {
                killed = true;
                out.flood(message);
                signalAll(Signals.SIGKILL);
            }
            case OverlayMessage.FenceRelease release -> fence.release(release, pmi);
            case OverlayMessage.Shutdown s -> {
                out.flood(message);
                signalAll(Signals.SIGKILL);
                exit();
            }
            case OverlayMessage.CollectStats c -> {
                if (stats == null) {
                    stats = new TreeGather<>(List.copyOf(out.connectedChildren()), true, Map.of(), DaemonCore::mergeStats);
                    out.flood(message);
                    if (stats.local(Map.of())) {
                        sendStats();
                    }
                }
            }
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName()
                    + " from its parent");
        }
    }

    private void adopt(OverlayMessage.Adopt adopt) {
        if (!tree.adopt(adopt)) {
            return;
        }
        routing.start();
        contacts.start(daemonId, contact, tree.children());
        for (int child : tree.takeEarlyHellos()) {
            childHello(child);
        }
        contacts.maybeSend();
    }

    private void fromChild(int child, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello hello -> childHello(child);
            case OverlayMessage.Contacts c -> contacts.fromChild(child, c);
            case OverlayMessage.FenceEnter f -> fence.fromChild(child, f);
            case OverlayMessage.Stats st -> {
                if (stats != null && stats.fromChild(child, st.stats())) {
                    sendStats();
                }
            }
            case OverlayMessage.Output o -> out.up(o);
            case OverlayMessage.OutputBatch o -> out.up(o);
            case OverlayMessage.RankExited e -> exits.add(e);
            case OverlayMessage.RanksExited batch -> batch.exits().forEach(exits::add);
            case OverlayMessage.AbortRequest a -> out.up(a);
            case OverlayMessage.DaemonFailed f -> out.up(f);
            case OverlayMessage.Routed r -> routing.routed(r, endpoint());
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName()
                    + " from a child");
        }
    }

    /** A child said hello: adopt it, and tell it what it missed. */
    private void childHello(int child) {
        if (!tree.hello(child)) {
            return;
        }
        if (job != null) {
            out.toChild(child, new OverlayMessage.LaunchJob(job));
        }
        contacts.catchUp(child);
        if (killed) {
            out.toChild(child, new OverlayMessage.KillJob());
        } else if (terminateGrace != null) {
            out.toChild(child, new OverlayMessage.TerminateJob(terminateGrace));
        }
        stdin.catchUp(child);
        routing.opened(Topology.vertexOfDaemon(child));
    }

    private void childLost(int child, String reason) {
        if (!tree.lost(child)) {
            return;
        }
        routing.closed(Topology.vertexOfDaemon(child));
        out.up(new OverlayMessage.DaemonFailed(child, tree.hostOf(child, job), reason));
        fence.childLost(child);
        if (stats != null && stats.childLost(child)) {
            sendStats();
        }
    }

    private static Map<Integer, DaemonStats> mergeStats(Map<Integer, DaemonStats> a, Map<Integer, DaemonStats> b) {
        Map<Integer, DaemonStats> m = new TreeMap<>(a);
        m.putAll(b);
        return m;
    }

    /** This daemon's own figures are read last, when the subtree's have come. */
    private void sendStats() {
        Map<Integer, DaemonStats> all = mergeStats(stats.result(), Map.of(daemonId, statsProbe.get()));
        out.up(new OverlayMessage.Stats(Map.copyOf(all)));
        stats = null;
    }

    private void launch(JobDescription j) {
        if (job != null) {
            return;
        }
        job = j;
        map = RankMap.of(job);
        List<RankLaunch> launches = RankEnvironment.launches(job, map, daemonId, pmiAddress, daemonUri,
                processTablePath);
        List<Integer> childrenWithRanks = new ArrayList<>();
        for (int c : tree.children()) {
            if (tree.topology().anyInSubtree(Topology.vertexOfDaemon(c), x -> map.ranksOn(Topology.daemonOfVertex(x)) > 0)) {
                childrenWithRanks.add(c);
            }
        }
        fence.start(tree, childrenWithRanks, !launches.isEmpty());
        int[] subtreeRanks = {0};
        tree.topology().forEachInSubtree(tree.vertex(), x -> subtreeRanks[0] += map.ranksOn(Topology.daemonOfVertex(x)));
        exits.start(subtreeRanks[0]);
        Set<Integer> local = new LinkedHashSet<>();
        for (RankLaunch l : launches) {
            local.add(l.rank());
        }
        pmi = new PmiServer(map, local, daemonId, out::emit, new PmiServer.Daemon() {
            @Override
            public void fenceReady(Map<String, String> puts, Map<String, Integer> owners) {
                fence.localReady(new FenceData(puts, owners));
            }

            @Override
            public void fetch(int owner, String key) {
                routing.fetch(owner, key);
            }

            @Override
            public void nameRequest(int request, int op, String name, String port) {
                routing.nameRequest(request, op, name, port);
            }
        });
        if (processTablePath != null && !launches.isEmpty()) {
            out.emit(new DaemonAction.WriteProcessTable(processTablePath, ProcessTable.encode(map)));
        }
        for (RankLaunch l : launches) {
            running.add(l.rank());
            out.emit(new DaemonAction.StartRank(l));
        }
    }

    /** What routed messages ending here are for: the PMI server, once the job is known. */
    private DaemonRouting.Endpoint endpoint() {
        if (pmi == null) {
            return null;
        }
        return new DaemonRouting.Endpoint() {
            @Override
            public String localValue(String key) {
                return pmi.localValue(key);
            }

            @Override
            public void fetched(String key, String value) {
                pmi.onFetched(key, value);
            }

            @Override
            public void nameReply(int request, int op, boolean ok, String portOrReason) {
                pmi.onNameReply(request, op, ok, portOrReason);
            }
        };
    }

    /** Whether the job is ending here: losses are consequences then, not news. */
    private boolean ending() {
        return terminating || out.isParentGone() || killed;
    }

    private void terminate(int graceMillis) {
        if (terminating) {
            return;
        }
        terminating = true;
        if (!running.isEmpty()) {
            signalAll(Signals.SIGTERM);
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, graceMillis));
        }
    }

    private void signalAll(int signal) {
        for (int rank : running) {
            out.emit(new DaemonAction.SignalRank(rank, signal));
        }
    }

    private void exitIfIdle() {
        if (running.isEmpty()) {
            exit();
        }
    }

    private void exit() {
        if (!exited) {
            exits.flush();
            out.emit(new DaemonAction.Exit());
            exited = true;
        }
    }
}
