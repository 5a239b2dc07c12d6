package org.banyan.runtime.dvm;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.banyan.core.wire.ClientCodec;
import org.banyan.core.wire.ClientMessage;

/**
 * A DVM's client socket: each connection presents the DVM's secret first (one that does not is
 * refused and logged), is welcomed, and from then on every message it sends, and its end, go
 * to the head's loop. One reader thread per client.
 *
 * <p>Until a connection has proven the secret it costs little and not for long: its first frame
 * may be at most {@link #HELLO_FRAME_MAX} bytes, it has {@link #HELLO_MILLIS} ms in all to send
 * it, and at most {@link #UNPROVEN_MAX} such connections are served at once (more are closed at
 * once, logged once a burst). Anyone who can reach the port can still make a client wait by
 * holding those places; what they cannot do is use the DVM, read from it or exhaust its memory.
 */
final class ClientDoor implements Closeable {
    /** What the door hands the head: each client that proved the secret, its messages, and its end. */
    interface Clients {
        /** Client {@code client} is in; what the head sends it goes on {@code channel}. */
        void came(int client, ClientChannel channel);

        void said(int client, ClientMessage message);

        void gone(int client);
    }

    private final ServerSocket server;
    private final String secret;
    private final Supplier<ClientMessage.Welcome> welcome;
    private final Clients clients;
    private final Consumer<String> say;
    private final AtomicInteger nextSession = new AtomicInteger(1);
    /** Largest first frame: a hello holds the secret, a client name and a version. */
    static final int HELLO_FRAME_MAX = 4096;
    /** The protocol from which a hello proves the secret against the challenge instead of carrying it. */
    static final int PROVEN_SINCE = 10;
    /** How long a connection may take to prove the secret. */
    static final int HELLO_MILLIS = 5_000;
    /** Connections served at once that have not proven the secret yet. */
    static final int UNPROVEN_MAX = 64;
    private final AtomicInteger unproven = new AtomicInteger();
    /** Connections closed for want of room since the last line that said so. */
    private final AtomicInteger crowdedOut = new AtomicInteger();
    private final RefusalLog refusals;
    private final java.util.concurrent.ScheduledExecutorService deadlines =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                    .name("dvm-hello-deadline").unstarted(r));

    /** Listens on every interface when {@code remote}, on loopback otherwise. */
    ClientDoor(boolean remote, String secret, Supplier<ClientMessage.Welcome> welcome, Clients clients, Consumer<String> say)
            throws IOException {
        this.server = new ServerSocket();
        server.bind(remote ? new InetSocketAddress(0) : new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.secret = secret;
        this.welcome = welcome;
        this.clients = clients;
        this.say = say;
        this.refusals = new RefusalLog(say, System::nanoTime);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Starts taking clients (once the DVM is ready). */
    void open() {
        Thread.ofPlatform().daemon().name("dvm-accept").start(this::acceptLoop);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return;
            }
            if (unproven.incrementAndGet() > UNPROVEN_MAX) {
                unproven.decrementAndGet();
                turnAway(s);
                if (crowdedOut.getAndIncrement() == 0) {
                    say.accept("refused a connection from " + s.getRemoteSocketAddress() + ": " + UNPROVEN_MAX
                            + " connections are already waiting to prove the secret (more are refused without a line"
                            + " until one of them ends)");
                }
                continue;
            }
            Thread.ofPlatform().daemon().name("dvm-client").start(() -> serve(s));
        }
    }

    /** A client's reader: the secret first, within the deadline, then its requests to the loop. */
    private void serve(Socket socket) {
        ClientChannel channel;
        java.util.concurrent.ScheduledFuture<?> deadline = deadlines.schedule(() -> closeQuietly(socket),
                HELLO_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            channel = new ClientChannel(socket);
        } catch (IOException e) {
            deadline.cancel(false);
            closeQuietly(socket);
            helloOver();
            return;
        }
        serve(channel, deadline);
    }

    /** One connection less waits to prove the secret; a burst of refusals, if any, is counted out. */
    private void helloOver() {
        if (unproven.decrementAndGet() == 0) {
            int refused = crowdedOut.getAndSet(0);
            if (refused > 1) {
                say.accept("refused " + refused + " connections in all while " + UNPROVEN_MAX + " waited to prove the secret");
            }
        }
    }

    /**
     * Tells a connection there is no room now, and closes it: a small frame, which a fresh
     * socket's buffer takes without blocking this thread, so a client that came while strangers
     * held the places says why it could not connect.
     */
    private static void turnAway(Socket s) {
        try {
            s.getOutputStream().write(ClientCodec.encode(new ClientMessage.Refused("the DVM has " + UNPROVEN_MAX
                    + " connections waiting to prove its secret; try again")));
        } catch (IOException | RuntimeException ignored) {
            // gone already
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    /** @param deadline what closes the socket when the hello is late */
    private void serve(ClientChannel channel, java.util.concurrent.Future<?> deadline) {
        int session;
        String nonce = HelloProof.nonce();
        try {
            ClientMessage first;
            try {
                channel.send(new ClientMessage.Challenge(nonce));
                first = channel.receive(HELLO_FRAME_MAX);
            } catch (IOException e) {
                refusals.refused("refused a connection from " + channel.remoteAddress() + ": "
                        + (deadline.isDone() ? "no hello within " + HELLO_MILLIS / 1000 + " s"
                                : e instanceof java.io.EOFException ? "it closed before its hello" : e.getMessage()));
                channel.close();
                return;
            } finally {
                deadline.cancel(false);
                helloOver();
            }
            // a client from before protocol 10 sent the secret itself: checked so, to be told of the versions
            if (!(first instanceof ClientMessage.Hello(String presented, String client, int protocol, String clientNonce))
                    || !(protocol >= PROVEN_SINCE ? HelloProof.matches(presented, secret, nonce) : secretMatches(presented))) {
                refuse(channel, null, first instanceof ClientMessage.Hello ? "wrong secret" : "no hello", "wrong secret for this DVM");
                return;
            }
            if (protocol != ClientCodec.PROTOCOL) { // only a client with the secret learns the pid
                refuse(channel, client, "protocol " + protocol + ", this DVM's is " + ClientCodec.PROTOCOL,
                        "it runs another version of banyan (protocol " + ClientCodec.PROTOCOL + ", the client's " + protocol
                                + "): use the banyan that started it, or end it (kill " + ProcessHandle.current().pid()
                                + ") and start a new one");
                return;
            }
            session = nextSession.getAndIncrement();
            say.accept("client " + session + " (" + client + ") from " + channel.remoteAddress());
            clients.came(session, channel);
            channel.send(welcome.get().withProof(HelloProof.ofHead(secret, clientNonce, nonce)));
        } catch (IOException e) {
            channel.close();
            return;
        }
        try {
            while (true) {
                clients.said(session, channel.receive());
            }
        } catch (IOException e) {
            clients.gone(session);
        }
    }

    /** Logs why (with the client's name, null when it did not prove itself), tells it {@code reason}, and hangs up. */
    private void refuse(ClientChannel channel, String client, String why, String reason) throws IOException {
        refusals.refused("refused a client from " + channel.remoteAddress() + (client == null ? "" : " (" + client + ")") + ": " + why);
        channel.send(new ClientMessage.Refused(reason));
        channel.close();
    }

    private boolean secretMatches(String presented) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                secret.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
