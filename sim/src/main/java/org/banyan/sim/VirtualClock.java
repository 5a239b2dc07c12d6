package org.banyan.sim;

import java.util.PriorityQueue;

/**
 * The launch simulation's virtual clock: scheduled actions run in time order, those due at the
 * same time in the order they were scheduled, so that a run is deterministic.
 */
final class VirtualClock implements SharedCpus.Clock {
    private record Scheduled(long time, long seq, Runnable action) {}

    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>(
            (a, b) -> a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private long seq;
    private long now;
    private long events;

    @Override
    public long now() {
        return now;
    }

    @Override
    public void at(long time, Runnable action) {
        queue.add(new Scheduled(time, seq++, action));
    }

    /** Actions run so far. */
    long events() {
        return events;
    }

    /** Runs actions until none is left or the next is due after {@code limitMicros}. */
    void runUntil(long limitMicros, SimInvariants invariants) {
        while (!queue.isEmpty()) {
            Scheduled e = queue.poll();
            if (e.time > limitMicros) {
                return;
            }
            invariants.timeMovesOn(now, e.time);
            now = e.time;
            events++;
            e.action.run();
        }
    }
}
