package org.banyan.pilot;

/**
 * How fast a pilot has been ending a manager's tasks: the ends of the last full period of
 * {@link #PERIOD_NANOS}, per second (0 before one has passed, or when none ended in it). For
 * {@link SendWindow}'s share of tasks among pilots. Times are given, so tests need no clock;
 * not thread-safe (the manager holds its lock).
 */
final class EndRate {
    static final long PERIOD_NANOS = 200_000_000L;

    private long periodStart = Long.MIN_VALUE;
    private int inPeriod;
    private double perSecond;

    /** A task ended at {@code now} (nanoseconds, any origin). */
    void ended(long now) {
        roll(now);
        inPeriod++;
    }

    /** Ends per second over the last full period before {@code now}. */
    double perSecond(long now) {
        roll(now);
        return perSecond;
    }

    private void roll(long now) {
        if (periodStart == Long.MIN_VALUE) {
            periodStart = now;
            return;
        }
        long elapsed = now - periodStart;
        if (elapsed >= PERIOD_NANOS) {
            perSecond = inPeriod * 1e9 / elapsed;
            periodStart = now;
            inPeriod = 0;
        }
    }
}
