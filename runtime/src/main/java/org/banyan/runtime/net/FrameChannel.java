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

/** One overlay connection: whole frames of {@link OverlayCodec} over a TCP socket. */
public final class FrameChannel implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong bytesSent = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong bytesReceived = new java.util.concurrent.atomic.AtomicLong();

    public FrameChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = socket.getOutputStream();
    }

    public static FrameChannel connect(String hostPort, int timeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("address without port: " + hostPort);
        }
        Socket s = new Socket();
        s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                timeoutMillis);
        return new FrameChannel(s);
    }

    /** Thread-safe: frames from several writers never interleave. */
    public void send(OverlayMessage message) throws IOException {
        byte[] frame = OverlayCodec.encode(message);
        synchronized (out) {
            out.write(frame);
        }
        sent.incrementAndGet();
        bytesSent.addAndGet(frame.length);
    }

    /** Blocks for the next message; {@link EOFException} when the peer closed cleanly. */
    public OverlayMessage receive() throws IOException {
        int length = in.readInt();
        if (length < 1 || length > OverlayCodec.MAX_FRAME) {
            throw new IOException("bad frame length " + length);
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        received.incrementAndGet();
        bytesReceived.addAndGet(4L + length);
        try {
            return OverlayCodec.decode(frame);
        } catch (IllegalArgumentException e) {
            throw new IOException("undecodable frame: " + e.getMessage(), e);
        }
    }

    /** The peer's address, {@code host:port}. */
    public String remoteAddress() {
        java.net.InetSocketAddress a = (java.net.InetSocketAddress) socket.getRemoteSocketAddress();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public long framesSent() {
        return sent.get();
    }

    public long framesReceived() {
        return received.get();
    }

    /** Bytes of whole frames sent, length prefixes included. */
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
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to do with the error
        }
    }
}
