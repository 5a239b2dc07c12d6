package org.banyan.comm;

import static org.banyan.comm.WindowRecords.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * A one-sided window (MPI_Win): each rank of a communicator exposes a segment that the others
 * {@link #put}, {@link #get} and {@link #accumulate} into, by byte offset, within epochs: active
 * target, for all ranks ({@link #fence()}) or for groups ({@link #post}, {@link #start},
 * {@link #complete()}, {@link #await()}), or passive target ({@link #lock}/{@link #unlock}).
 * The request-based forms ({@link #rput}, {@link #rget}, ...) return a {@link Request} done when
 * the target has answered that one operation.
 *
 * <p>Operations travel as messages on the window's own context and are applied by the target
 * when it makes progress (any call into the library), as MPI libraries without a progress
 * thread do: a target that computes for a long time without communicating delays the grant of a
 * lock and the completion of operations aimed at it, never their correctness. An operation is
 * complete at its target when {@code fence}, {@code complete}, {@code flush} or {@code unlock}
 * returns at its origin. The messages are laid out in {@link WindowRecords}; the target's side
 * is {@link WindowTarget}.
 *
 * <p>Monitoring counts at the origin only, as Open MPI's osc monitoring: a put or an accumulate
 * is bytes sent to the target, a get a request sent (0 bytes) and bytes received from it.
 */
public final class Window extends WindowTypedAccess implements AutoCloseable {
    /** MPI_NO_OP, for {@link #getAccumulate}: the target's values are fetched and left as they are. */
    public static final Op NO_OP = new Op() {
        @Override
        public void combine(Elem type, MemorySegment in, MemorySegment inout, int count) {}

        @Override
        public String toString() {
            return "NO_OP";
        }
    };
    /** The operations accumulate accepts (MPI allows only predefined ones), by their code on the wire (the index). */
    private static final List<Op> ACC_OPS = List.of(Op.SUM, Op.PROD, Op.MAX, Op.MIN, Op.REPLACE, NO_OP);

    private final Comm comm;
    private final int context;
    private final MemorySegment memory;
    private final Arena arena;
    private final long[] sizes;
    private final WindowTarget target;
    private final WindowOrigin origin;
    private final WindowGroupEpochs groups;
    /** A shared window's memory on the host (every member's part), or null. */
    private final SharedWindowMemory shared;
    private final boolean dynamic;
    /** The address the next part attached to a dynamic window gets. */
    private long nextAddress = ATTACH_GAP;
    private boolean closed;

    /** Addresses of a dynamic window's parts start this far apart from the end of the one before (and from 0). */
    private static final long ATTACH_GAP = 4096;

    private Window(Comm comm, MemorySegment memory, Arena arena) {
        this(comm, memory, arena, null, false);
    }

    private Window(Comm comm, MemorySegment memory, Arena arena, SharedWindowMemory shared, boolean dynamic) {
        this.comm = comm;
        this.memory = memory;
        this.arena = arena;
        this.shared = shared;
        this.dynamic = dynamic;
        int n = comm.size();
        this.sizes = new long[n];
        this.target = new WindowTarget(memory, dynamic, n, this::send);
        this.origin = new WindowOrigin(n);
        this.groups = new WindowGroupEpochs(comm, origin, target, this::send);
        comm.allgather(new long[] {dynamic ? -1 : memory.byteSize()}, sizes);
        this.context = comm.agreeOnContext();
        comm.engine.locked(() -> comm.engine.matcher.handle(context, this::arrived));
        comm.barrier(); // every member handles the context before anyone sends on it
    }

    /** Exposes {@code memory} (heap or native) as this rank's part of a new window. Collective. */
    public static Window create(Comm comm, MemorySegment memory) {
        return new Window(comm, memory, null);
    }

    /** A window over {@code bytes} of fresh zeroed native memory on each rank. Collective. */
    public static Window allocate(Comm comm, long bytes) {
        Arena a = Arena.ofShared();
        return new Window(comm, a.allocate(Math.max(1, bytes), 8), a);
    }

    /**
     * MPI_Win_allocate_shared: a window over {@code bytes} of zeroed memory on each rank, all of
     * them in one shared mapping of the host, so that every rank can also read and write the
     * others' parts directly ({@link #sharedQuery}), as threads would, with {@link #sync()} and
     * the epochs' calls ordering its own accesses with theirs. Every rank of {@code comm} must be
     * on one host ({@code comm.splitShared(key)} gives such a communicator). Collective.
     */
    public static Window allocateShared(Comm comm, long bytes) {
        SharedWindowMemory m = SharedWindowMemory.allocate(comm, bytes);
        return new Window(comm, m.of(comm.rank()), m.arena(), m, false);
    }

    /**
     * MPI_Win_create_dynamic: a window with no memory yet; each rank exposes memory with
     * {@link #attach} and takes it back with {@link #detach}, whenever it likes (not collective).
     * An operation names the target's memory by the address attach gave there, plus an offset
     * (the origin learns addresses from the target: a message, a bcast); one outside all that is
     * attached when it arrives is refused by the target, not applied, and the refusal raised at
     * the origin by the epoch's end (or by the operation's request). Collective.
     */
    public static Window createDynamic(Comm comm) {
        return new Window(comm, MemorySegment.NULL, null, null, true);
    }

    /**
     * MPI_Win_attach: exposes {@code part} (heap or native) in this rank's dynamic window; returns
     * the address other ranks reach its first byte at (as MPI_Get_address does in C). Parts'
     * address ranges never overlap.
     */
    @Override
    public long attach(MemorySegment part) {
        checkOpen();
        if (!dynamic) {
            throw new IllegalStateException("attach: this window was not made by createDynamic");
        }
        long address = nextAddress;
        nextAddress = Math.addExact(address, (Math.max(1, part.byteSize()) + ATTACH_GAP - 1) / ATTACH_GAP * ATTACH_GAP + ATTACH_GAP);
        comm.engine.locked(() -> target.attach(address, part));
        return address;
    }

    /** MPI_Win_detach: the part attached at {@code address} is no longer exposed; operations that arrive later are refused. */
    public void detach(long address) {
        checkOpen();
        boolean[] was = new boolean[1];
        comm.engine.locked(() -> was[0] = dynamic && target.detach(address));
        if (!was[0]) {
            throw new IllegalArgumentException("detach: nothing is attached at address " + address + " of this window");
        }
    }

    /** MPI_Win_shared_query: rank {@code r}'s part of a shared window, to load from and store into directly. */
    public MemorySegment sharedQuery(int r) {
        checkOpen();
        if (shared == null) {
            throw new IllegalStateException("sharedQuery: this window was not made by allocateShared");
        }
        comm.checkRank(r, "rank");
        return shared.of(r);
    }

    /**
     * MPI_Win_sync: a full memory fence, so that this rank's direct stores into a shared window
     * are seen by others, and theirs by it, when a barrier or a message orders them.
     */
    public void sync() {
        checkOpen();
        java.lang.invoke.VarHandle.fullFence();
    }

    @Override
    Engine engine() {
        return comm.engine;
    }

    /** This rank's exposed memory. */
    public MemorySegment memory() {
        return memory;
    }

    static Op accumulateOp(int code) {
        return ACC_OPS.get(code);
    }

    // ---- operations (origin)

    /** Writes {@code data} at byte {@code offset} of {@code target}'s window. */
    @Override
    public void put(MemorySegment data, int target, long offset) {
        put(data, target, offset, null);
    }

    /** MPI_Rput: as {@link #put}, and the request is done once the target has written the data. */
    @Override
    public Request rput(MemorySegment data, int target, long offset) {
        Operation.OneSided r = new Operation.OneSided(comm.engine);
        put(data, target, offset, r);
        return r;
    }

    @Override
    void put(MemorySegment data, int target, long offset, Operation.OneSided request) {
        check(target, offset, data.byteSize(), "put");
        MemorySegment m = MemorySegment.ofArray(new byte[PUT_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT, offset);
        MemorySegment.copy(data, 0, m, PUT_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        sendCounted(m, target, PUT, request);
    }

    /** Combines {@code data} into {@code target}'s window at {@code offset}: window = data op window. */
    @Override
    public void accumulate(MemorySegment data, Elem type, Op op, int target, long offset) {
        accumulate(data, type, op, target, offset, null);
    }

    /** MPI_Raccumulate: as {@link #accumulate}, and the request is done once the target has combined the data. */
    @Override
    public Request raccumulate(MemorySegment data, Elem type, Op op, int target, long offset) {
        Operation.OneSided r = new Operation.OneSided(comm.engine);
        accumulate(data, type, op, target, offset, r);
        return r;
    }

    @Override
    void accumulate(MemorySegment data, Elem type, Op op, int target, long offset, Operation.OneSided request) {
        int opIndex = ACC_OPS.indexOf(op);
        if (opIndex < 0 || op == NO_OP) {
            throw new IllegalArgumentException("accumulate takes SUM, PROD, MAX, MIN or REPLACE, not a user-defined operation");
        }
        if (data.byteSize() % type.bytes() != 0) {
            throw new IllegalArgumentException("accumulate: " + data.byteSize() + " bytes are not whole " + type + " values");
        }
        check(target, offset, data.byteSize(), "accumulate");
        MemorySegment m = MemorySegment.ofArray(new byte[ACC_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT, opIndex);
        MemorySegment.copy(data, 0, m, ACC_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        sendCounted(m, target, ACC, request);
    }

    /**
     * MPI_Get_accumulate: {@code result} gets the target's values at {@code offset}, and
     * {@code data} is then combined into them, atomically with respect to other accumulates;
     * {@link #NO_OP} only fetches, {@link Op#REPLACE} swaps. {@code result} is filled by the
     * epoch's end (flush, unlock, fence, complete).
     */
    @Override
    public void getAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset) {
        getAccumulate(data, result, type, op, target, offset, null);
    }

    /** MPI_Rget_accumulate: as {@link #getAccumulate}, and the request is done once {@code result} is filled. */
    @Override
    public Request rgetAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset) {
        Operation.OneSided r = new Operation.OneSided(comm.engine);
        getAccumulate(data, result, type, op, target, offset, r);
        return r;
    }

    @Override
    void getAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset,
                       Operation.OneSided request) {
        int opIndex = ACC_OPS.indexOf(op);
        if (opIndex < 0) {
            throw new IllegalArgumentException("getAccumulate takes SUM, PROD, MAX, MIN, REPLACE or NO_OP, not a user-defined operation");
        }
        if (data.byteSize() % type.bytes() != 0 || result.byteSize() < data.byteSize()) {
            throw new IllegalArgumentException("getAccumulate: " + data.byteSize() + " bytes of " + type + " values into a result of "
                    + result.byteSize());
        }
        check(target, offset, data.byteSize(), "getAccumulate");
        MemorySegment m = MemorySegment.ofArray(new byte[GET_ACC_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT, opIndex);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, GET_ACC_ID_AT, awaitReply(result.asSlice(0, data.byteSize()), target, request));
        MemorySegment.copy(data, 0, m, GET_ACC_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], false, data.byteSize());
        send(m, target, GET_ACC);
    }

    /**
     * MPI_Compare_and_swap on one value of {@code type}: where the target holds {@code compare},
     * it now holds {@code swap}; {@code result} gets the value before either way (by the epoch's end).
     */
    @Override
    public void compareAndSwap(MemorySegment swap, MemorySegment compare, MemorySegment result, Elem type, int target, long offset) {
        int w = type.bytes();
        if (swap.byteSize() != w || compare.byteSize() != w || result.byteSize() < w) {
            throw new IllegalArgumentException("compareAndSwap works on one " + type + " value (" + w + " bytes)");
        }
        check(target, offset, w, "compareAndSwap");
        MemorySegment m = MemorySegment.ofArray(new byte[CAS_DATA + 2 * w]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, CAS_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, CAS_ID_AT, awaitReply(result.asSlice(0, w), target, null));
        MemorySegment.copy(compare, 0, m, CAS_DATA, w);
        MemorySegment.copy(swap, 0, m, CAS_DATA + w, w);
        comm.engine.monitor.oneSided(comm.group[target], true, w);
        comm.engine.monitor.oneSided(comm.group[target], false, w);
        send(m, target, CAS);
    }

    /** Reads {@code into.byteSize()} bytes at {@code offset} of {@code target}'s window; {@code into} is filled by the epoch's end. */
    @Override
    public void get(MemorySegment into, int target, long offset) {
        get(into, target, offset, null);
    }

    /** MPI_Rget: as {@link #get}, and the request is done once {@code into} is filled. */
    @Override
    public Request rget(MemorySegment into, int target, long offset) {
        Operation.OneSided r = new Operation.OneSided(comm.engine);
        get(into, target, offset, r);
        return r;
    }

    @Override
    void get(MemorySegment into, int target, long offset, Operation.OneSided request) {
        check(target, offset, into.byteSize(), "get");
        MemorySegment m = MemorySegment.ofArray(new byte[GET_SIZE]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, GET_LENGTH_AT, (int) into.byteSize());
        m.set(ValueLayout.JAVA_INT_UNALIGNED, GET_ID_AT, awaitReply(into, target, request));
        comm.engine.monitor.oneSided(comm.group[target], true, 0);
        comm.engine.monitor.oneSided(comm.group[target], false, into.byteSize());
        send(m, target, GET);
    }

    /** Registers where a GET_REPLY goes, and the request it completes (or null); its id. */
    private int awaitReply(MemorySegment into, int target, Operation.OneSided request) {
        int[] id = new int[1];
        comm.engine.locked(() -> id[0] = origin.awaitReply(into, target, request));
        return id[0];
    }

    // ---- epochs

    /** Ends an active-target epoch: every operation of every rank is complete at its target. Collective. */
    public void fence() {
        checkOpen();
        comm.engine.progressUntil(this::allComplete);
        comm.barrier();
        raiseRefusal();
    }

    /**
     * MPI_Win_post: opens this rank's window to an access epoch of each rank of {@code origins}
     * (ranks of the window's communicator, given as a {@link Group}); returns at once. End it with
     * {@link #await()} or {@link #test()}.
     */
    public void post(Group origins) {
        checkOpen();
        groups.post(origins);
    }

    /**
     * MPI_Win_start: begins an access epoch to the windows of {@code targets}; waits until each
     * of them has posted. End it with {@link #complete()}.
     */
    public void start(Group targets) {
        checkOpen();
        groups.start(targets);
    }

    /** MPI_Win_complete: ends the access epoch {@link #start} began; its operations are complete at their targets. */
    public void complete() {
        checkOpen();
        groups.complete();
        raiseRefusal();
    }

    /** MPI_Win_wait: ends the exposure epoch {@link #post} began, once every origin of it has called complete. */
    public void await() {
        checkOpen();
        groups.await();
    }

    /** MPI_Win_test: one round of progress; true (and the exposure epoch over) once every origin has called complete. */
    public boolean test() {
        checkOpen();
        return groups.test();
    }

    /** Starts a passive-target epoch on {@code target}: waits for its shared or exclusive lock. */
    public void lock(int target, boolean exclusive) {
        checkOpen();
        comm.checkRank(target, "target");
        MemorySegment m = MemorySegment.ofArray(new byte[LOCK_SIZE]);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, LOCK_EXCLUSIVE_AT, exclusive ? 1 : 0);
        send(m, target, LOCK);
        comm.engine.progressUntil(() -> isGranted(target));
    }

    /** MPI_Win_lock_all: a shared lock on every member, for a passive-target epoch with all of them. */
    public void lockAll() {
        for (int t = 0; t < comm.size(); t++) {
            lock(t, false);
        }
    }

    /** MPI_Win_unlock_all: ends {@link #lockAll}'s epoch; every operation is complete at its target. */
    public void unlockAll() {
        for (int t = 0; t < comm.size(); t++) {
            unlock(t);
        }
    }

    /** MPI_Win_flush_all: waits until this rank's operations on every member are complete. */
    public void flushAll() {
        checkOpen();
        comm.engine.progressUntil(this::allComplete);
        raiseRefusal();
    }

    /** Within a lock epoch: waits until this rank's operations on {@code target} are complete (MPI_Win_flush). */
    public void flush(int target) {
        checkOpen();
        comm.checkRank(target, "target");
        comm.engine.progressUntil(() -> completeAt(target));
        raiseRefusal();
    }

    /** Ends the epoch on {@code target}: its operations are complete there, and the lock is released. */
    public void unlock(int target) {
        checkOpen();
        comm.engine.progressUntil(() -> completeAt(target));
        comm.engine.locked(() -> origin.released(target));
        send(MemorySegment.NULL, target, UNLOCK);
        raiseRefusal();
    }

    /** A dynamic window's target refused one of this rank's operations since the last epoch's end: said now. */
    private void raiseRefusal() {
        String refused = comm.engine.read(origin::takeRefusal);
        if (refused != null) {
            throw new CommException(refused);
        }
    }

    private boolean isGranted(int target) {
        return comm.engine.read(() -> origin.granted(target));
    }

    private boolean allComplete() {
        return comm.engine.read(origin::allComplete);
    }

    private boolean completeAt(int target) {
        return comm.engine.read(() -> origin.completeAt(target));
    }

    // ---- messages

    private void sendCounted(MemorySegment m, int target, int tag, Operation.OneSided request) {
        comm.engine.locked(() -> origin.counted(target, request));
        send(m, target, tag);
    }

    private void send(MemorySegment m, int target, int tag) {
        checkOpen();
        comm.sendInternal(m, target, tag, context, Engine.Traffic.ONE_SIDED);
    }

    @Override
    void check(int target, long offset, long bytes, String what) {
        checkOpen();
        comm.checkRank(target, "target");
        if (offset < 0 || (sizes[target] >= 0 && offset + bytes > sizes[target])) {
            throw new IllegalArgumentException(what + " of " + bytes + " bytes at offset " + offset + " is outside rank "
                    + target + "'s window of " + sizes[target] + " bytes");
        }
    }

    /** A message on this window's context, with the engine's lock held: an answer to this rank's operations, or one for its memory. */
    private void arrived(Envelope e, MemorySegment b) {
        if (!origin.arrived(e.tag(), e.source(), b) && !target.arrived(e.tag(), e.source(), b)) {
            throw new IllegalStateException("unknown window message " + e.tag());
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new CommException("window operation after close");
        }
    }

    /** Frees the window: a fence first, so nothing is in flight. Collective. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        fence();
        closed = true;
        comm.engine.locked(() -> comm.engine.matcher.unhandle(context));
        if (arena != null) {
            arena.close();
        }
    }
}
