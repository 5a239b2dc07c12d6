package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.pmix.CCall;

/**
 * Threads that reap every child made by {@link PosixSpawn}: each child gets a pidfd
 * ({@code pidfd_open}) in the epoll set of one reaper thread, and a readable pidfd means that
 * child has ended, so {@code waitpid} on exactly that pid returns at once. The JDK's own children
 * (an ssh, the rank guard) are never touched: nothing here waits on "any child".
 *
 * <p>A child started on a reaper thread (the next task of a chain, started as its predecessor is
 * reaped) is watched by that thread, others go to the threads in turn: so with one thread per
 * busy core, each core's chain of short tasks is reaped and restarted by its own thread, and two
 * ends that come together are handled side by side instead of one after the other.
 *
 * <p>The exit status is the JDK's convention: the exit code, or 128 + the signal that ended it.
 * Completions run on the reaper thread and must not block for long.
 */
public final class ChildReaper {
    private static final int EPOLL_CTL_ADD = 1;
    private static final int EPOLL_CTL_DEL = 2;
    private static final int EPOLLIN = 0x1;
    /**
     * A pidfd reports once, its child's end, and is then disarmed: so closing it needs no
     * {@code EPOLL_CTL_DEL} first (one system call a child fewer), even when a child being
     * spawned at that moment still holds a copy of it and keeps its epoll entry alive until it
     * execs: a disarmed entry reports nothing.
     */
    private static final int EPOLLONESHOT = 0x40000000;
    private static final int EPOLL_EVENT_BYTES = 12; // packed on x86-64: u32 events, u64 data
    private static final int MAX_EVENTS = 64;
    private static final int EINTR = 4;

    private static final MemorySegment PIDFD_OPEN = CCall.libc("pidfd_open");
    static final MemorySegment EPOLL_CREATE1 = CCall.libc("epoll_create1");
    static final MemorySegment EPOLL_CTL = CCall.libc("epoll_ctl");
    static final MemorySegment EPOLL_WAIT = CCall.libc("epoll_wait");
    private static final MemorySegment WAITPID = CCall.libc("waitpid");
    private static final MemorySegment KILL = CCall.libc("kill");
    private static final int SIGKILL = 9;

    /** One epoll set per reaper thread. */
    private final int[] epfds;
    /**
     * The call state and epoll event of a watching thread that is not one of the reapers (they
     * have their own, see {@link Reaper}), reused: a confined arena per watch was two native
     * allocations and frees for every child.
     */
    private static final ThreadLocal<MemorySegment[]> WATCH_SCRATCH = ThreadLocal.withInitial(ChildReaper::scratch);

    /**
     * A reaper thread: its index and its own scratch. Found by {@code Thread.currentThread()},
     * not a {@code ThreadLocal}, whose lookup under C1 is a call into the VM for its weak key
     * (about 1 % of a DVM's CPU at thousands of tasks a second, two lookups a task).
     */
    private static final class Reaper extends Thread {
        final ChildReaper owner;
        final int index;
        final MemorySegment[] scratch = scratch();
        /** {@link PosixSpawn}'s scratch, for the children this thread starts. */
        final MemorySegment spawnScratch = Arena.ofAuto().allocate(PosixSpawn.SCRATCH_BYTES, 16);

        Reaper(ChildReaper owner, int index, String name) {
            super(null, null, name, 0, false);
            this.owner = owner;
            this.index = index;
            setDaemon(true);
        }

        @Override
        public void run() {
            owner.loop(index);
        }
    }

    /** The calling thread's spawn scratch when it is a reaper thread, or null. */
    static MemorySegment spawnScratch() {
        return Thread.currentThread() instanceof Reaper r ? r.spawnScratch : null;
    }

    private static MemorySegment[] scratch() {
        Arena a = Arena.ofAuto();
        return new MemorySegment[] {RawFd.callState(a), a.allocate(EPOLL_EVENT_BYTES, 4)};
    }

    private final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
    /** pidfd → the child's pid and its future. */
    private final Map<Integer, Watched> watched = new ConcurrentHashMap<>();

    private record Watched(long pid, int pidfd, int epfd, CompletableFuture<Integer> exit, boolean flagSignals) {}

    /** Told once if the reaper's thread fails: no child's end would be reported after that. */
    private final java.util.function.Consumer<String> onFailure;

    /** Run after each round of ends (the completions of one epoll_wait), on the reaper's thread. */
    private final Runnable afterRound;

    /**
     * @param onFailure  what the owner does when ends can no longer be reported (a daemon gives up)
     * @param afterRound run after the completions of each round of ends: a daemon flushes them
     */
    public ChildReaper(java.util.function.Consumer<String> onFailure, Runnable afterRound) {
        this(onFailure, afterRound, 1);
    }

    /** @param threads how many reaper threads (at least one) */
    public ChildReaper(java.util.function.Consumer<String> onFailure, Runnable afterRound, int threads) {
        this.onFailure = onFailure;
        this.afterRound = afterRound;
        epfds = new int[Math.max(1, threads)];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment st = RawFd.callState(a);
            for (int i = 0; i < epfds.length; i++) {
                epfds[i] = (int) CCall.callErrno(EPOLL_CREATE1, st, RawFd.O_CLOEXEC);
                if (epfds[i] < 0) {
                    throw new IllegalStateException("epoll_create1: " + Libc.strerror(RawFd.errno(st)));
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        for (int i = 0; i < epfds.length; i++) {
            new Reaper(this, i, epfds.length == 1 ? "child-reaper" : "child-reaper-" + i).start();
        }
    }

    /** Which of this reaper's threads the calling thread is (from 0), or -1. */
    public int threadIndex() {
        Reaper self = ownThread();
        return self == null ? -1 : self.index;
    }

    /** The calling thread when it is one of this reaper's, or null. */
    private Reaper ownThread() {
        return Thread.currentThread() instanceof Reaper r && r.owner == this ? r : null;
    }

    /** Adds the pids of the children this reaper watches (those it will reap) to {@code pids}. */
    public void addWatchedTo(java.util.Set<Long> pids) {
        for (Watched w : watched.values()) {
            pids.add(w.pid());
        }
    }

    /**
     * Watches a child made by this JVM; the future completes with its exit status. Must be called
     * before anything else could reap the pid (the spawner calls it at once).
     */
    public CompletableFuture<Integer> watch(long pid) {
        return watch(pid, false);
    }

    /** Set in a status {@link #watch(long, boolean)} gives for a child a signal ended (the rest is 128 + the signal). */
    public static final int SIGNALED = 0x100;

    /**
     * As {@link #watch(long)}; with {@code flagSignals}, the status of a child a signal ended
     * carries {@link #SIGNALED}, which an exit status cannot (a program may exit with 137 itself).
     */
    public CompletableFuture<Integer> watch(long pid, boolean flagSignals) {
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        try {
            Reaper self = ownThread();
            MemorySegment[] scratch = self != null ? self.scratch : WATCH_SCRATCH.get();
            MemorySegment st = scratch[0];
            int pidfd = (int) CCall.callErrno(PIDFD_OPEN, st, pid, 0);
            if (pidfd < 0) {
                throw new IllegalStateException("pidfd_open " + pid + ": " + Libc.strerror(RawFd.errno(st)));
            }
            int epfd = self != null ? epfds[self.index] : epfds[Math.floorMod(turn.getAndIncrement(), epfds.length)];
            Watched w = new Watched(pid, pidfd, epfd, exit, flagSignals);
            watched.put(pidfd, w);
            MemorySegment ev = scratch[1];
            ev.set(JAVA_INT, 0, EPOLLIN | EPOLLONESHOT);
            ev.set(JAVA_LONG_UNALIGNED, 4, pidfd);
            int rc = (int) CCall.callErrno(EPOLL_CTL, st, epfd, EPOLL_CTL_ADD, pidfd, CCall.p(ev));
            if (rc != 0) {
                throw new IllegalStateException("epoll_ctl: " + Libc.strerror(RawFd.errno(st)));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return exit;
    }

    private void loop(int index) {
        int epfd = epfds[index];
        Arena a = Arena.ofConfined();
        MemorySegment events = a.allocate((long) EPOLL_EVENT_BYTES * MAX_EVENTS, 8);
        MemorySegment st = RawFd.callState(a);
        MemorySegment status = a.allocate(JAVA_INT);
        try {
            while (true) {
                round(epfd, events, st, status);
            }
        } catch (Throwable t) {
            onFailure.accept("the child reaper stopped: " + t);
        }
    }

    /**
     * One epoll_wait and the ends it reports. Its own method, not the loop's body: a method
     * entered once is compiled only by on-stack replacement, after tens of thousands of turns,
     * and until then each round ran in the interpreter.
     */
    private void round(int epfd, MemorySegment events, MemorySegment st, MemorySegment status) throws Throwable {
        int n = (int) CCall.callErrno(EPOLL_WAIT, st, epfd, CCall.p(events), MAX_EVENTS, -1);
        if (n < 0) {
            if (RawFd.errno(st) == EINTR) {
                return;
            }
            throw new IllegalStateException("epoll_wait: " + Libc.strerror(RawFd.errno(st)));
        }
        for (int i = 0; i < n; i++) {
            int pidfd = (int) events.get(JAVA_LONG_UNALIGNED, (long) i * EPOLL_EVENT_BYTES + 4);
            reap(epfd, pidfd, st, status);
        }
        afterRound.run();
    }

    private void reap(int epfd, int pidfd, MemorySegment st, MemorySegment status) throws Throwable {
        Watched w = watched.get(pidfd);
        if (w == null) {
            CCall.callErrno(EPOLL_CTL, st, epfd, EPOLL_CTL_DEL, pidfd, 0);
            return;
        }
        // What the child left running in its process group (a "sleep &", a daemonised helper
        // that kept the group) dies with it. Now, before the wait: until then the zombie holds
        // its pid, so the group's number cannot have been given to anyone else.
        CCall.call(KILL, -w.pid(), SIGKILL);
        int rc;
        do {
            rc = (int) CCall.callErrno(WAITPID, st, w.pid(), CCall.p(status), 0);
        } while (rc < 0 && RawFd.errno(st) == EINTR);
        int code = rc < 0 ? 255 : decode(status.get(JAVA_INT, 0));
        if (w.flagSignals() && rc >= 0 && (status.get(JAVA_INT, 0) & 0x7f) != 0) {
            code |= SIGNALED;
        }
        // Out of the map before the number is free again: the next pidfd_open may return it.
        watched.remove(pidfd, w);
        RawFd.close(pidfd);
        w.exit().complete(code);
    }

    /** A wait status as an exit status: the code, or 128 + the signal. */
    static int decode(int status) {
        int sig = status & 0x7f;
        return sig == 0 ? (status >> 8) & 0xff : 128 + sig;
    }
}
