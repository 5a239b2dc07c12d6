package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.banyan.pmix.CCall.p;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.banyan.pmix.CCall;

/**
 * A pipe or terminal of another process opened again ({@code /proc/PID/fd/N}) for writing, with
 * a file description of its own in non-blocking mode: a write waits for room in slices of
 * {@link #SLICE_MILLIS}, so {@link #close} ends a write that a reader who takes nothing (a full
 * pipe, a terminal stopped with Ctrl-S) would otherwise hold in write(2) for as long as that
 * reader lives. The other process's own description of the same pipe keeps its blocking mode.
 *
 * <p>The descriptor is closed by whichever of {@link #close} and the last write in progress
 * comes second, so a write never goes to a number the process has given to another file.
 */
public final class NonBlockingOutput extends OutputStream {
    /** How long a write waits for room before it looks whether the stream was closed. */
    static final int SLICE_MILLIS = 100;
    private static final int PIECE = 1 << 16;
    private static final int O_WRONLY = 1;
    private static final int O_NONBLOCK = 04000;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final short POLLOUT = 0x4;
    private static final MemorySegment OPEN = CCall.libc("open");
    private static final MemorySegment WRITE = CCall.libc("write");
    private static final MemorySegment POLL = CCall.libc("poll");

    private final int fd;
    private volatile boolean closed;
    private int writers;
    private boolean fdClosed;

    private NonBlockingOutput(int fd) {
        this.fd = fd;
    }

    /**
     * Opens {@code path} (a pipe's or a terminal's link in {@code /proc/PID/fd}) for writing.
     *
     * @throws IOException as the JDK's {@code FileOutputStream} would, naming the path
     */
    public static NonBlockingOutput open(Path path) throws IOException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RawFd.callState(a);
            int fd = (int) CCall.callErrno(OPEN, state, p(ProcessText.cString(a, path.toString())),
                    O_WRONLY | O_NONBLOCK | RawFd.O_CLOEXEC);
            if (fd < 0) {
                throw new IOException(path + ": " + Libc.strerror(RawFd.errno(state)));
            }
            return new NonBlockingOutput(fd);
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        enter();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(Math.max(1, Math.min(len, PIECE)));
            MemorySegment state = RawFd.callState(a);
            MemorySegment pollfd = a.allocate(8, 4);
            int done = 0;
            while (done < len) {
                int piece = Math.min(len - done, PIECE);
                MemorySegment.copy(b, off + done, buf, JAVA_BYTE, 0, piece);
                int sent = 0;
                while (sent < piece) {
                    long n = CCall.callErrno(WRITE, state, fd, p(buf.asSlice(sent)), piece - sent);
                    if (n >= 0) {
                        sent += (int) n;
                        continue;
                    }
                    int err = RawFd.errno(state);
                    if (err == EAGAIN) {
                        awaitRoom(pollfd, state);
                    } else if (err != EINTR) {
                        throw new IOException("write: " + Libc.strerror(err)); // "Broken pipe" when the reader left
                    }
                }
                done += piece;
            }
        } finally {
            leave();
        }
    }

    private void awaitRoom(MemorySegment pollfd, MemorySegment state) throws IOException {
        if (closed) {
            throw new IOException("write: stream closed while its reader took nothing");
        }
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, 4, POLLOUT);
        pollfd.set(JAVA_SHORT, 6, (short) 0);
        CCall.callErrno(POLL, state, p(pollfd), 1, SLICE_MILLIS); // POLLERR/POLLHUP: the next write says why
        if (closed) {
            throw new IOException("write: stream closed while its reader took nothing");
        }
    }

    private synchronized void enter() throws IOException {
        if (closed) {
            throw new IOException("write: stream closed");
        }
        writers++;
    }

    private synchronized void leave() {
        writers--;
        closeIfIdle();
    }

    /** Ends a write in progress within {@link #SLICE_MILLIS}; the descriptor is closed once no write uses it. */
    @Override
    public synchronized void close() {
        closed = true;
        closeIfIdle();
    }

    private void closeIfIdle() {
        if (closed && writers == 0 && !fdClosed) {
            fdClosed = true;
            RawFd.close(fd);
        }
    }
}
