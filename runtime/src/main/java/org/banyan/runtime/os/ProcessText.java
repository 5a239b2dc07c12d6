package org.banyan.runtime.os;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.wire.RawText;

/**
 * This process's arguments and environment as the bytes the kernel holds, in {@link RawText}'s
 * strings. The JVM decodes both before {@code main} and turns every byte that is not UTF-8 into
 * U+FFFD, so that a Latin-1 file name in an argument, or a variable holding binary, reached the
 * ranks changed. Linux keeps the originals in {@code /proc/self/cmdline} and
 * {@code /proc/self/environ}; those are read once and used in place of the JVM's, and
 * {@link #cString} turns the strings back into the same bytes for {@code execve}.
 */
public final class ProcessText {
    private static volatile Map<String, String> environment;

    private ProcessText() {}

    /**
     * {@code main}'s arguments as bytes: the last {@code jvm.length} entries of the command line,
     * used only when they agree with what the JVM decoded wherever that is plain ASCII (else the
     * JVM's, as on a system without {@code /proc}).
     */
    public static List<String> arguments(String[] jvm) {
        List<String> raw = fromProc(Path.of("/proc/self/cmdline"));
        if (raw == null || raw.size() < jvm.length) {
            return Arrays.asList(jvm);
        }
        List<String> mine = raw.subList(raw.size() - jvm.length, raw.size());
        for (int i = 0; i < jvm.length; i++) {
            if (!agree(jvm[i], mine.get(i))) {
                return Arrays.asList(jvm);
            }
        }
        return new ArrayList<>(mine);
    }

    /** The environment this process started with, as bytes (System.getenv's where /proc is not there). */
    public static Map<String, String> environment() {
        Map<String, String> env = environment;
        if (env == null) {
            env = readEnvironment();
            environment = env;
        }
        return env;
    }

    private static Map<String, String> readEnvironment() {
        List<String> raw = fromProc(Path.of("/proc/self/environ"));
        Map<String, String> jvm = System.getenv();
        if (raw == null) {
            return jvm;
        }
        Map<String, String> env = new HashMap<>();
        for (String entry : raw) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1)); // getenv finds the first
            }
        }
        // a variable the JVM sees and /proc does not means the two differ (a setenv after start): trust the JVM
        for (String name : jvm.keySet()) {
            if (!env.containsKey(name) && name.indexOf('\uFFFD') < 0) {
                return jvm;
            }
        }
        return Map.copyOf(env);
    }

    /** Decoded, a string equal to the JVM's wherever the JVM could decode it (it writes U+FFFD elsewhere). */
    private static boolean agree(String jvm, String raw) {
        if (jvm.equals(raw)) {
            return true;
        }
        if (jvm.indexOf('\uFFFD') < 0) {
            return false;
        }
        String prefix = jvm.substring(0, jvm.indexOf('\uFFFD'));
        return raw.startsWith(prefix);
    }

    /** The NUL-separated entries of a /proc file, or null when it cannot be read. */
    private static List<String> fromProc(Path file) {
        byte[] b;
        try {
            b = Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) {
                out.add(RawText.decode(b, start, i - start));
                start = i + 1;
            }
        }
        if (start < b.length) {
            out.add(RawText.decode(b, start, b.length - start));
        }
        return out;
    }

    /** {@code s}'s bytes ({@link RawText#encode}) and a NUL, in {@code a}: what C calls take. */
    public static MemorySegment cString(SegmentAllocator a, String s) {
        byte[] b = RawText.encode(s);
        MemorySegment seg = a.allocate(b.length + 1L, 1);
        MemorySegment.copy(b, 0, seg, ValueLayout.JAVA_BYTE, 0, b.length);
        seg.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        return seg;
    }
}
