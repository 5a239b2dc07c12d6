package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.banyan.pmix.CCall.p;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;
import org.banyan.pmix.CCall;

/**
 * Pipes and reads and writes on plain file descriptors, through libc: the ends of a spawned
 * child's pipes are descriptors the JDK never wrapped, so no {@code InputStream} exists for them.
 * Every call retries on EINTR.
 */
public final class RawFd {
    static final int O_CLOEXEC = 0x80000;
    private static final int EINTR = 4;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private static final MemorySegment PIPE2 = CCall.libc("pipe2");
    /** read(2), for the {@link PipePoller}. */
    static final MemorySegment READ_FUNCTION = CCall.libc("read");
    private static final MemorySegment WRITE = CCall.libc("write");
    /** write(2), for the {@link PipePoller}'s wake-ups. */
    static final MemorySegment WRITE_FUNCTION = WRITE;
    private static final MemorySegment CLOSE = CCall.libc("close");
    private static final MemorySegment OPEN = CCall.libc("open");
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    /** The same on x86-64 and aarch64. */
    private static final int O_NONBLOCK = 04000;

    private RawFd() {}

    /** A pipe whose both ends close on exec: {@code [read end, write end]}. */
    public static int[] pipe() throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(JAVA_INT, 2);
            MemorySegment state = a.allocate(CALL_STATE);
            int rc = (int) CCall.callErrno(PIPE2, state, p(fds), O_CLOEXEC);
            if (rc != 0) {
                throw new IOException("pipe2: " + Libc.strerror(errno(state)));
            }
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Writes all of {@code data}; throws when the reader is gone (EPIPE: the JVM ignores SIGPIPE). */
    public static void writeFully(int fd, byte[] data, Arena arena) throws IOException {
        MemorySegment seg = arena.allocate(Math.max(1, data.length));
        MemorySegment.copy(data, 0, seg, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, data.length);
        MemorySegment state = arena.allocate(CALL_STATE);
        long off = 0;
        try {
            while (off < data.length) {
                long n = CCall.callErrno(WRITE, state, fd, p(seg.asSlice(off)), data.length - off);
                if (n < 0) {
                    int err = errno(state);
                    if (err == EINTR) {
                        continue;
                    }
                    throw new IOException("write: " + Libc.strerror(err));
                }
                off += n;
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Space for a call's errno. */
    public static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /**
     * Opens and closes at once, without waiting, both ends of the FIFO {@code path}: a thread
     * blocked opening it (for writing, waiting for a reader; for reading, waiting for a writer)
     * returns from its open, and one that gave up on it can then leave. Nothing when it is not
     * there or cannot be opened.
     */
    public static void wakeFifoOpeners(String path) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment name = ProcessText.cString(a, path);
            // a reader first: a writer's open without waiting succeeds only when a reader is there
            for (int flags : new int[] {O_RDONLY, O_WRONLY}) {
                int fd = (int) CCall.call(OPEN, p(name), flags | O_NONBLOCK | O_CLOEXEC);
                close(fd);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            CCall.call(CLOSE, fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
