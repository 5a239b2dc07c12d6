package org.banyan.runtime.dvm;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.banyan.core.wire.ClientCodec;
import org.banyan.core.wire.ClientMessage;

/**
 * One connection between a DVM's head and a client: {@link ClientCodec} frames over TCP, or,
 * for a client in the head's own JVM (a bag the DVM hosts), an in-memory {@link #pair}.
 *
 * <p>A pair hands the messages themselves over, which are immutable records (their lists are
 * copied when made): a hosted bag's task manager and its head spent about 4.5 % of a DVM's CPU
 * on the loopback socket and the codec at thousands of tasks a second (perf over a
 * 10,000-task bag). A pair has no flow control: what one end sends waits in the other's queue
 * until read, as the updates of a bag's tasks wait in the task manager anyway.
 */
public final class ClientChannel implements Closeable {
    /** Largest frame accepted, so a stray connection cannot make the head allocate gigabytes. */
    private static final int MAX_FRAME = 64 << 20;
    /** In a pair's queue: the other end closed. */
    private static final Object CLOSED = new Object();

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** In-memory: messages for this end, then {@link #CLOSED} (null for a socket). */
    private final java.util.concurrent.LinkedBlockingQueue<Object> inbox;
    private ClientChannel peer;
    private volatile boolean closed;

    public ClientChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
        this.inbox = null;
    }

    private ClientChannel() {
        this.socket = null;
        this.in = null;
        this.out = null;
        this.inbox = new java.util.concurrent.LinkedBlockingQueue<>();
    }

    /** Two connected in-memory ends: a client's and the head's. */
    static ClientChannel[] pair() {
        ClientChannel a = new ClientChannel();
        ClientChannel b = new ClientChannel();
        a.peer = b;
        b.peer = a;
        return new ClientChannel[] {a, b};
    }

    /** The address of the other end (loopback for an in-memory end). */
    public java.net.InetAddress peer() {
        return socket == null ? java.net.InetAddress.getLoopbackAddress() : socket.getInetAddress();
    }

    /** Connects to a DVM at {@code host:port}. */
    public static ClientChannel connect(String hostPort, int timeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        Socket s = new Socket();
        s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                timeoutMillis);
        return new ClientChannel(s);
    }

    /** Any thread; frames are written whole. */
    public void send(ClientMessage m) throws IOException {
        if (inbox != null) {
            if (closed || peer.closed) {
                throw new IOException("connection closed");
            }
            peer.inbox.add(m);
            return;
        }
        byte[] frame = ClientCodec.encode(m);
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    /** The next message; EOFException when the other side closed. */
    public ClientMessage receive() throws IOException {
        return receive(MAX_FRAME);
    }

    /**
     * The next message, refusing a frame longer than {@code maxFrame} bytes before allocating it
     * (a door reads a stranger's first frame with a small limit).
     */
    ClientMessage receive(int maxFrame) throws IOException {
        if (inbox != null) {
            Object m;
            try {
                m = closed ? CLOSED : inbox.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted");
            }
            if (m == CLOSED) {
                inbox.add(CLOSED); // for any later receive
                throw new EOFException("connection closed");
            }
            return (ClientMessage) m;
        }
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            throw e;
        }
        if (length <= 0 || length > maxFrame) {
            throw new IOException("bad client frame length " + length);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        try {
            return ClientCodec.decode(body);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    public String remoteAddress() {
        return socket == null ? "this JVM" : String.valueOf(socket.getRemoteSocketAddress());
    }

    @Override
    public void close() {
        if (inbox != null) {
            // Each end's reader sees the end after what was sent before it.
            closed = true;
            inbox.add(CLOSED);
            peer.inbox.add(CLOSED);
            return;
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
