package org.banyan.runtime;

import java.util.PriorityQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The single thread on which a driver runs its protocol core. Any thread may {@link #post} an
 * event; timers are kept here too, so a core never sees concurrency or a clock.
 */
public final class EventLoop<E> {
    /** Handles one event; returns false to stop the loop. */
    public interface Handler<E> {
        boolean handle(E event) throws Exception;
    }

    private record Timed<E>(long dueNanos, long seq, E event) {}

    private final LinkedBlockingQueue<E> queue = new LinkedBlockingQueue<>();
    private final PriorityQueue<Timed<E>> timers = new PriorityQueue<>(
            (a, b) -> a.dueNanos != b.dueNanos ? Long.compare(a.dueNanos, b.dueNanos) : Long.compare(a.seq, b.seq));
    private long timerSeq;

    public void post(E event) {
        queue.add(event);
    }

    /** Must be called from the loop thread (timers are loop-owned state). */
    public void schedule(E event, long delayMillis) {
        timers.add(new Timed<>(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis), timerSeq++, event));
    }

    /** Runs until the handler returns false. */
    public void run(Handler<E> handler) throws Exception {
        while (true) {
            E event;
            Timed<E> next = timers.peek();
            if (next == null) {
                event = queue.take();
            } else {
                long wait = next.dueNanos - System.nanoTime();
                event = wait <= 0 ? null : queue.poll(wait, TimeUnit.NANOSECONDS);
                if (event == null) {
                    event = timers.poll().event;
                }
            }
            if (!handler.handle(event)) {
                return;
            }
        }
    }
}
