package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.ADDRESS;

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
    /** Where each variable's address is in {@link #addresses}, by its name. */
    private final Map<String, Integer> index = new java.util.HashMap<>();
    /**
     * The strings' addresses in native memory, copied into each {@code envp} in one go: from a
     * {@code long[]} that copy looked the array up reflectively, a call into the VM under C1.
     */
    private final MemorySegment addresses;
    private final int size;

    OwnEnvironment(Map<String, String> env) {
        size = env.size();
        addresses = Arena.global().allocate(ADDRESS.byteSize() * Math.max(1, size), ADDRESS.byteAlignment());
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            index.put(e.getKey(), i);
            addresses.setAtIndex(ADDRESS, i, ProcessText.cString(Arena.global(), e.getKey() + "=" + e.getValue()));
            i++;
        }
    }

    int size() {
        return size;
    }

    /**
     * A NULL-terminated {@code envp} in {@code a}: this environment with {@code extra}'s
     * variables in the places of those of the same name, and its others after them. Looked up
     * from {@code extra}'s side: a task brings a handful of variables, and looking each of the
     * daemon's few dozen up in them took about 2.5 % of a reaper thread's time (perf).
     */
    MemorySegment with(SegmentAllocator a, Map<String, String> extra) {
        MemorySegment envp = a.allocate(ADDRESS.byteSize() * (size + extra.size() + 1L), ADDRESS.byteAlignment());
        MemorySegment.copy(addresses, 0, envp, 0, ADDRESS.byteSize() * size);
        int n = size;
        for (Map.Entry<String, String> e : extra.entrySet()) {
            // not '+': C1 makes an indified concatenation a chain of method handle calls
            String k = e.getKey();
            String v = e.getValue();
            MemorySegment variable = ProcessText.cString(a, new StringBuilder(k.length() + 1 + v.length()).append(k).append('=')
                    .append(v).toString());
            Integer at = index.get(k);
            envp.setAtIndex(ADDRESS, at != null ? at : n++, variable);
        }
        envp.setAtIndex(ADDRESS, n, MemorySegment.NULL);
        return envp;
    }
}
