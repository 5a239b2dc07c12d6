package org.banyan.comm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Messages between ranks of one host through shared memory, with no system call on the path:
 * each rank owns an inbound file in /dev/shm holding one single-producer ring per local sender,
 * mapped by every local rank at start-up and unlinked at once (nothing is left behind, whatever
 * happens later). A sender copies a record into its ring and publishes it with a release store
 * of the record's length; the receiver polls the length at its head with acquire loads and
 * copies out straight into the matched receive's buffer.
 *
 * <p>Ring layout (native byte order): {@code head} (long, bytes consumed, written by the
 * receiver) at {@link #HEAD_AT} 0, data from {@link #DATA} 128 (a cache line between them).
 * Records are 8-byte aligned and never wrap: {@code [int length][int kind]} then, for kind
 * FIRST, the {@link Envelope} (4 ints) and the first bytes of the message; for MORE, further
 * bytes of the message begun last on this ring; SKIP pads to the end of the ring. A message
 * larger than a quarter ring goes in several records, so sender and receiver copy in parallel.
 *
 * <p>The length of the slot after the last record is always 0: before it publishes a record,
 * the sender zeroes the length of the slot that follows it (it has room for that slot too), so
 * the receiver, following records from its head, stops at a 0 and never reads a stale length
 * from an earlier lap. The sender keeps its tail to itself and reads the receiver's head only
 * when the head it last read leaves too little room: on a small message each side then touches
 * the record's cache line and little else (MPICH's "fastbox" is one line per message), where a
 * shared tail and a head read at every send cost two more transfers between the cores.
 *
 * <p>A receiver sizes the rings of its file ({@link #ringBytes}) and a sender takes the size
 * from the file: 256 KiB for a rank with a core of its own, larger for ranks that share cores.
 */
final class ShmTransport implements Transport {
    static final String KEY = "comm.shm";
    /**
     * The ring of a rank with a core of its own: the records it cycles through stay in the core's
     * cache (larger rings were slower between two such ranks: docs/comm.md).
     */
    static final int RING = 256 * 1024;
    /**
     * The ring of a rank that shares cores with others, at most: a sender fills it while its
     * receiver is off the core, so a large message crosses in a few turns of the scheduler
     * instead of one per 256 KiB (measured in docs/comm.md; larger rings did no better).
     */
    static final int SHARED_CORE_RING = 4 * 1024 * 1024;
    /** What all rings of a host may take together, at most (and a quarter of /dev/shm's free space). */
    static final long HOST_RINGS_BYTES = 256L * 1024 * 1024;
    /** Offsets in a ring: the receiver's head, the sender's tail (a cache line apart), the records. */
    static final long HEAD_AT = 0;
    static final int DATA = 128;
    /** Offsets in a record: its length (header included, 8-aligned) and its kind, then its bytes. */
    static final int RECORD_LENGTH_AT = 0;
    static final int RECORD_KIND_AT = 4;
    static final int RECORD_HEADER = 8;
    /** The largest piece of a message a record carries, whatever the ring's size. */
    private static final int MAX_CHUNK = (RING - DATA) / 4;
    private static final int FIRST = 1, MORE = 2, SKIP = 3;
    /**
     * Exact: a call whose types differ from the handle's (an int offset where it takes a long)
     * throws instead of adapting through MethodHandle.asType at every call, as publish once did.
     */
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle().withInvokeExactBehavior();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle().withInvokeExactBehavior();

    private final int me;
    /** Per world rank: its index among this host's ranks, or -1 when elsewhere (or me). */
    private final int[] localIndex;
    private final Arena arena = Arena.ofShared();
    /** My inbound rings, one per local sender (indexed by its local index). */
    private final MemorySegment[] inbound;
    private final Arrival[] current;
    /** Per world rank: the ring I write in its file, mapped at start-up. */
    private final MemorySegment[] outbound;
    private final ArrayDeque<PendingSend>[] waiting;
    private final int[] localRanks;
    /** Per world rank: its ring's head as this sender last read it (never ahead of the real one). */
    private final long[] knownHead;
    /** Per world rank: the bytes this rank produced into its ring (the next record's position). */
    private final long[] tailOf;

    /** Single-copy reads of local peers' memory for large messages, or null ({@link PeerMemory}). */
    private PeerMemory memory;

    /**
     * @param singleCopy whether large messages between native buffers may be read in one copy
     * @param dedicated whether this rank's host has a core for each of its ranks
     */
    @SuppressWarnings("unchecked")
    ShmTransport(int me, int size, Endpoints endpoints, boolean singleCopy, boolean dedicated) {
        this.me = me;
        String myHost = endpoints.host(me);
        localIndex = new int[size];
        int locals = 0;
        int[] byIndex = new int[size];
        for (int r = 0; r < size; r++) {
            if (endpoints.host(r).equals(myHost)) {
                byIndex[locals] = r;
                localIndex[r] = locals++;
            } else {
                localIndex[r] = -1;
            }
        }
        localRanks = java.util.Arrays.copyOf(byIndex, locals);
        inbound = new MemorySegment[locals];
        current = new Arrival[locals];
        outbound = new MemorySegment[size];
        waiting = new ArrayDeque[size];
        knownHead = new long[size];
        tailOf = new long[size];
        if (locals < 2) {
            return;
        }
        // named as the daemons' rank guard sweeps (banyan-PID-*.shm): a rank killed before it unlinks leaves it for no longer
        Path file = Path.of("/dev/shm", "banyan-" + ProcessHandle.current().pid() + "-comm-" + me + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".shm");
        int ring = ringBytes(locals, dedicated, freeShm());
        MemorySegment mine = map(file, (long) ring * locals, true);
        for (int i = 0; i < locals; i++) {
            inbound[i] = mine.asSlice((long) ring * i, ring);
        }
        endpoints.publish(KEY, file.toString());
        pendingFile = file;
        if (singleCopy) {
            memory = PeerMemory.publish(size, endpoints, arena);
        }
    }

    /** Single-copy reads of local peers' memory, or null where they are not offered. */
    PeerMemory memory() {
        return memory;
    }

    /** Set between construction and {@link #connect}: my file, to unlink once every local peer mapped it. */
    private Path pendingFile;

    /**
     * After the endpoints were exchanged: maps every local peer's file, then (after the caller's
     * second exchange) {@link #unlink} removes mine. Collective over the host's ranks.
     */
    void connect(Endpoints endpoints) {
        for (int r : localRanks) {
            if (r != me) {
                MemorySegment theirs = map(Path.of(endpoints.lookup(r, KEY)), -1, false);
                long ring = theirs.byteSize() / localRanks.length;
                if (theirs.byteSize() % localRanks.length != 0 || ring % 8 != 0 || ring < RING || ring > SHARED_CORE_RING) {
                    throw new CommException("rank " + r + "'s shared memory has " + theirs.byteSize() + " bytes, not rings for "
                            + localRanks.length + " ranks");
                }
                outbound[r] = theirs.asSlice(ring * localIndex[me], ring);
            }
        }
        if (memory != null) {
            memory.connect(endpoints, localRanks, me);
        }
    }

    void unlink() {
        if (pendingFile != null) {
            try {
                Files.deleteIfExists(pendingFile);
            } catch (IOException e) {
                // it goes with /dev/shm's next clean-up; the mapping works either way
            }
            pendingFile = null;
        }
    }

    /**
     * The size of each ring in a file for {@code locals} ranks: {@link #RING} for a rank with a
     * core of its own, else the largest power of two up to {@link #SHARED_CORE_RING} for which the
     * host's {@code locals}² rings take at most {@link #HOST_RINGS_BYTES} and a quarter of {@code
     * freeShm} (a container's /dev/shm can be 64 MiB: a ring past its end is a SIGBUS at first touch).
     */
    static int ringBytes(int locals, boolean dedicated, long freeShm) {
        if (dedicated) {
            return RING;
        }
        long budget = Math.min(HOST_RINGS_BYTES, freeShm / 4);
        int ring = SHARED_CORE_RING;
        while (ring > RING && (long) locals * locals * ring > budget) {
            ring /= 2;
        }
        return ring;
    }

    private static long freeShm() {
        try {
            return Files.getFileStore(Path.of("/dev/shm")).getUsableSpace();
        } catch (IOException e) {
            return 0; // the smallest rings, as before
        }
    }

    /**
     * A ring file is readable and writable by its owner alone: the umask's usual 0644 let another
     * user of the host open it in the moment before it is unlinked and read every message after.
     */
    private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY = java.nio.file.attribute.PosixFilePermissions
            .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

    /** Maps {@code file}, made {@code bytes} long when {@code create}, else as long as it is. */
    private MemorySegment map(Path file, long bytes, boolean create) {
        try (FileChannel ch = create
                ? FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE), OWNER_ONLY)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (create) {
                ch.truncate(bytes); // ftruncate: zero pages, heads and tails at 0
                ch.write(java.nio.ByteBuffer.allocate(1), bytes - 1);
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, create ? bytes : ch.size(), arena);
        } catch (IOException e) {
            throw new CommException("cannot map shared memory " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean reaches(int peer) {
        return outbound[peer] != null;
    }

    @Override
    public void send(int peer, Envelope e, MemorySegment payload, Operation.Send op) {
        ArrayDeque<PendingSend> q = waiting[peer];
        PendingSend p = new PendingSend(e, payload, op);
        if (q != null && !q.isEmpty()) {
            q.add(p);
            return;
        }
        boolean pushed;
        try {
            pushed = push(peer, p);
        } catch (InternalError fault) {
            throw pageLost("the ring to rank " + peer, fault);
        }
        if (!pushed) {
            if (q == null) {
                q = new ArrayDeque<>();
                waiting[peer] = q;
            }
            q.add(p);
        }
    }

    /**
     * A ring's file is sparse: /dev/shm gives each page at its first touch, and when it has none
     * left (or the file was cut short) that touch is a SIGBUS, which the JVM turns into an
     * InternalError that says neither where nor why. Said here, with what /dev/shm has left.
     */
    private static CommException pageLost(String ring, InternalError fault) {
        if (fault.getMessage() == null || !fault.getMessage().startsWith("a fault occurred")) {
            throw fault;
        }
        return new CommException("a page of the shared memory for " + ring + " could not be had: /dev/shm is full ("
                + freeShm() / 1024 + " KiB free of " + new java.io.File("/dev/shm").getTotalSpace() / 1024
                + ") or the ring's file was cut short; free space in /dev/shm, or run fewer ranks a host", fault);
    }

    /**
     * Copies as much of {@code p} as the ring to {@code peer} takes; true once all of it is in.
     * The receiver's head is read only when the one last read leaves too little room: reading it
     * at every message fetched the cache line the receiver had just written, one more transfer
     * between the cores per message (a ping-pong of 8 B took 0.88 µs against MPICH's 0.20 on
     * this machine's two vCPUs).
     */
    private boolean push(int peer, PendingSend p) {
        MemorySegment ring = outbound[peer];
        int capacity = capacity(ring);
        long head = knownHead[peer];
        long tail = tailOf[peer];
        while (true) {
            boolean first = p.offset < 0;
            int header = first ? RECORD_HEADER + Envelope.BYTES : RECORD_HEADER;
            long left = p.payload.byteSize() - Math.max(0, p.offset);
            int chunk = (int) Math.min(left, MAX_CHUNK);
            int record = align(header + chunk);
            int at = (int) (tail % capacity);
            int toEnd = capacity - at;
            // room for the record, and for the zeroed slot after it (after the padding when it wraps)
            long needed = (toEnd < record ? toEnd + record : record) + RECORD_HEADER;
            if (capacity - (tail - head) < needed) {
                head = knownHead[peer] = (long) LONG.getAcquire(ring, HEAD_AT);
                if (capacity - (tail - head) < needed) {
                    tailOf[peer] = tail;
                    return false;
                }
            }
            if (toEnd < record) { // pad to the end, start at 0
                publish(ring, at, toEnd, SKIP);
                tail += toEnd;
                at = 0;
            }
            long data = DATA + at + RECORD_HEADER;
            if (first) {
                p.envelope.writeTo(ring, data);
                data += Envelope.BYTES;
                p.offset = 0;
            }
            MemorySegment.copy(p.payload, p.offset, ring, data, chunk);
            p.offset += chunk;
            publish(ring, at, record, first ? FIRST : MORE); // each record at once: the receiver copies out while we copy in
            tail += record;
            if (p.offset >= p.payload.byteSize()) {
                tailOf[peer] = tail;
                p.op.complete();
                return true;
            }
        }
    }

    /**
     * Publishes the record written at {@code at}: zeroes the length of the slot after it, then
     * stores its kind and, with release, its length (the receiver's signal that all of it is there).
     */
    private static void publish(MemorySegment ring, int at, int record, int kind) {
        int next = (at + record) % capacity(ring);
        ring.set(ValueLayout.JAVA_INT, DATA + next + RECORD_LENGTH_AT, 0);
        ring.set(ValueLayout.JAVA_INT, DATA + at + RECORD_KIND_AT, kind);
        INT.setRelease(ring, (long) (DATA + at + RECORD_LENGTH_AT), record);
    }

    /** The bytes a ring holds records in (its size without the head's line). */
    private static int capacity(MemorySegment ring) {
        return (int) ring.byteSize() - DATA;
    }

    private static int align(int n) {
        return (n + 7) & ~7;
    }

    @Override
    public boolean poll(Matcher matcher) {
        try {
            return pollRings(matcher);
        } catch (InternalError fault) {
            throw pageLost("this rank's rings", fault);
        }
    }

    private boolean pollRings(Matcher matcher) {
        boolean moved = false;
        boolean lazy = !matcher.drainingAll() && !sending();
        for (int i = 0; i < inbound.length; i++) {
            MemorySegment ring = inbound[i];
            if (ring != null && localRanks[i] != me) {
                moved |= drain(i, ring, matcher, lazy);
            }
        }
        for (int r : localRanks) {
            ArrayDeque<PendingSend> q = waiting[r];
            while (q != null && !q.isEmpty() && push(r, q.peek())) {
                q.poll();
                moved = true;
            }
        }
        return moved;
    }

    /** Whether a send of this rank waits for room in a ring. */
    private boolean sending() {
        for (int r : localRanks) {
            ArrayDeque<PendingSend> q = waiting[r];
            if (q != null && !q.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes what the ring holds, each message into its receive or, when none was posted, into a
     * buffer of its own that waits for it. {@code lazy} (no send of this rank waits for room, no
     * probe looks): a message met when no receive at all is posted stays in the ring, with what
     * came after it, for the receive that will come. Draining everything made a stream of
     * messages cost a buffer and a second copy each (188,258 of 200,000 messages of 8 KiB went
     * that way, 1.6 µs a message against 0.9 in a ping-pong). Not when a message behind it is one
     * a handler takes (a rendezvous's go-ahead, a window's operation): someone waits for that.
     */
    private boolean drain(int sender, MemorySegment ring, Matcher matcher, boolean lazy) {
        long head = (long) LONG.getOpaque(ring, HEAD_AT);
        long start = head;
        while (true) {
            long base = DATA + head % capacity(ring);
            int record = (int) INT.getAcquire(ring, base + RECORD_LENGTH_AT);
            if (record == 0) {
                break;
            }
            int kind = checked(ring, base, record, localRanks[sender]);
            long data = base + RECORD_HEADER;
            int bytes = record - RECORD_HEADER;
            if (kind == FIRST) {
                Envelope e = Envelope.readFrom(ring, data);
                if (lazy && !matcher.hasPosted() && leftInRing(e, matcher) && !handledAhead(ring, head, matcher, localRanks[sender])) {
                    break;
                }
                data += Envelope.BYTES;
                current[sender] = matcher.arrive(e);
                bytes = Math.min(e.length(), bytes - Envelope.BYTES);
            }
            if (kind != SKIP) {
                Arrival a = current[sender];
                bytes = Math.min(bytes, a.remaining());
                a.write(ring.asSlice(data, bytes));
                if (a.remaining() == 0) {
                    current[sender] = null;
                    try {
                        matcher.arrived(a);
                    } catch (RuntimeException | Error failed) { // its handler's: the ring moves on past it all the same
                        LONG.setRelease(ring, HEAD_AT, head + record);
                        throw failed;
                    }
                }
            }
            head += record;
        }
        if (head == start) {
            return false;
        }
        LONG.setRelease(ring, HEAD_AT, head);
        return true;
    }

    /**
     * Whether a message no receive waits for may stay in the ring: one a handler does not take,
     * of {@link #LAZY_BYTES} or more. Smaller ones are taken in at once, several a round, which
     * costs less than a round of the ring per message (bcast of 8 B-2 KiB, back to back on 2
     * ranks: 0.45-0.8 µs a call taken one by one, 0.14-0.47 taken in together).
     */
    private static boolean leftInRing(Envelope e, Matcher matcher) {
        return e.length() >= LAZY_BYTES && !matcher.isHandled(e.context());
    }

    /** From this size on, a message no receive waits for yet stays in the ring. */
    static final int LAZY_BYTES = 4096;

    /**
     * The kind of the record at {@code base}, once its length and kind are ones a sender writes:
     * a ring written over by anything else (a stray write through the mapping, a peer's memory
     * gone bad) would otherwise send the receiver walking backwards or off the ring, holding the
     * engine's lock for ever; it is refused instead, naming the sender.
     */
    private static int checked(MemorySegment ring, long base, int record, int sender) {
        int kind = ring.get(ValueLayout.JAVA_INT, base + RECORD_KIND_AT);
        long offset = base - DATA;
        if (record < RECORD_HEADER || record % 8 != 0 || offset + record > capacity(ring) || kind < FIRST || kind > SKIP
                || (kind != SKIP && record > align(RECORD_HEADER + Envelope.BYTES + MAX_CHUNK))) {
            throw new CommException("the shared-memory ring from rank " + sender + " is corrupt (a record of " + record
                    + " bytes, kind " + kind + ", at " + offset + ")");
        }
        return kind;
    }

    /** Whether a message from {@code head} on, up to the last record published, is one a handler takes. */
    private static boolean handledAhead(MemorySegment ring, long head, Matcher matcher, int sender) {
        for (long at = head; ; ) {
            long base = DATA + at % capacity(ring);
            int record = (int) INT.getAcquire(ring, base + RECORD_LENGTH_AT);
            if (record == 0) {
                return false;
            }
            if (checked(ring, base, record, sender) == FIRST
                    && matcher.isHandled(Envelope.readFrom(ring, base + RECORD_HEADER).context())) {
                return true;
            }
            at += record;
        }
    }

    @Override
    public void close() {
        unlink();
        arena.close();
    }

    private static final class PendingSend {
        final Envelope envelope;
        final MemorySegment payload;
        final Operation.Send op;
        /** Bytes of the payload in the ring; -1 until the first record is written. */
        long offset = -1;

        PendingSend(Envelope envelope, MemorySegment payload, Operation.Send op) {
            this.envelope = envelope;
            this.payload = payload;
            this.op = op;
        }
    }
}
