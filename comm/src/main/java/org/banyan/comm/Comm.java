package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.client.Banyan;

/**
 * A communicator: a group of ranks and a private space for their messages, as MPI's. The world
 * communicator comes from {@link #world(Banyan)}; {@link #split} and {@link #dup} make others.
 *
 * <pre>{@code
 * try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
 *     double[] local = {world.rank()};
 *     double[] sum = new double[1];
 *     world.allreduce(local, sum, Op.SUM);
 * }
 * }</pre>
 *
 * <p>Point-to-point: {@code send}/{@code recv} block, {@code isend}/{@code irecv} return a
 * {@link Request}; {@link #ANY_SOURCE} and {@link #ANY_TAG} match any sender or tag; messages
 * from one sender on one communicator are received in the order sent. Sends are eager: a send
 * completes once its bytes are handed to the transport, whether or not the receive is posted.
 * Buffers are byte, int, long, float and double arrays, ByteBuffers (position to limit) and
 * MemorySegments. Collectives ({@link CommCollectives}) are built from point-to-point messages on
 * the communicator's second context, so they never match a user's receive and show as internal
 * traffic.
 */
public final class Comm extends CommEnvironment implements AutoCloseable {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    /**
     * MPI_PROC_NULL: a send to it or a receive from it completes at once and moves nothing (the
     * receive's status says source PROC_NULL, tag ANY_TAG, 0 bytes), so edge ranks of a stencil
     * need no special case.
     */
    public static final int PROC_NULL = -2;

    final Engine engine;
    final String name;
    /** User messages use context, collectives context + 1. */
    final int context;
    /** World rank of each member. */
    final int[] group;
    final int rank;
    private final AtomicInteger nextContext;
    private final Runnable onClose;
    /** The world's: writes this rank's monitoring profile when asked to. */
    Runnable profileWriter;
    private final Collectives coll;
    private final Reductions red;
    private final VectorCollectives vcoll;
    private final CollectiveThread collectiveThread;
    private int splits;
    private boolean closed;

    Comm(Engine engine, String name, int context, int[] group, AtomicInteger nextContext, Runnable onClose) {
        this.engine = engine;
        this.name = name;
        this.context = context;
        this.group = group;
        this.nextContext = nextContext;
        this.onClose = onClose;
        int me = -1;
        for (int i = 0; i < group.length; i++) {
            if (group[i] == engine.rank) {
                me = i;
            }
        }
        this.rank = me;
        this.coll = new Collectives(this);
        this.red = new Reductions(coll);
        this.vcoll = new VectorCollectives(this);
        this.collectiveThread = new CollectiveThread(name);
        engine.monitor.register(name, group);
        engine.groupOf(context, group); // its point-to-point and collective contexts, for finalize notices
        engine.groupOf(context + 1, group);
    }

    /** The world communicator of this job: every rank, in Banyan's rank order. Collective over the job. */
    public static Comm world(Banyan job) {
        return World.create(job);
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return group.length;
    }

    /** The communicator's name as monitoring reports it (MPI_COMM_WORLD, or given at split/dup). */
    public String name() {
        return name;
    }

    /** The world rank of this communicator's rank {@code r}. */
    public int worldRank(int r) {
        checkRank(r, "rank");
        return group[r];
    }

    /** The collective algorithms, once the non-blocking collectives started before have ended (see {@link CommNonBlocking}). */
    Collectives coll() {
        collectiveThread.ordered(engine);
        return coll;
    }

    /** The reductions, as {@link #coll()}. */
    Reductions red() {
        collectiveThread.ordered(engine);
        return red;
    }

    VectorCollectives vcoll() {
        collectiveThread.ordered(engine);
        return vcoll;
    }

    @Override
    Request background(Runnable body) {
        checkOpen();
        return collectiveThread.submit(engine, body);
    }

    /** This process's monitor (the same for every communicator of the process). */
    public Monitor monitor() {
        return engine.monitor;
    }

    // ---- point-to-point

    /** Starts a send; the data must stay unchanged until the request is done. */
    @Override
    public Request isend(MemorySegment data, int dest, int tag) {
        checkUserTag(tag);
        if (dest == PROC_NULL) {
            checkOpen();
            return new Operation.Null(engine, null);
        }
        return sendInternal(data, dest, tag, context, Engine.Traffic.EXTERNAL);
    }

    /**
     * MPI_Issend: a send that completes only once a receive has taken the message (announced
     * whatever its size; see docs/comm.md, flow control), so that a sender learns its receiver got
     * that far.
     */
    @Override
    public Request issend(MemorySegment data, int dest, int tag) {
        checkUserTag(tag);
        if (dest == PROC_NULL) {
            checkOpen();
            return new Operation.Null(engine, null);
        }
        return sendInternal(data, dest, tag, context, Engine.Traffic.EXTERNAL, true);
    }

    /**
     * A receive of {@code count} elements of {@code type} into {@code buffer}: the message comes
     * packed and is unpacked into place before the request is done.
     */
    @Override
    public Request irecv(MemorySegment buffer, int count, Datatype type, int source, int tag) {
        if (tag != ANY_TAG) {
            checkUserTag(tag);
        }
        MemorySegment packed = MemorySegment.ofArray(new byte[Math.toIntExact(type.size() * count)]);
        type.check(buffer, count); // before anything is posted
        if (source == PROC_NULL) {
            checkOpen();
            return new Operation.Null(engine, new Status(PROC_NULL, ANY_TAG, 0));
        }
        if (source != ANY_SOURCE) {
            checkRank(source, "source");
        }
        checkOpen();
        return engine.receive(context, source, tag, packed, s -> type.unpack(packed.asSlice(0, s.bytes()), buffer, count));
    }

    /** Starts a receive into {@code buffer}; source may be {@link #ANY_SOURCE}, tag {@link #ANY_TAG}. */
    @Override
    public Request irecv(MemorySegment buffer, int source, int tag) {
        if (tag != ANY_TAG) {
            checkUserTag(tag);
        }
        if (source == PROC_NULL) {
            checkOpen();
            return new Operation.Null(engine, new Status(PROC_NULL, ANY_TAG, 0));
        }
        if (source != ANY_SOURCE) {
            checkRank(source, "source");
        }
        checkOpen();
        return engine.receive(context, source, tag, buffer);
    }

    /**
     * MPI_Send_init: a send of {@code data} to {@code dest}, checked now, started by each
     * {@link PersistentRequest#start}; {@code data} is read at each start.
     */
    @Override
    public PersistentRequest sendInit(MemorySegment data, int dest, int tag) {
        checkUserTag(tag);
        if (dest != PROC_NULL) {
            checkRank(dest, "destination");
        }
        return new PersistentRequest(() -> isend(data, dest, tag));
    }

    /** MPI_Recv_init: a receive into {@code buffer}, checked now, started by each {@link PersistentRequest#start}. */
    @Override
    public PersistentRequest recvInit(MemorySegment buffer, int source, int tag) {
        if (tag != ANY_TAG) {
            checkUserTag(tag);
        }
        if (source != ANY_SOURCE && source != PROC_NULL) {
            checkRank(source, "source");
        }
        return new PersistentRequest(() -> irecv(buffer, source, tag));
    }

    /** The status of a message that a matching receive would get now, or null: MPI_Iprobe. */
    public Status iprobe(int source, int tag) {
        checkOpen();
        Envelope e = engine.probe(context, source, tag);
        return e == null ? null : new Status(e.source(), e.tag(), e.length());
    }

    /**
     * MPI_Improbe: takes the first message a receive of ({@code source}, {@code tag}) would get
     * now out of matching, for {@link #imrecv} to receive; null when there is none yet. From
     * {@link #PROC_NULL}: a message of no bytes at once.
     */
    public Message improbe(int source, int tag) {
        checkOpen();
        if (source == PROC_NULL) {
            return new Message(this, name, null, new Status(PROC_NULL, ANY_TAG, 0));
        }
        if (tag != ANY_TAG) {
            checkUserTag(tag);
        }
        if (source != ANY_SOURCE) {
            checkRank(source, "source");
        }
        Arrival a = engine.take(context, source, tag);
        return a == null ? null : new Message(this, name, a, new Status(a.envelope.source(), a.envelope.tag(), a.envelope.length()));
    }

    /** MPI_Mprobe: waits for a message and takes it out of matching (see {@link #improbe}). */
    public Message mprobe(int source, int tag) {
        Message[] found = new Message[1];
        engine.progressUntil(() -> (found[0] = improbe(source, tag)) != null);
        return found[0];
    }

    /** MPI_Imrecv: receives the message {@code m} took into {@code buffer}; once per message. */
    @Override
    public Request imrecv(MemorySegment buffer, Message m) {
        if (m.comm != this) {
            throw new IllegalArgumentException("the message was probed on " + m.where + ", not on " + name());
        }
        if (!m.take()) {
            throw new IllegalStateException("the message (from rank " + m.status().source() + ", tag " + m.status().tag()
                    + ") was received already");
        }
        checkOpen();
        if (m.arrival == null) {
            return new Operation.Null(engine, m.status());
        }
        return engine.receive(m.arrival, buffer);
    }

    /** Waits for a message that a matching receive would get: MPI_Probe. */
    public Status probe(int source, int tag) {
        Status[] found = new Status[1];
        engine.progressUntil(() -> (found[0] = iprobe(source, tag)) != null);
        return found[0];
    }

    /** The most one message carries: its length is a 32-bit field of the envelope. */
    public static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    Request sendInternal(MemorySegment data, int dest, int tag, int ctx, Engine.Traffic traffic) {
        return sendInternal(data, dest, tag, ctx, traffic, false);
    }

    private Request sendInternal(MemorySegment data, int dest, int tag, int ctx, Engine.Traffic traffic, boolean synchronous) {
        checkRank(dest, "destination");
        checkOpen();
        if (data.byteSize() > MAX_MESSAGE_BYTES) { // its length wrapped: the receiver died of IndexOutOfBounds
            throw new IllegalArgumentException("a message of " + data.byteSize() + " bytes: banyan-comm carries at most "
                    + MAX_MESSAGE_BYTES + " (2 GiB - 1) in one; send it in parts");
        }
        return engine.send(group[dest], new Envelope(ctx, rank, tag, (int) data.byteSize()), data, traffic, synchronous);
    }

    // ---- communicators

    /** A copy of this communicator: same group, its own message space. Collective. */
    public Comm dup() {
        return dup(name + "_dup" + splits);
    }

    public Comm dup(String newName) {
        int ctx = agreeOnContext();
        return new Comm(engine, newName, ctx, group, nextContext, null);
    }

    /**
     * Splits by color: ranks with the same color form a communicator, ordered by key and then by
     * rank here; a negative color leaves the rank out (null is returned). Collective.
     */
    public Comm split(int color, int key) {
        long[] mine = {color, key};
        long[] all = new long[2 * size()];
        allgather(mine, all);
        int ctx = agreeOnContext();
        int n = splits++;
        if (color < 0) {
            return null;
        }
        Integer[] members = java.util.stream.IntStream.range(0, size()).filter(r -> all[2 * r] == color).boxed()
                .toArray(Integer[]::new);
        Arrays.sort(members, Comparator.<Integer>comparingLong(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        int[] worldRanks = Arrays.stream(members).mapToInt(r -> group[r]).toArray();
        return new Comm(engine, name + "_split" + n + "_" + color, ctx, worldRanks, nextContext, null);
    }

    /**
     * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): a communicator of this one's ranks on this rank's
     * host, ordered by {@code key} and then by rank here; they can share memory. Collective.
     */
    public Comm splitShared(int key) {
        return split(engine.hostOf[group[rank]], key);
    }

    /** MPI_COMM_SELF: this process alone, on its own message space. Not collective; the same communicator at every call. */
    public Comm self() {
        checkOpen();
        return engine.self(() -> new Comm(engine, "MPI_COMM_SELF", World.SELF_CONTEXT, new int[] {engine.rank},
                nextContext, null)); // the world's ids: communicators made from it are the world's ranks' too
    }

    /** MPI_Comm_group: this communicator's processes, by rank here. */
    public Group group() {
        return new Group(group.clone(), group[rank]);
    }

    /**
     * MPI_Comm_create: a communicator of {@code g}'s processes, ranked as in {@code g}; those not
     * in it get null. Every rank of this communicator calls it with the same group, which must be
     * a part of this one's. Collective.
     */
    public Comm create(Group g) {
        GroupCreation.ranksOf(this, g, "create", name);
        int mine = g.rank();
        return split(mine == Group.UNDEFINED ? -1 : 0, mine);
    }

    /**
     * MPI_Comm_create_group: a communicator of {@code g}'s processes, ranked as in {@code g},
     * made by the group's members alone (the rest of this communicator need not call it);
     * {@code tag} (0 to 2^30) tells apart creations by different groups at the same time.
     */
    public Comm createGroup(Group g, int tag) {
        checkOpen();
        int[] members = GroupCreation.members(this, g);
        int ctx = GroupCreation.agree(this, members, g.rank(), tag, nextContext.get());
        advanceContexts(ctx + 2);
        return new Comm(engine, name + "_group" + ctx, ctx, g.members.clone(), nextContext, null);
    }

    /** This process's next free context id (for an agreement made elsewhere, as {@link Intercomm}'s). */
    int nextContextHint() {
        return nextContext.get();
    }

    /** After an agreement made elsewhere: no id below {@code next} is free any more. */
    void advanceContexts(int next) {
        nextContext.accumulateAndGet(next, Math::max);
    }

    AtomicInteger nextContexts() {
        return nextContext;
    }

    /** A context id no member uses yet: the largest of the members' next free ids. */
    int agreeOnContext() {
        long[] next = {nextContext.get()};
        long[] max = new long[1];
        allreduce(next, max, Op.MAX);
        int ctx = (int) max[0];
        nextContext.set(ctx + 2);
        return ctx;
    }

    // ---- what the collective half of the API reaches

    @Override
    Comm asComm() {
        return this;
    }

    // ----

    void checkRank(int r, String what) {
        if (r < 0 || r >= group.length) {
            throw new IllegalArgumentException(what + " rank " + r + " is out of range: the communicator "
                    + name + " has ranks 0 to " + (group.length - 1));
        }
    }

    private static void checkUserTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("tag " + tag + " is negative: user tags are 0 or more (ANY_TAG only to receive)");
        }
    }

    /** The world closes its intercommunicators to other jobs first: their close is collective with those jobs. */
    private void closeConnected() {
        for (Intercomm inter : engine.connected) {
            try {
                inter.close();
            } catch (RuntimeException e) {
                // the world's close goes on: the other job may have ended first
            }
        }
    }

    void checkOpen() {
        if (closed) {
            throw new CommException("communication on " + name + " after close");
        }
    }

    /**
     * Ends this communicator. Closing the world waits for every rank (as MPI_Finalize, on a context
     * of its own), writes the monitoring profile when asked, and closes the transports. A rank
     * still waiting for a message from one that closed the world gets a {@link CommException}
     * instead of waiting for ever: a rank whose error closes the world (try-with-resources) ends
     * the others' waits on it, and they close too.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        collectiveThread.close();
        if (onClose != null) {
            closeConnected();
            // the profile first: the closing barrier is the library's, not the program's traffic
            engine.monitor.stop();
            try {
                if (profileWriter != null) {
                    profileWriter.run();
                }
            } finally {
                try {
                    engine.finalizeWorld();
                } finally {
                    closed = true;
                    onClose.run();
                }
            }
        } else {
            closed = true;
        }
    }
}
