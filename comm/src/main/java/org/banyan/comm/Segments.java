package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** ByteBuffer views of segments, for channels: heap segments of other than byte[] have none. */
final class Segments {
    private Segments() {}

    /** A buffer over {@code s}, or null when it cannot have one. */
    static ByteBuffer view(MemorySegment s) {
        if (s.isNative() || s.heapBase().map(b -> b instanceof byte[]).orElse(false)) {
            return s.asByteBuffer();
        }
        return null;
    }

    /** A buffer with {@code s}'s bytes: a view when there is one, a copy otherwise. */
    static ByteBuffer viewOrCopy(MemorySegment s) {
        ByteBuffer b = view(s);
        if (b != null) {
            return b;
        }
        byte[] copy = new byte[(int) s.byteSize()];
        MemorySegment.copy(s, 0, MemorySegment.ofArray(copy), 0, copy.length);
        return ByteBuffer.wrap(copy);
    }
}
