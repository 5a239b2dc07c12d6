package org.banyan.comm;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Communication monitoring inside the library, as Open MPI's pml/osc/coll monitoring: per peer
 * (world ranks), messages, bytes and a size histogram, kept apart for user point-to-point traffic
 * (external), point-to-point traffic of collectives and the library (internal), and one-sided
 * traffic sent and received; per communicator, the collectives' one-to-all, all-to-one and
 * all-to-all operations and bytes. Counters are allocated for a peer on its first message.
 *
 * <p>Always compiled in, switched at run time: {@link #start()} and {@link #stop()} bound the
 * monitored phase, {@link #reset()} clears, {@link #snapshot()} reads (the MPI_T pvar session
 * idea). {@code banyan run --monitor} starts it before the program's first call.
 */
public final class Monitor {
    /** What is recorded while monitoring is on. */
    public enum Scope {
        /** Every kind of traffic. */
        ALL,
        /** User point-to-point messages only. */
        EXTERNAL
    }

    /**
     * The kinds of per-peer traffic: user point-to-point (external), the point-to-point messages
     * collectives and the library really send (internal), one-sided sent and received, and the
     * collectives' logical traffic (what a broadcast's root gives each member, whatever the tree).
     */
    public enum Kind {
        EXTERNAL, INTERNAL, OSC_SENT, OSC_RECEIVED, COLLECTIVE
    }

    /** The collective shapes Open MPI's coll monitoring tells apart. */
    public enum Shape {
        ONE_TO_ALL, ALL_TO_ONE, ALL_TO_ALL
    }

    private final int size;
    private volatile boolean on;
    private volatile Scope scope = Scope.ALL;
    private final PeerTraffic[][] peers = new PeerTraffic[Kind.values().length][];
    private final Map<String, CollectiveTraffic> collectives = new LinkedHashMap<>();

    /**
     * The engine's lock: messages are counted under it already (the engine sends under it), so
     * the per-message path takes no lock of its own; the rest takes it.
     */
    private final java.util.concurrent.locks.ReentrantLock lock;

    Monitor(int size, java.util.concurrent.locks.ReentrantLock lock) {
        this.size = size;
        this.lock = lock;
        for (int k = 0; k < peers.length; k++) {
            peers[k] = new PeerTraffic[size];
        }
    }

    public void start() {
        on = true;
    }

    public void start(Scope scope) {
        this.scope = scope;
        on = true;
    }

    public void stop() {
        on = false;
    }

    public boolean running() {
        return on;
    }

    public Scope scope() {
        return scope;
    }

    public void reset() {
        lock.lock();
        try {
            for (PeerTraffic[] row : peers) {
                java.util.Arrays.fill(row, null);
            }
            for (CollectiveTraffic c : collectives.values()) {
                c.clear();
            }
        } finally {
            lock.unlock();
        }
    }

    /** A point-to-point message was sent; the engine's lock is held. */
    void sent(int worldPeer, boolean internal, long bytes) {
        if (on && (!internal || scope == Scope.ALL)) {
            add(internal ? Kind.INTERNAL : Kind.EXTERNAL, worldPeer, bytes);
        }
    }

    void oneSided(int worldPeer, boolean sent, long bytes) {
        if (on && scope == Scope.ALL) {
            lock.lock();
            try {
                add(sent ? Kind.OSC_SENT : Kind.OSC_RECEIVED, worldPeer, bytes);
            } finally {
                lock.unlock();
            }
        }
    }

    /** A communicator exists: it gets its D lines in the profile, with or without traffic, as in Open MPI. */
    void register(String communicator, int[] members) {
        lock.lock();
        try {
            collectives.computeIfAbsent(communicator, n -> new CollectiveTraffic(members));
        } finally {
            lock.unlock();
        }
    }

    /** A collective at this rank: its logical bytes to each of {@code worldPeers}, and its shape's total. */
    /** One collective operation whose peers each get their own number of bytes (the "v" collectives). */
    void collective(String communicator, int[] members, Shape shape, int[] worldPeers, long[] bytes) {
        if (on && scope == Scope.ALL) {
            lock.lock();
            try {
                long total = 0;
                for (int i = 0; i < worldPeers.length; i++) {
                    add(Kind.COLLECTIVE, worldPeers[i], bytes[i]);
                    total += bytes[i];
                }
                collectives.computeIfAbsent(communicator, n -> new CollectiveTraffic(members)).add(shape, total);
            } finally {
                lock.unlock();
            }
        }
    }

    void collective(String communicator, int[] members, Shape shape, int[] worldPeers, long bytesEach) {
        if (on && scope == Scope.ALL) {
            lock.lock();
            try {
                for (int p : worldPeers) {
                    add(Kind.COLLECTIVE, p, bytesEach);
                }
                collectives.computeIfAbsent(communicator, n -> new CollectiveTraffic(members))
                        .add(shape, bytesEach * worldPeers.length);
            } finally {
                lock.unlock();
            }
        }
    }

    private void add(Kind kind, int peer, long bytes) {
        PeerTraffic t = peers[kind.ordinal()][peer];
        if (t == null) {
            t = new PeerTraffic();
            peers[kind.ordinal()][peer] = t;
        }
        t.add(bytes);
    }

    /** A copy of every counter now. */
    public Snapshot snapshot() {
        lock.lock();
        try {
            return copy();
        } finally {
            lock.unlock();
        }
    }

    private Snapshot copy() {
        PeerTraffic[][] copy = new PeerTraffic[peers.length][size];
        for (int k = 0; k < peers.length; k++) {
            for (int p = 0; p < size; p++) {
                copy[k][p] = peers[k][p] == null ? null : peers[k][p].copy();
            }
        }
        Map<String, CollectiveTraffic> colls = new LinkedHashMap<>();
        collectives.forEach((n, c) -> colls.put(n, c.copy()));
        return new Snapshot(size, copy, colls);
    }

    /** Per communicator: operations and bytes of each collective shape, and its members. */
    public static final class CollectiveTraffic {
        final int[] members;
        final long[] operations = new long[Shape.values().length];
        final long[] bytes = new long[Shape.values().length];

        CollectiveTraffic(int[] members) {
            this.members = members.clone();
        }

        void add(Shape s, long b) {
            operations[s.ordinal()]++;
            bytes[s.ordinal()] += b;
        }

        void clear() {
            java.util.Arrays.fill(operations, 0);
            java.util.Arrays.fill(bytes, 0);
        }

        CollectiveTraffic copy() {
            CollectiveTraffic c = new CollectiveTraffic(members);
            System.arraycopy(operations, 0, c.operations, 0, operations.length);
            System.arraycopy(bytes, 0, c.bytes, 0, bytes.length);
            return c;
        }

        public int[] members() {
            return members.clone();
        }

        public long operations(Shape s) {
            return operations[s.ordinal()];
        }

        public long bytes(Shape s) {
            return bytes[s.ordinal()];
        }
    }

    /** What {@link #snapshot()} read: per kind and world peer, null where nothing went. */
    public record Snapshot(int size, PeerTraffic[][] peers, Map<String, CollectiveTraffic> collectives) {
        public PeerTraffic traffic(Kind kind, int peer) {
            return peers[kind.ordinal()][peer];
        }

        public long messages(Kind kind, int peer) {
            PeerTraffic t = traffic(kind, peer);
            return t == null ? 0 : t.messages;
        }

        public long bytes(Kind kind, int peer) {
            PeerTraffic t = traffic(kind, peer);
            return t == null ? 0 : t.bytes;
        }
    }
}
