package org.banyan.core.head;

/** Timers the head arms. */
public enum HeadTimer {
    /** Daemons had this long to say hello. */
    DAEMON_START,
    /** The user's {@code --timeout}. */
    JOB_TIMEOUT,
    /** Teardown was asked for long enough ago that the head stops waiting for reports. */
    TEARDOWN_DEADLINE,
    /** The stats of {@code --report-launch} had long enough to arrive. */
    STATS_DEADLINE,
    /** A routing link closed a while ago and the job is still on (see the daemon's timer of that name). */
    ROUTING_LINK_LOSS,
    /**
     * An ending signal came a moment ago: the same one again before this fires is the same
     * delivery, not the user's second ({@link HeadSettings#SIGNAL_ECHO_MILLIS}).
     */
    SIGNAL_ECHO,
    /** A lookup that waits for its name gave it long enough (PMIx's {@code PMIX_TIMEOUT}); the id is the wait's. */
    NAME_WAIT
}
