package org.banyan.comm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Messages over TCP, for peers on other hosts. Each rank listens on an ephemeral port published
 * as {@code comm.tcp = HOST:PORT} and connects to a peer the first time it sends to it (the
 * address is fetched then: the lazy key exchange). Connections carry one direction each, so one
 * sender's messages arrive in the order sent. On a connection: the sender's world rank (int),
 * then messages, each an {@link Envelope} and its bytes. Non-blocking throughout: sends that do
 * not fit the socket wait in a queue that {@link #poll} drains.
 *
 * <p>A rank listens on the address it publishes, not on every interface, and when the job has a
 * secret ({@link Endpoints#secret}, handed by the daemon) each connection proves it belongs
 * before its first message: after the rank come a random nonce[16] and
 * HMAC-SHA-256(secret, "banyan-comm" || sender || receiver || nonce)[32]. One that does not is
 * closed unread and said on stderr. The proof goes one way, with no reply to wait for, so two
 * ranks that connect to each other at once cannot wait on each other; it keeps other users out,
 * not someone who can watch the wire (see docs/run.md's threat model).
 */
final class TcpTransport implements Transport {
    static final String KEY = "comm.tcp";

    private final int me;
    private final Endpoints endpoints;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Map<Integer, Outbound> outbound = new HashMap<>();
    /** The job's secret, or null: connections then carry no proof. */
    private final byte[] secret;
    private static final int NONCE = 16;
    private static final int MAC = 32;
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    private int refusals;
    /** Where large heap messages are read before they are copied into place; made at the first. */
    private ByteBuffer staging;
    /** Bytes of {@link #STAGING}-sized send buffers the connections hold. */
    private long stagingBytes;
    /** Connections open, both ways; and rounds of polling while there were none. */
    private int connections;
    private int idleRounds;
    /** With no connection, one round in {@code idleMask + 1} looks for one ({@link #carriesPeers}). */
    private int idleMask = 63;

    TcpTransport(int me, Endpoints endpoints, String address, byte[] secret) {
        this.me = me;
        this.endpoints = endpoints;
        this.secret = secret;
        try {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            try {
                server.bind(new InetSocketAddress(address, 0), 1024);
            } catch (IOException notHere) { // an address of no interface of this host (a name, a NAT): every one
                server.bind(new InetSocketAddress(0), 1024);
            }
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            endpoints.publish(KEY, address + ":" + ((InetSocketAddress) server.getLocalAddress()).getPort());
        } catch (IOException e) {
            throw new CommException("cannot listen for TCP messages: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean reaches(int peer) {
        return peer != me;
    }

    @Override
    public void send(int peer, Envelope e, MemorySegment payload, Operation.Send op) {
        Outbound o = outbound.get(peer);
        if (o == null) {
            o = connect(peer);
            outbound.put(peer, o);
        }
        ByteBuffer head = ByteBuffer.allocate(Envelope.BYTES).putInt(e.context()).putInt(e.source()).putInt(e.tag())
                .putInt(e.length()).flip();
        boolean piecewise = !payload.isNative() && payload.byteSize() > CHUNK;
        if (piecewise && o.outStaging == null) {
            try {
                o.outStaging = directBuffer(stagingBytes + STAGING <= STAGING_BUDGET ? STAGING : CHUNK).flip();
            } catch (CommException noRoom) { // the send's own failure, wherever it is waited for (a go-ahead's handler sends too)
                op.fail(noRoom);
                return;
            }
            stagingBytes += o.outStaging.capacity() == STAGING ? STAGING : 0;
        }
        o.queue.add(piecewise ? new Pending(new ByteBuffer[] {head}, new Large(payload), op)
                : new Pending(new ByteBuffer[] {head, Segments.viewOrCopy(payload)}, null, op));
        o.flush();
    }

    private Outbound connect(int peer) {
        String where = endpoints.lookup(peer, KEY);
        int colon = where.lastIndexOf(':');
        try {
            SocketChannel ch = SocketChannel.open(new InetSocketAddress(where.substring(0, colon),
                    Integer.parseInt(where.substring(colon + 1))));
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer hello = hello(peer);
            while (hello.hasRemaining()) {
                ch.write(hello);
            }
            ch.configureBlocking(false);
            connections++;
            Outbound o = new Outbound(peer, ch);
            o.key = ch.register(selector, 0, o);
            return o;
        } catch (IOException ex) {
            throw new CommException("cannot connect to rank " + peer + " at " + where + ": " + ex.getMessage(), ex);
        }
    }

    /** The first bytes on a connection to {@code peer}: this rank, and its proof when the job has a secret. */
    private ByteBuffer hello(int peer) {
        if (secret == null) {
            return ByteBuffer.allocate(4).putInt(me).flip();
        }
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        return ByteBuffer.allocate(4 + NONCE + MAC).putInt(me).put(nonce).put(proof(me, peer, nonce)).flip();
    }

    private byte[] proof(int from, int to, byte[] nonce) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
            mac.update("banyan-comm".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            mac.update(ByteBuffer.allocate(8).putInt(from).putInt(to).array());
            return mac.doFinal(nonce);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is in every JDK", e);
        }
    }

    /** A connection that did not prove the job's secret: closed, and said (the first few). */
    private void refuse(SocketChannel ch, SelectionKey k, String why) throws IOException {
        String from = String.valueOf(ch.getRemoteAddress());
        k.cancel();
        ch.close();
        connections--;
        if (++refusals <= 5) {
            System.err.println("banyan-comm: rank " + me + " refused a connection from " + from + ": " + why);
        }
    }

    @Override
    public boolean poll(Matcher matcher) {
        // selectNow is a system call: with no connection yet, one round in 64 (256 when no peer needs
        // this transport) is enough to accept one, and the shared-memory path stays free of system calls
        if (connections == 0 && (++idleRounds & idleMask) != 0) {
            return false;
        }
        return poll(matcher, 0);
    }

    /**
     * When every peer shares this rank's memory, only strangers and other worlds (spawned jobs)
     * connect: one round in 256 (about 13 µs of spinning, 13 ms of naps) looks for them. One in
     * 64 was still 5 % of a 2-rank ping-pong's samples, and a message that landed during the
     * system call waited for it.
     */
    @Override
    public void carriesPeers(boolean carries) {
        idleMask = carries ? 63 : 255;
    }

    @Override
    public boolean pollWaiting(Matcher matcher, int millis) {
        return poll(matcher, millis);
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    /** A round of the selector: at once, or waiting up to {@code millis} for a connection to be ready. */
    private boolean poll(Matcher matcher, int millis) {
        try {
            dropSilentStrangers();
            if ((millis == 0 ? selector.selectNow() : selector.select(millis)) == 0) {
                return false;
            }
            boolean moved = false;
            for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey k = it.next();
                it.remove();
                if (!k.isValid()) {
                    continue;
                }
                if (k.isAcceptable()) {
                    SocketChannel ch = server.accept();
                    if (ch != null) {
                        connections++;
                        ch.configureBlocking(false);
                        Inbound in = new Inbound();
                        in.key = ch.register(selector, SelectionKey.OP_READ, in);
                        unnamed.add(in);
                    }
                } else if (k.attachment() instanceof Inbound in) {
                    moved |= in.read((SocketChannel) k.channel(), matcher, k);
                } else if (k.attachment() instanceof Outbound o) {
                    moved |= o.flush();
                }
            }
            return moved;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            for (Outbound o : outbound.values()) {
                o.channel.close();
            }
            for (SelectionKey k : selector.keys()) {
                k.channel().close();
            }
            selector.close();
            server.close();
        } catch (IOException e) {
            // closing: nothing more to do with them
        }
    }

    /**
     * Heap payloads above this size go in pieces through the connection's direct buffer: the
     * JDK copies a heap buffer into a temporary direct buffer of all its remaining bytes at every
     * write, so a 256 MiB array written whole was copied again at each partial write (a 1 GiB
     * redistribution ran at 150 MB/s). Smaller ones, and native ones of any size, go in one
     * gathering write with their envelope.
     */
    static final int CHUNK = 256 * 1024;
    /**
     * The direct buffers such payloads go through, made at a connection's first: larger pieces
     * than {@link #CHUNK} mean fewer rounds of the selector and fewer system calls a byte, which
     * counts most while the JIT has not compiled the path yet (a first redistribution). A rank's
     * send buffers of this size take {@link #STAGING_BUDGET} at most; connections past it get
     * buffers of {@link #CHUNK}.
     */
    static final int STAGING = 2 * 1024 * 1024;
    static final long STAGING_BUDGET = 32L << 20;

    /**
     * A direct buffer of {@code bytes}, or of {@link #CHUNK} when the JVM's direct memory
     * ({@code -XX:MaxDirectMemorySize}) has no room for that many; a CommException when it has
     * none for either (an OutOfMemoryError here, in a send or a poll, left the peers waiting):
     * a send fails with it, a poll throws it.
     */
    static ByteBuffer directBuffer(int bytes) {
        try {
            return ByteBuffer.allocateDirect(bytes);
        } catch (OutOfMemoryError full) {
            if (bytes > CHUNK) {
                return directBuffer(CHUNK);
            }
            throw new CommException("no room for a " + bytes / 1024 + " KiB buffer of a TCP connection in this JVM's direct "
                    + "memory (" + full.getMessage() + "); give the rank more (-XX:MaxDirectMemorySize)", full);
        }
    }

    /** A message: its envelope (and small payload) to write, then maybe a large payload. */
    private record Pending(ByteBuffer[] parts, Large large, Operation.Send op) {}

    /** A large heap payload, and how much of it went into the staging buffer so far. */
    private static final class Large {
        final MemorySegment payload;
        long copied;

        Large(MemorySegment payload) {
            this.payload = payload;
        }
    }

    private final class Outbound {
        final int peer;
        final SocketChannel channel;
        final ArrayDeque<Pending> queue = new ArrayDeque<>();
        /** Bytes of a large heap payload on their way to the socket (empty between messages); made at the first. */
        ByteBuffer outStaging;
        SelectionKey key;

        Outbound(int peer, SocketChannel channel) {
            this.peer = peer;
            this.channel = channel;
        }

        /** Writes as much of a large payload as the socket takes, a piece at a time; true once all of it went. */
        boolean writeLarge(Large l) throws IOException {
            long size = l.payload.byteSize();
            while (true) {
                if (!outStaging.hasRemaining()) {
                    if (l.copied == size) {
                        return true;
                    }
                    int len = (int) Math.min(outStaging.capacity(), size - l.copied);
                    outStaging.clear();
                    MemorySegment.copy(l.payload, l.copied, MemorySegment.ofBuffer(outStaging), 0, len);
                    outStaging.limit(len);
                    l.copied += len;
                }
                if (channel.write(outStaging) == 0) {
                    return false;
                }
            }
        }

        /** Writes what the socket takes, in order; true when anything went. */
        boolean flush() {
            boolean moved = false;
            try {
                while (!queue.isEmpty()) {
                    Pending p = queue.peek();
                    long n = channel.write(p.parts);
                    moved |= n > 0;
                    if (p.parts[p.parts.length - 1].hasRemaining()) {
                        break;
                    }
                    if (p.large != null) {
                        long was = p.large.copied - outStaging.remaining();
                        boolean done = writeLarge(p.large);
                        moved |= p.large.copied - outStaging.remaining() != was;
                        if (!done) {
                            break;
                        }
                    }
                    queue.poll();
                    p.op.complete();
                }
            } catch (IOException e) {
                CommException lost = new CommException("lost the connection to rank " + peer + ": " + e.getMessage(), e);
                for (Pending p : queue) {
                    p.op.fail(lost);
                }
                queue.clear();
            }
            boolean wait = !queue.isEmpty();
            if (wait != ((key.interestOps() & SelectionKey.OP_WRITE) != 0)) {
                key.interestOps(wait ? SelectionKey.OP_WRITE : 0);
            }
            return moved;
        }
    }

    /**
     * Connections accepted and not yet named, oldest first. A rank names itself in its first
     * bytes; a connection that has not within {@link #NAME_NANOS} is a stranger's (or a dead
     * peer's) and is closed, so that connections that never speak cannot pile up in a rank.
     */
    private final ArrayDeque<Inbound> unnamed = new ArrayDeque<>();
    static final long NAME_NANOS = 10_000_000_000L;
    /** {@link #NAME_NANOS}, shorter in tests. */
    long nameNanos = NAME_NANOS;

    private void dropSilentStrangers() throws IOException {
        long now = System.nanoTime();
        Inbound oldest;
        while ((oldest = unnamed.peek()) != null && (oldest.named || !oldest.key.isValid() || now - oldest.accepted > nameNanos)) {
            unnamed.poll();
            if (!oldest.named && oldest.key.isValid()) {
                refuse((SocketChannel) oldest.key.channel(), oldest.key, "it did not name itself within "
                        + nameNanos / 1_000_000 + " ms");
            }
        }
    }

    /** One incoming connection: the sender's rank, then envelope, bytes, envelope, bytes... */
    private final class Inbound {
        final long accepted = System.nanoTime();
        SelectionKey key;
        final ByteBuffer head = ByteBuffer.allocate(Math.max(Envelope.BYTES, 4 + NONCE + MAC)).limit(secret == null ? 4 : 4 + NONCE + MAC);
        boolean named;
        int peer = -1;
        Arrival current;

        boolean read(SocketChannel ch, Matcher matcher, SelectionKey k) throws IOException {
            boolean moved = false;
            while (true) {
                if (current == null) {
                    int n = ch.read(head);
                    if (n < 0) {
                        k.cancel();
                        ch.close();
                        return moved;
                    }
                    moved |= n > 0;
                    if (head.hasRemaining()) {
                        return moved;
                    }
                    head.flip();
                    if (!named) {
                        peer = head.getInt();
                        if (secret != null) {
                            byte[] nonce = new byte[NONCE];
                            byte[] mac = new byte[MAC];
                            head.get(nonce).get(mac);
                            if (!java.security.MessageDigest.isEqual(mac, proof(peer, me, nonce))) {
                                refuse(ch, k, "it did not prove the job's secret");
                                return moved;
                            }
                        }
                        named = true;
                        head.clear().limit(Envelope.BYTES);
                        continue;
                    }
                    Envelope e = new Envelope(head.getInt(), head.getInt(), head.getInt(), head.getInt());
                    head.clear().limit(Envelope.BYTES);
                    Arrival a = matcher.arrive(e);
                    if (e.length() == 0) {
                        matcher.arrived(a); // what its handler throws leaves the connection at the next message
                    } else {
                        current = a;
                    }
                    continue;
                }
                MemorySegment w = current.window(current.remaining());
                ByteBuffer direct = w.byteSize() == current.remaining() ? Segments.view(w) : null;
                if (direct != null && !direct.isDirect() && direct.remaining() > CHUNK) {
                    direct = null; // a large heap buffer would be copied whole at every read: stage it
                }
                int n;
                if (direct != null) {
                    n = ch.read(direct);
                    if (n > 0) {
                        current.advance(n);
                    }
                } else {
                    if (staging == null) {
                        staging = directBuffer(STAGING);
                    }
                    staging.clear().limit(Math.min(staging.capacity(), current.remaining()));
                    n = ch.read(staging);
                    if (n > 0) {
                        current.write(MemorySegment.ofBuffer(staging.flip()));
                    }
                }
                if (n < 0) {
                    throw new IOException("rank " + peer + " closed its connection in the middle of a message");
                }
                if (n == 0) {
                    return moved;
                }
                moved = true;
                if (current.remaining() == 0) {
                    Arrival done = current;
                    current = null; // first: what its handler throws leaves the connection at the next message
                    matcher.arrived(done);
                }
            }
        }
    }
}
