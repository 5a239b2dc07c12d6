package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Pipes and reads and writes on plain file descriptors, through libc: the ends of a spawned
 * child's pipes are descriptors the JDK never wrapped, so no {@code InputStream} exists for them.
 * Every call retries on EINTR.
 */
public final class RawFd {
    static final int O_CLOEXEC = 0x80000;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final int POLLIN = 0x1;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle PIPE2 = Libc.bind("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), true);
    private static final MethodHandle READ = Libc.bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), true);
    private static final MethodHandle WRITE = Libc.bind("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), true);
    private static final MethodHandle POLL = Libc.bind("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), true);
    private static final MethodHandle CLOSE = Libc.bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), false);

    private RawFd() {}

    /** A pipe whose both ends close on exec: {@code [read end, write end]}. */
    public static int[] pipe() throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fds = a.allocate(JAVA_INT, 2);
            MemorySegment state = a.allocate(CALL_STATE);
            int rc = (int) PIPE2.invokeExact(state, fds, O_CLOEXEC);
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

    /**
     * Reads up to {@code max} bytes into {@code buf}; returns the count, 0 at end of file.
     *
     * @throws IOException on a read error
     */
    public static int read(int fd, MemorySegment buf, int max, MemorySegment state) throws IOException {
        try {
            while (true) {
                long n = (long) READ.invokeExact(state, fd, buf, (long) max);
                if (n >= 0) {
                    return (int) n;
                }
                int err = errno(state);
                if (err != EINTR && err != EAGAIN) {
                    throw new IOException("read: " + Libc.strerror(err));
                }
            }
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
                long n = (long) WRITE.invokeExact(state, fd, seg.asSlice(off), data.length - off);
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

    /** Whether {@code fd} becomes readable (data or end of file) within {@code millis}. */
    public static boolean readableWithin(int fd, int millis, MemorySegment pollfd, MemorySegment state) {
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, 4, (short) POLLIN);
        pollfd.set(JAVA_SHORT, 6, (short) 0);
        try {
            int rc = (int) POLL.invokeExact(state, pollfd, 1L, millis);
            return rc > 0 || (rc < 0 && errno(state) == EINTR);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Space for one {@code struct pollfd}. */
    public static MemorySegment pollfd(Arena arena) {
        return arena.allocate(8, 4);
    }

    /** Space for a call's errno. */
    public static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    public static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
