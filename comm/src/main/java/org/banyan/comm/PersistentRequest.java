package org.banyan.comm;

import java.util.List;
import java.util.function.Supplier;

/**
 * A send or receive set up once and started many times (MPI_Send_init, MPI_Recv_init,
 * MPI_Start, MPI_Startall), as stencil codes use for their halo exchange every iteration:
 * {@link Comm#sendInit} and {@link Comm#recvInit} check the arguments once, each {@link #start}
 * begins one transfer with the buffer as it is then, and {@link #await} waits for it. Starting
 * one that is still active is an error, as in MPI.
 */
public final class PersistentRequest {
    private final Supplier<Request> begin;
    private Request active;

    PersistentRequest(Supplier<Request> begin) {
        this.begin = begin;
    }

    /** Begins one transfer (MPI_Start). */
    public void start() {
        if (active != null) {
            throw new IllegalStateException("a persistent request started again before its last transfer was awaited");
        }
        active = begin.get();
    }

    /** Waits for the transfer started last (MPI_Wait): a receive's status, null for a send. */
    public Status await() {
        if (active == null) {
            throw new IllegalStateException("a persistent request awaited without being started");
        }
        try {
            return active.await();
        } finally {
            active = null;
        }
    }

    /** Whether a transfer is started and not yet awaited. */
    public boolean active() {
        return active != null;
    }

    /** MPI_Startall. */
    public static void startAll(List<PersistentRequest> requests) {
        for (PersistentRequest r : requests) {
            r.start();
        }
    }

    /** MPI_Waitall over started requests. */
    public static void awaitAll(List<PersistentRequest> requests) {
        for (PersistentRequest r : requests) {
            r.await();
        }
    }
}
