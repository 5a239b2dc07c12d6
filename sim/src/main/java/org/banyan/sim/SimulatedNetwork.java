package org.banyan.sim;

import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayCodec;
import org.banyan.core.wire.OverlayMessage;

/**
 * What moving messages costs in a {@link LaunchSimulation}: each vertex's CPU (the messages it
 * sends and receives are serialised on it) and network interface, FIFO links with the model's
 * latency, links that broke or are slow, and each message's encoded size from the real codec.
 */
final class SimulatedNetwork {
    private final CostModel costs;
    private final SharedCpus.Clock clock;
    private final long[] cpuFree;
    /** When each vertex's network interface has sent what it was given. */
    private final long[] nicFree;
    private final long[] messages;
    private final Map<Long, Long> lastArrival = new HashMap<>();
    /** Links that broke: key from << 32 | to, both directions. */
    private final Set<Long> broken = new HashSet<>();
    /** Extra latency at a daemon's links, by daemon. */
    private final Map<Integer, Long> slowLink = new HashMap<>();
    /**
     * Encoded sizes of recent messages, by identity: a job description or a fence release goes
     * to every child as one object, and encoding it again per child would cost the simulation
     * more than the launch it simulates. Cleared when it grows, so it holds few references.
     */
    private final IdentityHashMap<Object, Integer> sizes = new IdentityHashMap<>();
    private final IdentityHashMap<OverlayMessage, Integer> contactSizes = new IdentityHashMap<>();
    private long contactBytesUp;
    private long contactBytesDown;

    SimulatedNetwork(int vertices, CostModel costs, SharedCpus.Clock clock) {
        this.costs = costs;
        this.clock = clock;
        cpuFree = new long[vertices];
        nicFree = new long[vertices];
        messages = new long[vertices];
    }

    /**
     * Runs {@code work} microseconds of CPU for vertex {@code v} from {@code from} on, on the
     * vertex's own CPU. Returns when the work is done.
     */
    long cpu(int v, long from, long work) {
        long done = Math.max(from, cpuFree[v]) + work;
        cpuFree[v] = done;
        return done;
    }

    /**
     * Message {@code m} (null: a notice of no size) from vertex {@code from} to vertex {@code to}:
     * sender CPU, then the sender's network interface for its encoded size at the model's
     * bandwidth (one message at a time per vertex), latency, FIFO per link, receiver CPU.
     */
    void send(int from, int to, OverlayMessage m, Runnable deliver) {
        long key = ((long) from << 32) | to;
        if (broken.contains(key) || silent.contains(from) || silent.contains(to)) {
            return;
        }
        long sent = cpu(from, clock.now(), costs.messageCpuMicros());
        if (m != null && costs.bytesPerMicro() > 0) {
            sent = Math.max(sent, nicFree[from]) + sizeOf(m) / costs.bytesPerMicro();
            nicFree[from] = sent;
        }
        messages[from]++;
        long extra = slowLink.getOrDefault(Topology.daemonOfVertex(from), 0L) + slowLink.getOrDefault(Topology.daemonOfVertex(to), 0L);
        long arrival = Math.max(sent + costs.latencyMicros() + extra, lastArrival.getOrDefault(key, 0L) + 1);
        lastArrival.put(key, arrival);
        clock.at(arrival, () -> {
            if (broken.contains(key) || silent.contains(from) || silent.contains(to)) {
                return; // in flight when the link broke or the host went silent
            }
            long handled = cpu(to, clock.now(), costs.messageCpuMicros());
            messages[to]++;
            clock.at(handled, deliver);
        });
    }

    /** The link between vertices {@code a} and {@code b} breaks: nothing crosses it any more, either way. */
    /** Vertices gone silent: nothing they send arrives, nothing sent to them does. */
    private final Set<Integer> silent = new HashSet<>();

    void silence(int v) {
        silent.add(v);
    }

    void breakBetween(int a, int b) {
        broken.add(((long) a << 32) | b);
        broken.add(((long) b << 32) | a);
    }

    /** Daemon {@code daemonId}'s links take {@code extraMicros} more (the largest given counts). */
    void slow(int daemonId, long extraMicros) {
        slowLink.merge(daemonId, extraMicros, Math::max);
    }

    /** Messages vertex {@code v} sent and received. */
    long messages(int v) {
        return messages[v];
    }

    /** Encoded size, from the real codec; a message sent to many children is encoded once. */
    int sizeOf(OverlayMessage m) {
        // Each parent wraps the one job description in a LaunchJob of its own per child.
        Object key = m instanceof OverlayMessage.LaunchJob(var job) ? job : m;
        Integer known = sizes.get(key);
        if (known != null) {
            return known;
        }
        if (sizes.size() >= 4096) {
            sizes.clear();
        }
        int size = OverlayCodec.encode(m).length;
        sizes.put(key, size);
        return size;
    }

    /** Phase-2 bytes on the wire, from the codec (each message object encoded once). */
    void countContacts(OverlayMessage m) {
        if (m instanceof OverlayMessage.Contacts || m instanceof OverlayMessage.AllContacts) {
            int bytes = contactSizes.computeIfAbsent(m, x -> OverlayCodec.encode(x).length);
            if (m instanceof OverlayMessage.Contacts) {
                contactBytesUp += bytes;
            } else {
                contactBytesDown += bytes;
            }
        }
    }

    long contactBytesUp() {
        return contactBytesUp;
    }

    long contactBytesDown() {
        return contactBytesDown;
    }
}
