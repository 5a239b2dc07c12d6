package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.Map;

/**
 * This JVM's environment as C strings ({@code NAME=value}), encoded once for the life of the
 * JVM, and the {@code envp} arrays built on it: a child's environment is this one with the
 * caller's variables on top. Encoding the daemon's few dozen variables again for every child
 * (and copying them into a map first) was most of what a spawn cost in Java.
 */
final class OwnEnvironment {
    private final String[] names;
    /** The strings' addresses, copied into an {@code envp} in one go (pointers are 64 bits here). */
    private final long[] addresses;

    OwnEnvironment(Map<String, String> env) {
        if (ADDRESS.byteSize() != Long.BYTES) {
            throw new IllegalStateException("a 64-bit JVM is needed");
        }
        names = new String[env.size()];
        addresses = new long[env.size()];
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            names[i] = e.getKey();
            addresses[i] = Arena.global().allocateFrom(e.getKey() + "=" + e.getValue()).address();
            i++;
        }
    }

    int size() {
        return names.length;
    }

    /**
     * A NULL-terminated {@code envp} in {@code a}: every variable of this environment whose name
     * {@code extra} does not have, then {@code extra}'s.
     */
    MemorySegment with(SegmentAllocator a, Map<String, String> extra) {
        MemorySegment envp = a.allocate(ADDRESS, names.length + extra.size() + 1L);
        long[] kept = addresses;
        int n = names.length;
        if (!extra.isEmpty()) {
            kept = new long[names.length];
            n = 0;
            for (int i = 0; i < names.length; i++) {
                if (!extra.containsKey(names[i])) {
                    kept[n++] = addresses[i];
                }
            }
        }
        MemorySegment.copy(kept, 0, envp, JAVA_LONG, 0, n);
        for (Map.Entry<String, String> e : extra.entrySet()) {
            envp.setAtIndex(ADDRESS, n++, a.allocateFrom(e.getKey() + "=" + e.getValue()));
        }
        envp.setAtIndex(ADDRESS, n, MemorySegment.NULL);
        return envp;
    }
}
