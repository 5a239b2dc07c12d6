package org.banyan.runtime.net;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.daemon.DaemonDriver;
import org.banyan.runtime.launch.DaemonCommand;
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

    private final LaunchAgent agent;
    private final Listener listener;
    private final ServerSocket server;
    private final Map<Integer, FrameChannel> channels = new ConcurrentHashMap<>();
    private final Map<Integer, Process> processes = new ConcurrentHashMap<>();
    private final Map<Integer, Thread> threads = new ConcurrentHashMap<>();
    private final PeerLinks peers;
    private volatile boolean closing;

    private ChildLinks(LaunchAgent agent, Listener listener, ServerSocket server, PeerLinks peers) {
        this.agent = agent;
        this.listener = listener;
        this.server = server;
        this.peers = peers;
    }

    /**
     * Listens on the loopback interface when children run on this machine, on every interface
     * otherwise.
     */
    /**
     * @param peers takes the links that routing children open to this vertex: they arrive on the
     *              same listener and say {@link OverlayMessage.PeerHello} first
     */
    public static ChildLinks open(LaunchAgent agent, Listener listener, PeerLinks peers) throws IOException {
        return open(agent, listener, peers, 0);
    }

    /** @param port where to listen (a static endpoint), or 0 for any free port */
    public static ChildLinks open(LaunchAgent agent, Listener listener, PeerLinks peers, int port) throws IOException {
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
        ChildLinks links = new ChildLinks(agent, listener, server, peers);
        Thread.ofPlatform().daemon().name("child-accept").start(links::acceptLoop);
        return links;
    }

    /** Where a child on {@code host} reaches this vertex: the local address routed towards it. */
    public String addressFor(String host) {
        int port = server.getLocalPort();
        if (!agent.remote()) {
            return "127.0.0.1:" + port;
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
        String parent = addressFor(host);
        long spawnedAt = System.currentTimeMillis();
        if (agent instanceof LaunchAgent.InProcess) {
            // A platform thread for the whole run (see InProcessDaemon's reasons in the docs).
            threads.put(childId, Thread.ofPlatform().name("banyand-" + childId).daemon().start(() -> {
                try {
                    new DaemonDriver(childId, host, FrameChannel.connect(parent, 10_000), agent, spawnedAt).run();
                } catch (Exception e) {
                    if (!closing) {
                        listener.lost(childId, "in-process daemon failed: " + e);
                    }
                }
            }));
            return;
        }
        List<String> daemon = DaemonCommand.build(childId, host, parent, agent);
        List<String> command = switch (agent) {
            case LaunchAgent.RemoteShell rsh -> rsh.commandFor(host, daemon);
            case LaunchAgent.Slurm slurm -> slurm.commandFor(host, daemon);
            default -> daemon;
        };
        Process p;
        try {
            p = start(command);
        } catch (IOException e) {
            listener.lost(childId, "cannot run " + command.getFirst() + ": " + e.getMessage());
            return;
        }
        processes.put(childId, p);
        String[] lastLine = {""};
        Thread out = passOutput(p, "child-" + childId + "-out", lastLine);
        p.onExit().thenAccept(done -> {
            try {
                out.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (!closing) {
                String why = "exit status " + done.exitValue() + (lastLine[0].isEmpty() ? "" : ": " + lastLine[0]);
                listener.lost(childId, "daemon via " + command.getFirst() + " ended, " + why);
            }
        });
    }

    /**
     * Starts the one process that starts every daemon ({@link LaunchAgent.SlurmStep}'s srun). Its
     * output is passed on; it is ended with the other links. A daemon it fails to start is named
     * by the head's start timer, one that dies by its tree parent.
     */
    public void startAll(List<String> command) throws IOException {
        Process p = start(command);
        processes.put(-1, p);
        passOutput(p, "step-out", new String[] {""});
    }

    private static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    }

    /**
     * What the agent or the daemon prints: passed on to stderr, and the last line kept as the
     * reason should the child fail (ssh says why it could not connect).
     */
    private static Thread passOutput(Process p, String name, String[] lastLine) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (!line.isBlank()) {
                        lastLine[0] = line.strip();
                        System.err.println(line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofPlatform().daemon().name("child-link").start(() -> readChild(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void readChild(Socket socket) {
        int child = -1;
        try {
            FrameChannel c = new FrameChannel(socket);
            OverlayMessage first = c.receive();
            if (first instanceof OverlayMessage.PeerHello(int peer)) {
                peers.serve(org.banyan.core.tree.Topology.vertexOfDaemon(peer), c);
                return;
            }
            if (!(first instanceof OverlayMessage.DaemonHello hello) || channels.putIfAbsent(hello.daemonId(), c) != null) {
                c.close();
                return;
            }
            child = hello.daemonId();
            listener.message(child, hello);
            while (true) {
                listener.message(child, c.receive());
            }
        } catch (IOException e) {
            if (child >= 0 && !closing) {
                listener.lost(child, "connection closed");
            }
        }
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
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Thread t : threads.values()) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Process p : processes.values()) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }

    /** The links, for counting (read-only). */
    public java.util.Collection<FrameChannel> channels() {
        return java.util.Collections.unmodifiableCollection(channels.values());
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        channels.values().forEach(FrameChannel::close);
    }
}
