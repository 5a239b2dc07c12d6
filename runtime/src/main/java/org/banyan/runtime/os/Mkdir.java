package org.banyan.runtime.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.banyan.pmix.CCall;

/**
 * mkdir(2) through FFM, for the sandbox of each task a daemon starts natively: on a reaper
 * thread the path goes through that thread's spawn scratch. {@code java.io.File}'s mkdir costs
 * a normalized copy of the path and a JNI conversion besides the call (1-2 % of a DVM's CPU at
 * thousands of tasks a second).
 */
public final class Mkdir {
    private static final MemorySegment MKDIR = CCall.libc("mkdir");
    private static final int MODE = 0777; // less the umask, as File.mkdir

    private Mkdir() {}

    /** Makes the directory {@code path}: true when made, false when not (it exists, its parent is missing, ...). */
    public static boolean make(String path) {
        try {
            MemorySegment scratch = ChildReaper.spawnScratch();
            if (scratch != null && 3L * path.length() + 1 <= scratch.byteSize()) {
                scratch.setString(0, path);
                return (int) CCall.call(MKDIR, CCall.p(scratch), MODE) == 0;
            }
            try (Arena a = Arena.ofConfined()) {
                return (int) CCall.call(MKDIR, CCall.p(ProcessText.cString(a, path)), MODE) == 0;
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
