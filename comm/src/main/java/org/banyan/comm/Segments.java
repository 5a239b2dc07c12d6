package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** ByteBuffer views of segments for channels (heap segments of other than byte[] have none); staging memory for packed data. */
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

    /** Heap memory of {@code bytes} to stage packed data in: at most a Java array's 2 GiB, else refused naming {@code op}. */
    static MemorySegment staging(long bytes, String op) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(op + ": " + bytes + " bytes to stage packed; packed data is limited to 2 GiB"
                    + " (a Java array)");
        }
        return MemorySegment.ofArray(new byte[(int) bytes]);
    }
}
