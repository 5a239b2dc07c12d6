package org.banyan.runtime.head;

import org.banyan.core.head.StdinWindow;

/**
 * Where a stdin reader thread waits for credit: the limit the head's core computes
 * ({@link StdinWindow}), handed over from the event loop. Shared by banyan run's reader and a
 * DVM client's.
 */
public final class StdinGate {
    private long limit;

    /** The new limit: bytes that may have been sent in all, or {@link StdinWindow#STOP}. */
    public synchronized void credit(long limit) {
        this.limit = limit;
        notifyAll();
    }

    /**
     * Waits until more than {@code sent} bytes may have been sent; false when no rank reads any
     * more (stop reading).
     */
    public synchronized boolean awaitRoom(long sent) throws InterruptedException {
        while (limit != StdinWindow.STOP && sent >= limit) {
            wait();
        }
        return limit != StdinWindow.STOP;
    }
}
