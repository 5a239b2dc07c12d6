package org.banyan.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.daemon.DaemonAction;
import org.banyan.core.daemon.DaemonCore;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadCore;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;

/**
 * A whole {@code banyan run} launch under a virtual clock: the real {@link HeadCore} and one real
 * {@link DaemonCore} per simulated host, unmodified, driven by events this class schedules from
 * their actions and a {@link CostModel}. No protocol logic lives here: spawning, relaying, fences
 * and teardown are the cores' own. Deterministic for a given configuration and fault list.
 *
 * <p>Vertex 0 is the head, vertex d + 1 daemon d, as in {@link Topology}. Each vertex has one
 * CPU: the messages it sends and receives are serialised on it. Each link is FIFO.
 */
public final class LaunchSimulation {

    private final int hosts;
    private final TopologySpec topologySpec;
    private final Topology topology;
    private final TopologySpec routingSpec;
    /** Routing links that are not spawn links, by vertex: the vertices at their other ends. */
    private final Map<Integer, java.util.Set<Integer>> peersOf = new HashMap<>();
    private final CostModel costs;
    private JobDescription job;
    /** The ranks' modex workload, or null when ranks end at once. */
    private SimulatedModex modexRun;
    /** Start timeout of an hour: a huge simulated launch must not fail by the head giving up. */
    private final HeadSettings settings = new HeadSettings(0, 2000, 3_600_000, false);
    private final VirtualClock clock = new VirtualClock();
    private final java.util.Set<Integer> spawnFailures = new java.util.HashSet<>();
    private final Map<Integer, Integer> slowFactor = new HashMap<>();
    private final List<Fault> faults;
    /** The overlay's failure detector: a link silent this long is lost (the real one's default). */
    private long heartbeatTimeoutMicros = 20_000_000;
    private final SimInvariants invariants = new SimInvariants();

    // Per vertex.
    /** Each vertex's CPU and network interface, the links between them, message sizes. */
    private final SimulatedNetwork net;
    private final DaemonCore[] daemons;
    private final DaemonLives lives;
    private final SpawnSlots spawnSlots;
    /** The CPUs all hosts share (with {@link CostModel#sharedCpus()} > 0), else null. */
    private final SharedCpus shared;

    // Ranks.
    private final SimulatedRanks ranks;

    // The head.
    private HeadCore head;
    private boolean headFinished;
    private int exitStatus = -1;
    private long finishTime = -1;
    private long allUpTime = -1;
    private long firstUpTime = -1;
    /** Routing links opened that are not spawn links, and when the last one opened. */
    private int routingLinksDialed;
    private long routingUpTime = -1;
    private final List<String> reports = new ArrayList<>();

    /**
     * @param hosts    simulated hosts, one daemon and {@code ranksPerHost} ranks each
     * @param topology the launch tree, as {@code --spawn-degree} / {@code --launch star} make it
     */
    public LaunchSimulation(int hosts, int ranksPerHost, TopologySpec topology, CostModel costs, List<Fault> faultList) {
        this(hosts, ranksPerHost, topology, topology, costs, faultList);
    }

    /** @param routing the routing topology of daemon-to-daemon messages, as {@code --routing} gives it */
    public LaunchSimulation(int hosts, int ranksPerHost, TopologySpec topology, TopologySpec routing, CostModel costs,
                            List<Fault> faultList) {
        this.routingSpec = routing;
        this.hosts = hosts;
        this.topologySpec = topology;
        this.topology = topology.over(hosts + 1);
        this.costs = costs;
        List<Node> nodes = new ArrayList<>(hosts);
        for (int i = 0; i < hosts; i++) {
            nodes.add(new Node("host" + i, ranksPerHost));
        }
        this.job = new JobDescription(1, List.of(new AppContext("/bin/true", List.of(), hosts * ranksPerHost, Map.of(),
                null)), nodes, MappingPolicy.SLOT, false, -1, "/");
        daemons = new DaemonCore[hosts];
        lives = new DaemonLives(hosts);
        net = new SimulatedNetwork(hosts + 1, costs, clock);
        shared = costs.sharedCpus() > 0 ? new SharedCpus(costs.sharedCpus(), costs.interleave(), clock) : null;
        spawnSlots = new SpawnSlots(hosts + 1, hosts, clock, net, shared, costs, this::started);
        ranks = new SimulatedRanks(new SimulatedRanks.Host() {
            @Override
            public long now() {
                return clock.now();
            }

            @Override
            public void at(long time, Runnable action) {
                clock.at(time, action);
            }

            @Override
            public void work(int v, long micros, Runnable then) {
                LaunchSimulation.this.work(v, micros, then);
            }

            @Override
            public long cpu(int v, long micros) {
                return net.cpu(v, clock.now(), micros);
            }

            @Override
            public void toDaemon(int d, DaemonEvent e) {
                LaunchSimulation.this.toDaemon(d, e);
            }
        }, costs, job.jobId(), hosts * ranksPerHost);
        this.faults = List.copyOf(faultList);
    }

    /** Makes every rank run {@code w} (over the daemon's real PMI-1 server) instead of ending at once. */
    public LaunchSimulation withModex(ModexWorkload w) {
        this.job = new JobDescription(job.jobId(), job.apps(), job.nodes(), job.mapping(), job.oversubscribe(),
                job.stdinRank(), job.launchDir(), w.modex());
        this.modexRun = new SimulatedModex(w, job.kvsName(), hosts, ranks.count());
        ranks.runModex(modexRun);
        return this;
    }

    /** Runs until nothing is left to happen or virtual time passes {@code limitMicros}. */
    public LaunchResult run(long limitMicros) {
        RankMap map = RankMap.of(job);
        for (int r = 0; r < map.size(); r++) {
            ranks.placed(r, map.nodeOf(r));
        }
        head = new HeadCore(job, map, settings, topologySpec, routingSpec, "sim:head");
        for (Fault f : faults) {
            switch (f) {
                case Fault.Crash c -> at(c.atMicros(), () -> crash(c.daemonId()));
                case Fault.LinkBreak b -> at(b.atMicros(), () -> breakLink(b.daemonId()));
                case Fault.Silent q -> at(q.atMicros(), () -> silence(q.daemonId()));
                case Fault.SpawnFailure s -> spawnFailures.add(s.daemonId());
                case Fault.SlowHost s -> slowFactor.merge(s.daemonId(), s.factor(), Math::max);
                case Fault.SlowLink s -> net.slow(s.daemonId(), s.extraMicros());
            }
        }
        headActions(head.start());
        clock.runUntil(limitMicros, invariants);
        int ranksLeft = ranks.leftRunning();
        int daemonsLeft = 0;
        long maxMsgs = 0;
        int maxL = 0;
        for (int d = 0; d < hosts; d++) {
            daemonsLeft += lives.up(d) ? 1 : 0;
            maxMsgs = Math.max(maxMsgs, net.messages(d + 1));
            maxL = Math.max(maxL, lives.maxLinks(d + 1));
        }
        ModexResult modex = modexRun == null ? null : modexRun.result();
        long[] ups = lives.upTimes();
        return new LaunchResult(headFinished, exitStatus, allUpTime, finishTime, reports, maxL, maxMsgs, net.messages(0),
                clock.events(),
                ranksLeft, daemonsLeft, net.contactBytesUp(), net.contactBytesDown(), modex, firstUpTime,
                ups.length == 0 ? -1 : ups[(ups.length - 1) / 2], ups.length == 0 ? -1 : ups[ups.length - 1],
                routingLinksDialed, routingUpTime, invariants.violations());
    }

    /**
     * A process's CPU-heavy step (a remote shell, a JVM, a rank starting): on the vertex's own
     * CPU, or on the shared CPUs among all such steps in progress; {@code then} runs when done.
     */
    private void work(int v, long micros, Runnable then) {
        if (shared == null) {
            at(net.cpu(v, clock.now(), micros), then);
        } else {
            shared.submit(micros, then);
        }
    }

    private void at(long time, Runnable action) {
        clock.at(time, action);
    }

    /** A notice without a message of its own (a link closing, a connection opening): latency only. */
    private void send(int from, int to, Runnable deliver) {
        send(from, to, null, deliver);
    }

    private void send(int from, int to, OverlayMessage m, Runnable deliver) {
        net.send(from, to, m, deliver);
    }

    // --- the head -------------------------------------------------------------------------

    private void headActions(List<HeadAction> actions) {
        for (HeadAction a : actions) {
            switch (a) {
                case HeadAction.SpawnDaemon(int d, String host) -> spawnSlots.spawn(0, d);
                case HeadAction.SendToDaemon(int d, OverlayMessage m) -> {
                    int v = Topology.vertexOfDaemon(d);
                    net.countContacts(m);
                    countModex(0, v, m);
                    if (lives.started(d)) {
                        send(0, v, m, () -> toDaemon(d, new DaemonEvent.FromParent(m)));
                    }
                }
                case HeadAction.ArmTimer(var timer, long delay, int jobId) -> at(clock.now() + delay * 1000,
                        () -> toHead(new HeadEvent.TimerFired(timer, jobId)));
                case HeadAction.Report(String line) -> reports.add(line);
                case HeadAction.Milestone(String name) -> {
                    if (name.startsWith("all daemons up")) {
                        allUpTime = clock.now();
                    } else if (name.startsWith("first daemon up")) {
                        firstUpTime = clock.now();
                    }
                }
                case HeadAction.Finish(int status) -> {
                    invariants.finishedOnce(headFinished);
                    headFinished = true;
                    exitStatus = status;
                    finishTime = clock.now();
                    // The head closes its links: children not yet gone see their parent go.
                    for (int c : topology.children(0)) {
                        int d = Topology.daemonOfVertex(c);
                        if (lives.up(d)) {
                            send(0, c, () -> toDaemon(d, new DaemonEvent.ParentLost("head exited")));
                        }
                    }
                }
                case HeadAction.SendToPeer(int v, OverlayMessage m) -> {
                    int d = Topology.daemonOfVertex(v);
                    countModex(0, v, m);
                    if (lives.up(d)) {
                        send(0, v, m, () -> toDaemon(d, new DaemonEvent.FromPeer(0, m)));
                    }
                }
                case HeadAction.EmitOutput _, HeadAction.ForwardStdin _, HeadAction.StdinCredit _, HeadAction.Suspend _,
                     HeadAction.LaunchReport _ -> { } // ranks without output or input, a head without a terminal
                case HeadAction.ForJob _, HeadAction.JobEnded _, HeadAction.Ready _, HeadAction.TasksEnded _,
                     HeadAction.SpawnRequested _, HeadAction.RankEnded _ -> { } // a run's one job: no DVM to tell
                case HeadAction.GpusFound _, HeadAction.ResourceRequest _, HeadAction.DaemonsLost _,
                     HeadAction.DaemonReleased _, HeadAction.DaemonRejoined _ -> { } // nor a pool of hosts to keep
            }
        }
    }

    private void toHead(HeadEvent e) {
        if (!headFinished) {
            headActions(head.handle(e));
        }
    }

    // --- daemons --------------------------------------------------------------------------

    private void started(int parentVertex, int d) {
        if (parentVertex > 0 && !lives.up(Topology.daemonOfVertex(parentVertex))) {
            return; // its parent is gone: the remote shell died with it
        }
        if (spawnFailures.contains(d)) {
            childLost(parentVertex, d, "spawn failed (simulated)");
            return;
        }
        int factor = slowFactor.getOrDefault(d, 1);
        Runnable hello = () -> {
            if (parentVertex > 0 && !lives.up(Topology.daemonOfVertex(parentVertex))) {
                return;
            }
            int v = Topology.vertexOfDaemon(d);
            daemons[d] = new DaemonCore(d, "sim:" + d, "sim-pmi:" + d, "sim://" + d);
            lives.start(d, clock.now() - spawnSlots.askedAt(d));
            lives.link(v, +1);
            lives.link(parentVertex, +1);
            send(v, parentVertex, () -> fromDaemonToParent(d, parentVertex,
                    new OverlayMessage.DaemonHello(d, "host" + d, d, "sim:" + d)));
        };
        long start = costs.daemonStartMicros() * factor;
        if (shared == null) {
            at(clock.now() + start, hello); // a JVM starting on a host of its own
        } else {
            shared.submit(start, hello);
        }
    }

    private void fromDaemonToParent(int d, int parentVertex, OverlayMessage m) {
        if (parentVertex == 0) {
            toHead(new HeadEvent.FromDaemon(d, m));
        } else {
            toDaemon(Topology.daemonOfVertex(parentVertex), new DaemonEvent.FromChild(d, m));
        }
    }

    private void childLost(int parentVertex, int d, String reason) {
        if (parentVertex == 0) {
            toHead(new HeadEvent.DaemonLost(d, reason));
        } else {
            toDaemon(Topology.daemonOfVertex(parentVertex), new DaemonEvent.ChildLost(d, reason));
        }
    }

    private void toDaemon(int d, DaemonEvent e) {
        if (!lives.up(d)) {
            return;
        }
        int v = Topology.vertexOfDaemon(d);
        int parentVertex = topology.parent(v);
        if (e instanceof DaemonEvent.ParentLost) {
            lives.parentGone(d);
        }
        for (DaemonAction a : daemons[d].handle(e)) {
            switch (a) {
                case DaemonAction.SendToParent(OverlayMessage m) -> {
                    net.countContacts(m);
                    countModex(v, parentVertex, m);
                    send(v, parentVertex, m, () -> fromDaemonToParent(d, parentVertex, m));
                }
                case DaemonAction.SendToChild(int c, OverlayMessage m) -> {
                    net.countContacts(m);
                    countModex(v, Topology.vertexOfDaemon(c), m);
                    if (lives.started(c)) {
                        send(v, Topology.vertexOfDaemon(c), m, () -> toDaemon(c, new DaemonEvent.FromParent(m)));
                    }
                }
                case DaemonAction.SpawnChild(int c, String host) -> spawnSlots.spawn(v, c);
                case DaemonAction.StartRank(RankLaunch launch) -> {
                    invariants.rankStarts(launch.rank(), lives.isParentGone(d), ranks.isAlive(launch.rank()));
                    ranks.start(d, launch.rank());
                }
                case DaemonAction.SignalRank(int jobId, int rank, int signal) -> ranks.signal(d, rank, signal);
                case DaemonAction.ArmTimer(var timer, long delay, int jobId) -> at(clock.now() + delay * 1000,
                        () -> toDaemon(d, new DaemonEvent.TimerFired(timer, jobId)));
                case DaemonAction.Exit x -> daemonGone(d, false);
                case DaemonAction.ConnectPeer(int to, String contact) -> connectPeer(v, to);
                case DaemonAction.SendToPeer(int to, OverlayMessage m) -> {
                    countModex(v, to, m);
                    if (peersOf.getOrDefault(v, java.util.Set.of()).contains(to)) {
                        send(v, to, m, () -> toVertex(to, new DaemonEvent.FromPeer(v, m), new HeadEvent.FromPeer(v, m)));
                    }
                }
                case DaemonAction.PmiReply(int conn, String line) -> {
                    long read = net.cpu(v, clock.now(), costs.messageCpuMicros());
                    at(read, () -> ranks.reads(d, conn, line));
                }
                case DaemonAction.WriteStdin _, DaemonAction.WriteProcessTable _, DaemonAction.KeepWarm _,
                     DaemonAction.DropWarm _ -> { } // no files or waiting JVMs in a simulated host
                case DaemonAction.ServePmix _, DaemonAction.PmixFenceDone _, DaemonAction.PmixModexFetch _,
                     DaemonAction.PmixModexDone _, DaemonAction.PmixNameReply _ -> { } // the simulator's ranks speak PMI-1
                case DaemonAction.WatchWireUp _, DaemonAction.RankWiredUp _ -> { } // and load no MPI library
                case DaemonAction.ForgetJob _ -> { } // a DVM's, after its job
            }
        }
    }

    /** Vertex {@code from} dials {@code to}: the dial's CPU, a round trip to connect, then its hello. */
    private void connectPeer(int from, int to) {
        work(from, costs.dialMicros(), () -> at(clock.now() + 2 * costs.latencyMicros(), () -> {
            int d = Topology.daemonOfVertex(from);
            boolean targetUp = to == 0 ? !headFinished : lives.up(Topology.daemonOfVertex(to));
            if (!lives.up(d)) {
                return;
            }
            if (!targetUp) {
                toDaemon(d, new DaemonEvent.PeerLost(to, "connection refused (simulated)"));
                return;
            }
            peersOf.computeIfAbsent(from, x -> new java.util.HashSet<>()).add(to);
            peersOf.computeIfAbsent(to, x -> new java.util.HashSet<>()).add(from);
            lives.link(from, +1);
            lives.link(to, +1);
            toDaemon(d, new DaemonEvent.PeerUp(to));
            send(from, to, () -> {
                routingLinksDialed++;
                routingUpTime = clock.now();
                toVertex(to, new DaemonEvent.PeerUp(from), new HeadEvent.PeerUp(from));
            });
        }));
    }

    /** Delivers to the daemon at vertex {@code v}, or to the head when {@code v} is 0. */
    private void toVertex(int v, DaemonEvent forDaemon, HeadEvent forHead) {
        if (v == 0) {
            toHead(forHead);
        } else {
            toDaemon(Topology.daemonOfVertex(v), forDaemon);
        }
    }

    /** Fence and key-fetch bytes, at both ends. */
    private void countModex(int from, int to, OverlayMessage m) {
        if (modexRun != null && SimulatedModex.counts(m)) {
            modexRun.count(from, to, net.sizeOf(m));
        }
    }

    /** Daemon {@code d} stops: on its own ({@code Exit}) or crashed. Its links close. */
    private void daemonGone(int d, boolean crashed) {
        if (lives.exited(d) || !lives.started(d)) {
            return;
        }
        lives.exit(d);
        int v = Topology.vertexOfDaemon(d);
        if (crashed) {
            ranks.daemonCrashed(d);
        }
        int parentVertex = topology.parent(v);
        lives.link(parentVertex, -1);
        if (parentVertex == 0 || lives.started(Topology.daemonOfVertex(parentVertex))) {
            send(v, parentVertex, () -> childLost(parentVertex, d, "connection closed"));
        }
        for (int c : topology.children(v)) {
            int cd = Topology.daemonOfVertex(c);
            if (lives.up(cd)) {
                send(v, c, () -> toDaemon(cd, new DaemonEvent.ParentLost("connection to the parent closed")));
            }
        }
        for (int p : peersOf.getOrDefault(v, java.util.Set.of())) {
            lives.link(p, -1);
            peersOf.get(p).remove(v);
            send(v, p, () -> toVertex(p, new DaemonEvent.PeerLost(v, "connection closed"),
                    new HeadEvent.PeerLost(v, "connection closed")));
        }
        peersOf.remove(v);
    }

    /**
     * Daemon {@code d}'s host goes silent: its traffic stops both ways and nothing closes; a
     * heartbeat timeout later each live end of its links declares the link lost, as the real
     * transport's failure detector does. One not started yet never says hello (as a crash).
     */
    private void silence(int d) {
        if (!lives.started(d)) {
            spawnFailures.add(d);
            return;
        }
        if (lives.exited(d)) {
            return;
        }
        int v = Topology.vertexOfDaemon(d);
        net.silence(v);
        String why = "no word from it for " + heartbeatTimeoutMicros / 1_000_000 + " s (its host, or the link to it, went silent)";
        long lost = clock.now() + heartbeatTimeoutMicros;
        int parentVertex = topology.parent(v);
        at(lost, () -> childLost(parentVertex, d, why));
        at(lost, () -> toDaemon(d, new DaemonEvent.ParentLost(why)));
        for (int c : topology.children(v)) {
            int cd = Topology.daemonOfVertex(c);
            at(lost, () -> toDaemon(cd, new DaemonEvent.ParentLost(why)));
        }
        for (int p : List.copyOf(peersOf.getOrDefault(v, java.util.Set.of()))) {
            at(lost, () -> toVertex(p, new DaemonEvent.PeerLost(v, why), new HeadEvent.PeerLost(v, why)));
        }
    }

    /** Sets the failure detector's timeout (the real one's {@code --heartbeat-timeout}). */
    public LaunchSimulation heartbeatTimeout(long micros) {
        this.heartbeatTimeoutMicros = micros;
        return this;
    }

    /** The link of daemon {@code d} to its parent breaks: both ends see it close. */
    private void breakLink(int d) {
        if (!lives.up(d)) {
            return;
        }
        int v = Topology.vertexOfDaemon(d);
        int parentVertex = topology.parent(v);
        net.breakBetween(v, parentVertex);
        lives.link(v, -1);
        lives.link(parentVertex, -1);
        at(clock.now() + costs.latencyMicros(), () -> childLost(parentVertex, d, "connection closed"));
        at(clock.now() + costs.latencyMicros(), () -> toDaemon(d, new DaemonEvent.ParentLost("connection to the parent closed")));
    }

    private void crash(int d) {
        if (lives.started(d)) {
            daemonGone(d, true);
        } else {
            // Not started yet: it will never say hello. Its parent's spawn "succeeds" into nothing,
            // as when a host dies during launch; the head's start timer then names it.
            spawnFailures.add(d);
        }
    }

    /** Per-phase figures for printing. */
    public Map<String, Object> describe(LaunchResult r) {
        return r.describe(hosts, topologySpec + " (height " + topology.height() + ")", routingSpec);
    }
}
