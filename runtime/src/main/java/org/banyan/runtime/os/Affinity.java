package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.banyan.pmix.CCall;

/**
 * CPU affinity through {@code sched_setaffinity(2)} and {@code sched_getaffinity(2)} (FFM). A
 * pid of 0 is the calling thread: a rank is bound before it exists by binding the spawning
 * thread for the length of the spawn (a child inherits its parent thread's mask through
 * {@code posix_spawn}), so even the rank's first instruction runs where it belongs.
 */
public final class Affinity {
    /** Room for 8,192 CPUs; the kernel accepts any mask at least as large as its own. */
    private static final int MASK_BYTES = 1024;
    private static final MemorySegment SET = CCall.libc("sched_setaffinity");
    private static final MemorySegment GET = CCall.libc("sched_getaffinity");
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout()
            .byteOffset(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private Affinity() {}

    /** What is started inside {@link #whileBound}. */
    public interface Start<T> {
        T start() throws IOException;
    }

    /**
     * Runs {@code start} with the calling (platform) thread bound to {@code cpus}, then gives the
     * thread its own mask back: a process created meanwhile, by {@code posix_spawn} or by
     * {@code ProcessBuilder}, starts bound. No binding when {@code cpus} is empty.
     */
    public static <T> T whileBound(int[] cpus, Start<T> start) throws IOException {
        if (cpus.length == 0) {
            return start.start();
        }
        int[] own = get(0);
        set(0, cpus);
        try {
            return start.start();
        } finally {
            restore(own);
        }
    }

    /**
     * Gives the thread its mask back. A failure is not thrown: it would lose the process just
     * started (nobody would watch or end it); the thread keeps the narrower mask, which the next
     * bound spawn replaces anyway.
     */
    private static void restore(int[] own) {
        try {
            set(0, own);
        } catch (IOException | RuntimeException e) {
            // see above: the started process matters more than this thread's mask
        }
    }

    /** The CPUs {@code pid} (0: this thread) may run on. */
    public static int[] get(long pid) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES, 8);
            MemorySegment state = a.allocate(Linker.Option.captureStateLayout());
            int rc = (int) CCall.callErrno(GET, state, pid, MASK_BYTES, CCall.p(mask));
            if (rc < 0) {
                throw new IOException("sched_getaffinity: " + Libc.strerror(state.get(JAVA_INT, ERRNO_OFFSET)));
            }
            List<Integer> cpus = new ArrayList<>();
            for (int i = 0; i < MASK_BYTES * 8; i++) {
                if ((mask.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i / 8) & (1 << (i % 8))) != 0) {
                    cpus.add(i);
                }
            }
            return cpus.stream().mapToInt(Integer::intValue).toArray();
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Restricts {@code pid} (0: this thread) to {@code cpus}. */
    public static void set(long pid, int[] cpus) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES, 8);
            for (int cpu : cpus) {
                if (cpu < 0 || cpu >= MASK_BYTES * 8) {
                    throw new IOException("no CPU " + cpu);
                }
                mask.set(java.lang.foreign.ValueLayout.JAVA_BYTE, cpu / 8,
                        (byte) (mask.get(java.lang.foreign.ValueLayout.JAVA_BYTE, cpu / 8) | (1 << (cpu % 8))));
            }
            MemorySegment state = a.allocate(Linker.Option.captureStateLayout());
            int rc = (int) CCall.callErrno(SET, state, pid, MASK_BYTES, CCall.p(mask));
            if (rc < 0) {
                throw new IOException("cannot bind to CPUs " + org.banyan.topo.CpuList.format(cpus) + ": "
                        + Libc.strerror(state.get(JAVA_INT, ERRNO_OFFSET)));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
