package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * A way to move messages to other ranks. The engine picks, per peer and once, the first
 * transport that reaches it (self, then shared memory, then TCP). Transports do no waiting of
 * their own: the engine calls {@link #poll} from whichever thread waits for progress, or
 * {@link #pollWaiting} when a rank has nothing to poll but sockets.
 */
interface Transport extends AutoCloseable {
    /** True when this transport can carry messages to world rank {@code peer}. */
    boolean reaches(int peer);

    /** Starts sending; completes {@code op} once {@code payload} may be reused (perhaps before returning). */
    void send(int peer, Envelope e, MemorySegment payload, Operation.Send op);

    /** Moves what has arrived into {@code matcher} and what is waiting out; true when anything moved. */
    boolean poll(Matcher matcher);

    /**
     * As {@link #poll}, but when nothing can move at once, waits up to {@code millis} for
     * something to (a transport whose peers' messages come through the kernel); by default it
     * does not wait.
     */
    default boolean pollWaiting(Matcher matcher, int millis) {
        return poll(matcher);
    }

    /** Makes a {@link #pollWaiting} under way (or the next one) return at once; called from any thread. */
    default void wakeup() {}

    /**
     * False when no peer of the world will reach this rank through this transport (another one
     * carries every peer's messages): it is then only looked at for what comes from outside the
     * world, and may look less often.
     */
    default void carriesPeers(boolean carries) {}

    @Override
    void close();
}
