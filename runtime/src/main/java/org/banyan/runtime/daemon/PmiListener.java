package org.banyan.runtime.daemon;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.runtime.os.LoopbackPeers;

/**
 * The daemon's PMI endpoint on the loopback interface (ranks always talk to the daemon of their
 * own host): one thread multiplexes every rank's connection with a selector and hands each
 * request line straight to the daemon core, as Hydra's proxy does with poll. With dozens of busy
 * ranks on a couple of cores, each extra thread hand-off per request (a virtual-thread poller, a
 * queue to an event loop) or each contended lock among per-connection threads costs a
 * scheduling delay that MPI_Init pays a dozen times per rank.
 *
 * <p>Each job has a listening socket of its own (PMI_PORT differs per job), so a rank's
 * connection says which job it belongs to before its first line; all of them share the one
 * selector thread.
 *
 * <p>Only the daemon's own user may connect: any local user can reach a loopback port, and
 * PMI-1 lets whoever connects abort the job or pose as a rank. Each accepted connection's owner
 * is looked up in the kernel's socket table ({@link LoopbackPeers}); another user's is closed
 * before its first byte is read, and said on stderr (the first {@link #REFUSALS_SHOWN}).
 */
public final class PmiListener implements Closeable {
    /** BANYAN_PMI_TRACE=1 prints every PMI line in and out on stderr, as Hydra's -verbose does. */
    private static final boolean TRACE = System.getenv("BANYAN_PMI_TRACE") != null;
    private static final int MAX_LINE = 1 << 16;
    /**
     * What the trace leaves out: the secrets daemons hand to ranks (a job's, in the answer to
     * {@code banyan-job-secret}; a resized world's, after its cards), 256 bits in hex.
     */
    private static final java.util.regex.Pattern SECRET =
            java.util.regex.Pattern.compile("(value=|world-secret=)[0-9a-f]{64}(?![0-9a-f])");
    /** Refused connections said on stderr, per daemon; the rest are counted only. */
    static final int REFUSALS_SHOWN = 5;
    private int refusals;

    /** A PMI line as the trace shows it: without secrets. */
    static String traced(String line) {
        return SECRET.matcher(line).replaceAll("$1(secret)");
    }

    private final Selector selector;
    private final Map<Integer, ServerSocketChannel> servers = new ConcurrentHashMap<>();
    /** Sockets bound by {@link #address} and not yet registered with the selector (its own thread does that). */
    private final java.util.Queue<Map.Entry<Integer, ServerSocketChannel>> toRegister =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Consumer<DaemonEvent> handler;
    private final Map<Integer, Conn> conns = new ConcurrentHashMap<>();
    private int nextConn;
    /**
     * Set by {@link #close}; the selector thread alone closes the selector, since closing it from
     * another thread while that one walks the selected keys broke the walk
     * (ConcurrentModificationException, printed as a stack trace by the dying thread).
     */
    private volatile boolean closing;

    private static final class Conn {
        final int id;
        final int jobId;
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocate(4096);
        final StringBuilder line = new StringBuilder();
        /** PMI-2 framing: characters of the length field still to read, then of the body. */
        int headerLeft;
        int bodyLeft = -1;
        /** The lines so far of a multi-line PMI-1 command ({@code mcmd=...} up to {@code endcmd}), else null. */
        StringBuilder block;
        final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();
        SelectionKey key;

        Conn(int id, int jobId, SocketChannel channel) {
            this.id = id;
            this.jobId = jobId;
            this.channel = channel;
        }
    }

    private PmiListener(Selector selector, Consumer<DaemonEvent> handler) {
        this.selector = selector;
        this.handler = handler;
    }

    /** @param handler receives each request line and each close, on the listener's own thread */
    public static PmiListener open(Consumer<DaemonEvent> handler) throws IOException {
        PmiListener listener = new PmiListener(Selector.open(), handler);
        Thread.ofPlatform().daemon().name("pmi-reactor").start(listener::reactor);
        return listener;
    }

    /**
     * {@code host:port} of job {@code jobId}'s socket, the value of PMI_PORT for its ranks: bound
     * on first use (any thread), accepted on from the selector thread from then on.
     */
    public String address(int jobId) {
        ServerSocketChannel server = servers.computeIfAbsent(jobId, j -> {
            try {
                ServerSocketChannel s = ServerSocketChannel.open();
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
                s.configureBlocking(false);
                toRegister.add(Map.entry(j, s));
                selector.wakeup();
                return s;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot open a PMI socket for job " + j, e);
            }
        });
        InetSocketAddress a = (InetSocketAddress) server.socket().getLocalSocketAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** Stops listening for job {@code jobId}; its connections stay until they close. */
    public void closeJob(int jobId) {
        ServerSocketChannel s = servers.remove(jobId);
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void reactor() {
        try {
            while (!closing) {
                selector.select();
                Map.Entry<Integer, ServerSocketChannel> s;
                while ((s = toRegister.poll()) != null) {
                    if (s.getValue().isOpen()) {
                        s.getValue().register(selector, SelectionKey.OP_ACCEPT, s.getKey());
                    }
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    try {
                        serve(key);
                    } catch (CancelledKeyException e) {
                        // its channel was closed from another thread (closeJob, close) meanwhile
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | ClosedSelectorException e) {
            // closed: the daemon is ending
        } finally {
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void serve(SelectionKey key) throws IOException {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            accept((ServerSocketChannel) key.channel(), (Integer) key.attachment());
        } else {
            Conn c = (Conn) key.attachment();
            if (key.isWritable()) {
                flush(c);
            }
            if (key.isValid() && key.isReadable()) {
                read(c);
            }
        }
    }

    private void accept(ServerSocketChannel server, int jobId) throws IOException {
        SocketChannel ch;
        while ((ch = server.accept()) != null) {
            java.net.InetSocketAddress peer = (java.net.InetSocketAddress) ch.getRemoteAddress();
            if (!LoopbackPeers.isOwnUser(peer)) {
                int uid = LoopbackPeers.uidOf(peer);
                ch.close();
                if (refusals++ < REFUSALS_SHOWN) {
                    System.err.println("banyand: refused a PMI connection to job " + jobId + " from " + peer
                            + (uid == LoopbackPeers.UNKNOWN ? " (its owner could not be found)" : " of uid " + uid)
                            + ": only the job's user may connect" + (refusals == REFUSALS_SHOWN ? " (no more such lines)" : ""));
                }
                continue;
            }
            ch.configureBlocking(false);
            ch.socket().setTcpNoDelay(true);
            Conn c = new Conn(nextConn++, jobId, ch);
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
            conns.put(c.id, c);
        }
    }

    private void read(Conn c) {
        int n;
        try {
            c.in.clear();
            n = c.channel.read(c.in);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            close(c);
            return;
        }
        c.in.flip();
        while (c.in.hasRemaining()) {
            byte b = c.in.get();
            if (c.bodyLeft >= 0) {
                // Inside a PMI-2 frame's body.
                c.line.append((char) (b & 0xFF));
                if (--c.bodyLeft == 0) {
                    c.bodyLeft = -1;
                    String body = c.line.toString();
                    c.line.setLength(0);
                    if (TRACE) {
                        System.err.println("[pmi " + c.id + "] <- " + traced(body));
                    }
                    handler.accept(new DaemonEvent.PmiFrame(c.jobId, c.id, body));
                }
            } else if (c.headerLeft > 0) {
                c.line.append((char) (b & 0xFF));
                if (--c.headerLeft == 0) {
                    int length = org.banyan.core.pmi.PmiV2Codec.bodyLength(c.line);
                    c.line.setLength(0);
                    if (length < 0) {
                        close(c); // not a PMI-2 length: the client is confused beyond reply
                        return;
                    }
                    if (length == 0) {
                        handler.accept(new DaemonEvent.PmiFrame(c.jobId, c.id, ""));
                    } else {
                        c.bodyLeft = length;
                    }
                }
            } else if (c.line.isEmpty() && (b == ' ' || (b >= '0' && b <= '9'))) {
                // A PMI-1 line starts with "cmd=" or "mcmd="; a PMI-2 frame with its length.
                c.line.append((char) b);
                c.headerLeft = org.banyan.core.pmi.PmiV2Codec.HEADER - 1;
            } else if (b == '\n') {
                String line = c.line.toString();
                c.line.setLength(0);
                if (c.block != null || line.startsWith("mcmd=")) {
                    line = addToBlock(c, line);
                }
                if (line != null && !line.isBlank()) {
                    if (TRACE) {
                        System.err.println("[pmi " + c.id + "] <- " + traced(line));
                    }
                    handler.accept(new DaemonEvent.PmiLine(c.jobId, c.id, line));
                }
            } else if (c.line.length() < MAX_LINE) {
                c.line.append((char) (b & 0xFF));
            }
        }
    }

    /**
     * Collects a multi-line command's lines: null until its {@code endcmd}, then the whole command
     * as one request. A block longer than a line may be is cut there, as a long line is.
     */
    private static String addToBlock(Conn c, String line) {
        if (line.strip().equals("endcmd")) {
            String whole = c.block == null ? "" : c.block.toString();
            c.block = null;
            return whole;
        }
        if (c.block == null) {
            c.block = new StringBuilder();
        } else if (c.block.length() < MAX_LINE) {
            c.block.append('\n');
        }
        if (c.block.length() < MAX_LINE) {
            c.block.append(line, 0, Math.min(line.length(), MAX_LINE - c.block.length()));
        }
        return null;
    }

    private void close(Conn c) {
        conns.remove(c.id);
        c.key.cancel();
        try {
            c.channel.close();
        } catch (IOException ignored) {
            // closing
        }
        handler.accept(new DaemonEvent.PmiClosed(c.jobId, c.id));
    }

    /** Any thread. Replies are small; one that does not fit the socket buffer is finished later. */
    public void reply(int conn, String line) {
        Conn c = conns.get(conn);
        if (c == null) {
            return;
        }
        if (TRACE) {
            String shown = traced(line); // a PMI-1 line ends in a newline, a PMI-2 frame does not
            System.err.print("[pmi " + conn + "] -> " + shown + (shown.endsWith("\n") ? "" : "\n"));
        }
        synchronized (c) {
            c.pending.add(ByteBuffer.wrap(line.getBytes(StandardCharsets.ISO_8859_1)));
            if (c.pending.size() == 1 && writeSome(c)) {
                return;
            }
            try {
                c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                selector.wakeup();
            } catch (RuntimeException e) {
                // the connection closed meanwhile
            }
        }
    }

    private void flush(Conn c) {
        synchronized (c) {
            if (writeSome(c)) {
                c.key.interestOps(SelectionKey.OP_READ);
            }
        }
    }

    /** Writes what the socket takes; true when nothing is left pending. */
    private static boolean writeSome(Conn c) {
        try {
            while (!c.pending.isEmpty()) {
                ByteBuffer b = c.pending.peek();
                c.channel.write(b);
                if (b.hasRemaining()) {
                    return false;
                }
                c.pending.poll();
            }
        } catch (IOException e) {
            c.pending.clear();
        }
        return true;
    }

    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        for (int jobId : List.copyOf(servers.keySet())) {
            closeJob(jobId);
        }
        for (Conn c : conns.values()) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
