package org.banyan.runtime.net;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.banyan.core.wire.OverlayCodec;
import org.banyan.core.wire.OverlayMessage;

/**
 * One overlay connection: whole frames of {@link OverlayCodec} over a TCP socket, or, between a
 * head and the daemon on a thread of its own JVM, an in-memory pair ({@link #pair}). Both carry
 * the same encoded frames, so the two ends behave alike and the counts agree; the pair only
 * spares each message the loopback TCP stack and a reader thread, which were a fifth of a local
 * DVM's CPU at a thousand tasks a second. A pair's ends are read through {@link #serve} only.
 *
 * <p>Except a DVM's task traffic: a pair hands {@link OverlayMessage.RunTasks},
 * {@link OverlayMessage.RanksExited} and {@link OverlayMessage.SignalTasks} over as they are
 * (immutable: their lists and the task specs' are copied when made), counted as frames but not
 * in bytes, since no bytes are made. Encoding and decoding them was 3 % of a local DVM's CPU at
 * thousands of tasks a second (perf over a 10,000-task bag).
 *
 * <p>A socket's channel is watched by the overlay's failure detector ({@link Heartbeats}): a
 * frame of length 0, never passed on, goes out when nothing else did for an interval, and a read
 * that waits longer than the timeout ends the link ("no word from it").
 */
public final class FrameChannel implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    /** In-memory: frames (or messages handed over) that came before {@link #serve} (null for a socket). */
    private final java.util.List<Object> early;
    private FrameChannel peer;
    /** In-memory: where frames for this end go once {@link #serve} was called. */
    private Reader reader;
    private final java.util.concurrent.atomic.AtomicBoolean readerEnded = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong bytesSent = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong bytesReceived = new java.util.concurrent.atomic.AtomicLong();

    /** When this end last wrote (nanos), for the heartbeat. */
    private volatile long lastSent = System.nanoTime();
    private static final byte[] HEARTBEAT = new byte[4];

    public FrameChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout((int) Heartbeats.timeoutMillis());
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = socket.getOutputStream();
        this.early = null;
        // A thread of its own: a write to a peer that stopped reading blocks only its own link's beat.
        Thread.ofVirtual().name("heartbeat").start(this::beat);
    }

    private void beat() {
        long interval = Heartbeats.intervalMillis();
        try {
            while (!closed) {
                Thread.sleep(interval);
                if (!closed && System.nanoTime() - lastSent >= interval * 1_000_000) {
                    synchronized (out) {
                        out.write(HEARTBEAT);
                    }
                    lastSent = System.nanoTime();
                }
            }
        } catch (IOException | InterruptedException e) {
            // the link is gone: its reader says so
        }
    }

    private FrameChannel() {
        this.socket = null;
        this.in = null;
        this.out = null;
        this.early = new java.util.ArrayList<>();
    }

    /** Two connected in-memory ends. */
    public static FrameChannel[] pair() {
        FrameChannel a = new FrameChannel();
        FrameChannel b = new FrameChannel();
        a.peer = b;
        b.peer = a;
        return new FrameChannel[] {a, b};
    }

    public static FrameChannel connect(String hostPort, int timeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("address without port: " + hostPort);
        }
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                    timeoutMillis);
            LinkAuth.prove(s);
        } catch (java.net.ConnectException e) {
            s.close();
            throw e; // a parent still starting: the caller may try again
        } catch (IOException e) {
            s.close();
            throw new IOException(hostPort + " is not a vertex of this job: " + e.getMessage(), e);
        }
        return new FrameChannel(s);
    }

    /** Where a channel's messages go when it is {@link #serve served}. Both must return quickly (queue, never block). */
    public interface Reader {
        void message(OverlayMessage m);

        /** The link closed or failed; called once. */
        void ended(IOException why);
    }

    /**
     * Hands every message that arrives to {@code reader}, in order: from a reader thread named
     * {@code threadName} for a socket, on the sending thread for an in-memory pair (no thread,
     * no hand-off: the reader already queues for its event loop).
     */
    public void serve(String threadName, Reader r) {
        if (early == null) {
            Thread.ofPlatform().daemon().name(threadName).start(() -> {
                try {
                    while (true) {
                        r.message(receive());
                    }
                } catch (IOException e) {
                    r.ended(e);
                }
            });
            return;
        }
        synchronized (this) {
            early.forEach(f -> deliver(r, f));
            early.clear();
            reader = r;
        }
        if (closed || peer.closed) {
            endReader(new EOFException("link closed"));
        }
    }

    /**
     * In-memory: a frame (without its length) or a message handed over for this end, to its
     * reader, or kept until it is served.
     */
    private synchronized void arrive(Object frameOrMessage) {
        if (reader != null) {
            deliver(reader, frameOrMessage);
        } else {
            early.add(frameOrMessage);
        }
    }

    private void deliver(Reader r, Object frameOrMessage) {
        received.incrementAndGet();
        if (frameOrMessage instanceof OverlayMessage m) {
            r.message(m);
            return;
        }
        byte[] frame = (byte[]) frameOrMessage;
        bytesReceived.addAndGet(4L + frame.length);
        try {
            r.message(OverlayCodec.decode(frame));
        } catch (IllegalArgumentException e) {
            endReader(new IOException("undecodable frame: " + e.getMessage(), e));
        }
    }

    /** What a pair hands over without encoding: immutable, and the bulk of a DVM's traffic. */
    private static boolean handedOver(OverlayMessage m) {
        return m instanceof OverlayMessage.RunTasks || m instanceof OverlayMessage.RanksExited
                || m instanceof OverlayMessage.SignalTasks;
    }

    private void endReader(IOException why) {
        Reader r;
        synchronized (this) {
            r = reader;
        }
        if (r != null && readerEnded.compareAndSet(false, true)) {
            r.ended(why);
        }
    }

    /** An end of an in-memory {@link #pair}: {@link #send} never blocks, it hands the frame to the peer's reader. */
    public boolean inMemory() {
        return early != null;
    }

    /** Thread-safe: frames from several writers never interleave. */
    public void send(OverlayMessage message) throws IOException {
        if (early != null && handedOver(message)) {
            if (closed || peer.closed) {
                throw new IOException("link closed");
            }
            peer.arrive(message);
            sent.incrementAndGet();
            return;
        }
        byte[] frame = OverlayCodec.encode(message);
        if (early != null) {
            if (closed || peer.closed) {
                throw new IOException("link closed");
            }
            // the peer gets the frame without its length prefix, as receive() reads it from a socket
            peer.arrive(java.util.Arrays.copyOfRange(frame, 4, frame.length));
        } else {
            synchronized (out) {
                out.write(frame);
            }
            lastSent = System.nanoTime();
        }
        sent.incrementAndGet();
        bytesSent.addAndGet(frame.length);
    }

    /** Blocks for the next message (a socket's); {@link EOFException} when the peer closed cleanly. */
    public OverlayMessage receive() throws IOException {
        if (early != null) {
            throw new IllegalStateException("an in-memory link is read through serve()");
        }
        byte[] frame = readFrame();
        int length = frame.length;
        received.incrementAndGet();
        bytesReceived.addAndGet(4L + length);
        try {
            return OverlayCodec.decode(frame);
        } catch (IllegalArgumentException e) {
            throw new IOException("undecodable frame: " + e.getMessage(), e);
        }
    }

    private byte[] readFrame() throws IOException {
        int length;
        try {
            do {
                length = in.readInt();
            } while (length == 0); // a heartbeat
        } catch (java.net.SocketTimeoutException e) {
            socket.close(); // a writer blocked on the silent peer is released too (not close(): not ours to end)
            throw new Silent("no word from it for " + Heartbeats.timeoutMillis() / 1000
                    + " s (its host, or the link to it, went silent)", e);
        }
        if (length < 1 || length > OverlayCodec.MAX_FRAME) {
            throw new IOException("bad frame length " + length);
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    /**
     * How a link's end reads in a message: "connection closed" for a close or a reset, the
     * failure detector's own words for a silent peer.
     */
    public static String why(IOException e) {
        return e instanceof Silent ? e.getMessage() : "connection closed";
    }

    /** The failure detector's verdict: the peer said nothing for the whole timeout. */
    static final class Silent extends IOException {
        Silent(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The peer's address, {@code host:port} (loopback for an in-memory pair). */
    public String remoteAddress() {
        if (socket == null) {
            return "127.0.0.1:0";
        }
        java.net.InetSocketAddress a = (java.net.InetSocketAddress) socket.getRemoteSocketAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public long framesSent() {
        return sent.get();
    }

    public long framesReceived() {
        return received.get();
    }

    /** Bytes of whole frames sent, length prefixes included (none for the messages a pair hands over). */
    public long bytesSent() {
        return bytesSent.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        if (early != null) {
            endReader(new EOFException("link closed"));
            peer.endReader(new EOFException("link closed"));
            return;
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with the error
        }
    }

    /** What a daemon says of its {@code links} (the open ones counted) and of its start. */
    public static org.banyan.core.wire.DaemonStats stats(java.util.List<FrameChannel> links, long upMillis, long ranksMillis) {
        return new org.banyan.core.wire.DaemonStats((int) links.stream().filter(c -> !c.isClosed()).count(),
                links.stream().mapToLong(FrameChannel::framesSent).sum(),
                links.stream().mapToLong(FrameChannel::framesReceived).sum(), upMillis, ranksMillis,
                links.stream().mapToLong(FrameChannel::bytesSent).sum(),
                links.stream().mapToLong(FrameChannel::bytesReceived).sum());
    }

    /** The host of {@link #remoteAddress}, without its port. */
    public String remoteHost() {
        String a = remoteAddress();
        int colon = a.lastIndexOf(':');
        return colon > 0 ? a.substring(0, colon) : a;
    }
}
