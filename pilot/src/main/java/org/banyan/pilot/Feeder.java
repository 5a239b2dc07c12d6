package org.banyan.pilot;

import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * The thread that sends what waits in a task manager for room in a pilot, woken as tasks end;
 * started when first needed. Wake-ups that come while it is sending fold into one more round.
 * {@link #start} and {@link #started} are called under the task manager's lock.
 */
final class Feeder {
    private final Runnable send;
    private final BooleanSupplier closed;
    private final Semaphore wake = new Semaphore(0);
    private Thread thread;

    /** @param send sends what fits now; {@code closed} says when to stop */
    Feeder(Runnable send, BooleanSupplier closed) {
        this.send = send;
        this.closed = closed;
    }

    void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon().name("tmgr-feed").start(this::run);
        }
    }

    boolean started() {
        return thread != null;
    }

    /** Another round, or (once closed) the end. */
    void wake() {
        wake.release();
    }

    /** Another round, unless one is due already: called for every task that ends. */
    void wakeOnce() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    private void run() {
        try {
            while (true) {
                wake.acquire();
                wake.drainPermits();
                if (closed.getAsBoolean()) {
                    return;
                }
                send.run();
            }
        } catch (InterruptedException e) {
            // closing
        }
    }
}
