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
    static final int CONTEXT_AT = 0;
    static final int SOURCE_AT = 4;
    static final int TAG_AT = 8;
    static final int LENGTH_AT = 12;

    /** Writes it at {@code at} in native order (a shared-memory ring's record). */
    void writeTo(java.lang.foreign.MemorySegment m, long at) {
        m.set(java.lang.foreign.ValueLayout.JAVA_INT, at + CONTEXT_AT, context);
        m.set(java.lang.foreign.ValueLayout.JAVA_INT, at + SOURCE_AT, source);
        m.set(java.lang.foreign.ValueLayout.JAVA_INT, at + TAG_AT, tag);
        m.set(java.lang.foreign.ValueLayout.JAVA_INT, at + LENGTH_AT, length);
    }

    /** The envelope {@link #writeTo} wrote at {@code at}. */
    static Envelope readFrom(java.lang.foreign.MemorySegment m, long at) {
        return new Envelope(m.get(java.lang.foreign.ValueLayout.JAVA_INT, at + CONTEXT_AT),
                m.get(java.lang.foreign.ValueLayout.JAVA_INT, at + SOURCE_AT),
                m.get(java.lang.foreign.ValueLayout.JAVA_INT, at + TAG_AT),
                m.get(java.lang.foreign.ValueLayout.JAVA_INT, at + LENGTH_AT));
    }
}
