package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TreeGather;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.topo.CpuBinding;

/**
 * The protocol logic of one node daemon, without sockets, threads or clocks: one {@link #handle}
 * that dispatches each event to the protocol it belongs to, one class each —
 * {@link ChildTree} (adoption and tree spawn), {@link ContactGather} (phase 2),
 * {@link DaemonRouting} (daemon-to-daemon messages), {@link StdinRelay}, {@link ExitBatch},
 * the launch statistics ({@link TreeGather}), and per job a {@link LocalJob} (its ranks, PMI
 * server, fences and teardown; {@code banyan run} has one job, a DVM many).
 *
 * <p>A daemon is a vertex of the overlay tree. Once its parent adopts it it starts its own
 * children, gathers the contacts of its subtree and sends them up in one message; it maps its
 * own ranks from a job's description and starts them as soon as the description arrives, while
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
    private final IntFunction<String> pmiAddress;
    private final IntFunction<String> daemonUri;
    private final IntFunction<String> processTablePath;
    private final Supplier<DaemonStats> statsProbe;
    private final DaemonOutbox out = new DaemonOutbox();
    private final ChildTree tree;
    private final ContactGather contacts;
    private final DaemonRouting routing;
    private final StdinRelay stdin;
    private final ExitBatch exits;
    private final PmixModex pmixModex;
    private final PmixSpawns pmixSpawns;
    private final RankWireUp wireUp;
    private final LocalTasks tasks;
    private final Map<Integer, LocalJob> jobs = new LinkedHashMap<>();
    /** Made once, not per routed message (C1 builds a bound method reference through a method handle). */
    private final IntFunction<DaemonRouting.Endpoint> endpoints = this::endpoint;
    /** This host's GPUs, {@code CUDA_VISIBLE_DEVICES} style; empty for none. */
    private String gpus = "";
    /** This host's CPUs, read once when a job first binds ranks here. */
    private Supplier<CpuBinding> host = () -> {
        throw new IllegalArgumentException("this daemon was given no host topology");
    };
    private TreeGather<Map<Integer, DaemonStats>> stats;
    private boolean exited;
    /** A signal to this daemon's process ends its work: it exits once that is gone ({@link DaemonEvent.Signaled}). */
    private boolean leaving;

    /** The secret of a job for its ranks, by job id (the driver derives it from the overlay's); null: none. */
    private IntFunction<String> jobSecrets;

    /** Gives the ranks' PMI server their job's secret (banyan-job-secret), computed by {@code secrets}. */
    public DaemonCore jobSecrets(IntFunction<String> secrets) {
        this.jobSecrets = secrets;
        return this;
    }

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
     * One job at a time, whose ranks all reach the same PMI listener (tests).
     *
     * @param processTablePath where the node-local process table goes, or null for none
     */
    public DaemonCore(int daemonId, String contact, String pmiAddress, String daemonUri,
                      Supplier<DaemonStats> statsProbe, String processTablePath) {
        this(daemonId, contact, j -> pmiAddress, j -> daemonUri, statsProbe, j -> processTablePath);
    }

    /**
     * @param pmiAddress       per job, {@code host:port} of the job's PMI listener here (PMI_PORT);
     *                         the driver opens it when first asked
     * @param daemonUri        per job, how its Java ranks reach this daemon (BANYAN_DAEMON_URI)
     * @param processTablePath per job, where its node-local process table goes (a file in shared
     *                         memory, BANYAN_PROCTABLE), or null for none
     */
    public DaemonCore(int daemonId, String contact, IntFunction<String> pmiAddress, IntFunction<String> daemonUri,
                      Supplier<DaemonStats> statsProbe, IntFunction<String> processTablePath) {
        this.processTablePath = processTablePath;
        this.statsProbe = statsProbe;
        this.daemonId = daemonId;
        this.contact = contact;
        this.pmiAddress = pmiAddress;
        this.daemonUri = daemonUri;
        this.tree = new ChildTree(daemonId, out);
        this.contacts = new ContactGather(out);
        this.exits = new ExitBatch(out, this::tasksFed);
        this.tasks = new LocalTasks(out, exits::add);
        this.routing = new DaemonRouting(tree, out, tasks, this::shutdown);
        this.stdin = new StdinRelay(tree, out);
        this.pmixModex = new PmixModex(routing, out);
        this.pmixSpawns = new PmixSpawns(daemonId, out);
        this.wireUp = new RankWireUp(daemonId, jobs, out, routing, pmixModex, pmixSpawns);
    }

    /**
     * Where this host's topology comes from (the driver reads {@code /sys}); asked at most once,
     * when a job first binds ranks here, so jobs that do not bind never pay for it.
     */
    public void hostTopology(Supplier<org.banyan.topo.Topology> topology) {
        hostCpus(() -> new CpuBinding(topology.get()));
    }

    /** As {@link #hostTopology}, with the host's caches known (for PMIx's locality strings). */
    public void hostCpus(Supplier<CpuBinding> cpus) {
        CpuBinding[] once = new CpuBinding[1];
        this.host = () -> {
            if (once[0] == null) {
                once[0] = cpus.get();
            }
            return once[0];
        };
    }

    /**
     * This host's GPUs as a {@code CUDA_VISIBLE_DEVICES} list (the driver finds them, see
     * {@code GpuDevices}); they go up with this daemon's contact, for a DVM's agent. None unless
     * told, before the daemon is adopted.
     */
    public void hostGpus(java.util.List<String> names) {
        this.gpus = String.join(",", names);
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
                for (LocalJob j : jobs.values()) {
                    out.flood(new OverlayMessage.TerminateJob(j.job().jobId(), TERM_GRACE_WITHOUT_PARENT_MILLIS));
                    j.terminate(TERM_GRACE_WITHOUT_PARENT_MILLIS);
                }
                tasks.terminateAll();
                exitIfIdle();
            }
            case DaemonEvent.Signaled(int signal) -> signaled(signal);
            case DaemonEvent.FromChild(int child, OverlayMessage message) -> fromChild(child, message);
            case DaemonEvent.ChildLost(int child, String reason) -> childLost(child, reason);
            case DaemonEvent.RankEnded ended -> {
                LocalJob j = jobs.get(ended.jobId());
                boolean known = ended.jobId() == OverlayMessage.TASKS ? tasks.ended(ended.rank())
                        : j != null && j.rankEnded(ended.rank(), ended.status());
                if (known) {
                    exits.add(new OverlayMessage.RankExited(ended.jobId(), ended.rank(), ended.status(), ended.note(),
                            ended.startMicros(), ended.endMicros(), ended.signaled()));
                }
                if (out.isParentGone() || leaving) {
                    exitIfIdle();
                }
            }
            case DaemonEvent.WireUp w -> wireUp.handle(w);
            case DaemonEvent.StdinWritten(int jobId, int rank, long total) -> stdin.written(jobId, rank, total);
            case DaemonEvent.PeerUp(int v) -> routing.peerUp(v);
            case DaemonEvent.FromPeer(int v, OverlayMessage message) -> {
                if (message instanceof OverlayMessage.Routed r) {
                    routing.routed(r, endpoints);
                }
            }
            case DaemonEvent.PeerLost(int v, String reason) -> {
                if (routing.peerLost(v, reason, ending())) {
                    out.emit(new DaemonAction.ArmTimer(DaemonTimer.ROUTING_LINK_LOSS, ROUTING_LOSS_GRACE_MILLIS));
                }
            }
            case DaemonEvent.TimerFired(DaemonTimer timer, int jobId) -> timer(timer, jobId);
            case DaemonEvent.Idle() -> exits.idle();
        }
        return out.drain();
    }

    private void timer(DaemonTimer timer, int jobId) {
        switch (timer) {
            case KILL_GRACE -> {
                LocalJob j = jobs.get(jobId);
                if (jobId == OverlayMessage.TASKS) {
                    tasks.graceOver();
                } else if (j != null) {
                    j.signal(Signals.SIGKILL);
                }
            }
            case SIGNAL_ECHO -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.echoOver();
                }
            }
            case EXIT_BATCH -> exits.timerFired();
            case ROUTING_LINK_LOSS -> {
                for (Map.Entry<Integer, String> e : routing.takeUnexplainedLosses().entrySet()) {
                    if (!ending()) {
                        int d = Topology.daemonOfVertex(e.getKey());
                        out.up(new OverlayMessage.DaemonFailed(d, tree.hostOf(d, anyJob()),
                                "routing link closed: " + e.getValue()));
                    }
                }
            }
        }
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
            case OverlayMessage.Routed r -> routing.routed(r, endpoints);
            case OverlayMessage.StdinData s -> {
                LocalJob j = jobs.get(s.jobId());
                if (j != null) {
                    stdin.relay(s, j.map(), j.running());
                }
            }
            case OverlayMessage.SignalRanks(int jobId, int signal) -> {
                out.flood(message);
                LocalJob j = jobs.get(jobId);
                if (j != null && !j.endingWith(signal)) { // a group's signal the daemon passed on already: once each
                    j.signal(signal);
                }
            }
            case OverlayMessage.TerminateJob(int jobId, int grace) -> {
                out.flood(message);
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.terminate(grace);
                }
            }
            case OverlayMessage.KillJob(int jobId) -> {
                out.flood(message);
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.kill();
                }
            }
            case OverlayMessage.FenceRelease release -> {
                LocalJob j = jobs.get(release.jobId());
                if (j != null && j.wireUp().speaksPmix()) {
                    j.fence().release(release, null);
                    out.emit(new DaemonAction.PmixFenceDone(release.jobId(), PmixFences.blobs(release)));
                } else if (j != null) {
                    j.fence().release(release, j.pmi());
                }
            }
            case OverlayMessage.ForgetJob(int jobId) -> {
                out.flood(message);
                LocalJob j = jobs.remove(jobId);
                if (j != null) {
                    j.signal(Signals.SIGKILL); // none should be left: the head forgets a job once every rank reported
                    exits.forget(jobId);
                    pmixSpawns.forget(jobId);
                    out.emit(new DaemonAction.ForgetJob(jobId));
                }
            }
            case OverlayMessage.Shutdown s -> shutdown();
            case OverlayMessage.CollectStats c -> {
                if (stats == null) {
                    stats = new TreeGather<>(List.copyOf(out.connectedChildren()), true, Map.of(), DaemonStats::merge);
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
        contacts.start(daemonId, contact, gpus, tree.children());
        for (int child : tree.takeEarlyHellos()) {
            childHello(child);
        }
        contacts.maybeSend();
    }

    private void fromChild(int child, OverlayMessage message) {
        switch (message) {
            case OverlayMessage.DaemonHello hello -> childHello(child);
            case OverlayMessage.Contacts c -> contacts.fromChild(child, c);
            case OverlayMessage.FenceEnter f -> {
                LocalJob j = jobs.get(f.jobId());
                if (j != null) {
                    j.fence().fromChild(child, f);
                }
            }
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
            case OverlayMessage.StdinTaken t -> out.up(t);
            case OverlayMessage.RankAlone a -> out.up(a);
            case OverlayMessage.RankUnfinalized u -> out.up(u);
            case OverlayMessage.DaemonFailed f -> out.up(f);
            case OverlayMessage.Routed r -> routing.routed(r, endpoints);
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName()
                    + " from a child");
        }
    }

    /** A child said hello: adopt it, and tell it what it missed. */
    private void childHello(int child) {
        if (!tree.hello(child)) {
            return;
        }
        for (LocalJob j : jobs.values()) {
            j.catchUpLaunch(child);
        }
        contacts.catchUp(child);
        for (LocalJob j : jobs.values()) {
            j.catchUpEnding(child);
        }
        stdin.catchUp(child);
        routing.opened(Topology.vertexOfDaemon(child));
    }

    private void childLost(int child, String reason) {
        if (!tree.lost(child)) {
            return;
        }
        routing.closed(Topology.vertexOfDaemon(child));
        out.up(new OverlayMessage.DaemonFailed(child, tree.hostOf(child, anyJob()), reason));
        for (LocalJob j : jobs.values()) {
            j.fence().childLost(child);
        }
        if (stats != null && stats.childLost(child)) {
            sendStats();
        }
    }

    /** This daemon's own figures are read last, when the subtree's have come. */
    private void sendStats() {
        Map<Integer, DaemonStats> all = DaemonStats.merge(stats.result(), Map.of(daemonId, statsProbe.get()));
        out.up(new OverlayMessage.Stats(Map.copyOf(all)));
        stats = null;
    }

    private void launch(JobDescription job) {
        int jobId = job.jobId();
        if (jobs.containsKey(jobId)) {
            return;
        }
        RankMap map = RankMap.of(job);
        List<Integer> childrenWithRanks = new ArrayList<>();
        for (int c : tree.children()) {
            if (tree.topology().anyInSubtree(Topology.vertexOfDaemon(c), x -> map.ranksOn(Topology.daemonOfVertex(x)) > 0)) {
                childrenWithRanks.add(c);
            }
        }
        int[] subtreeRanks = {0};
        tree.topology().forEachInSubtree(tree.vertex(), x -> subtreeRanks[0] += map.ranksOn(Topology.daemonOfVertex(x)));
        exits.start(jobId, subtreeRanks[0]);
        boolean local = map.ranksOn(daemonId) > 0;
        // a PMIx job's ranks reach the daemon's PMIx server: no PMI listener of their own, unless served both ways
        boolean pmi = local && job.pmi();
        pmixSpawns.launching(job, map, local, jobs::get);
        jobs.put(jobId, new LocalJob(job, map, daemonId, tree, childrenWithRanks, out, routing,
                pmi ? pmiAddress.apply(jobId) : null, pmi ? daemonUri.apply(jobId) : null,
                local ? processTablePath.apply(jobId) : null, host, jobSecrets));
        pmixSpawns.launched(jobId);
        if (leaving) { // launched onto a daemon that was signaled: its ranks end with the others
            jobs.get(jobId).terminate(TERM_GRACE_WITHOUT_PARENT_MILLIS);
        }
    }

    /** What routed messages ending here are for: a job's PMI server, once the job is known. */
    private DaemonRouting.Endpoint endpoint(int jobId) {
        LocalJob j = jobs.get(jobId);
        return j == null ? null : new JobEndpoint(j, pmixModex, pmixSpawns, out, jobs);
    }

    private JobDescription anyJob() {
        return jobs.isEmpty() ? null : jobs.values().iterator().next().job();
    }

    /** Whether this daemon is ending: losses are consequences then, not news. */
    private boolean ending() {
        if (out.isParentGone()) {
            return true;
        }
        for (LocalJob j : jobs.values()) {
            if (j.ending()) {
                return true;
            }
        }
        return false;
    }

    /** A method, not a lambda over {@code tasks}: the batch is made before the tasks. */
    private boolean tasksFed() {
        return tasks.fed();
    }

    private void exitIfIdle() {
        if (!tasks.idle()) {
            return;
        }
        for (LocalJob j : jobs.values()) {
            if (!j.running().isEmpty()) {
                return;
            }
        }
        exit();
    }

    /**
     * Its own process was signaled: its ranks get the same signal, and SIGKILL after the grace.
     * The daemons below it are not told: a signal to a process group reaches those in it, and
     * the others end their work when this one's link closes.
     */
    private void signaled(int signal) {
        if (leaving) {
            killAllAndExit();
            return;
        }
        leaving = true;
        for (LocalJob j : jobs.values()) { // the signal itself, as the head passes it on: Ctrl-C ends ranks by SIGINT
            j.terminateSignaled(TERM_GRACE_WITHOUT_PARENT_MILLIS, signal);
        }
        tasks.terminateAll();
        exitIfIdle();
    }

    /** The head ends the DVM or run, or this daemon leaves it: the subtree goes, and all that runs in it. */
    private void shutdown() {
        out.flood(new OverlayMessage.Shutdown());
        killAllAndExit();
    }

    private void killAllAndExit() {
        for (LocalJob j : jobs.values()) {
            j.kill();
        }
        tasks.signalAll(Signals.SIGKILL);
        exit();
    }

    private void exit() {
        if (!exited) {
            exits.flush();
            out.emit(new DaemonAction.Exit());
            exited = true;
        }
    }
}
