package org.banyan.comm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A one-sided window (MPI_Win): each rank of a communicator exposes a segment that the others
 * {@link #put}, {@link #get} and {@link #accumulate} into, by byte offset, within epochs: active
 * target ({@link #fence()}, collective) or passive target ({@link #lock}/{@link #unlock}).
 *
 * <p>Operations travel as messages on the window's own context and are applied by the target
 * when it makes progress (any call into the library), as MPI libraries without a progress
 * thread do: a target that computes for a long time without communicating delays the grant of a
 * lock and the completion of operations aimed at it, never their correctness. An operation is
 * complete at its target when {@code fence} or {@code unlock} returns at its origin.
 *
 * <p>Messages are tagged with their kind on the window's context; their records are laid out in
 * {@link Records}.
 *
 * <p>Monitoring counts at the origin only, as Open MPI's osc monitoring: a put or an accumulate
 * is bytes sent to the target, a get a request sent (0 bytes) and bytes received from it.
 */
public final class Window implements AutoCloseable {
    private static final int PUT = 1, ACC = 2, GET = 3, GET_REPLY = 4, ACK = 5, LOCK = 6, GRANT = 7, UNLOCK = 8, GET_ACC = 9,
            CAS = 10;
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

    /**
     * The records of the window's messages, in the host's byte order (ranks share an
     * architecture). ACK, GRANT and UNLOCK are empty.
     *
     * <pre>
     * PUT        offset:i64 data...
     * ACC        offset:i64 type:i32 (Elem's code) op:i32 (ACC_OPS index) data...
     * GET        offset:i64 length:i32 id:i32          answered by GET_REPLY
     * GET_ACC    offset:i64 type:i32 op:i32 id:i32 data...       answered by GET_REPLY (the values before)
     * CAS        offset:i64 type:i32 id:i32 compare swap (one value each)   answered by GET_REPLY
     * GET_REPLY  id:i32 data...
     * LOCK       exclusive:i32 (0 or 1)                answered by GRANT
     * </pre>
     */
    static final class Records {
        static final int OFFSET_AT = 0;
        static final int PUT_DATA = 8;
        static final int ACC_TYPE_AT = 8;
        static final int ACC_OP_AT = 12;
        static final int ACC_DATA = 16;
        static final int GET_LENGTH_AT = 8;
        static final int GET_ID_AT = 12;
        static final int GET_SIZE = 16;
        static final int REPLY_ID_AT = 0;
        static final int REPLY_DATA = 4;
        static final int LOCK_EXCLUSIVE_AT = 0;
        static final int LOCK_SIZE = 4;
        static final int GET_ACC_ID_AT = 16;
        static final int GET_ACC_DATA = 20;
        static final int CAS_TYPE_AT = 8;
        static final int CAS_ID_AT = 12;
        static final int CAS_DATA = 16;

        private Records() {}
    }

    private final Comm comm;
    private final int context;
    private final MemorySegment memory;
    private final Arena arena;
    private final long[] sizes;
    // origin side
    private final int[] unacknowledged;
    private final boolean[] granted;
    private final Map<Integer, MemorySegment> gets = new HashMap<>();
    private final int[] getsTo;
    private int nextGet;
    // target side
    private int sharedHolders;
    private boolean exclusiveHeld;
    private final ArrayDeque<int[]> lockQueue = new ArrayDeque<>();
    private boolean closed;

    private Window(Comm comm, MemorySegment memory, Arena arena) {
        this.comm = comm;
        this.memory = memory;
        this.arena = arena;
        int n = comm.size();
        this.unacknowledged = new int[n];
        this.granted = new boolean[n];
        this.getsTo = new int[n];
        this.sizes = new long[n];
        comm.allgather(new long[] {memory.byteSize()}, sizes);
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

    /** This rank's exposed memory. */
    public MemorySegment memory() {
        return memory;
    }

    // ---- operations (origin)

    /** Writes {@code data} at byte {@code offset} of {@code target}'s window. */
    public void put(MemorySegment data, int target, long offset) {
        check(target, offset, data.byteSize(), "put");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.PUT_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT, offset);
        MemorySegment.copy(data, 0, m, Records.PUT_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        sendCounted(m, target, PUT);
    }

    public void put(double[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    /** Combines {@code data} into {@code target}'s window at {@code offset}: window = data op window. */
    public void accumulate(MemorySegment data, Elem type, Op op, int target, long offset) {
        int opIndex = ACC_OPS.indexOf(op);
        if (opIndex < 0) {
            throw new IllegalArgumentException("accumulate takes SUM, PROD, MAX, MIN or REPLACE, not a user-defined operation");
        }
        if (data.byteSize() % type.bytes() != 0) {
            throw new IllegalArgumentException("accumulate: " + data.byteSize() + " bytes are not whole " + type + " values");
        }
        check(target, offset, data.byteSize(), "accumulate");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.ACC_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_OP_AT, opIndex);
        MemorySegment.copy(data, 0, m, Records.ACC_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        sendCounted(m, target, ACC);
    }

    /**
     * MPI_Get_accumulate: {@code result} gets the target's values at {@code offset}, and
     * {@code data} is then combined into them, atomically with respect to other accumulates;
     * {@link #NO_OP} only fetches, {@link Op#REPLACE} swaps. {@code result} is filled by the
     * epoch's end (flush, unlock, fence).
     */
    public void getAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset) {
        int opIndex = ACC_OPS.indexOf(op);
        if (opIndex < 0) {
            throw new IllegalArgumentException("getAccumulate takes SUM, PROD, MAX, MIN, REPLACE or NO_OP, not a user-defined operation");
        }
        if (data.byteSize() % type.bytes() != 0 || result.byteSize() < data.byteSize()) {
            throw new IllegalArgumentException("getAccumulate: " + data.byteSize() + " bytes of " + type + " values into a result of "
                    + result.byteSize());
        }
        check(target, offset, data.byteSize(), "getAccumulate");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.GET_ACC_DATA + (int) data.byteSize()]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_OP_AT, opIndex);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_ACC_ID_AT, awaitReply(result.asSlice(0, data.byteSize()), target));
        MemorySegment.copy(data, 0, m, Records.GET_ACC_DATA, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], true, data.byteSize());
        comm.engine.monitor.oneSided(comm.group[target], false, data.byteSize());
        send(m, target, GET_ACC);
    }

    /** MPI_Fetch_and_op on one long: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(long value, long[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new long[] {value}), MemorySegment.ofArray(result), Elem.LONG, op, target, offset);
    }

    /**
     * MPI_Compare_and_swap on one value of {@code type}: where the target holds {@code compare},
     * it now holds {@code swap}; {@code result} gets the value before either way (by the epoch's end).
     */
    public void compareAndSwap(MemorySegment swap, MemorySegment compare, MemorySegment result, Elem type, int target, long offset) {
        int w = type.bytes();
        if (swap.byteSize() != w || compare.byteSize() != w || result.byteSize() < w) {
            throw new IllegalArgumentException("compareAndSwap works on one " + type + " value (" + w + " bytes)");
        }
        check(target, offset, w, "compareAndSwap");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.CAS_DATA + 2 * w]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.CAS_TYPE_AT, type.code);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.CAS_ID_AT, awaitReply(result.asSlice(0, w), target));
        MemorySegment.copy(compare, 0, m, Records.CAS_DATA, w);
        MemorySegment.copy(swap, 0, m, Records.CAS_DATA + w, w);
        comm.engine.monitor.oneSided(comm.group[target], true, w);
        comm.engine.monitor.oneSided(comm.group[target], false, w);
        send(m, target, CAS);
    }

    /** Compare-and-swap of one long. */
    public void compareAndSwap(long swap, long compare, long[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new long[] {swap}), MemorySegment.ofArray(new long[] {compare}),
                MemorySegment.ofArray(result), Elem.LONG, target, offset);
    }

    /** Registers where a GET_REPLY goes; its id. */
    private int awaitReply(MemorySegment into, int target) {
        int[] id = new int[1];
        comm.engine.locked(() -> {
            id[0] = nextGet++;
            gets.put(id[0], into);
            getsTo[target]++;
        });
        return id[0];
    }

    public void accumulate(double[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.DOUBLE, op, target, offset);
    }

    public void accumulate(long[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.LONG, op, target, offset);
    }

    /** Reads {@code into.byteSize()} bytes at {@code offset} of {@code target}'s window; {@code into} is filled by the epoch's end. */
    public void get(MemorySegment into, int target, long offset) {
        check(target, offset, into.byteSize(), "get");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.GET_SIZE]);
        m.set(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT, offset);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_LENGTH_AT, (int) into.byteSize());
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_ID_AT, awaitReply(into, target));
        comm.engine.monitor.oneSided(comm.group[target], true, 0);
        comm.engine.monitor.oneSided(comm.group[target], false, into.byteSize());
        send(m, target, GET);
    }

    public void get(double[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    // ---- epochs

    /** Ends an active-target epoch: every operation of every rank is complete at its target. Collective. */
    public void fence() {
        checkOpen();
        comm.engine.progressUntil(this::allComplete);
        comm.barrier();
    }

    /** Starts a passive-target epoch on {@code target}: waits for its shared or exclusive lock. */
    public void lock(int target, boolean exclusive) {
        checkOpen();
        comm.checkRank(target, "target");
        MemorySegment m = MemorySegment.ofArray(new byte[Records.LOCK_SIZE]);
        m.set(ValueLayout.JAVA_INT_UNALIGNED, Records.LOCK_EXCLUSIVE_AT, exclusive ? 1 : 0);
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
    }

    /** Within a lock epoch: waits until this rank's operations on {@code target} are complete (MPI_Win_flush). */
    public void flush(int target) {
        checkOpen();
        comm.checkRank(target, "target");
        comm.engine.progressUntil(() -> completeAt(target));
    }

    /** Ends the epoch on {@code target}: its operations are complete there, and the lock is released. */
    public void unlock(int target) {
        checkOpen();
        comm.engine.progressUntil(() -> completeAt(target));
        comm.engine.locked(() -> granted[target] = false);
        send(MemorySegment.NULL, target, UNLOCK);
    }

    private boolean isGranted(int target) {
        return comm.engine.read(() -> granted[target]);
    }

    private boolean allComplete() {
        return comm.engine.read(() -> {
            for (int t = 0; t < unacknowledged.length; t++) {
                if (unacknowledged[t] != 0 || getsTo[t] != 0) {
                    return false;
                }
            }
            return true;
        });
    }

    private boolean completeAt(int target) {
        return comm.engine.read(() -> unacknowledged[target] == 0 && getsTo[target] == 0);
    }

    // ---- messages

    private void sendCounted(MemorySegment m, int target, int tag) {
        comm.engine.locked(() -> unacknowledged[target]++);
        send(m, target, tag);
    }

    private void send(MemorySegment m, int target, int tag) {
        checkOpen();
        comm.sendInternal(m, target, tag, context, Engine.Traffic.ONE_SIDED);
    }

    private void check(int target, long offset, long bytes, String what) {
        checkOpen();
        comm.checkRank(target, "target");
        if (offset < 0 || offset + bytes > sizes[target]) {
            throw new IllegalArgumentException(what + " of " + bytes + " bytes at offset " + offset + " is outside rank "
                    + target + "'s window of " + sizes[target] + " bytes");
        }
    }

    /** A message on this window's context, with the engine's lock held (target and origin sides). */
    private void arrived(Envelope e, MemorySegment b) {
        int from = e.source();
        switch (e.tag()) {
            case PUT -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT);
                MemorySegment.copy(b, Records.PUT_DATA, memory, offset, b.byteSize() - Records.PUT_DATA);
                send(MemorySegment.NULL, from, ACK);
            }
            case ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_TYPE_AT));
                Op op = ACC_OPS.get(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_OP_AT));
                MemorySegment data = b.asSlice(Records.ACC_DATA);
                op.combine(type, data, memory.asSlice(offset, data.byteSize()), (int) (data.byteSize() / type.bytes()));
                send(MemorySegment.NULL, from, ACK);
            }
            case GET -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT);
                int length = b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_LENGTH_AT);
                MemorySegment reply = MemorySegment.ofArray(new byte[Records.REPLY_DATA + length]);
                reply.set(ValueLayout.JAVA_INT_UNALIGNED, Records.REPLY_ID_AT, b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_ID_AT));
                MemorySegment.copy(memory, offset, reply, Records.REPLY_DATA, length);
                send(reply, from, GET_REPLY);
            }
            case GET_ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_TYPE_AT));
                Op op = ACC_OPS.get(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.ACC_OP_AT));
                MemorySegment data = b.asSlice(Records.GET_ACC_DATA);
                MemorySegment here = memory.asSlice(offset, data.byteSize());
                reply(from, b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.GET_ACC_ID_AT), here);
                op.combine(type, data, here, (int) (data.byteSize() / type.bytes()));
            }
            case CAS -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, Records.OFFSET_AT);
                int w = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.CAS_TYPE_AT)).bytes();
                MemorySegment here = memory.asSlice(offset, w);
                reply(from, b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.CAS_ID_AT), here);
                if (here.mismatch(b.asSlice(Records.CAS_DATA, w)) < 0) {
                    MemorySegment.copy(b, Records.CAS_DATA + w, here, 0, w);
                }
            }
            case GET_REPLY -> {
                MemorySegment into = gets.remove(b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.REPLY_ID_AT));
                MemorySegment.copy(b, Records.REPLY_DATA, into, 0, into.byteSize());
                getsTo[from]--;
            }
            case ACK -> unacknowledged[from]--;
            case LOCK -> {
                lockQueue.add(new int[] {from, b.get(ValueLayout.JAVA_INT_UNALIGNED, Records.LOCK_EXCLUSIVE_AT)});
                grantWhatCan();
            }
            case GRANT -> granted[from] = true;
            case UNLOCK -> {
                if (exclusiveHeld) {
                    exclusiveHeld = false;
                } else {
                    sharedHolders--;
                }
                grantWhatCan();
            }
            default -> throw new IllegalStateException("unknown window message " + e.tag());
        }
    }

    /** A GET_REPLY of {@code id} to {@code to}: the values of {@code here} as they are now (copied before anything changes them). */
    private void reply(int to, int id, MemorySegment here) {
        MemorySegment r = MemorySegment.ofArray(new byte[Records.REPLY_DATA + (int) here.byteSize()]);
        r.set(ValueLayout.JAVA_INT_UNALIGNED, Records.REPLY_ID_AT, id);
        MemorySegment.copy(here, 0, r, Records.REPLY_DATA, here.byteSize());
        send(r, to, GET_REPLY);
    }

    /** Grants queued locks in order while they are compatible with those held. */
    private void grantWhatCan() {
        while (!lockQueue.isEmpty() && !exclusiveHeld) {
            int[] next = lockQueue.peek();
            boolean exclusive = next[1] == 1;
            if (exclusive && sharedHolders > 0) {
                return;
            }
            lockQueue.poll();
            if (exclusive) {
                exclusiveHeld = true;
            } else {
                sharedHolders++;
            }
            send(MemorySegment.NULL, next[0], GRANT);
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
