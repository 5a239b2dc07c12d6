package org.banyan.core.head;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Flow control of a job's stdin: how far the head's reader may get ahead of the ranks that read
 * it. Each reading rank's daemon reports the bytes its rank has taken in all; the reader may have
 * sent up to the slowest reading rank's count plus {@link #WINDOW}. A rank that ended, or closed
 * its stdin, counts as caught up; once no rank reads any more, the reader stops reading, as
 * mpirun's does, and a producer that writes for ever is held by its full pipe, not by banyan's
 * memory.
 */
public final class StdinWindow {
    /** How far the reader may be ahead of the slowest reading rank, in bytes. */
    public static final long WINDOW = 4L << 20;
    /** The limit once no rank reads: stop reading. */
    public static final long STOP = -1;

    /** Bytes taken so far by each rank that still reads. */
    private final Map<Integer, Long> taken = new HashMap<>();
    private long limit;

    public StdinWindow(Collection<Integer> readers) {
        for (int r : readers) {
            taken.put(r, 0L);
        }
        limit = compute();
    }

    /** How many bytes of stdin the reader may have sent in all; {@link #STOP} once no rank reads. */
    public long limit() {
        return limit;
    }

    /**
     * Rank {@code rank} has taken {@code bytes} in all, or {@code bytes < 0}: it takes no more.
     *
     * @return whether the limit changed
     */
    public boolean taken(int rank, long bytes) {
        Long before = taken.get(rank);
        if (before == null) {
            return false;
        }
        if (bytes < 0) {
            taken.remove(rank);
        } else if (bytes > before) {
            taken.put(rank, bytes);
        } else {
            return false;
        }
        long was = limit;
        limit = compute();
        return limit != was;
    }

    /** Rank {@code rank} ended; whether the limit changed. */
    public boolean ended(int rank) {
        return taken(rank, -1);
    }

    private long compute() {
        if (taken.isEmpty()) {
            return STOP;
        }
        long slowest = Long.MAX_VALUE;
        for (long t : taken.values()) {
            slowest = Math.min(slowest, t);
        }
        return slowest + WINDOW;
    }
}
