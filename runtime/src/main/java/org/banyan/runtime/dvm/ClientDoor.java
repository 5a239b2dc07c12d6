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
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.banyan.core.wire.ClientCodec;
import org.banyan.core.wire.ClientMessage;

/**
 * A DVM's client socket: each connection presents the DVM's secret first (one that does not is
 * refused and logged), is welcomed, and from then on every message it sends, and its end, go
 * to the head's loop. One reader thread per client.
 *
 * <p>A client in the head's own JVM (a bag the DVM hosts) comes in through {@link #inProcess}
 * instead, over an in-memory {@link ClientChannel#pair}, with the same secret and welcome.
 */
final class ClientDoor implements Closeable {
    /** The open doors of this JVM, by their DVM's secret. */
    private static final java.util.Map<String, ClientDoor> OPEN = new java.util.concurrent.ConcurrentHashMap<>();

    /** What the door hands the head: each client's messages, and its end. */
    interface Clients {
        void said(DvmSession session, ClientMessage message);

        void gone(DvmSession session);
    }

    private final ServerSocket server;
    private final String secret;
    private final Supplier<ClientMessage.Welcome> welcome;
    private final Clients clients;
    private final Consumer<String> say;
    private final AtomicInteger nextSession = new AtomicInteger(1);

    /** Listens on every interface when {@code remote}, on loopback otherwise. */
    ClientDoor(boolean remote, String secret, Supplier<ClientMessage.Welcome> welcome, Clients clients, Consumer<String> say)
            throws IOException {
        this.server = new ServerSocket();
        server.bind(remote ? new InetSocketAddress(0) : new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.secret = secret;
        this.welcome = welcome;
        this.clients = clients;
        this.say = say;
    }

    int port() {
        return server.getLocalPort();
    }

    /** Starts taking clients (once the DVM is ready). */
    void open() {
        OPEN.put(secret, this);
        Thread.ofPlatform().daemon().name("dvm-accept").start(this::acceptLoop);
    }

    /**
     * A connection to the DVM of {@code secret} when its head runs in this JVM and takes
     * clients: the client's end of an in-memory pair, served like a socket's; null otherwise.
     */
    static ClientChannel inProcess(String secret) {
        ClientDoor door = secret == null ? null : OPEN.get(secret);
        if (door == null) {
            return null;
        }
        ClientChannel[] ends = ClientChannel.pair();
        Thread.ofPlatform().daemon().name("dvm-client").start(() -> door.serve(ends[1]));
        return ends[0];
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofPlatform().daemon().name("dvm-client").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** A client's reader: the secret first, then its requests to the loop. */
    private void serve(Socket socket) {
        ClientChannel channel;
        try {
            channel = new ClientChannel(socket);
        } catch (IOException e) {
            return;
        }
        serve(channel);
    }

    private void serve(ClientChannel channel) {
        DvmSession session;
        try {
            ClientMessage first = channel.receive();
            if (!(first instanceof ClientMessage.Hello(String presented, String client, int protocol)) || !secretMatches(presented)) {
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
            session = new DvmSession(nextSession.getAndIncrement(), channel);
            say.accept("client " + session.id + " (" + client + ") from " + channel.remoteAddress());
            channel.send(welcome.get());
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
        say.accept("refused a client from " + channel.remoteAddress() + (client == null ? "" : " (" + client + ")") + ": " + why);
        channel.send(new ClientMessage.Refused(reason));
        channel.close();
    }

    private boolean secretMatches(String presented) {
        return presented != null && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                secret.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        OPEN.remove(secret, this);
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
