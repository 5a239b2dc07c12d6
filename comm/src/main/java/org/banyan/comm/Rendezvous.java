package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;

/**
 * Flow control for large messages (MPI's rendezvous protocol): a message longer than
 * {@link #EAGER_LIMIT} bytes is announced first, and its bytes go only once the receiver has a
 * receive for it. A receiver that has not posted its receives yet then holds an envelope per
 * message, not the message: 1,000 unposted 1 MiB sends held 1 GiB of its heap when every message
 * went eagerly.
 *
 * <p>Three messages, on contexts of their own (negative: no communicator has them), over the
 * transport that reaches the peer, so that an announcement keeps its place among the sender's
 * eager messages and matching stays in send order:
 *
 * <pre>
 * RTS   context -3, source: the sender's world rank   context:i32 source:i32 tag:i32 length:i32 id:i32
 *                                                     address:i64 (the user's envelope, in the host's
 *                                                     byte order; the message's address in the sender,
 *                                                     or 0)
 * CTS   context -4, source: the receiver's world rank, tag: id          (no bytes)
 * DATA  context -5, source: the sender's world rank, tag: id, the message's bytes
 * READ  context -6, source: the receiver's world rank, tag: id          (no bytes)
 * </pre>
 *
 * The receiver matches the announcement as it would the message; once a receive takes it, the
 * receiver posts a receive of the DATA into the same buffer and answers CTS; the sender then
 * sends the bytes and its send completes when the transport has them. Everything runs under the
 * engine's lock (handlers, posts and sends all do).
 *
 * <p>Between ranks of one host, a message in native memory is announced with its address: a
 * receive into native memory whose rank may read the sender's ({@link PeerMemory}) copies it
 * from there at once and answers READ, which completes the send; any other receive answers CTS
 * as above (so does one whose read the kernel refuses).
 */
final class Rendezvous {
    /**
     * Messages up to this many bytes go eagerly (MPICH ch3's default MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE);
     * {@code -Dbanyan.comm.eagerLimit=N} sets it.
     */
    static final int EAGER_LIMIT = Integer.getInteger("banyan.comm.eagerLimit", 128 << 10);
    static final int RTS_CONTEXT = -3;
    static final int CTS_CONTEXT = -4;
    static final int DATA_CONTEXT = -5;
    /** Offsets in an RTS: the user's envelope's fields, then the announcement's id. */
    static final int RTS_CONTEXT_AT = 0;
    static final int RTS_SOURCE_AT = 4;
    static final int RTS_TAG_AT = 8;
    static final int RTS_LENGTH_AT = 12;
    static final int RTS_ID_AT = 16;
    static final int RTS_ADDRESS_AT = 20;
    static final int RTS_BYTES = 28;
    static final int READ_CONTEXT = -6;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    /** The engine's way to a transport: a message to a world rank, not counted by monitoring. */
    interface Wire {
        void send(int worldPeer, Envelope e, MemorySegment payload, Operation.Send op);
    }

    private record Announced(int peer, Envelope envelope, MemorySegment payload, Operation.Send op) {}

    private final Engine engine;
    private final int me;
    private final Matcher matcher;
    private final Wire wire;
    /** Sender side: announced messages whose receiver has not answered yet, by id. */
    private final Map<Integer, Announced> announced = new HashMap<>();
    private int nextId;
    /** Reads of local peers' memory, or null: every message's bytes then go through a transport. */
    private PeerMemory memory;

    Rendezvous(Engine engine, int me, Matcher matcher, Wire wire) {
        this.engine = engine;
        this.me = me;
        this.matcher = matcher;
        this.wire = wire;
        matcher.handle(RTS_CONTEXT, this::announcement);
        matcher.handle(CTS_CONTEXT, this::goAhead);
        matcher.handle(READ_CONTEXT, this::read);
        matcher.onRendezvousMatched(this::matched);
    }

    void singleCopy(PeerMemory memory) {
        this.memory = memory;
    }

    PeerMemory memory() {
        return memory;
    }

    /** Whether a message of {@code length} bytes on {@code context} is announced first. */
    boolean announces(int context, int length) {
        return length > EAGER_LIMIT && !matcher.isHandled(context);
    }

    /** Announces the message; {@code op} completes once its bytes are in the transport. */
    void send(int worldPeer, Envelope e, MemorySegment payload, Operation.Send op) {
        int id = nextId++ & Integer.MAX_VALUE;
        announced.put(id, new Announced(worldPeer, e, payload, op));
        MemorySegment rts = MemorySegment.ofArray(new byte[RTS_BYTES]);
        rts.set(INT, RTS_CONTEXT_AT, e.context());
        rts.set(INT, RTS_SOURCE_AT, e.source());
        rts.set(INT, RTS_TAG_AT, e.tag());
        rts.set(INT, RTS_LENGTH_AT, e.length());
        rts.set(INT, RTS_ID_AT, id);
        boolean local = engine.hostOf[worldPeer] == engine.hostOf[me];
        rts.set(LONG, RTS_ADDRESS_AT, local && payload.isNative() ? payload.address() : 0);
        wire.send(worldPeer, new Envelope(RTS_CONTEXT, me, 0, RTS_BYTES), rts, new Operation.Send(engine));
    }

    /** An announcement arrived: matched now, or held as an unexpected envelope. */
    private void announcement(Envelope e, MemorySegment bytes) {
        Envelope user = new Envelope(bytes.get(INT, RTS_CONTEXT_AT), bytes.get(INT, RTS_SOURCE_AT), bytes.get(INT, RTS_TAG_AT),
                bytes.get(INT, RTS_LENGTH_AT));
        Arrival a = matcher.arriveAnnounced(user, e.source(), bytes.get(INT, RTS_ID_AT), bytes.get(LONG, RTS_ADDRESS_AT));
        if (a.receive != null) {
            matched(a.receive, a);
        }
    }

    /** A receive took an announced message: ready its buffer for the bytes and tell the sender to go. */
    private void matched(Operation.Receive r, Arrival a) {
        Envelope user = a.envelope;
        if (a.announcedAddress != 0 && memory != null && r.buffer.isNative() && memory.canRead(a.announcedBy)
                && memory.read(a.announcedBy, a.announcedAddress, r.buffer.asSlice(0, Math.min(user.length(), r.buffer.byteSize())))) {
            wire.send(a.announcedBy, new Envelope(READ_CONTEXT, me, a.announcedId, 0), MemorySegment.NULL, new Operation.Send(engine));
            r.complete(user);
            return;
        }
        Operation.Receive bytes = new Operation.Receive(engine, DATA_CONTEXT, a.announcedBy, a.announcedId, r.buffer);
        bytes.forwardTo(r, user);
        matcher.post(bytes);
        wire.send(a.announcedBy, new Envelope(CTS_CONTEXT, me, a.announcedId, 0), MemorySegment.NULL, new Operation.Send(engine));
    }

    /** The receiver has a receive for an announced message: send its bytes. */
    private void goAhead(Envelope e, MemorySegment none) {
        Announced m = announced.remove(e.tag());
        if (m == null || m.peer() != e.source()) {
            throw new CommException("rank " + e.source() + " asked for the bytes of message " + e.tag()
                    + ", which this rank did not announce to it");
        }
        wire.send(m.peer(), new Envelope(DATA_CONTEXT, me, e.tag(), m.envelope().length()), m.payload(), m.op());
    }

    /** The receiver read the message's bytes itself: the send is done. */
    private void read(Envelope e, MemorySegment none) {
        Announced m = announced.remove(e.tag());
        if (m == null || m.peer() != e.source()) {
            throw new CommException("rank " + e.source() + " said it read message " + e.tag()
                    + ", which this rank did not announce to it");
        }
        m.op().complete();
    }

    /**
     * {@code worldPeer} closed the world: the messages announced to it that it has not asked for
     * never will be, and their sends fail with {@code why} instead of waiting for ever.
     */
    void peerClosed(int worldPeer, CommException why) {
        for (var it = announced.values().iterator(); it.hasNext(); ) {
            Announced m = it.next();
            if (m.peer() == worldPeer) {
                it.remove();
                m.op().fail(why);
            }
        }
    }

    /** Announced messages not yet asked for (for tests). */
    int waiting() {
        return announced.size();
    }
}
