package org.banyan.runtime.daemon;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonAction;
import org.banyan.core.daemon.DaemonCore;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.daemon.Signals;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.launch.SpawnMode;
import org.banyan.runtime.net.ChildLinks;
import org.banyan.runtime.net.FrameChannel;
import org.banyan.runtime.net.PeerLinks;
import org.banyan.runtime.net.UpstreamForwarder;
import org.banyan.runtime.os.ChildReaper;
import org.banyan.runtime.os.PosixSpawn;

/**
 * Runs a {@link DaemonCore} for real: the link to its tree parent, links to the children it
 * starts, rank processes, the PMI reactor. The same code serves a daemon in its own JVM
 * ({@link DaemonMain}) and one on a thread of the head's JVM; both reach their parent over TCP.
 */
public final class DaemonDriver {
    /** Threads that create rank processes; process creation is CPU-bound, so one per core. */
    private static final int SPAWNERS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    /** Reaper threads: one per core, up to four, so ends that come together restart their chains side by side. */
    private static final int REAPERS = SPAWNERS;

    private final int daemonId;
    private final String host;
    private final FrameChannel parent;
    private final LaunchAgent agent;
    private final EventLoop<DaemonEvent> loop = new EventLoop<>(new DaemonEvent.Idle());
    // Made once: C1 makes a bound method reference through a method handle and a VM call, on
    // every start when written at the call.
    private final Consumer<OverlayMessage> toParent = this::sendToParent;
    private final Consumer<DaemonEvent> onReaper = this::dispatchOnReaper;
    private final Consumer<DaemonEvent> toLoop = loop::post;
    private final Map<Long, RankProcess> ranks = new ConcurrentHashMap<>();
    private final ExecutorService spawners = Executors.newFixedThreadPool(SPAWNERS,
            Thread.ofPlatform().daemon().name("spawner-", 0).factory());
    private PmiListener pmi;
    private RankGuard guard;
    /** Reaps the ranks made by posix_spawn; bound in the background while the tree wires up. */
    private final java.util.concurrent.CompletableFuture<ChildReaper> reaper = SpawnMode.current() != SpawnMode.NATIVE
            ? java.util.concurrent.CompletableFuture.completedFuture(null)
            : java.util.concurrent.CompletableFuture.supplyAsync(this::nativeSpawning,
                    r -> Thread.ofPlatform().daemon().name("spawn-bind").start(r));
    private volatile String reaperFailure;
    /**
     * Under ProcessBuilder, the native spawner for the launches it cannot make: ProcessBuilder
     * encodes arguments as text, and a byte that is not UTF-8 (an argument naming a Latin-1
     * file) reached the rank as '?'. Made on the first such launch.
     */
    private ChildReaper bytesReaper;
    /**
     * Task starts the core decided on a reaper thread, made by that thread once it has let go
     * of the core's lock: the spawn is most of a short task's start, and under the lock it kept
     * the other reaper threads (and the loop) waiting. Signals for a task decided but not yet
     * spawned wait in {@link #pending}; the daemon's end waits for starts under way
     * ({@link #startGate}), so none is made after the ranks were killed. One queue per reaper
     * thread, by its index ({@link ChildReaper#threadIndex}; a ThreadLocal's lookup under C1 is a
     * call into the VM), made with the reaper.
     */
    private volatile java.util.ArrayDeque<RankLaunch>[] deferred;
    private final PendingStarts<RankProcess> pending = new PendingStarts<>(ranks::get, RankProcess::signal);
    private final java.util.concurrent.locks.ReentrantReadWriteLock startGate = new java.util.concurrent.locks.ReentrantReadWriteLock();
    private boolean ending; // under startGate
    /** Ranks whose files are FIFOs, each waiting on a thread of its own for their other ends. */
    private final FileStarts fifos = new FileStarts(this::startGated, toLoop, pending::signal); // no longer pending: to the process
    /** The parent's messages given to the loop and not handled yet (see the parent link's reader). */
    private final java.util.concurrent.atomic.AtomicInteger fromParentPending = new java.util.concurrent.atomic.AtomicInteger();
    private final RankProcess.Registry registry = new RankProcess.Registry() {
        @Override
        public void started(int jobId, RankProcess rank) {
            ranks.put(key(jobId, rank.rank()), rank);
            sightings.started(jobId, rank.rank(), rank.pid());
        }

        @Override
        public void ended(int jobId, RankProcess rank) {
            ranks.remove(key(jobId, rank.rank()), rank);
            strays.ended();
        }
    };
    /** Ends what ranks left behind in sessions of their own (this daemon is their subreaper). */
    private final StraySweeper strays = StraySweeper.start(new DaemonStrays(ranks,
            () -> new ChildReaper[] {reaper.getNow(null), bytesReaper}));
    private ChildLinks children;
    /** Looks for MPI singletons among the ranks of jobs of more than one rank. */
    private final MpiSightings sightings;
    private PeerLinks peers;
    private ProcessTables processTables;
    private UpstreamForwarder upstream;
    private final long spawnedAtMillis;
    private volatile long upMillis;
    /** This daemon's PMIx jobs (Open MPI ranks); made once the guard exists. */
    private PmixHost pmix;
    /** JVMs kept waiting for a DVM job's expansions; made once the guard exists. */
    private volatile WarmPool warm;
    private volatile long ranksMillis;
    /** The parent said to leave or shut down: losing it after that is no orphaning. */
    private volatile boolean dismissed;

    /** @param spawnedAtMillis when the parent asked for this daemon (epoch ms), the origin of its stats' times */
    public DaemonDriver(int daemonId, String host, FrameChannel parent, LaunchAgent agent, long spawnedAtMillis) {
        this.spawnedAtMillis = spawnedAtMillis;
        this.daemonId = daemonId;
        this.host = host;
        this.parent = parent;
        this.agent = agent;
        this.sightings = new MpiSightings(loop::post);
    }

    /** This daemon's process got {@code signal} (SIGINT, SIGTERM, SIGHUP): see {@link DaemonEvent.Signaled}. */
    public void signaled(int signal) {
        loop.post(new DaemonEvent.Signaled(signal));
    }

    /** Serves until the job is over or the parent is gone; never leaves a rank running. */
    public void run() throws Exception {
        pmi = PmiListener.open(loop::dispatch);
        // A DVM's daemon starts many processes: their pids go in a table; its PMIx server starts at once.
        guard = RankGuard.start(SpawnMode.inDvm() ? RankGuard.tableDir() : null, RankGuard.tableDir());
        warm = new WarmPool(guard);
        processTables = new ProcessTables(daemonId, guard);
        pmix = new PmixHost(host, loop::post, guard, jobId -> processTables.pathOf(jobId).resolveSibling(
                "banyan-" + ProcessHandle.current().pid() + "-" + daemonId + "-job" + jobId + ".shm"));
        if (SpawnMode.inDvm()) {
            pmix.warm();
        }
        peers = new PeerLinks(daemonId, new PeerLinks.Listener() {
            @Override
            public void up(int vertex) {
                loop.post(new DaemonEvent.PeerUp(vertex));
            }

            @Override
            public void message(int vertex, OverlayMessage message) {
                loop.post(new DaemonEvent.FromPeer(vertex, message));
            }

            @Override
            public void lost(int vertex, String reason) {
                loop.post(new DaemonEvent.PeerLost(vertex, reason));
            }
        });
        children = ChildLinks.open(agent, ChildStarters.forDaemon(agent), new ChildLinks.Listener() {
            @Override
            public void message(int childId, OverlayMessage message) {
                loop.post(new DaemonEvent.FromChild(childId, message));
            }

            @Override
            public void lost(int childId, String reason) {
                loop.post(new DaemonEvent.ChildLost(childId, reason));
            }
        }, peers);
        String parentHost = parent.remoteHost();
        // This daemon's contact for phase 2: its listener as seen from its parent's side.
        String contact = children.addressFor(parentHost);
        DaemonCore core = new DaemonCore(daemonId, contact, pmi::address, j -> "tcp://" + pmi.address(j), this::stats,
                j -> processTables.pathOf(j).toString());
        core.jobSecrets(org.banyan.runtime.net.LinkAuth::jobSecret);
        core.hostCpus(() -> new org.banyan.topo.CpuBinding(org.banyan.topo.SysfsTopology.local(),
                org.banyan.topo.HwlocCaches.local(), org.banyan.topo.SysfsTopology.kinds()));
        core.hostGpus(org.banyan.topo.GpuDevices.detect());
        upstream = new UpstreamForwarder(parent);
        try {
            parent.send(new OverlayMessage.DaemonHello(daemonId, host, ProcessHandle.current().pid(), contact));
            upMillis = sinceJvmStart();
            parent.serve("daemon-" + daemonId + "-from-parent", new FrameChannel.Reader() {
                @Override
                public void message(OverlayMessage m) {
                    if (m instanceof OverlayMessage.Leave || m instanceof OverlayMessage.Shutdown) {
                        dismissed = true;
                    }
                    DaemonEvent e = new DaemonEvent.FromParent(m);
                    fromParentPending.incrementAndGet();
                    // A DVM head's task messages over the in-memory link are handled on the head's
                    // thread when the core is free and no earlier message of the parent's waits:
                    // waking this daemon's loop for each was two thirds of its thread's time
                    // (perf). The parent's messages come one at a time (the link's reader), so
                    // "none waits" cannot change between the check and the dispatch.
                    if (parent.inMemory() && (m instanceof OverlayMessage.RunTasks || m instanceof OverlayMessage.SignalTasks)
                            && fromParentPending.get() == 1 && loop.tryDispatch(e)) {
                        return;
                    }
                    loop.post(e);
                }

                @Override
                public void ended(IOException why) {
                    if (!parent.isClosed() && !dismissed) {
                        // before the loss is posted: once it is, the daemon ends and its JVM may exit
                        // before scancel has run (its ranks end with the allocation anyway)
                        OrphanedAllocation.cancel();
                    }
                    loop.post(new DaemonEvent.ParentLost(parent.isClosed() ? "closed" : FrameChannel.why(why)));
                }
            });
            loop.run(event -> {
                if (event instanceof DaemonEvent.FromParent) {
                    fromParentPending.decrementAndGet();
                }
                if (reaperFailure != null) {
                    throw new IllegalStateException(reaperFailure);
                }
                List<DaemonAction> actions = core.handle(event);
                startRanks(actions);
                for (DaemonAction action : actions) {
                    if (!execute(action)) {
                        return false;
                    }
                }
                return true;
            });
        } finally {
            startGate.writeLock().lock();
            try {
                ending = true;
            } finally {
                startGate.writeLock().unlock();
            }
            for (RankProcess r : ranks.values()) {
                r.signal(Signals.SIGKILL);
            }
            if (warm != null) {
                warm.close();
            }
            strays.close(ranks::isEmpty);
            // tables and the PMIx server's files first: once told "done" the guard removes
            // nothing, and a run's JVM may _exit between the two
            if (processTables != null) {
                processTables.removeAll();
            }
            if (pmix != null) {
                pmix.close();
            }
            guard.close();
            spawners.shutdown();
            sightings.close();
            pmi.close();
            upstream.finish(2000);
            peers.close();
            parent.close();
            children.close();
            children.awaitOrKill(5000);
        }
    }

    private DaemonStats stats() {
        List<FrameChannel> links = new ArrayList<>(List.of(parent));
        links.addAll(children.channels());
        links.addAll(peers.channels());
        return FrameChannel.stats(links, upMillis, ranksMillis);
    }

    private long sinceJvmStart() {
        return System.currentTimeMillis() - spawnedAtMillis;
    }

    private boolean execute(DaemonAction action) {
        switch (action) {
            case DaemonAction.SendToParent(OverlayMessage m) -> sendToParent(m);
            case DaemonAction.SendToChild(int child, OverlayMessage m) -> children.send(child, m);
            case DaemonAction.SpawnChild(int child, String childHost) -> children.spawn(child, childHost);
            case DaemonAction.ConnectPeer(int vertex, String contact) -> peers.dial(vertex, contact);
            case DaemonAction.SendToPeer(int vertex, OverlayMessage m) -> peers.send(vertex, m);
            case DaemonAction.StartRank s -> {
                // started by startRanks before the actions run
            }
            case DaemonAction.WriteProcessTable w -> {
                // written by startRanks before the ranks start
            }
            case DaemonAction.ServePmix s -> {
                // registered by startRanks before the ranks start
            }
            case DaemonAction.WatchWireUp w -> {
                // taken by startRanks before the ranks start
            }
            case DaemonAction.RankWiredUp(int jobId, int rank) -> sightings.wiredUp(jobId, rank);
            case DaemonAction.PmixFenceDone _, DaemonAction.PmixModexFetch _, DaemonAction.PmixModexDone _,
                 DaemonAction.PmixNameReply _ -> pmix.execute(action);
            case DaemonAction.ForgetJob(int jobId) -> {
                sightings.forget(jobId);
                pmi.closeJob(jobId);
                pmix.forget(jobId);
                processTables.forget(jobId);
            }
            case DaemonAction.SignalRank(int jobId, int rank, int signal) -> {
                if (!fifos.signal(key(jobId, rank), signal)) {
                    pending.signal(key(jobId, rank), signal);
                }
            }
            case DaemonAction.KeepWarm(org.banyan.core.daemon.WarmProgram program, int count) -> {
                try {
                    warm.keep(program, count, reaper.getNow(null));
                } catch (IOException | RuntimeException e) { // expansions start their JVMs as they come, then
                    System.err.println("banyan daemon " + daemonId + ": no waiting JVMs for job " + program.pool() + ": "
                            + e.getMessage());
                }
            }
            case DaemonAction.DropWarm(int pool) -> warm.drop(pool);
            case DaemonAction.PmiReply(int conn, String line) -> pmi.reply(conn, line);
            case DaemonAction.WriteStdin(int jobId, int rank, byte[] data) -> {
                RankProcess r = ranks.get(key(jobId, rank));
                if (r != null) {
                    r.writeStdin(data);
                }
            }
            case DaemonAction.ArmTimer(var timer, long delay, int jobId) ->
                    loop.schedule(new DaemonEvent.TimerFired(timer, jobId), delay);
            case DaemonAction.Exit() -> {
                peers.closing();
                return false;
            }
        }
        return true;
    }

    /**
     * Starts every rank of a batch before any other action of the batch runs, using both
     * spawner threads: process creation is most of the launch time.
     */
    private void startRanks(List<DaemonAction> actions) throws InterruptedException {
        List<RankLaunch> launches = new ArrayList<>();
        for (DaemonAction a : actions) {
            if (a instanceof DaemonAction.WriteProcessTable(String path, byte[] table)) {
                processTables.write(java.nio.file.Path.of(path), table);
            }
        }
        for (DaemonAction a : actions) {
            if (a instanceof DaemonAction.ServePmix(org.banyan.core.pmix.PmixRegistration reg)) {
                pmix.serve(reg);
            } else if (a instanceof DaemonAction.WatchWireUp(int jobId)) {
                sightings.watch(jobId);
            }
        }
        for (DaemonAction a : actions) {
            if (a instanceof DaemonAction.StartRank(RankLaunch given)) {
                launches.add(given);
            }
        }
        if (launches.size() > 1) {
            // Each rank's PMIx registration on the spawner that starts it: done for all of them
            // here first, the first rank waited for every rank's (about 80 ms at 256 ranks, timed)
            List<Callable<Void>> work = new ArrayList<>(launches.size());
            for (RankLaunch launch : launches) {
                work.add(() -> {
                    try {
                        startRank(pmix.serves(launch) ? pmix.withPmix(launch) : launch);
                    } catch (RuntimeException e) { // invokeAll would keep it: the rank ends, never a silent hang
                        loop.post(new DaemonEvent.RankEnded(launch.jobId(), launch.rank(), 127, launch.executable() + ": " + e));
                    }
                    return null;
                });
            }
            spawners.invokeAll(work);
        } else if (launches.size() == 1) {
            RankLaunch only = pmix.serves(launches.getFirst()) ? pmix.withPmix(launches.getFirst()) : launches.getFirst();
            ChildReaper own = reaper.getNow(null);
            int index = only.jobId() == OverlayMessage.TASKS && own != null ? own.threadIndex() : -1;
            if (index >= 0) {
                pending.decided(key(only.jobId(), only.rank()));
                deferred[index].add(only);
            } else {
                startRank(only);
            }
        }
        if (!launches.isEmpty()) {
            ranksMillis = sinceJvmStart();
        }
    }

    /**
     * Hands a rank's end (or a reaper round's Idle) to the core; on a reaper thread, then makes the
     * starts the core decided meanwhile. Also the end's way from the threads that drain a rank's pipes.
     */
    private void dispatchOnReaper(DaemonEvent event) {
        loop.dispatchOrPost(event);
        ChildReaper own = reaper.getNow(null);
        int index = own == null ? -1 : own.threadIndex();
        java.util.ArrayDeque<RankLaunch> mine = index < 0 ? null : deferred[index];
        RankLaunch launch;
        while (mine != null && (launch = mine.poll()) != null) {
            startGate.readLock().lock();
            try {
                if (!ending) {
                    startRank(launch);
                }
            } finally {
                startGate.readLock().unlock();
            }
            pending.made(key(launch.jobId(), launch.rank()));
        }
    }

    private void startRank(RankLaunch launch) {
        if (!fifos.tookOver(key(launch.jobId(), launch.rank()), launch, pending)) {
            spawnRank(launch);
        }
    }

    /** A rank whose FIFOs' other ends are there, unless the daemon is ending meanwhile. */
    private void startGated(RankLaunch launch) {
        startGate.readLock().lock();
        try {
            if (!ending) {
                spawnRank(launch);
            }
        } finally {
            startGate.readLock().unlock();
        }
    }

    private void spawnRank(RankLaunch launch) {
        try {
            if (launch.bindError() != null) {
                throw new IOException(launch.bindError());
            }
            ChildReaper r = reaper.join();
            if (r == null && launch.needsBytes()) {
                r = bytesReaper();
            }
            WarmPool.Waiting w = warm.take(launch);
            if (w != null) {
                try {
                    RankProcess.startWarm(launch, w, guard, registry, toParent, onReaper);
                    return;
                } catch (IOException e) {
                    warm.discard(w); // it ended before it took its variables: one is started for the rank instead
                }
            }
            RankProcess.start(launch, guard, r, registry, toParent, r != null ? onReaper : toLoop);
        } catch (IOException | RuntimeException e) {
            // A rank that cannot be started (or watched, and was killed) ends at once: never a silent hang.
            loop.post(new DaemonEvent.RankEnded(launch.jobId(), launch.rank(), 127,
                    launch.executable() + ": " + e.getMessage()));
        }
    }

    /**
     * The native spawner (bound in the background when this JVM's {@link SpawnMode} is NATIVE),
     * or null for ProcessBuilder where libc lacks what it needs (no pidfd_open before glibc 2.36).
     */
    private ChildReaper nativeSpawning() {
        try {
            // Ends that can no longer be seen would leave tasks running for ever: the daemon fails
            // (its loop stops, every rank is killed, its link closes; the head fails or restarts
            // their tasks).
            // Ends go into the core on the reaper's thread, and are flushed when a round of them is
            // in: a hand-off to the loop's thread cost 0.7 ms a task (median, 2 busy cores).
            @SuppressWarnings("unchecked")
            java.util.ArrayDeque<RankLaunch>[] queues = new java.util.ArrayDeque[Math.max(1, REAPERS)];
            java.util.Arrays.setAll(queues, i -> new java.util.ArrayDeque<>());
            deferred = queues; // before the reaper threads exist
            return PosixSpawn.available() ? new ChildReaper(why -> {
                reaperFailure = why;
                loop.post(new DaemonEvent.Idle());
            }, () -> dispatchOnReaper(new DaemonEvent.Idle()), REAPERS) : null;
        } catch (Throwable t) {
            return null;
        }
    }

    private synchronized ChildReaper bytesReaper() throws IOException {
        if (bytesReaper == null) {
            if (!PosixSpawn.available()) {
                throw new IOException("its arguments or variables hold bytes that are not UTF-8, which only posix_spawn passes, "
                        + "and libc here lacks it");
            }
            bytesReaper = new ChildReaper(why -> {
                reaperFailure = why;
                loop.post(new DaemonEvent.Idle());
            }, () -> dispatchOnReaper(new DaemonEvent.Idle()), 1);
        }
        return bytesReaper;
    }

    /** Ranks of all jobs in one map: job and rank in one key. */
    private static long key(int jobId, int rank) {
        return ((long) jobId << 32) | (rank & 0xFFFFFFFFL);
    }

    private void sendToParent(OverlayMessage m) {
        upstream.send(m);
    }
}
