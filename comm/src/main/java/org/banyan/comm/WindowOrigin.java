package org.banyan.comm;

import static org.banyan.comm.WindowRecords.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * A window's origin side: what this rank's operations still wait for (ACKs, GET_REPLYs), the
 * locks granted to it and the POSTs received, under the engine's lock. A request-based
 * operation's request is done when its own answer comes: a GET_REPLY carries its id, and the
 * n-th ACK from a target answers the n-th PUT or ACC sent to it ({@link WindowRecords}). A
 * dynamic window's target may refuse an operation (NACK, REFUSED: no memory attached there): it
 * counts as answered, its request fails, and the refusal is kept for the epoch's end to raise.
 */
final class WindowOrigin {
    private final int[] unacknowledged;
    /** PUTs and ACCs sent to each target, and ACKs received from it. */
    private final long[] counted;
    private final long[] acknowledged;
    /** Request-based PUTs and ACCs by target: their number among the counted sends, and their request. */
    private final ArrayDeque<AckWaiter>[] ackWaiters;
    private final Map<Integer, MemorySegment> gets = new HashMap<>();
    private final Map<Integer, Operation.OneSided> replyWaiters = new HashMap<>();
    private final int[] getsTo;
    private int nextGet;
    private final boolean[] granted;
    /** POST messages received from each target and not yet taken by an access epoch's start. */
    final int[] postsFrom;
    /** The first refusal not yet raised, or null. */
    private String refusal;

    private record AckWaiter(long number, Operation.OneSided request) {}

    @SuppressWarnings("unchecked")
    WindowOrigin(int ranks) {
        unacknowledged = new int[ranks];
        counted = new long[ranks];
        acknowledged = new long[ranks];
        ackWaiters = new ArrayDeque[ranks];
        getsTo = new int[ranks];
        granted = new boolean[ranks];
        postsFrom = new int[ranks];
    }

    /** A PUT or ACC about to go to {@code target}, and its request (or null). */
    void counted(int target, Operation.OneSided request) {
        unacknowledged[target]++;
        long number = counted[target]++;
        if (request != null) {
            if (ackWaiters[target] == null) {
                ackWaiters[target] = new ArrayDeque<>();
            }
            ackWaiters[target].add(new AckWaiter(number, request));
        }
    }

    /** Where a GET_REPLY from {@code target} goes, and the request it completes (or null); its id. */
    int awaitReply(MemorySegment into, int target, Operation.OneSided request) {
        int id = nextGet++;
        gets.put(id, into);
        if (request != null) {
            replyWaiters.put(id, request);
        }
        getsTo[target]++;
        return id;
    }

    /** Handles an origin-side message; false when {@code kind} is not one. */
    boolean arrived(int kind, int from, MemorySegment b) {
        switch (kind) {
            case GET_REPLY -> {
                int id = b.get(ValueLayout.JAVA_INT_UNALIGNED, REPLY_ID_AT);
                MemorySegment into = gets.remove(id);
                MemorySegment.copy(b, REPLY_DATA, into, 0, into.byteSize());
                getsTo[from]--;
                Operation.OneSided request = replyWaiters.remove(id);
                if (request != null) {
                    request.complete();
                }
            }
            case ACK -> acknowledged(from, null);
            case NACK -> acknowledged(from, refused("a put or accumulate", from, b.get(ValueLayout.JAVA_LONG_UNALIGNED, NACK_OFFSET_AT),
                    b.get(ValueLayout.JAVA_LONG_UNALIGNED, NACK_LENGTH_AT)));
            case REFUSED -> {
                int id = b.get(ValueLayout.JAVA_INT_UNALIGNED, REFUSED_ID_AT);
                gets.remove(id);
                getsTo[from]--;
                String why = refused("a get", from, b.get(ValueLayout.JAVA_LONG_UNALIGNED, REFUSED_OFFSET_AT),
                        b.get(ValueLayout.JAVA_LONG_UNALIGNED, REFUSED_LENGTH_AT));
                Operation.OneSided request = replyWaiters.remove(id);
                if (request != null) {
                    request.fail(new CommException(why));
                }
            }
            case GRANT -> granted[from] = true;
            case POST -> postsFrom[from]++;
            default -> {
                return false;
            }
        }
        return true;
    }

    private void acknowledged(int from, String refused) {
        unacknowledged[from]--;
        long number = acknowledged[from]++;
        ArrayDeque<AckWaiter> waiting = ackWaiters[from];
        if (waiting != null && !waiting.isEmpty() && waiting.peek().number() == number) {
            Operation.OneSided request = waiting.poll().request();
            if (refused == null) {
                request.complete();
            } else {
                request.fail(new CommException(refused));
            }
        }
    }

    private String refused(String what, int target, long offset, long length) {
        String why = what + " of " + length + " bytes at address " + offset + " of rank " + target
                + "'s dynamic window found no memory attached there";
        if (refusal == null) {
            refusal = why;
        }
        return why;
    }

    /** The first refusal since the last call, or null; cleared. */
    String takeRefusal() {
        String r = refusal;
        refusal = null;
        return r;
    }

    boolean completeAt(int target) {
        return unacknowledged[target] == 0 && getsTo[target] == 0;
    }

    boolean allComplete() {
        for (int t = 0; t < unacknowledged.length; t++) {
            if (!completeAt(t)) {
                return false;
            }
        }
        return true;
    }

    boolean granted(int target) {
        return granted[target];
    }

    void released(int target) {
        granted[target] = false;
    }
}
