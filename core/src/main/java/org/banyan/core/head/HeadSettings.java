package org.banyan.core.head;

/**
 * Head policy knobs.
 *
 * @param timeoutMillis      end the job after this long; 0 for never ({@code --timeout})
 * @param graceMillis        SIGTERM to SIGKILL delay when ending ranks
 * @param daemonStartMillis  how long daemons have to connect
 */
public record HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis) {
    /** Exit status when {@code --timeout} expires (as GNU timeout). */
    public static final int TIMEOUT_STATUS = 124;
    /** Exit status when a daemon is lost or cannot be started. */
    public static final int DAEMON_LOST_STATUS = 1;
    /** How long after a teardown starts the head gives up waiting for reports. */
    public static final long TEARDOWN_SLACK_MILLIS = 10_000;
}
