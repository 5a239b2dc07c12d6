package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A rank's message engine: the matcher, the transports, the monitor, and progress. There is no
 * progress thread: whoever waits on a request polls the transports (as MPI libraries do), under
 * one lock so that any thread may communicate; how it waits is {@link Waiting}'s.
 */
final class Engine implements AutoCloseable {
    private final Waiting waiting;

    final int rank;
    final int size;
    final Matcher matcher;
    final Monitor monitor;
    private final List<Transport> transports;
    /** The same, polled position by position ({@link #pollAll}). */
    private final Transport[] polled;
    /** The transport that reaches every peer, when no peer shares this rank's host (its naps wait on it); else null. */
    private final Transport socketsOnly;
    /** How long such a nap waits at most: other threads of the rank wait for the engine's lock meanwhile. */
    private static final int SOCKET_WAIT_MILLIS = 1;
    /** Per world rank, the transport that reaches it, chosen on first send. */
    private final Transport[] route;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;
    /**
     * The context of the world's finalize notices: negative, so no communicator has it. A rank
     * closing the world tells every other rank, then waits until every other has told it: the
     * barrier MPI_Finalize is, on a context of its own (the library's barrier on the world's
     * collectives context matched another rank's own barrier()). A notice also fails whatever
     * waits for its sender on the world: a message it did not send before it can never come, and
     * a rank whose error closed the world no longer hangs the others.
     */
    static final int FINALIZE_CONTEXT = -2;
    private final boolean[] finalized;
    private int finalizedPeers;
    /** Each communicator context's group (world ranks by communicator rank): a finalize notice ends waits on any of them. */
    private final java.util.Map<Integer, int[]> groups = new java.util.concurrent.ConcurrentHashMap<>();
    private final Rendezvous rendezvous;

    void groupOf(int context, int[] group) {
        groups.put(context, group);
    }

    /** The Banyan job this world is of (null in tests without one): what spawn asks. */
    volatile org.banyan.client.Banyan job;
    /** The intercommunicator to the job that spawned this one ({@link Comm#parent}), or null. */
    volatile Intercomm parent;
    /** The intercommunicators to other jobs that are open: closing the world closes them first. */
    final List<Intercomm> connected = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Spawns started by this rank, to name each uniquely. */
    final java.util.concurrent.atomic.AtomicInteger spawns = new java.util.concurrent.atomic.AtomicInteger();
    /** MPI_COMM_SELF of this world, made at its first use ({@link Comm#self}). */
    private Comm self;

    synchronized Comm self(java.util.function.Supplier<Comm> make) {
        if (self == null) {
            self = make.get();
        }
        return self;
    }

    /** Per world rank, its host's number (ranks of one host share memory). */
    final int[] hostOf;
    /** The first CPU this rank is bound to ({@code BANYAN_CPUS}), or -1; and a hwloc XML file of the hosts, or null: for reorder. */
    volatile int firstCpu = -1;
    volatile String topologyFile;

    /** {@code transports} in order of preference; the last must reach every peer. */
    Engine(int rank, int size, Matcher matcher, List<Transport> transports, int[] hostOf, boolean dedicated) {
        this.hostOf = hostOf;
        this.rank = rank;
        this.matcher = matcher;
        this.size = size;
        this.monitor = new Monitor(size, lock);
        this.transports = transports;
        this.polled = transports.toArray(Transport[]::new);
        transports.getLast().carriesPeers(anyPeerOnlyThrough(transports, rank, size));
        this.socketsOnly = size > 1 && aloneOnHost(rank, hostOf) ? transports.getLast() : null;
        this.waiting = new Waiting(this, dedicated);
        this.route = new Transport[size];
        this.finalized = new boolean[size];
        matcher.handle(FINALIZE_CONTEXT, this::peerFinalized);
        this.rendezvous = new Rendezvous(this, rank, matcher, this::transportSend);
    }

    /** Before the first message: large messages between native buffers of this host's ranks go in one copy. */
    void singleCopy(PeerMemory memory) {
        rendezvous.singleCopy(memory);
    }

    /** Whether this rank reads {@code peer}'s large native messages itself (for tests). */
    boolean readsFrom(int peer) {
        PeerMemory m = rendezvous.memory();
        return m != null && m.canRead(peer);
    }

    /** Messages this rank read from a local peer's memory in one copy (for tests and benchmarks). */
    long singleCopyReads() {
        PeerMemory m = rendezvous.memory();
        return m == null ? 0 : m.reads();
    }

    /** Large messages announced by this rank that no receive has asked for yet. */
    int announcedWaiting() {
        return read(rendezvous::waiting);
    }

    /** Under the lock: a message on the transport that reaches {@code worldPeer}, as it is. */
    private void transportSend(int worldPeer, Envelope e, MemorySegment payload, Operation.Send op) {
        Transport t = route[worldPeer];
        if (t == null) {
            t = pick(worldPeer);
        }
        t.send(worldPeer, e, payload, op);
    }

    /** Under the lock: a peer closed the world. */
    private void peerFinalized(Envelope e, MemorySegment bytes) {
        int peer = e.source();
        if (peer < 0 || peer >= size || peer == rank || finalized[peer]) {
            return;
        }
        finalized[peer] = true;
        finalizedPeers++;
        matcher.failWaiting(r -> cannotCome(r.context, r.source), (r) -> gone(groupRankOf(r.context, peer, r.source)));
        rendezvous.peerClosed(peer, new CommException("rank " + peer + " closed the world (its MPI_Finalize) while this rank's "
                + "message to it waited to be received: the ranks did not make the same calls, or rank " + peer
                + " ended on an error"));
    }

    /**
     * Under the lock: whether a receive of {@code source} (a rank of the context's communicator,
     * or any) on {@code context} can no longer be matched: its sender, or every other member, closed the world.
     */
    private boolean cannotCome(int context, int source) {
        if (context == Rendezvous.DATA_CONTEXT) { // the bytes of a large message, from the world rank that announced it
            return source >= 0 && source < size && finalized[source];
        }
        int[] group = groups.get(context);
        if (group == null) {
            return false; // not a communicator's (a window's, or one not known here)
        }
        if (source >= 0) {
            return source < group.length && finalized[group[source]];
        }
        for (int worldRank : group) {
            if (worldRank != rank && !finalized[worldRank]) {
                return false;
            }
        }
        return group.length > 1;
    }

    /** The rank a message says it waited for: its own, or (for any source) the one that just closed. */
    private int groupRankOf(int context, int worldPeer, int source) {
        if (source >= 0) {
            int[] group = groups.get(context);
            return group == null ? source : group[source];
        }
        return worldPeer;
    }

    private static CommException gone(int peer) {
        return new CommException("rank " + peer + " closed the world (its MPI_Finalize) while this rank waited for a message "
                + "from it: the ranks did not make the same calls, or rank " + peer + " ended on an error");
    }

    /**
     * Closes the world as MPI_Finalize does: tells every other rank, then waits until every other
     * rank has closed it too.
     */
    void finalizeWorld() {
        for (int peer = 0; peer < size; peer++) {
            if (peer != rank) {
                send(peer, new Envelope(FINALIZE_CONTEXT, rank, 0, 0), MemorySegment.NULL, Traffic.ONE_SIDED);
            }
        }
        progressUntil(() -> read(() -> finalizedPeers == size - 1));
    }

    /** What a message is to monitoring: a user's, the library's (collectives), or one-sided protocol (counted by the window). */
    enum Traffic {
        EXTERNAL, INTERNAL, ONE_SIDED
    }

    Operation.Send send(int worldPeer, Envelope e, MemorySegment payload, Traffic traffic) {
        return send(worldPeer, e, payload, traffic, false);
    }

    /**
     * Sends a message; a {@code synchronous} one (MPI_Ssend) is announced whatever its size, so
     * that its send completes only once a receive has taken it.
     */
    Operation.Send send(int worldPeer, Envelope e, MemorySegment payload, Traffic traffic, boolean synchronous) {
        Operation.Send op = new Operation.Send(this);
        enter();
        try {
            checkOpen();
            if (traffic != Traffic.ONE_SIDED) {
                monitor.sent(worldPeer, traffic == Traffic.INTERNAL, e.length());
            }
            if (synchronous || traffic != Traffic.ONE_SIDED && worldPeer != rank && rendezvous.announces(e.context(), e.length())) {
                rendezvous.send(worldPeer, e, payload, op);
            } else {
                transportSend(worldPeer, e, payload, op);
            }
        } finally {
            lock.unlock();
        }
        return op;
    }

    Operation.Receive receive(int context, int source, int tag, MemorySegment buffer) {
        return receive(context, source, tag, buffer, null);
    }

    /** A receive whose {@code then} runs with its status once its bytes are in (before it is done). */
    Operation.Receive receive(int context, int source, int tag, MemorySegment buffer, java.util.function.Consumer<Status> then) {
        Operation.Receive op = new Operation.Receive(this, context, source, tag, buffer);
        op.then = then;
        enter();
        try {
            checkOpen();
            matcher.post(op);
            if (!op.done) {
                pollAll(); // a message may be waiting in a transport
            }
            if (!op.done && cannotCome(context, source)) {
                matcher.unpost(op); // its sender closed the world: everything it sent has come
                op.fail(gone(source >= 0 ? groups.get(context)[source] : rank));
            }
        } finally {
            lock.unlock();
        }
        return op;
    }

    Envelope probe(int context, int source, int tag) {
        enter();
        try {
            checkOpen();
            pollAllForProbe();
            return matcher.probe(context, source, tag);
        } finally {
            lock.unlock();
        }
    }

    /** Takes the first message matching (context, source, tag) out of matching (MPI_Improbe), or null. */
    Arrival take(int context, int source, int tag) {
        enter();
        try {
            checkOpen();
            pollAllForProbe();
            return matcher.take(context, source, tag);
        } finally {
            lock.unlock();
        }
    }

    /** Receives a message {@link #take} took into {@code buffer} (MPI_Imrecv). */
    Operation.Receive receive(Arrival a, MemorySegment buffer) {
        Envelope e = a.envelope;
        Operation.Receive op = new Operation.Receive(this, e.context(), e.source(), e.tag(), buffer);
        enter();
        try {
            checkOpen();
            matcher.receiveTaken(a, op);
        } finally {
            lock.unlock();
        }
        return op;
    }

    /** The transport that carries messages to {@code worldPeer} (chosen now if it was not yet). */
    Class<? extends Transport> transportTo(int worldPeer) {
        enter();
        try {
            return (route[worldPeer] != null ? route[worldPeer] : pick(worldPeer)).getClass();
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} under the engine's lock (as handlers run): for state they share. */
    void locked(Runnable action) {
        enter();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /** Reads state shared with handlers, under the engine's lock. */
    <T> T read(java.util.function.Supplier<T> read) {
        enter();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private Transport pick(int peer) {
        for (Transport t : transports) {
            if (t.reaches(peer)) {
                route[peer] = t;
                return t;
            }
        }
        throw new CommException("no transport reaches rank " + peer);
    }

    /** One round over every transport; true when anything moved. */
    boolean progressOnce() {
        enter();
        try {
            return !closed && pollAll();
        } finally {
            lock.unlock();
        }
    }

    /** A round for a probe: every message a transport holds is taken, so that the probe can see it. */
    private void pollAllForProbe() {
        matcher.drainAll(true);
        try {
            pollAll();
        } finally {
            matcher.drainAll(false);
        }
    }

    /**
     * A round of every transport. A call site each for the first three: a rank's transports are
     * itself, shared memory and TCP, and one loop's call of three kinds was dispatched through
     * an interface stub every round (7 % of a 2-rank ping-pong's samples); at a site of its own
     * each call has one receiver and is inlined.
     */
    private boolean pollAll() {
        Transport[] ts = polled;
        boolean moved = ts[0].poll(matcher);
        if (ts.length > 1) {
            moved |= ts[1].poll(matcher);
            if (ts.length > 2) {
                moved |= ts[2].poll(matcher);
                for (int i = 3; i < ts.length; i++) {
                    moved |= ts[i].poll(matcher);
                }
            }
        }
        return moved;
    }

    void progressUntil(Operation op) {
        progressUntil(() -> op.done);
    }

    /** Drives progress until {@code done} holds (checked between rounds, without the lock): see {@link Waiting}. */
    void progressUntil(java.util.function.BooleanSupplier done) {
        waiting.until(done);
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether no peer shares this rank's host: a wait then naps in the kernel ({@link #waitOnSockets}). */
    boolean socketsOnly() {
        return socketsOnly != null;
    }

    /**
     * A nap for a rank whose every peer is on another host: in the kernel until a connection is
     * ready (or {@link #SOCKET_WAIT_MILLIS}), where a timed nap woke 20,000 times a second to ask
     * the sockets again, on cores other ranks may need (ranks of several hosts that share a
     * machine's cores: test clusters, {@code --launcher local}). It holds the engine: another
     * thread of the rank that wants it ({@link #enter}) or completes a request
     * ({@link #wakeWaiter}) cuts the wait short, and one already waiting for it is let in first.
     */
    void waitOnSockets(java.util.function.BooleanSupplier done) {
        if (!lock.tryLock()) { // another thread of the rank is making progress
            LockSupport.parkNanos(Waiting.NAP_NANOS);
            return;
        }
        boolean others;
        try {
            others = lock.hasQueuedThreads();
            if (!closed && !others && !done.getAsBoolean()) {
                socketsOnly.pollWaiting(matcher, SOCKET_WAIT_MILLIS);
            }
        } finally {
            lock.unlock();
        }
        if (others) { // let them have the lock before this thread takes it again
            LockSupport.parkNanos(Waiting.NAP_NANOS);
        }
    }

    /** Takes the engine's lock, first waking a thread that holds it waiting on the sockets. */
    private void enter() {
        if (!lock.tryLock()) {
            wakeWaiter();
            lock.lock();
        }
    }

    /**
     * Ends a wait on the sockets now, or the next one at once when none is under way (a request
     * it may be waiting for was completed by another thread, or another thread wants the engine).
     */
    void wakeWaiter() {
        if (socketsOnly != null) {
            socketsOnly.wakeup();
        }
    }

    /** Whether a peer of the world is reached by the last transport (the one that reaches all) alone. */
    private static boolean anyPeerOnlyThrough(List<Transport> transports, int rank, int size) {
        for (int peer = 0; peer < size; peer++) {
            boolean other = peer == rank;
            for (int t = 0; t < transports.size() - 1 && !other; t++) {
                other = transports.get(t).reaches(peer);
            }
            if (!other) {
                return true;
            }
        }
        return false;
    }

    private static boolean aloneOnHost(int rank, int[] hostOf) {
        for (int r = 0; r < hostOf.length; r++) {
            if (r != rank && hostOf[r] == hostOf[rank]) {
                return false;
            }
        }
        return true;
    }

    private void checkOpen() {
        if (closed) {
            throw new CommException("communication after close");
        }
    }

    @Override
    public void close() {
        enter();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Transport t : transports) {
                t.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
