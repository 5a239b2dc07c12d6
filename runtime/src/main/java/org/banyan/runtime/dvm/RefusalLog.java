package org.banyan.runtime.dvm;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The DVM log's lines about refused connections, rate-limited: each refusal has its line until
 * {@link #PER_WINDOW} were written in a {@link #WINDOW_NANOS} window; the rest of the window's are
 * counted, and said in one line when the next is written. A stranger who connects in a loop
 * cannot fill the owner's disk with the log.
 */
final class RefusalLog {
    static final int PER_WINDOW = 20;
    static final long WINDOW_NANOS = 10_000_000_000L;

    private final Consumer<String> say;
    private final LongSupplier clock;
    private long windowStart;
    private int written;
    private int unsaid;

    RefusalLog(Consumer<String> say, LongSupplier clock) {
        this.say = say;
        this.clock = clock;
        this.windowStart = clock.getAsLong();
    }

    synchronized void refused(String line) {
        long now = clock.getAsLong();
        if (now - windowStart >= WINDOW_NANOS) {
            if (unsaid > 0) {
                say.accept(unsaid + " more refused connection(s) were not logged one by one");
            }
            windowStart = now;
            written = 0;
            unsaid = 0;
        }
        if (written < PER_WINDOW) {
            written++;
            say.accept(line);
        } else {
            unsaid++;
        }
    }
}
