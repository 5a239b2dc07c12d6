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

/** One connection between a DVM's head and a client: {@link ClientCodec} frames over TCP. */
public final class ClientChannel implements Closeable {
    /** Largest frame accepted, so a stray connection cannot make the head allocate gigabytes. */
    private static final int MAX_FRAME = 64 << 20;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** What the DVM said as it stops (read by the one thread that receives). */
    private String closingWhy;

    public ClientChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
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
        byte[] frame = ClientCodec.encode(m);
        synchronized (out) {
            out.write(frame);
            out.flush();
        }
    }

    /** Writes a frame {@link ClientCodec#encode} made, without flushing: a {@link ClientOutbox}'s writer. */
    void write(byte[] frame) throws IOException {
        synchronized (out) {
            out.write(frame);
        }
    }

    void flush() throws IOException {
        synchronized (out) {
            out.flush();
        }
    }

    /**
     * The next message; EOFException when the other side closed, {@link Closed} when a DVM said
     * why first ({@link ClientMessage.Closing}, which is not returned).
     */
    public ClientMessage receive() throws IOException {
        while (true) {
            ClientMessage m;
            try {
                m = receive(MAX_FRAME);
            } catch (IOException e) {
                throw closingWhy == null ? e : new Closed(closingWhy);
            }
            if (!(m instanceof ClientMessage.Closing(String why))) {
                return m;
            }
            closingWhy = why;
        }
    }

    /**
     * The next message, or {@link java.net.SocketTimeoutException} when none comes within
     * {@code millis}: for answers a DVM gives at once, so that a DVM stopped or hung does not hold
     * its client for ever. The connection is of no further use after a timeout (a frame may be
     * half read): close it.
     */
    public ClientMessage receiveWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return receive();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    /**
     * One message within {@code millis}, its frame at most {@code maxFrame} bytes: for a DVM's
     * first answers, before it has proven it knows the secret, so that whoever listens at its
     * address can make a client neither allocate much nor wait longer than the bound.
     */
    ClientMessage receiveWithin(int millis, int maxFrame) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return receive(maxFrame);
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(0);
            }
        }
    }

    /** The DVM closed the connection, saying why (the message: "it was stopped by banyan dvm stop"). */
    public static final class Closed extends EOFException {
        Closed(String why) {
            super(why);
        }
    }

    /**
     * The next message, refusing a frame longer than {@code maxFrame} bytes before allocating it
     * (a door reads a stranger's first frame with a small limit).
     */
    ClientMessage receive(int maxFrame) throws IOException {
        int length = in.readInt(); // EOFException: the other side closed
        if (length <= 0 || length > maxFrame) {
            throw new IOException("bad client frame length " + length);
        }
        byte[] body = new byte[length];
        in.readFully(body);
        try {
            return ClientCodec.decode(body);
        } catch (RuntimeException e) {
            // whatever the bytes, the connection ends as for bad input: an exception of another
            // kind left a door's thread dead with the connection open and nothing logged
            throw new IOException(e instanceof IllegalArgumentException ? e.getMessage() : "a malformed client message: " + e, e);
        }
    }

    public String remoteAddress() {
        return String.valueOf(socket.getRemoteSocketAddress());
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
