package org.banyan.runtime.net;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * A vertex's links to its children in the overlay tree, for the head and for daemons alike:
 * the listener children connect back to, the starting of each child through the launch agent,
 * and a reader per link.
 *
 * <p>Readers only hand messages to the {@link Listener}, which must queue them and never block:
 * every blocking write in the tree then faces a reader that keeps draining, so parent and child
 * cannot both stall writing to each other.
 */
public final class ChildLinks implements Closeable {
    /** Where a vertex's child traffic goes. Both methods must return quickly. */
    public interface Listener {
        void message(int childId, OverlayMessage message);

        /** The child could not be started, or its link closed. */
        void lost(int childId, String reason);
    }

    /**
     * The local listeners of this JVM by the address children are given, so that a daemon
     * started on a thread of this JVM links to its parent in memory ({@link FrameChannel#pair}).
     */
    private static final Map<String, ChildLinks> IN_THIS_JVM = new ConcurrentHashMap<>();

    private final LaunchAgent agent;
    private final ChildStarter starter;
    private final Listener listener;
    private final ServerSocket server;
    private final Map<Integer, FrameChannel> channels = new ConcurrentHashMap<>();
    private final PeerLinks peers;
    private volatile boolean closing;

    private ChildLinks(LaunchAgent agent, ChildStarter starter, Listener listener, ServerSocket server, PeerLinks peers) {
        this.agent = agent;
        this.starter = starter;
        this.listener = listener;
        this.server = server;
        this.peers = peers;
    }

    /**
     * Listens on the loopback interface when children run on this machine, on every interface
     * otherwise, at the agent's {@link LaunchAgent#listenPort}.
     *
     * @param starter brings up the children this vertex is asked to spawn
     * @param peers   takes the links that routing children open to this vertex: they arrive on the
     *                same listener and say {@link OverlayMessage.PeerHello} first
     */
    public static ChildLinks open(LaunchAgent agent, ChildStarter starter, Listener listener, PeerLinks peers)
            throws IOException {
        int port = agent.listenPort();
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        boolean local = !agent.remote();
        try {
            server.bind(local ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port)
                    : new InetSocketAddress(port), 4096);
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot listen on port " + port + " (another banyan run with static endpoints in this "
                    + "allocation? set BANYAN_STATIC_PORT): " + e.getMessage(), e);
        }
        ChildLinks links = new ChildLinks(agent, starter, listener, server, peers);
        Thread.ofPlatform().daemon().name("child-accept").start(links::acceptLoop);
        if (local) {
            IN_THIS_JVM.put(links.loopbackAddress(), links);
        }
        return links;
    }

    /**
     * A link to the vertex listening at {@code parentAddress} in this JVM, in memory; empty when
     * no vertex of this JVM listens there (the caller then connects over TCP).
     */
    public static java.util.Optional<FrameChannel> connectInProcess(String parentAddress) {
        ChildLinks parent = IN_THIS_JVM.get(parentAddress);
        if (parent == null || parent.server.isClosed()) {
            return java.util.Optional.empty();
        }
        FrameChannel[] ends = FrameChannel.pair();
        parent.serveChild(ends[1]);
        return java.util.Optional.of(ends[0]);
    }

    /** Where a child on {@code host} reaches this vertex: the local address routed towards it. */
    public String addressFor(String host) {
        int port = server.getLocalPort();
        if (!agent.remote()) {
            return loopbackAddress();
        }
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(host), 9); // no packet is sent: this only asks the routing table
            InetAddress local = probe.getLocalAddress();
            if (local != null && !local.isAnyLocalAddress()) {
                return local.getHostAddress() + ":" + port;
            }
        } catch (IOException e) {
            // fall through to the host name
        }
        try {
            return InetAddress.getLocalHost().getHostAddress() + ":" + port;
        } catch (IOException e) {
            return "127.0.0.1:" + port;
        }
    }

    /** Starts child {@code childId} on {@code host}; failures come back through {@link Listener#lost}. */
    public void spawn(int childId, String host) {
        starter.start(childId, host, addressFor(host), (child, reason) -> {
            if (!closing) {
                listener.lost(child, reason);
            }
        });
    }

    private String loopbackAddress() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /**
     * Connections proving themselves at once. Beyond it the listener stops accepting and the
     * kernel's backlog holds the rest: a stranger who opens connections and says nothing delays
     * the children behind it by the proof's deadline at most, and cannot make the vertex spend
     * threads and descriptors without bound. Honest children prove themselves in a round trip.
     */
    static final int PROVING_MAX = 256;
    private final java.util.concurrent.Semaphore proving = new java.util.concurrent.Semaphore(PROVING_MAX);

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket s;
            try {
                proving.acquire();
                s = server.accept();
            } catch (IOException | InterruptedException e) {
                return;
            }
            // The proof takes a round trip: on a thread of its own, so one slow or silent
            // connection holds up no child behind it.
            Thread.ofVirtual().name("link-proof").start(() -> {
                try {
                    LinkAuth.challenge(s);
                } catch (IOException e) {
                    refused(s, e);
                    return;
                } finally {
                    proving.release();
                }
                try {
                    serveChild(new FrameChannel(s));
                } catch (IOException e) {
                    // that child's link failed before it said hello: it reports that itself
                    closeQuietly(s);
                }
            });
        }
    }

    /** Refusals said on stderr per listener; the rest are counted only. */
    static final int REFUSALS_SHOWN = 5;
    private final java.util.concurrent.atomic.AtomicInteger refusals = new java.util.concurrent.atomic.AtomicInteger();

    /** A connection that did not prove the job's secret: closed, and said (the first few). */
    private void refused(Socket s, IOException why) {
        closeQuietly(s);
        if (closing) {
            return;
        }
        int n = refusals.incrementAndGet();
        if (n <= REFUSALS_SHOWN) {
            System.err.println("banyan: refused an overlay connection from " + s.getRemoteSocketAddress() + ": "
                    + (why instanceof java.net.SocketTimeoutException ? "no proof within " + LinkAuth.HANDSHAKE_MILLIS / 1000 + " s"
                            : why instanceof java.io.EOFException ? "it closed before its proof" : why.getMessage())
                    + (n == REFUSALS_SHOWN ? " (no more such lines)" : ""));
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // it is gone either way
        }
    }

    /**
     * A link from a child, or from a routing peer: its first message says which. A child's
     * messages then go to the listener; its link's end is its loss.
     */
    private void serveChild(FrameChannel c) {
        c.serve("child-link", new FrameChannel.Reader() {
            private int child = -1;
            private boolean peer;

            @Override
            public void message(OverlayMessage m) {
                if (peer) {
                    return;
                }
                if (child >= 0) {
                    listener.message(child, m);
                    return;
                }
                if (m instanceof OverlayMessage.PeerHello(int from)) {
                    // only over TCP (routing peers dial in): PeerLinks reads the rest on this reader's thread
                    peer = true;
                    peers.serve(org.banyan.core.tree.Topology.vertexOfDaemon(from), c);
                    return;
                }
                if (!(m instanceof OverlayMessage.DaemonHello hello) || channels.putIfAbsent(hello.daemonId(), c) != null) {
                    c.close();
                    return;
                }
                child = hello.daemonId();
                listener.message(child, hello);
            }

            @Override
            public void ended(IOException why) {
                if (child >= 0) {
                    channels.remove(child, c); // a DVM may start this child anew where it was
                }
                if (child >= 0 && !closing) {
                    listener.lost(child, FrameChannel.why(why));
                }
                // only once the loss is told: the killed remote shell's end is reported too, and must not come first
                if (child >= 0 && why instanceof FrameChannel.Silent) {
                    starter.abandon(child);
                }
            }
        });
    }

    public void send(int childId, OverlayMessage message) {
        FrameChannel c = channels.get(childId);
        if (c != null) {
            try {
                c.send(message);
            } catch (IOException e) {
                // its reader reports the loss
            }
        }
    }

    /** Stops reporting losses: the links are about to close on purpose. */
    public void closing() {
        closing = true;
    }

    /** Closes the links (children see their parent go) and waits up to {@code millis} for them to end. */
    public void awaitOrKill(long millis) {
        closing = true;
        starter.awaitOrKill(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** The links, for counting (read-only). */
    public java.util.Collection<FrameChannel> channels() {
        return java.util.Collections.unmodifiableCollection(channels.values());
    }

    @Override
    public void close() {
        closing = true;
        IN_THIS_JVM.remove(loopbackAddress(), this);
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        channels.values().forEach(FrameChannel::close);
    }
}
