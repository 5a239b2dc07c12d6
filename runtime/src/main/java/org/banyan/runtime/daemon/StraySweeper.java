package org.banyan.runtime.daemon;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.banyan.runtime.os.ProcessScan;
import org.banyan.runtime.os.Subreaper;

/**
 * Carries out {@link Strays}' decisions: makes the daemon a subreaper, looks at its children
 * after ranks end (a pass over {@code /proc}, at most once a {@link #GAP_MILLIS} while ranks keep
 * ending, so a DVM running thousands of short tasks a second pays for one pass a second), kills
 * and reaps what the policy says. So a stray ends within about {@link #BOUND_MILLIS} of its job's
 * or task's end on this host, and at the daemon's end with it.
 */
final class StraySweeper {
    /** The least time between two passes started by ranks' ends. */
    static final long GAP_MILLIS = 1000;
    /** When to look again while the last pass left something to confirm or reap. */
    static final long AGAIN_MILLIS = 200;
    /** From a job's end to its strays' SIGKILL, at most: a gap, a pass, a second sighting. */
    static final long BOUND_MILLIS = GAP_MILLIS + 2 * AGAIN_MILLIS;

    private final Strays strays = new Strays();
    private final Strays.Facts facts;
    private final long self = ProcessHandle.current().pid();
    private final ScheduledExecutorService timer;
    /** A pass is scheduled: a rank's end (on a reaper thread) then costs one read, never a wait for a pass under way. */
    private final java.util.concurrent.atomic.AtomicBoolean scheduled = new java.util.concurrent.atomic.AtomicBoolean();
    /** A rank ended since the last pass began: its strays may have come after that pass looked. */
    private final java.util.concurrent.atomic.AtomicBoolean requested = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long lastMillis;
    private volatile boolean closed;

    private StraySweeper(Strays.Facts facts, ScheduledExecutorService timer) {
        this.facts = facts;
        this.timer = timer;
    }

    /** A sweeper, or one that does nothing where this process cannot be a subreaper. */
    static StraySweeper start(Strays.Facts facts) {
        if (!Subreaper.become()) {
            return new StraySweeper(facts, null);
        }
        return new StraySweeper(facts, Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("stray-sweeper").factory()));
    }

    /** A rank or task of this daemon ended: its strays, if any, are looked for soon. */
    void ended() {
        if (timer == null) {
            return;
        }
        if (!requested.get()) {
            requested.set(true);
        }
        scheduleAfterGap();
    }

    private void scheduleAfterGap() {
        if (!scheduled.get() && !closed && scheduled.compareAndSet(false, true)) {
            schedule(Math.max(0, lastMillis + GAP_MILLIS - System.currentTimeMillis()));
        }
    }

    private void schedule(long delayMillis) {
        try {
            timer.schedule(this::pass, delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed meanwhile: its last pass is the close's
        }
    }

    private void pass() {
        lastMillis = System.currentTimeMillis();
        requested.set(false);
        boolean again = false;
        try {
            again = sweep(false).again();
        } catch (RuntimeException e) {
            System.err.println("banyan daemon: cannot look for processes ranks left behind: " + e);
        }
        if (again && !closed) {
            schedule(AGAIN_MILLIS); // still scheduled: the next pass sees what ended meanwhile too
        } else {
            scheduled.set(false);
            if (requested.get()) {
                scheduleAfterGap(); // a rank ended during this pass, maybe after it looked
            }
        }
    }

    private synchronized Strays.Decision sweep(boolean closing) {
        Strays.Decision d = strays.sweep(ProcessScan.childrenOf(self), facts, closing, System.currentTimeMillis());
        for (ProcessScan.Proc p : d.kill()) {
            if (p.pgrp() == p.pid()) {
                Subreaper.kill(-p.pid()); // its group's number is its own: not free while it is unreaped
            }
            Subreaper.kill(p.pid());
        }
        for (long pid : d.reap()) {
            Subreaper.reap(pid);
        }
        return d;
    }

    /** Waits at most this long at the daemon's end for its killed ranks to be reaped: their strays come to it then. */
    static final long CLOSE_WAIT_MILLIS = 1000;

    /**
     * Kills every stray, reaps what it can within a few passes, and stops looking; first waits
     * (at most {@link #CLOSE_WAIT_MILLIS}) for {@code ranksGone}, as a rank's orphans become this
     * process's children only once the rank has ended.
     */
    void close(java.util.function.BooleanSupplier ranksGone) {
        if (timer == null) {
            return;
        }
        closed = true;
        timer.shutdownNow();
        long until = System.nanoTime() + CLOSE_WAIT_MILLIS * 1_000_000;
        try {
            while (!ranksGone.getAsBoolean() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int round = 0; round < 5; round++) {
            if (!sweep(true).again()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return; // interrupted already: the status is kept
            }
        }
    }
}
