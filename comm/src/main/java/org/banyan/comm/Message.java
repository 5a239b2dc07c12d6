package org.banyan.comm;

/**
 * A message taken out of matching by {@link Comm#mprobe} or {@link Comm#improbe} (MPI_Message),
 * or their {@link Intercomm} forms: no other receive or probe can get it any more, and exactly
 * one {@code imrecv} or {@link CommPointToPoint#mrecv} on the same communicator receives it. This is what a probe followed by a receive cannot
 * promise when several threads receive on the same communicator: another thread's receive may
 * take the probed message in between.
 */
public final class Message {
    /** Where it was probed, and that communicator's name. */
    final CommPointToPoint comm;
    final String where;
    /** The message, or null for one from {@link Comm#PROC_NULL}. */
    final Arrival arrival;
    private final Status status;
    private boolean received;

    Message(CommPointToPoint comm, String where, Arrival arrival, Status status) {
        this.comm = comm;
        this.where = where;
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
