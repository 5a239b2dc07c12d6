package org.banyan.core.head;

/**
 * Head policy knobs.
 *
 * @param timeoutMillis      end the job after this long; 0 for never ({@code --timeout})
 * @param graceMillis        SIGTERM to SIGKILL delay when ending ranks
 * @param daemonStartMillis  how long daemons have to connect
 * @param reportLaunch       gather every daemon's stats at the end and print the launch report
 * @param allExitCodes       print every rank's exit status at the end, by host (Hydra's {@code -print-all-exitcodes})
 * @param keepGoing          a rank that fails does not end the others (mpirun's {@code --enable-recovery},
 *                           Hydra's {@code -disable-auto-cleanup}); the job's status is still the first failure's
 * @param stateOnTimeout     when the timeout ends the job, say which ranks were still running, by host
 *                           (mpirun's {@code --report-state-on-timeout})
 * @param rankBase           what the job's rank 0 is called in its lines: a malleable job's expansion
 *                           runs as a job of its own whose ranks are the world's from this one on
 * @param command            the command the job's lines are said by ({@code banyan run}; a queued
 *                           job's user typed {@code banyan dvm submit})
 */
public record HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis, boolean reportLaunch,
                           boolean allExitCodes, boolean keepGoing, boolean stateOnTimeout, int rankBase, String command) {
    public static final String RUN = "banyan run";

    public HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis, boolean reportLaunch,
                        boolean allExitCodes, boolean keepGoing, boolean stateOnTimeout) {
        this(timeoutMillis, graceMillis, daemonStartMillis, reportLaunch, allExitCodes, keepGoing, stateOnTimeout, 0, RUN);
    }

    public HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis, boolean reportLaunch,
                        boolean allExitCodes, boolean keepGoing) {
        this(timeoutMillis, graceMillis, daemonStartMillis, reportLaunch, allExitCodes, keepGoing, false);
    }

    public HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis, boolean reportLaunch, boolean allExitCodes) {
        this(timeoutMillis, graceMillis, daemonStartMillis, reportLaunch, allExitCodes, false);
    }

    public HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis) {
        this(timeoutMillis, graceMillis, daemonStartMillis, false);
    }

    public HeadSettings(long timeoutMillis, int graceMillis, long daemonStartMillis, boolean reportLaunch) {
        this(timeoutMillis, graceMillis, daemonStartMillis, reportLaunch, false);
    }

    /** A DVM job's settings: the DVM's grace and daemon start, the job's own timeout, no launch report. */
    public HeadSettings forJob(long jobTimeoutMillis) {
        return new HeadSettings(jobTimeoutMillis, graceMillis, daemonStartMillis, false);
    }

    /**
     * A queued job's: its lines said by {@code command}, its ranks named from {@code base} on (an
     * expansion's: the world rank of its first).
     */
    public HeadSettings queued(String command, int base) {
        return new HeadSettings(timeoutMillis, graceMillis, daemonStartMillis, reportLaunch, allExitCodes, keepGoing,
                stateOnTimeout, base, command);
    }

    /** How long the head waits for the stats of {@code --report-launch}. */
    public static final long STATS_MILLIS = 5000;

    /** Exit status when {@code --timeout} expires (as GNU timeout). */
    public static final int TIMEOUT_STATUS = 124;
    /** Exit status when a daemon is lost or cannot be started. */
    public static final int DAEMON_LOST_STATUS = 1;
    /**
     * How long the same ending signal counts as one delivery. {@code timeout(1)} sends its signal
     * to its child and then to its whole process group, and a {@code kill} of the group reaches
     * the head the same way: two SIGTERMs microseconds apart, which read as a user's second
     * signal ended the ranks with SIGKILL at once, without the grace the first one gives them.
     * No one presses Ctrl-C twice this fast.
     */
    public static final long SIGNAL_ECHO_MILLIS = 250;
    /** How long after a teardown starts the head gives up waiting for reports. */
    public static final long TEARDOWN_SLACK_MILLIS = 10_000;
}
