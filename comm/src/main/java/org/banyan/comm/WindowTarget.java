package org.banyan.comm;

import static org.banyan.comm.WindowRecords.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * A window's target side: applies the operations other ranks aim at this rank's memory, grants
 * and releases its locks, and counts the access epochs that ended on it (MPI_Win_complete), all
 * with the engine's lock held, as messages arrive. A dynamic window's memory is what is attached
 * at the time an operation arrives, each part at the address {@link Window#attach} gave it; an
 * operation outside every part (or outside a fixed window's memory) is refused back to its
 * origin (NACK, REFUSED), not applied.
 */
final class WindowTarget {
    /** How the target answers: a record to a rank of the window's communicator, with its kind. */
    interface Replies {
        void send(MemorySegment record, int to, int kind);
    }

    private final MemorySegment memory;
    /** A dynamic window's attached parts by their address; null for a window of one memory. */
    private final TreeMap<Long, MemorySegment> attached;
    private final Replies replies;
    private int sharedHolders;
    private boolean exclusiveHeld;
    private final ArrayDeque<int[]> lockQueue = new ArrayDeque<>();
    /** COMPLETE messages received from each origin and not yet taken by an exposure epoch's end. */
    final int[] completesFrom;

    WindowTarget(MemorySegment memory, boolean dynamic, int ranks, Replies replies) {
        this.memory = memory;
        this.attached = dynamic ? new TreeMap<>() : null;
        this.replies = replies;
        this.completesFrom = new int[ranks];
    }

    /** Handles a target-side message; false when {@code kind} is not one. */
    boolean arrived(int kind, int from, MemorySegment b) {
        switch (kind) {
            case PUT -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                MemorySegment here = at(offset, b.byteSize() - PUT_DATA);
                if (here == null) {
                    nack(from, offset, b.byteSize() - PUT_DATA);
                    return true;
                }
                MemorySegment.copy(b, PUT_DATA, here, 0, here.byteSize());
                replies.send(MemorySegment.NULL, from, ACK);
            }
            case ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT));
                Op op = Window.accumulateOp(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT));
                MemorySegment data = b.asSlice(ACC_DATA);
                MemorySegment here = at(offset, data.byteSize());
                if (here == null) {
                    nack(from, offset, data.byteSize());
                    return true;
                }
                op.combine(type, data, here, (int) (data.byteSize() / type.bytes()));
                replies.send(MemorySegment.NULL, from, ACK);
            }
            case GET -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                int length = b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_LENGTH_AT);
                int id = b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_ID_AT);
                MemorySegment here = at(offset, length);
                if (here == null) {
                    refuse(from, id, offset, length);
                    return true;
                }
                reply(from, id, here);
            }
            case GET_ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT));
                Op op = Window.accumulateOp(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT));
                MemorySegment data = b.asSlice(GET_ACC_DATA);
                int id = b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_ACC_ID_AT);
                MemorySegment here = at(offset, data.byteSize());
                if (here == null) {
                    refuse(from, id, offset, data.byteSize());
                    return true;
                }
                reply(from, id, here);
                op.combine(type, data, here, (int) (data.byteSize() / type.bytes()));
            }
            case CAS -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                int w = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, CAS_TYPE_AT)).bytes();
                int id = b.get(ValueLayout.JAVA_INT_UNALIGNED, CAS_ID_AT);
                MemorySegment here = at(offset, w);
                if (here == null) {
                    refuse(from, id, offset, w);
                    return true;
                }
                reply(from, id, here);
                if (here.mismatch(b.asSlice(CAS_DATA, w)) < 0) {
                    MemorySegment.copy(b, CAS_DATA + w, here, 0, w);
                }
            }
            case LOCK -> {
                lockQueue.add(new int[] {from, b.get(ValueLayout.JAVA_INT_UNALIGNED, LOCK_EXCLUSIVE_AT)});
                grantWhatCan();
            }
            case UNLOCK -> {
                if (exclusiveHeld) {
                    exclusiveHeld = false;
                } else {
                    sharedHolders--;
                }
                grantWhatCan();
            }
            case COMPLETE -> completesFrom[from]++;
            default -> {
                return false;
            }
        }
        return true;
    }

    /** MPI_Win_attach: {@code part} is reached at {@code address} on. */
    void attach(long address, MemorySegment part) {
        attached.put(address, part);
    }

    /** MPI_Win_detach: false when nothing is attached at {@code address}. */
    boolean detach(long address) {
        return attached.remove(address) != null;
    }

    /**
     * The window's bytes {@code offset} to {@code offset + length}, or null where there are none
     * (outside a window's memory, which origins check before sending, or outside every part a
     * dynamic window has attached): refused back, never a failure of this rank's progress.
     */
    private MemorySegment at(long offset, long length) {
        if (offset < 0 || length < 0) {
            return null;
        }
        if (attached == null) {
            return offset + length <= memory.byteSize() ? memory.asSlice(offset, length) : null;
        }
        Map.Entry<Long, MemorySegment> part = attached.floorEntry(offset);
        if (part == null || offset - part.getKey() + length > part.getValue().byteSize()) {
            return null;
        }
        return part.getValue().asSlice(offset - part.getKey(), length);
    }

    private void nack(int to, long offset, long length) {
        MemorySegment r = MemorySegment.ofArray(new byte[NACK_SIZE]);
        r.set(ValueLayout.JAVA_LONG_UNALIGNED, NACK_OFFSET_AT, offset);
        r.set(ValueLayout.JAVA_LONG_UNALIGNED, NACK_LENGTH_AT, length);
        replies.send(r, to, NACK);
    }

    private void refuse(int to, int id, long offset, long length) {
        MemorySegment r = MemorySegment.ofArray(new byte[REFUSED_SIZE]);
        r.set(ValueLayout.JAVA_INT_UNALIGNED, REFUSED_ID_AT, id);
        r.set(ValueLayout.JAVA_LONG_UNALIGNED, REFUSED_OFFSET_AT, offset);
        r.set(ValueLayout.JAVA_LONG_UNALIGNED, REFUSED_LENGTH_AT, length);
        replies.send(r, to, REFUSED);
    }

    /** A GET_REPLY of {@code id} to {@code to}: the values of {@code here} as they are now (copied before anything changes them). */
    private void reply(int to, int id, MemorySegment here) {
        MemorySegment r = MemorySegment.ofArray(new byte[REPLY_DATA + (int) here.byteSize()]);
        r.set(ValueLayout.JAVA_INT_UNALIGNED, REPLY_ID_AT, id);
        MemorySegment.copy(here, 0, r, REPLY_DATA, here.byteSize());
        replies.send(r, to, GET_REPLY);
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
            replies.send(MemorySegment.NULL, next[0], GRANT);
        }
    }
}
