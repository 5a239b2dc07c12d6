package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * One message coming in through a transport, bytes possibly in several pieces. Matched at its
 * envelope: its bytes go straight into the receive's buffer when one was posted, or into a buffer
 * of its own that waits for the receive (MPI's unexpected queue).
 */
final class Arrival {
    final Envelope envelope;
    /** The matched receive; null while the message is unexpected. */
    Operation.Receive receive;
    /** The unexpected message's own copy; null when it went straight into a receive. */
    private byte[] held;
    private int written;
    boolean complete;
    /** Set for a handled context's message (a window's): it goes to the handler whole. */
    Matcher.Handler handler;
    /** For an announced message ({@link Rendezvous}): its sender's world rank (else -1) and its id there. */
    final int announcedBy;
    final int announcedId;
    /** For an announced message: its address in the sender, where this rank may read it; else 0. */
    final long announcedAddress;

    Arrival(Envelope envelope, Operation.Receive receive) {
        this.envelope = envelope;
        this.receive = receive;
        this.announcedBy = -1;
        this.announcedId = 0;
        this.announcedAddress = 0;
        if (receive == null) {
            held = new byte[envelope.length()];
        }
    }

    /** An announced message: its envelope only, its bytes to come once a receive takes it. */
    Arrival(Envelope envelope, int sender, int id, long address) {
        this.envelope = envelope;
        this.announcedBy = sender;
        this.announcedId = id;
        this.announcedAddress = address;
    }

    /** Where the next {@code max} bytes go: a slice of the receive's buffer or of the held copy (truncation drops the rest). */
    MemorySegment window(int max) {
        int remaining = envelope.length() - written;
        int n = Math.min(max, remaining);
        if (held != null) {
            return MemorySegment.ofArray(held).asSlice(written, n);
        }
        long room = Math.max(0, receive.buffer.byteSize() - written);
        return receive.buffer.asSlice(Math.min(written, receive.buffer.byteSize()), Math.min(n, room));
    }

    /** Bytes were placed through {@link #window(int)} (or dropped past a short buffer). */
    void advance(int n) {
        written += n;
    }

    MemorySegment heldBytes() {
        return MemorySegment.ofArray(held);
    }

    int remaining() {
        return envelope.length() - written;
    }

    void write(MemorySegment chunk) {
        MemorySegment w = window((int) chunk.byteSize());
        MemorySegment.copy(chunk, 0, w, 0, w.byteSize());
        advance((int) chunk.byteSize());
    }

    /** An unexpected message met its receive: what came so far moves into its buffer, the rest goes there directly. */
    void matchedBy(Operation.Receive r) {
        receive = r;
        long n = Math.min(written, r.buffer.byteSize());
        MemorySegment.copy(MemorySegment.ofArray(held), 0, r.buffer, 0, n);
        held = null;
    }
}
