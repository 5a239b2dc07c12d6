package org.banyan.runtime.daemon;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The pids of a daemon's running ranks in a memory-mapped file, which its {@link RankGuard}
 * reads once the daemon is gone. Recording a start or an end is a store into memory; a line on
 * the guard's pipe was a system call and a wake-up of the guard for every start (a third of the
 * context switches a stream of short tasks cost, besides the task's own).
 *
 * <p>Format, read by the guard's awk: 8-byte slots, each a pid right-aligned in 7 ASCII
 * characters and a newline, or 7 blanks and a newline for a free slot; slots never used are
 * zero bytes. A slot is written with one aligned 8-byte store, so a daemon killed mid-write
 * leaves either the old or the new content, never digits of both. An entry is found again by
 * its slot, which the caller keeps (a map from pid to slot, boxed, was most of what recording
 * cost). Not thread-safe: the guard calls it under its lock.
 */
final class PidTable implements AutoCloseable {
    static final int SLOTS = 1 << 17;
    /** Larger pids do not fit a slot (pid_max is at most 4,194,304 on Linux); they go on the pipe. */
    static final long MAX_PID = 9_999_999;
    private static final VarHandle SLOT = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    private static final long FREE = encode("       \n");

    private final Path path;
    private final Arena arena;
    private final MemorySegment slots;
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    private PidTable(Path path, Arena arena, MemorySegment slots) {
        this.path = path;
        this.arena = arena;
        this.slots = slots;
    }

    /** A table in {@code dir} (tmpfs, where there is one), or null when none can be made: the pipe serves alone then. */
    static PidTable create(Path dir) {
        Path path = null;
        Arena arena = Arena.ofShared();
        try {
            // the daemon's pid in the name lets a later daemon remove it should this one die with its guard
            path = Files.createTempFile(dir, "banyan-pids-" + ProcessHandle.current().pid() + "-", "");
            try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
                f.setLength((long) SLOTS * Long.BYTES); // sparse: pages appear as slots are used
                MemorySegment m = f.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, f.length(), arena);
                return new PidTable(path, arena, m);
            }
        } catch (IOException | RuntimeException e) {
            arena.close();
            if (path != null) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // a stray empty file in a temporary directory
                }
            }
            return null;
        }
    }

    /** Where the table is (no spaces: the guard's lines are split on them). */
    Path path() {
        return path;
    }

    /**
     * Records a running pid: its slot, for {@link #remove}, or -1 when it does not fit (too
     * large, or no slot left). A pid may be in the table twice, each in its own slot: a new
     * process can take an ended one's pid before that one's end is recorded.
     */
    int add(long pid) {
        if (pid <= 0 || pid > MAX_PID) {
            return -1;
        }
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else if (used < SLOTS) {
            slot = used++;
        } else {
            return -1;
        }
        SLOT.setRelease(slots, (long) slot * Long.BYTES, encode(pid));
        return slot;
    }

    /** The pid {@link #add} put in {@code slot} ended; false when that slot does not hold it. */
    boolean remove(long pid, int slot) {
        if (slot < 0 || slot >= used || (long) SLOT.getAcquire(slots, (long) slot * Long.BYTES) != encode(pid)) {
            return false;
        }
        SLOT.setRelease(slots, (long) slot * Long.BYTES, FREE);
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = slot;
        return true;
    }

    /** The pid right-aligned in 7 characters and a newline, character i in byte i. */
    static long encode(long pid) {
        long v = (long) '\n' << 56;
        int at = 6;
        do {
            v |= (long) ('0' + (int) (pid % 10)) << (8 * at);
            pid /= 10;
            at--;
        } while (pid > 0);
        for (; at >= 0; at--) {
            v |= (long) ' ' << (8 * at);
        }
        return v;
    }

    static long encode(String eight) {
        byte[] b = eight.getBytes(StandardCharsets.US_ASCII);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xFF);
        }
        return v;
    }

    /** The daemon is done with its ranks: the file goes. */
    @Override
    public void close() {
        arena.close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a stray file in a temporary directory
        }
    }
}
