package org.banyan.comm;

import java.util.concurrent.locks.LockSupport;

/**
 * How a rank waits for a request: it makes progress itself, spinning first (the shared-memory
 * fast path has no system call to block in), then yielding, then napping, so that ranks
 * oversubscribing cores leave them to the ranks that have work; a rank whose peers are all on
 * other hosts naps in the kernel on its sockets instead ({@link Engine#waitOnSockets}).
 */
final class Waiting {
    private static final int SPINS = Integer.getInteger("banyan.comm.spins", 2_000);
    private static final int YIELDS = Integer.getInteger("banyan.comm.yields", 2_000);
    static final long NAP_NANOS = 50_000;
    /**
     * Set where a wait is expected to be long and the core better left to others (the ranks
     * waiting while rank 0 asks the resource manager: spinning there took the CPU from the daemon
     * and head that answer it): spin briefly, then nap.
     */
    static final ScopedValue<Boolean> PATIENT = ScopedValue.newInstance();
    private static final int PATIENT_SPINS = Integer.getInteger("banyan.comm.patientSpins", 100);
    /**
     * Spins of a rank whose host has a core for each of its ranks (BANYAN_OVERSUBSCRIBED=0, which
     * banyan run sets): tens of milliseconds before it yields, as MPICH's ranks spin. With the few
     * thousand an oversubscribed rank gets, a partner late by a fraction of a millisecond sends
     * its waiter into naps, and a tight loop of small collectives can stay in that rhythm.
     */
    private static final int DEDICATED_SPINS = Integer.getInteger("banyan.comm.dedicatedSpins", 1_000_000);
    /**
     * ...but a spinning rank that finds it was taken off its core (a round of {@link #CHECK_EVERY}
     * spins took longer than this) is not on a core of its own, whatever its host's slots said:
     * ranks of several "hosts" sharing one machine's cores (test clusters of network namespaces,
     * {@code --launcher local}) spun against each other, and a 1 GiB redistribution between four
     * such ranks on two cores took 0.52-0.82 s instead of 0.32-0.35 (docs/malleability.md). It
     * then yields and naps as an oversubscribed rank does; one whose peers are all on other hosts
     * waits as a patient wait does instead, a short spin and naps in the kernel: the thousands of
     * yields, each with a look at the sockets, were still CPU that the ranks moving the data
     * needed. (Ranks of one host keep yielding: there a preemption is mostly the JIT's threads
     * passing, and a 50 µs nap in a loop of 0.5 µs collectives costs more than it saves.) With
     * TCP connections open a spin is a
     * system call (about 1 µs), so {@link #DEDICATED_SPINS} is also at most this long a spin.
     */
    private static final long PREEMPTED_NANOS = 2_000_000;
    private static final long DEDICATED_SPIN_NANOS = 30_000_000;
    private static final int CHECK_EVERY = 256;

    private final Engine engine;
    /** Whether this rank's host has a core for each of its ranks. */
    private final boolean dedicated;
    private final boolean socketsOnly;

    Waiting(Engine engine, boolean dedicated) {
        this.engine = engine;
        this.dedicated = dedicated;
        this.socketsOnly = engine.socketsOnly();
    }

    /** Drives the engine's progress until {@code done} holds (checked between rounds, without the lock). */
    void until(java.util.function.BooleanSupplier done) {
        int idle = 0;
        boolean patient = PATIENT.orElse(false);
        int spins = patient ? PATIENT_SPINS : dedicated ? DEDICATED_SPINS : SPINS;
        int yields = patient ? 0 : YIELDS;
        boolean watch = !patient && dedicated;
        long spinStart = 0;
        long lastCheck = 0;
        while (!done.getAsBoolean()) {
            if (engine.progressOnce()) {
                idle = 0;
                continue;
            }
            if (engine.isClosed()) {
                throw new CommException("the communicator was closed while waiting");
            }
            idle++;
            if (watch && (idle & (CHECK_EVERY - 1)) == 0 && idle < spins) {
                long now = System.nanoTime();
                if (idle == CHECK_EVERY) {
                    spinStart = now;
                } else if (now - lastCheck > PREEMPTED_NANOS || now - spinStart > DEDICATED_SPIN_NANOS) {
                    if (socketsOnly) { // from here on, as a patient wait: a short spin, then naps
                        spins = PATIENT_SPINS;
                        yields = 0;
                    } else {
                        spins = idle; // yield from here on, then nap
                    }
                }
                lastCheck = now;
            }
            if (idle < spins) {
                Thread.onSpinWait();
            } else if (idle < spins + yields) {
                Thread.yield();
            } else if (socketsOnly) {
                engine.waitOnSockets(done);
            } else {
                LockSupport.parkNanos(NAP_NANOS);
            }
        }
    }
}
