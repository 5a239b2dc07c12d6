package org.banyan.comm;

/**
 * A message taken out of matching by {@link Comm#mprobe} or {@link Comm#improbe} (MPI_Message):
 * no other receive or probe can get it any more, and exactly one {@link Comm#imrecv} or
 * {@link CommPointToPoint#mrecv} receives it. This is what a probe followed by a receive cannot
 * promise when several threads receive on the same communicator: another thread's receive may
 * take the probed message in between.
 */
public final class Message {
    final Comm comm;
    /** The message, or null for one from {@link Comm#PROC_NULL}. */
    final Arrival arrival;
    private final Status status;
    private boolean received;

    Message(Comm comm, Arrival arrival, Status status) {
        this.comm = comm;
        this.arrival = arrival;
        this.status = status;
    }

    /** Its sender, tag and length, as a probe reports them. */
    public Status status() {
        return status;
    }

    /** Marks it received; false if it was already. */
    synchronized boolean take() {
        if (received) {
            return false;
        }
        received = true;
        return true;
    }
}
