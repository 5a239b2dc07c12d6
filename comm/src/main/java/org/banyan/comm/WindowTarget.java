package org.banyan.comm;

import static org.banyan.comm.WindowRecords.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;

/**
 * A window's target side: applies the operations other ranks aim at this rank's memory, grants
 * and releases its locks, and counts the access epochs that ended on it (MPI_Win_complete), all
 * with the engine's lock held, as messages arrive.
 */
final class WindowTarget {
    /** How the target answers: a record to a rank of the window's communicator, with its kind. */
    interface Replies {
        void send(MemorySegment record, int to, int kind);
    }

    private final MemorySegment memory;
    private final Replies replies;
    private int sharedHolders;
    private boolean exclusiveHeld;
    private final ArrayDeque<int[]> lockQueue = new ArrayDeque<>();
    /** COMPLETE messages received from each origin and not yet taken by an exposure epoch's end. */
    final int[] completesFrom;

    WindowTarget(MemorySegment memory, int ranks, Replies replies) {
        this.memory = memory;
        this.replies = replies;
        this.completesFrom = new int[ranks];
    }

    /** Handles a target-side message; false when {@code kind} is not one. */
    boolean arrived(int kind, int from, MemorySegment b) {
        switch (kind) {
            case PUT -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                MemorySegment.copy(b, PUT_DATA, memory, offset, b.byteSize() - PUT_DATA);
                replies.send(MemorySegment.NULL, from, ACK);
            }
            case ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT));
                Op op = Window.accumulateOp(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT));
                MemorySegment data = b.asSlice(ACC_DATA);
                op.combine(type, data, memory.asSlice(offset, data.byteSize()), (int) (data.byteSize() / type.bytes()));
                replies.send(MemorySegment.NULL, from, ACK);
            }
            case GET -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                int length = b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_LENGTH_AT);
                reply(from, b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_ID_AT), memory.asSlice(offset, length));
            }
            case GET_ACC -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                Elem type = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_TYPE_AT));
                Op op = Window.accumulateOp(b.get(ValueLayout.JAVA_INT_UNALIGNED, ACC_OP_AT));
                MemorySegment data = b.asSlice(GET_ACC_DATA);
                MemorySegment here = memory.asSlice(offset, data.byteSize());
                reply(from, b.get(ValueLayout.JAVA_INT_UNALIGNED, GET_ACC_ID_AT), here);
                op.combine(type, data, here, (int) (data.byteSize() / type.bytes()));
            }
            case CAS -> {
                long offset = b.get(ValueLayout.JAVA_LONG_UNALIGNED, OFFSET_AT);
                int w = Elem.ofCode(b.get(ValueLayout.JAVA_INT_UNALIGNED, CAS_TYPE_AT)).bytes();
                MemorySegment here = memory.asSlice(offset, w);
                reply(from, b.get(ValueLayout.JAVA_INT_UNALIGNED, CAS_ID_AT), here);
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
