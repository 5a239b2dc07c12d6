package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An intercommunicator (MPI_Intercomm_create): two disjoint groups of ranks, each sending to and
 * receiving from the other, as a manager group and a worker group, or two coupled codes. Ranks
 * in its point-to-point calls are ranks of the <em>remote</em> group ({@link #remoteSize()}); a
 * receive's status names the sender's rank in its own group. Every buffer type and send mode of
 * {@link CommPointToPoint} applies. {@link #merge} makes one intracommunicator of both groups
 * (MPI_Intercomm_merge). The collectives are MPI's for intercommunicators
 * ({@link IntercommCollectiveCalls}): a rooted one goes from the root's group to the other, the
 * root giving {@link #ROOT}, the rest of its group {@link Comm#PROC_NULL} and the other group
 * the root's rank there; the others give each group what the other group had.
 *
 * <p>Messages go on a context agreed by every member of both groups; the groups' leaders agree
 * on it and exchange the groups' members on the peer communicator's collective context, under a
 * tag made from the user's (as {@link GroupCreation} does).
 */
public final class Intercomm extends IntercommNonBlockingVectors implements AutoCloseable {
    /** MPI_ROOT: what the root of a rooted collective gives as the root. */
    public static final int ROOT = -3;
    private static final int MERGE_TAG = 40;

    private final Engine engine;
    private final String name;
    /** Messages between the groups on context, the library's own (merge) on context + 1. */
    private final int context;
    /** World ranks of the local and remote groups' members. */
    private final int[] local;
    private final int[] remote;
    private final int rank;
    /** The local group as an intracommunicator of its own, for the library's agreement within it. */
    private final Comm localComm;
    private final AtomicInteger nextContext;
    private final IntercommCollectives collectives = new IntercommCollectives(this);
    private final IntercommVectors vectors = new IntercommVectors(this);
    private final CollectiveThread collectiveThread;
    private boolean closed;
    /** After the local group closes: the joint world of a spawn goes with it (null for others). */
    Runnable onClose;

    private Intercomm(Comm localComm, int context, int[] remote, AtomicInteger nextContext) {
        this.engine = localComm.engine;
        this.localComm = localComm;
        this.name = "intercomm" + context;
        this.context = context;
        this.local = localComm.group;
        this.remote = remote;
        this.rank = localComm.rank;
        this.nextContext = nextContext;
        this.collectiveThread = new CollectiveThread(name);
        engine.groupOf(context, remote); // a receive's source is a remote rank: its world rank, for finalize notices
        engine.groupOf(context + 1, remote);
    }

    /** The message engine of its world (a joint world's, after a spawn or an accept). */
    Engine engine() {
        return engine;
    }

    /**
     * MPI_Intercomm_create: every rank of {@code local} calls it, and every rank of the other
     * group on its own local communicator; {@code localLeader} is a rank of {@code local}, and
     * {@code peer} (read at the leader only) a communicator holding both leaders, the other's
     * being {@code remoteLeader} there; {@code tag} (0 to 2^30) tells apart creations at the same
     * time. The groups must not share a process. Collective over both groups.
     */
    public static Intercomm create(Comm local, int localLeader, Comm peer, int remoteLeader, int tag) {
        IntercommCreation.Agreed a = IntercommCreation.agree(local, localLeader, peer, remoteLeader, tag);
        return new Intercomm(a.local(), a.context(), a.remote(), a.local().nextContexts());
    }

    /** This rank's rank in its own (local) group. */
    public int rank() {
        return rank;
    }

    /** The local group's size (MPI_Comm_size on an intercommunicator). */
    public int size() {
        return local.length;
    }

    /** MPI_Comm_remote_size. */
    public int remoteSize() {
        return remote.length;
    }

    /** The local group (MPI_Comm_group). */
    public Group group() {
        return new Group(local.clone(), local[rank]);
    }

    /** MPI_Comm_remote_group. */
    public Group remoteGroup() {
        return new Group(remote.clone(), local[rank]);
    }

    /**
     * MPI_Intercomm_merge: one intracommunicator of both groups, the group whose ranks give
     * {@code high} false first (each group's ranks give the same value); when both give the same,
     * the group holding the lower world rank first. Collective over both groups.
     */
    public Comm merge(boolean high) {
        checkOpen();
        collectiveThread.ordered(engine); // a creation is a collective: after the non-blocking ones started before
        long[] next = new long[1];
        localComm.allreduce(new long[] {localComm.nextContextHint()}, next, Op.MAX);
        int[] agreed = new int[2]; // the context, and whether this group goes first
        if (rank == 0) {
            int[] theirs = new int[2];
            Request r = engine.receive(context + 1, 0, MERGE_TAG, MemorySegment.ofArray(theirs));
            Request s = engine.send(remote[0], new Envelope(context + 1, 0, MERGE_TAG, 8),
                    MemorySegment.ofArray(new int[] {(int) next[0], high ? 1 : 0}), Engine.Traffic.INTERNAL);
            Request.awaitAll(r, s);
            boolean theyHigh = theirs[1] == 1;
            boolean first = high != theyHigh ? !high : min(local) < min(remote);
            agreed[0] = Math.max((int) next[0], theirs[0]);
            agreed[1] = first ? 1 : 0;
        }
        localComm.bcast(agreed, 0);
        int[] members = new int[local.length + remote.length];
        int[] a = agreed[1] == 1 ? local : remote;
        int[] b = agreed[1] == 1 ? remote : local;
        System.arraycopy(a, 0, members, 0, a.length);
        System.arraycopy(b, 0, members, a.length, b.length);
        localComm.advanceContexts(agreed[0] + 2);
        return new Comm(engine, name + "_merged" + agreed[0], agreed[0], members, nextContext, null);
    }

    private static int min(int[] ranks) {
        int m = Integer.MAX_VALUE;
        for (int r : ranks) {
            m = Math.min(m, r);
        }
        return m;
    }

    // ---- the point-to-point primitives, ranks being the remote group's

    @Override
    public Request isend(MemorySegment data, int dest, int tag) {
        return send(data, dest, tag, false);
    }

    @Override
    public Request issend(MemorySegment data, int dest, int tag) {
        return send(data, dest, tag, true);
    }

    private Request send(MemorySegment data, int dest, int tag, boolean synchronous) {
        checkTag(tag);
        checkOpen();
        if (dest == Comm.PROC_NULL) {
            return new Operation.Null(engine, null);
        }
        checkRemote(dest, "destination");
        if (data.byteSize() > Comm.MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException("a message of " + data.byteSize() + " bytes: banyan-comm carries at most "
                    + Comm.MAX_MESSAGE_BYTES + " (2 GiB - 1) in one; send it in parts");
        }
        return engine.send(remote[dest], new Envelope(context, rank, tag, (int) data.byteSize()), data, Engine.Traffic.EXTERNAL,
                synchronous);
    }

    @Override
    public Request irecv(MemorySegment buffer, int source, int tag) {
        if (tag != Comm.ANY_TAG) {
            checkTag(tag);
        }
        checkOpen();
        if (source == Comm.PROC_NULL) {
            return new Operation.Null(engine, new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0));
        }
        if (source != Comm.ANY_SOURCE) {
            checkRemote(source, "source");
        }
        return engine.receive(context, source, tag, buffer);
    }

    @Override
    public Request irecv(MemorySegment buffer, int count, Datatype type, int source, int tag) {
        MemorySegment packed = MemorySegment.ofArray(new byte[Math.toIntExact(type.size() * count)]);
        type.check(buffer, count);
        if (source == Comm.PROC_NULL) {
            checkOpen();
            return new Operation.Null(engine, new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0));
        }
        if (tag != Comm.ANY_TAG) {
            checkTag(tag);
        }
        if (source != Comm.ANY_SOURCE) {
            checkRemote(source, "source");
        }
        checkOpen();
        return engine.receive(context, source, tag, packed, s -> type.unpack(packed.asSlice(0, s.bytes()), buffer, count));
    }

    /** MPI_Iprobe: the status of a message from remote rank {@code source} (or any) that a receive would get now, or null. */
    public Status iprobe(int source, int tag) {
        checkProbe(source, tag);
        if (source == Comm.PROC_NULL) {
            return new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0);
        }
        Envelope e = engine.probe(context, source, tag);
        return e == null ? null : new Status(e.source(), e.tag(), e.length());
    }

    /** MPI_Probe: waits for such a message. */
    public Status probe(int source, int tag) {
        Status[] found = new Status[1];
        engine.progressUntil(() -> (found[0] = iprobe(source, tag)) != null);
        return found[0];
    }

    /** MPI_Improbe: takes such a message out of matching for {@link #imrecv}, or null when there is none yet. */
    public Message improbe(int source, int tag) {
        checkProbe(source, tag);
        if (source == Comm.PROC_NULL) {
            return new Message(this, name, null, new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0));
        }
        Arrival a = engine.take(context, source, tag);
        return a == null ? null : new Message(this, name, a, new Status(a.envelope.source(), a.envelope.tag(), a.envelope.length()));
    }

    /** MPI_Mprobe: waits for a message and takes it out of matching. */
    public Message mprobe(int source, int tag) {
        Message[] found = new Message[1];
        engine.progressUntil(() -> (found[0] = improbe(source, tag)) != null);
        return found[0];
    }

    /** MPI_Imrecv: receives the message {@code m} took into {@code buffer}; once per message. */
    @Override
    public Request imrecv(MemorySegment buffer, Message m) {
        if (m.comm != this) {
            throw new IllegalArgumentException("the message was probed on " + m.where + ", not on " + name);
        }
        if (!m.take()) {
            throw new IllegalStateException("the message (from remote rank " + m.status().source() + ", tag " + m.status().tag()
                    + ") was received already");
        }
        checkOpen();
        return m.arrival == null ? new Operation.Null(engine, m.status()) : engine.receive(m.arrival, buffer);
    }

    private void checkProbe(int source, int tag) {
        checkOpen();
        if (tag != Comm.ANY_TAG) {
            checkTag(tag);
        }
        if (source != Comm.ANY_SOURCE && source != Comm.PROC_NULL) {
            checkRemote(source, "source");
        }
    }

    @Override
    public PersistentRequest sendInit(MemorySegment data, int dest, int tag) {
        checkTag(tag);
        if (dest != Comm.PROC_NULL) {
            checkRemote(dest, "destination");
        }
        return new PersistentRequest(() -> isend(data, dest, tag));
    }

    @Override
    public PersistentRequest recvInit(MemorySegment buffer, int source, int tag) {
        if (tag != Comm.ANY_TAG) {
            checkTag(tag);
        }
        if (source != Comm.ANY_SOURCE && source != Comm.PROC_NULL) {
            checkRemote(source, "source");
        }
        return new PersistentRequest(() -> irecv(buffer, source, tag));
    }

    /** The local group as a communicator, for the collectives' work within it. */
    Comm local() {
        return localComm;
    }

    /** A library message to remote rank {@code dest}, on the intercommunicator's own context. */
    Request internalSend(MemorySegment data, int dest, int tag) {
        return engine.send(remote[dest], new Envelope(context + 1, rank, tag, (int) data.byteSize()), data, Engine.Traffic.INTERNAL);
    }

    Request internalReceive(MemorySegment buffer, int source, int tag) {
        return engine.receive(context + 1, source, tag, buffer);
    }

    void checkRemote(int r, String what) {
        if (r < 0 || r >= remote.length) {
            throw new IllegalArgumentException(what + " rank " + r + " is out of range: the remote group of " + name + " has ranks 0 to "
                    + (remote.length - 1));
        }
    }

    private static void checkTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("tag " + tag + " is negative: user tags are 0 or more (ANY_TAG only to receive)");
        }
    }

    /** The collective algorithms, once the non-blocking collectives started before have ended. */
    @Override
    IntercommCollectives collectives() {
        collectiveThread.ordered(engine);
        return collectives;
    }

    @Override
    Request background(Runnable body) {
        checkOpen();
        return collectiveThread.submit(engine, body);
    }

    @Override
    IntercommVectors vectors() {
        collectiveThread.ordered(engine);
        return vectors;
    }

    @Override
    void checkOpen() {
        if (closed) {
            throw new CommException("communication on " + name + " after close");
        }
    }

    /**
     * MPI_Comm_free: no further communication on it. For the intercommunicator of a spawn, also
     * MPI_Comm_disconnect: collective over both groups, it returns once the other group closed it
     * too (or ended).
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            collectiveThread.close();
            try {
                localComm.close();
            } finally {
                if (onClose != null) {
                    onClose.run();
                }
            }
        }
    }

    @Override
    public String toString() {
        return name + "(local " + java.util.Arrays.toString(local) + ", remote " + java.util.Arrays.toString(remote) + ")";
    }
}
