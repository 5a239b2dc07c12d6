package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.pmix.CCall;

/**
 * One thread that reads the pipes of every child {@link PosixSpawn} made (their stdout and
 * stderr) through one epoll set, as Hydra's proxy does, instead of a thread per pipe: two
 * threads a rank were most of a large launch's cost per rank (a thread's creation, stack and
 * scheduling on two cores). A pipe is watched level-triggered and read once per readiness, so
 * a blocking read returns at once with what is there, and the children keep blocking pipes.
 *
 * <p>A reader's callbacks run on the poller's thread, one at a time; they must not block for
 * long (what they hand on goes to a queue). A reader may ask to be woken at a time of its own
 * ({@link Reader#deadline}), for a partial line held while more of it may come.
 *
 * <p>When the child has ended, {@link #finish} reads what is left in the pipe and closes it,
 * even if a process the child left behind (a {@code sleep &}) still holds its write end: the
 * JDK's process streams do the same at a child's exit, and waiting for that descendant would
 * hold the rank's end back for as long as it lives.
 */
public final class PipePoller {
    /** What one pipe's bytes go to. */
    public interface Reader {
        /** {@code n} bytes of {@code buf} (the poller's: copy what is kept). */
        void data(byte[] buf, int n);

        /** The pipe ended (end of file, or a read error); its descriptor is closed. Called once. */
        void ended();

        /** When ({@link System#nanoTime}) {@link #timeout} should be called without data; {@link Long#MAX_VALUE}: never. */
        default long deadline() {
            return Long.MAX_VALUE;
        }

        /** The deadline passed with no data. */
        default void timeout() {}
    }

    private static final int EPOLL_CTL_ADD = 1;
    private static final int EPOLL_CTL_DEL = 2;
    private static final int EPOLLIN = 0x1;
    private static final int EPOLL_EVENT_BYTES = 12; // packed on x86-64: u32 events, u64 data
    private static final int MAX_EVENTS = 64;
    private static final int EINTR = 4;
    private static final int CHUNK = 1 << 16;
    private static volatile PipePoller shared;

    private static final MemorySegment EVENTFD = CCall.libc("eventfd");
    private static final MemorySegment POLL = CCall.libc("poll");
    private static final int POLLIN = 0x1;

    private final int epfd;
    /** Written to wake the poller's thread (an eventfd in its epoll set). */
    private final int wakeFd;
    private final Map<Integer, Reader> readers = new ConcurrentHashMap<>();
    private final Map<Reader, Integer> fdOf = new ConcurrentHashMap<>();
    /** Readers whose child has ended: read what is in their pipe, then close it. */
    private final Set<Reader> finishing = ConcurrentHashMap.newKeySet();
    private final MemorySegment one = Arena.global().allocate(8, 8);
    /** Readers waiting for their deadline (rare: a job whose stdin comes from the terminal). */
    private final Set<Reader> timed = ConcurrentHashMap.newKeySet();
    private final MemorySegment scratch = RawFd.callState(Arena.global());
    private final MemorySegment event = Arena.global().allocate(EPOLL_EVENT_BYTES, 4);

    /** The process's poller, started on first use. */
    public static PipePoller shared() {
        PipePoller p = shared;
        if (p == null) {
            synchronized (PipePoller.class) {
                if (shared == null) {
                    shared = new PipePoller("pipe-poller");
                }
                p = shared;
            }
        }
        return p;
    }

    private PipePoller(String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = RawFd.callState(a);
            epfd = (int) CCall.callErrno(ChildReaper.EPOLL_CREATE1, st, RawFd.O_CLOEXEC);
            if (epfd < 0) {
                throw new IllegalStateException("epoll_create1: " + Libc.strerror(RawFd.errno(st)));
            }
            wakeFd = (int) CCall.callErrno(EVENTFD, st, 0, RawFd.O_CLOEXEC);
            if (wakeFd < 0) {
                throw new IllegalStateException("eventfd: " + Libc.strerror(RawFd.errno(st)));
            }
        }
        add(wakeFd);
        Thread.ofPlatform().daemon().name(name).start(this::loop);
    }

    /**
     * Reads {@code fd} (a pipe's read end, now the poller's: it closes it at the end) into
     * {@code reader}.
     *
     * @throws IllegalStateException when the descriptor cannot be watched (it is closed then)
     */
    public synchronized void watch(int fd, Reader reader) {
        readers.put(fd, reader);
        fdOf.put(reader, fd);
        try {
            add(fd);
        } catch (IllegalStateException e) {
            readers.remove(fd);
            fdOf.remove(reader);
            RawFd.close(fd);
            throw e;
        }
    }

    private synchronized void add(int fd) {
        event.set(JAVA_INT, 0, EPOLLIN);
        event.set(JAVA_LONG_UNALIGNED, 4, fd);
        int rc = (int) CCall.callErrno(ChildReaper.EPOLL_CTL, scratch, epfd, EPOLL_CTL_ADD, fd, CCall.p(event));
        if (rc != 0) {
            throw new IllegalStateException("epoll_ctl: " + Libc.strerror(RawFd.errno(scratch)));
        }
    }

    /**
     * The child that wrote to {@code reader}'s pipe has ended: what is in the pipe now is read,
     * then the pipe is closed and the reader ended, whoever else still holds its write end.
     */
    public void finish(Reader reader) {
        if (fdOf.containsKey(reader)) {
            finishing.add(reader);
            synchronized (this) {
                one.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 1L);
                CCall.callErrno(RawFd.WRITE_FUNCTION, scratch, wakeFd, CCall.p(one), 8);
            }
        }
    }

    private void loop() {
        Arena a = Arena.ofConfined();
        MemorySegment events = a.allocate((long) EPOLL_EVENT_BYTES * MAX_EVENTS, 8);
        MemorySegment st = RawFd.callState(a);
        MemorySegment buf = a.allocate(CHUNK, 16);
        MemorySegment pollfd = a.allocate(8, 4);
        byte[] bytes = new byte[CHUNK];
        while (true) {
            try {
                if (!round(events, st, buf, bytes, pollfd)) {
                    return; // said once; ranks' ends are still reported, after their drain time
                }
            } catch (RuntimeException | Error e) {
                // a reader's fault: the others go on
                System.err.println("banyand: reading a rank's output: " + e);
            }
        }
    }

    /** One epoll_wait, the reads it allows, and the deadlines that passed; false when epoll itself failed. */
    private boolean round(MemorySegment events, MemorySegment st, MemorySegment buf, byte[] bytes, MemorySegment pollfd) {
        int n = (int) CCall.callErrno(ChildReaper.EPOLL_WAIT, st, epfd, CCall.p(events), MAX_EVENTS, waitMillis());
        if (n < 0 && RawFd.errno(st) != EINTR) {
            System.err.println("banyand: reading ranks' output stopped: epoll_wait: " + Libc.strerror(RawFd.errno(st)));
            return false;
        }
        for (int i = 0; i < n; i++) {
            int fd = (int) events.get(JAVA_LONG_UNALIGNED, (long) i * EPOLL_EVENT_BYTES + 4);
            if (fd == wakeFd) {
                CCall.callErrno(RawFd.READ_FUNCTION, st, wakeFd, CCall.p(buf), 8);
                continue;
            }
            Reader r = readers.get(fd);
            if (r != null) {
                readOnce(fd, r, st, buf, bytes);
            }
        }
        for (Reader r : finishing) {
            finishing.remove(r);
            Integer fd = fdOf.get(r);
            // what the ended child left in the pipe, read while there is some; then the end
            while (fd != null && readers.get(fd) == r && readable(fd, st, pollfd)) {
                readOnce(fd, r, st, buf, bytes);
            }
            if (fd != null && readers.get(fd) == r) {
                end(fd, r, st);
            }
        }
        if (!timed.isEmpty()) {
            long now = System.nanoTime();
            for (Reader r : timed) {
                if (r.deadline() == Long.MAX_VALUE) {
                    timed.remove(r);
                } else if (r.deadline() - now <= 0) {
                    timed.remove(r);
                    r.timeout();
                }
            }
        }
        return true;
    }

    /** One read of a readable pipe: its bytes to the reader, or its end. */
    private void readOnce(int fd, Reader r, MemorySegment st, MemorySegment buf, byte[] bytes) {
        long got = CCall.callErrno(RawFd.READ_FUNCTION, st, fd, CCall.p(buf), CHUNK);
        if (got < 0 && RawFd.errno(st) == EINTR) {
            return; // still readable: the next round reads it
        }
        if (got > 0) {
            MemorySegment.copy(buf, JAVA_BYTE, 0, bytes, 0, (int) got);
            r.data(bytes, (int) got);
            if (r.deadline() != Long.MAX_VALUE) {
                timed.add(r);
            }
            return;
        }
        end(fd, r, st); // end of file, or an error
    }

    /** The pipe is done: out of the maps before its number can be reused, closed, and the reader told. */
    private void end(int fd, Reader r, MemorySegment st) {
        readers.remove(fd);
        fdOf.remove(r);
        CCall.callErrno(ChildReaper.EPOLL_CTL, st, epfd, EPOLL_CTL_DEL, fd, 0);
        RawFd.close(fd);
        timed.remove(r);
        r.ended();
    }

    /** Whether {@code fd} can be read at once (bytes, or its end). */
    private static boolean readable(int fd, MemorySegment st, MemorySegment pollfd) {
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, (short) POLLIN);
        pollfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 6, (short) 0);
        int rc;
        do {
            rc = (int) CCall.callErrno(POLL, st, CCall.p(pollfd), 1, 0);
        } while (rc < 0 && RawFd.errno(st) == EINTR);
        return rc > 0;
    }

    /** How long epoll_wait may wait: until the nearest deadline, or for ever (-1). */
    private int waitMillis() {
        if (timed.isEmpty()) {
            return -1;
        }
        long now = System.nanoTime();
        long nearest = Long.MAX_VALUE;
        for (Reader r : timed) {
            nearest = Math.min(nearest, r.deadline() - now);
        }
        return nearest == Long.MAX_VALUE ? -1 : (int) Math.max(0, Math.min(Integer.MAX_VALUE, (nearest + 999_999) / 1_000_000));
    }
}
