package org.banyan.core.daemon;

/** Timers a daemon arms. */
public enum DaemonTimer {
    /** The SIGTERM grace period is over: SIGKILL what is left. */
    KILL_GRACE,
    /**
     * A routing link closed a while ago and the job is still on: its other end is reported lost.
     * The wait lets the spawn tree name the real failure first: a daemon whose spawn parent died
     * ends, and closes its routing links, as a consequence.
     */
    ROUTING_LINK_LOSS,
    /**
     * An ending signal the head passed on to a job's ranks is a while old: the daemon's own
     * signal after it is no longer the same delivery to its process group ({@code LocalJob}).
     */
    SIGNAL_ECHO,
    /** The rank ends collected since the first of them go up as one message ({@code ExitBatch}). */
    EXIT_BATCH
}
