package org.banyan.comm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads of another local rank's memory in one copy (cross-memory attach: Linux's
 * {@code process_vm_readv}), for large messages between native buffers ({@link Rendezvous}):
 * the shared-memory ring copies every byte twice, into the ring and out of it.
 *
 * <p>Only when asked for ({@code BANYAN_COMM_CMA=1}): on the 2-core virtual machine it was
 * measured on, it was faster for some sizes and slower for others than the ring, whose two
 * copies stay in the cache (docs/comm.md).
 *
 * <p>Where it is offered: the JVM lets this library call C ({@code --enable-native-access} for
 * its module; without it the call would print the JDK's warning in the user's program, so it is
 * not made), libc has the call, and the kernel lets this rank read the peer (same user, and no
 * Yama ptrace restriction in the way). The last is tried at start-up on a word each rank
 * publishes: a peer whose word does not read back is not read from, and its messages go
 * through the ring. Java arrays are never read from this way: their place in memory is the
 * garbage collector's to change, and C may hold it only for the length of one call.
 *
 * <p>Endpoint {@code comm.mem}: {@code PID:ADDRESS:VALUE} (the last two in hexadecimal), the
 * process, and where in it 8 bytes holding VALUE are.
 */
final class PeerMemory {
    static final String KEY = "comm.mem";
    /** {@code ssize_t process_vm_readv(pid, local_iov, liovcnt, remote_iov, riovcnt, flags)}, or null. */
    private static final MethodHandle READV = bind();
    private static final int IOVEC_BYTES = 16;

    private final Arena arena;
    private final MemorySegment probe;
    /** Per world rank: the process to read from, or 0 when it is not read from. */
    private final int[] pidOf;
    /** Two iovecs (local, remote), reused: reads happen under the engine's lock. */
    private final MemorySegment iovecs;
    private final MemorySegment remoteIovec;
    private final AtomicLong reads = new AtomicLong();

    private PeerMemory(int size, Arena arena) {
        this.arena = arena;
        this.pidOf = new int[size];
        this.probe = arena.allocate(JAVA_LONG);
        this.iovecs = arena.allocate(2L * IOVEC_BYTES, 8);
        this.remoteIovec = iovecs.asSlice(IOVEC_BYTES);
    }

    /** Whether this JVM may read other ranks' memory at all (native access, libc's call). */
    static boolean offered() {
        return READV != null;
    }

    /** Publishes this rank's probe word; null when single-copy reads are not offered here. */
    static PeerMemory publish(int size, Endpoints endpoints, Arena arena) {
        if (READV == null) {
            return null;
        }
        PeerMemory m = new PeerMemory(size, arena);
        long value = ThreadLocalRandom.current().nextLong();
        m.probe.set(JAVA_LONG, 0, value);
        endpoints.publish(KEY, ProcessHandle.current().pid() + ":" + Long.toHexString(m.probe.address()) + ":"
                + Long.toHexString(value));
        return m;
    }

    /** After the exchange: tries each local peer's probe word; those that read back are read from. */
    void connect(Endpoints endpoints, int[] localRanks, int me) {
        MemorySegment word = arena.allocate(JAVA_LONG);
        for (int r : localRanks) {
            if (r == me) {
                continue;
            }
            int pid;
            long address;
            long value;
            try {
                String[] p = endpoints.lookup(r, KEY).split(":");
                pid = Integer.parseInt(p[0]);
                address = Long.parseUnsignedLong(p[1], 16);
                value = Long.parseUnsignedLong(p[2], 16);
            } catch (RuntimeException e) {
                // none (NoSuchElementException from a job, CommException from a test's map: a peer
                // not asked to, or without native access), or not three numbers: the ring
                continue;
            }
            if (pid <= 0) {
                continue;
            }
            word.set(JAVA_LONG, 0, ~value);
            if (copy(pid, address, word) && word.get(JAVA_LONG, 0) == value) {
                pidOf[r] = pid;
            }
        }
    }

    /** Whether {@code peer}'s memory is read from. */
    boolean canRead(int peer) {
        return pidOf[peer] != 0;
    }

    /**
     * Copies {@code into.byteSize()} bytes from {@code address} in {@code peer}'s memory into
     * {@code into} (native); false when the kernel refused part of it (what came is then to be
     * sent again).
     */
    boolean read(int peer, long address, MemorySegment into) {
        if (!copy(pidOf[peer], address, into)) {
            return false;
        }
        reads.incrementAndGet();
        return true;
    }

    /** Single-copy reads done (for tests). */
    long reads() {
        return reads.get();
    }

    private boolean copy(int pid, long address, MemorySegment into) {
        long done = 0;
        long want = into.byteSize();
        try {
            while (done < want) {
                iovecs.set(JAVA_LONG, 0, into.address() + done);
                iovecs.set(JAVA_LONG, 8, want - done);
                iovecs.set(JAVA_LONG, IOVEC_BYTES, address + done);
                iovecs.set(JAVA_LONG, IOVEC_BYTES + 8, want - done);
                long n = (long) READV.invokeExact(pid, iovecs, 1L, remoteIovec, 1L, 0L);
                if (n <= 0) {
                    return false;
                }
                done += n;
            }
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    private static MethodHandle bind() {
        try {
            if (!PeerMemory.class.getModule().isNativeAccessEnabled()
                    || !System.getProperty("os.name", "").startsWith("Linux")) {
                return null;
            }
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("process_vm_readv")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG,
                            ADDRESS, JAVA_LONG, JAVA_LONG)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
