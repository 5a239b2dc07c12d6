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
    private final String[] names;
    private final MemorySegment[] strings;

    OwnEnvironment(Map<String, String> env) {
        names = new String[env.size()];
        strings = new MemorySegment[env.size()];
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            names[i] = e.getKey();
            strings[i] = Arena.global().allocateFrom(e.getKey() + "=" + e.getValue());
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
        int n = 0;
        for (int i = 0; i < names.length; i++) {
            if (extra.isEmpty() || !extra.containsKey(names[i])) {
                envp.setAtIndex(ADDRESS, n++, strings[i]);
            }
        }
        for (Map.Entry<String, String> e : extra.entrySet()) {
            envp.setAtIndex(ADDRESS, n++, a.allocateFrom(e.getKey() + "=" + e.getValue()));
        }
        envp.setAtIndex(ADDRESS, n, MemorySegment.NULL);
        return envp;
    }
}
