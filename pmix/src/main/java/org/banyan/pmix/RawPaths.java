package org.banyan.pmix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.core.wire.RawText;

/**
 * File names given as bytes ({@link RawText}'s strings, from banyan's argv) that Java's
 * {@link Path} cannot hold: a name that is not UTF-8 (a Latin-1 {@code caf\xe9}) makes
 * {@code Path.of} throw. Such a file is opened with {@code O_PATH} by its bytes, and reached
 * through {@code /proc/self/fd/N}, which the kernel resolves to the file itself: existence,
 * type, permissions and reading all work on it. The descriptor stays open for the process's
 * life (one per such name; a command names a handful).
 */
public final class RawPaths {
    private static final int O_PATH = 010000000;
    private static final int O_CLOEXEC = 02000000;
    private static final Map<String, Path> OPENED = new ConcurrentHashMap<>();
    private static final Map<Path, String> NAMES = new ConcurrentHashMap<>();
    private static final AtomicInteger MISSING = new AtomicInteger();
    private static volatile MethodHandle open;

    private RawPaths() {}

    /** The file {@code name} names (from the working directory when relative). */
    public static Path of(String name) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            return opened(name);
        }
    }

    /** {@code name} resolved against {@code dir}. */
    public static Path resolve(Path dir, String name) {
        try {
            return dir.resolve(name);
        } catch (InvalidPathException e) {
            return opened(name.startsWith("/") ? name : dir + "/" + name);
        }
    }

    /** How a message names {@code p}: the name it was made from, not its {@code /proc/self/fd} stand-in. */
    public static String shown(Path p) {
        return NAMES.getOrDefault(p, p.toString());
    }

    private static Path opened(String name) {
        return OPENED.computeIfAbsent(name, n -> {
            int fd = openPath(n);
            Path p = fd >= 0 ? Path.of("/proc/self/fd/" + fd) : Path.of("/proc/self/fd/missing-" + MISSING.incrementAndGet());
            NAMES.put(p, n);
            return p;
        });
    }

    private static int openPath(String name) {
        try {
            MethodHandle h = open;
            if (h == null) {
                Linker linker = Linker.nativeLinker();
                h = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
                open = h;
            }
            byte[] b = RawText.encode(name);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment s = a.allocate(b.length + 1L);
                MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, b.length);
                return (int) h.invokeExact(s, O_PATH | O_CLOEXEC);
            }
        } catch (Throwable t) {
            return -1;
        }
    }
}
