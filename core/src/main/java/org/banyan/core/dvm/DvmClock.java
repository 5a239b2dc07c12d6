package org.banyan.core.dvm;

/**
 * The DVM core's two clocks, given to it: task states carry wall-clock times for their clients,
 * and the resource manager counts seconds since the DVM started. The simulator gives virtual
 * ones.
 */
public interface DvmClock {
    /** Wall-clock microseconds since the epoch. */
    long wallMicros();

    /** A monotonic nanosecond count, as {@link System#nanoTime}. */
    long nanos();

    /** The real clocks. */
    DvmClock SYSTEM = new DvmClock() {
        @Override
        public long wallMicros() {
            return System.currentTimeMillis() * 1000;
        }

        @Override
        public long nanos() {
            return System.nanoTime();
        }
    };
}
