package org.banyan.comm;

/**
 * What every message carries ahead of its bytes, on every transport (16 bytes, big-endian ints):
 *
 * <pre>
 *   context  int   the communicator's context id; its collectives use context + 1
 *   source   int   the sender's rank in that communicator
 *   tag      int   the user's tag (>= 0), or a collective's internal tag
 *   length   int   bytes that follow
 * </pre>
 *
 * Matching is on (context, source, tag), in arrival order per sender: MPI's non-overtaking rule
 * holds because each transport delivers one sender's messages in the order they were sent.
 */
record Envelope(int context, int source, int tag, int length) {
    static final int BYTES = 16;
}
