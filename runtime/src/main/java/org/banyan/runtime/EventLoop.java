package org.banyan.runtime;

import java.util.PriorityQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a driver's protocol core one event at a time, so a core never sees concurrency or a clock.
 *
 * <p>Events reach the core two ways, both serialised by one lock: {@link #post} queues an event
 * for the loop thread ({@link #run}); {@link #dispatch} hands it over on the calling thread. The
 * latter is for latency-critical request/reply traffic (PMI): with 64 busy ranks on two cores,
 * every thread hand-off costs a scheduling delay. Timers are kept here too.
 */
public final class EventLoop<E> {
    /** Handles one event; returns false to stop the loop. */
    public interface Handler<E> {
        boolean handle(E event) throws Exception;
    }

    private record Timed<E>(long dueNanos, long seq, E event) {}

    private static final Object WAKE = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final PriorityQueue<Timed<E>> timers = new PriorityQueue<>(
            (a, b) -> a.dueNanos != b.dueNanos ? Long.compare(a.dueNanos, b.dueNanos) : Long.compare(a.seq, b.seq));
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    /** Handed to the core whenever the queue runs dry after real events; null for none. */
    private final E idle;
    private long timerSeq;
    private Handler<E> handler;
    private volatile boolean stopped;
    private Exception failure;

    public EventLoop() {
        this(null);
    }

    /** A loop that tells its core {@code idle} each time nothing more is queued. */
    public EventLoop(E idle) {
        this.idle = idle;
    }

    public void post(E event) {
        queue.add(event);
    }

    /** Arms a timer; any thread. */
    public void schedule(E event, long delayMillis) {
        synchronized (timers) {
            timers.add(new Timed<>(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis), timerSeq++, event));
        }
        queue.add(WAKE);
    }

    /**
     * Handles {@code event} now, on the calling thread, once no other event is being handled.
     * Does nothing before {@link #run} starts or after the loop stopped.
     */
    public void dispatch(E event) {
        lock.lock();
        try {
            handleLocked(event);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Handles {@code event} now on the calling thread if no other event is being handled, and
     * queues it otherwise: for threads that must never wait for the core (the child reaper, or a
     * spawner whose child ended before the spawn returned, while the loop waits for the spawner).
     */
    public void dispatchOrPost(E event) {
        // Never inside the core's own handling (a spawn on the loop's thread whose child ended at once).
        if (!lock.isHeldByCurrentThread() && lock.tryLock()) {
            try {
                handleLocked(event);
            } finally {
                lock.unlock();
            }
        } else {
            queue.add(event);
        }
    }

    /**
     * Handles {@code event} now on the calling thread, followed by the idle event when nothing
     * is queued (as the loop would), if no thread is handling events: true; false, having done
     * nothing, if one is (the caller then posts it). Spares the loop's thread a wake-up for an
     * event that a thread which may take the core for a moment (never one that must not wait on
     * the handler's actions) brings; the caller keeps such events in order with the queued ones.
     */
    public boolean tryDispatch(E event) {
        if (lock.isHeldByCurrentThread() || !lock.tryLock()) {
            return false;
        }
        try {
            handleLocked(event);
            if (idle != null && queue.isEmpty()) {
                handleLocked(idle);
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    private void handleLocked(E event) {
        if (handler == null || stopped) {
            if (handler == null) {
                queue.add(event);
            }
            return;
        }
        try {
            if (!handler.handle(event)) {
                stopped = true;
            }
        } catch (Exception e) {
            failure = e;
            stopped = true;
        }
        if (stopped) {
            queue.add(WAKE);
        }
    }

    /** Runs until the handler returns false; rethrows what the handler threw. */
    public void run(Handler<E> h) throws Exception {
        lock.lock();
        try {
            handler = h;
        } finally {
            lock.unlock();
        }
        boolean busy = false;
        while (!stopped) {
            busy = step(busy);
        }
        lock.lock();
        try {
            if (failure != null) {
                throw failure;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * One turn of {@link #run}: the idle event, a due timer, or the next queued event (waiting for
     * one). Returns whether an event was handled since the core was last told it is idle. Its own
     * method so that it is compiled after a few calls: {@code run} is entered once, and a loop's
     * body in it would run in the interpreter until on-stack replacement, tens of thousands of
     * turns later.
     */
    @SuppressWarnings("unchecked")
    private boolean step(boolean busy) throws InterruptedException {
        if (busy && idle != null && queue.isEmpty()) {
            dispatch(idle);
            return false;
        }
        Timed<E> due = null;
        long wait;
        synchronized (timers) {
            Timed<E> next = timers.peek();
            wait = next == null ? -1 : next.dueNanos - System.nanoTime();
            if (next != null && wait <= 0) {
                due = timers.poll();
            }
        }
        if (due != null) {
            dispatch(due.event);
            return true;
        }
        Object item = wait < 0 ? queue.take() : queue.poll(wait, TimeUnit.NANOSECONDS);
        if (item != null && item != WAKE) {
            dispatch((E) item);
            return true;
        }
        return busy;
    }
}
