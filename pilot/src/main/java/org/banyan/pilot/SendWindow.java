package org.banyan.pilot;

/**
 * How many tasks a task manager lets a pilot hold that have not ended, and how many it sends at
 * once: its flow control, apart from the sending. Not thread-safe: the manager holds its lock.
 */
final class SendWindow {
    /** How many tasks one message to a pilot carries at most. */
    static final int BATCH = 4096;
    /**
     * The least window a pilot gets by default. Sending and accepting a task costs about what
     * starting it does, so tasks sent ahead of need are paid for by the tasks running meanwhile:
     * a window of 12,288 made a 10,000-task bag's first 1,000 tasks run at 89 % of the bag's
     * rate on a 2-core host, 1,024 at 96 %, and the bag's rate stayed. A third of it (what the
     * feeder waits for) still covers a round trip to the pilot many times over at the rates one
     * host reaches; a big pilot gets two per core.
     */
    static final int LEAST = 1024;

    /** Set by the user; 0: the default. */
    private int size;
    private boolean unbounded;

    /** {@code tasks} (0: the default, {@link #LEAST} or two per core, whichever is more). */
    void size(int tasks) {
        if (tasks < 0) {
            throw new IllegalArgumentException("a window of " + tasks + " tasks");
        }
        size = tasks;
    }

    /** Everything goes at once (a detached manager: its caller prints every task's id). */
    void unbounded() {
        unbounded = true;
    }

    /**
     * With other pilots to give tasks to, how many seconds of its own task ends a pilot may hold.
     * Binding a full window to the first pilot up left the others idle while its cores worked
     * through them (6 one-second tasks, two one-core pilots: all six on the first, 6.5 s). Half a
     * second of ends is as much as {@link #LEAST} for short tasks on a small host (about 2,500
     * a second), and two per core for long ones.
     */
    static final double SHARED_SECONDS = 0.5;
    /** For {@code endsPerSecond}: the pilot is the manager's only one. */
    static final double ALONE = -1;

    /** The window of a pilot of {@code cores}, the manager's only one. */
    int of(int cores) {
        return of(cores, ALONE);
    }

    /**
     * The window of a pilot of {@code cores} that has been ending {@code endsPerSecond} tasks
     * (0 while not known), when the manager has other pilots to give tasks to; {@link #ALONE}
     * when it has not.
     */
    int of(int cores, double endsPerSecond) {
        if (unbounded) {
            return Integer.MAX_VALUE;
        }
        if (size > 0) {
            return size;
        }
        int full = Math.max(LEAST, 2 * cores);
        if (endsPerSecond < 0) {
            return full;
        }
        return (int) Math.max(2L * cores, Math.min(full, (long) (endsPerSecond * SHARED_SECONDS)));
    }

    /**
     * How many of {@code waiting} tasks should go to a pilot of {@code cores} holding
     * {@code inFlight} unfinished ones: none until it has room for a third of its window (or for
     * all that wait), so tasks go in batches rather than one per task ended; at most a batch.
     */
    int toSend(int cores, int inFlight, int waiting) {
        return toSend(cores, inFlight, waiting, ALONE);
    }

    /** As {@link #toSend(int, int, int)}, for a pilot with {@code endsPerSecond} as in {@link #of(int, double)}. */
    int toSend(int cores, int inFlight, int waiting, double endsPerSecond) {
        int window = of(cores, endsPerSecond);
        int wanted = Math.min(Math.min(BATCH, Math.max(1, window / 3)), waiting);
        if (wanted == 0 || (long) window - inFlight < wanted) {
            return 0;
        }
        return (int) Math.min(Math.min(BATCH, (long) window - inFlight), waiting);
    }
}
