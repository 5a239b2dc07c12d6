package org.banyan.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Processor sharing: the steps in progress share the CPUs equally, none running faster than
 * one CPU. Under load every step finishes late together, which is what makes a tree on
 * shared CPUs wait level by level. With {@link CostModel#interleave()} M > 0, at most M
 * steps share them at once and the rest wait in order: M = the CPU count is first come,
 * first served; a real scheduler lies between that and full sharing (the calibration
 * fits M).
 */
final class SharedCpus {
    /** The simulation's virtual clock. */
    interface Clock {
        long now();

        void at(long time, Runnable action);
    }

    private static final class Step {
        double remaining;
        final Runnable then;

        Step(double remaining, Runnable then) {
            this.remaining = remaining;
            this.then = then;
        }
    }

    private final int cpus;
    private final int limit;
    private final Clock clock;
    private final List<Step> running = new ArrayList<>();
    private final ArrayDeque<Step> waiting = new ArrayDeque<>();
    private long updated;
    private long generation;

    SharedCpus(int cpus, int interleave, Clock clock) {
        this.cpus = cpus;
        this.clock = clock;
        this.limit = interleave <= 0 ? Integer.MAX_VALUE : Math.max(cpus, interleave);
    }

    private double rate() {
        return Math.min(1.0, (double) cpus / running.size());
    }

    void submit(long micros, Runnable then) {
        advance();
        waiting.add(new Step(micros, then));
        admit();
        reschedule();
    }

    private void admit() {
        while (running.size() < limit && !waiting.isEmpty()) {
            running.add(waiting.poll());
        }
    }

    private void advance() {
        if (!running.isEmpty()) {
            double done = (clock.now() - updated) * rate();
            for (Step s : running) {
                s.remaining -= done;
            }
        }
        updated = clock.now();
    }

    private void reschedule() {
        long g = ++generation;
        if (running.isEmpty()) {
            return;
        }
        double least = Double.MAX_VALUE;
        for (Step s : running) {
            least = Math.min(least, s.remaining);
        }
        clock.at(clock.now() + (long) Math.ceil(Math.max(0, least) / rate()), () -> {
            if (g != generation) {
                return; // the set of steps changed since: a newer event stands
            }
            advance();
            List<Runnable> finished = new ArrayList<>();
            running.removeIf(s -> {
                if (s.remaining > 1e-6) {
                    return false;
                }
                finished.add(s.then);
                return true;
            });
            admit();
            reschedule();
            finished.forEach(Runnable::run);
        });
    }
}
