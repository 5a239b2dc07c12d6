package org.banyan.core.daemon;

/** Timers a daemon arms. */
public enum DaemonTimer {
    /** The SIGTERM grace period is over: SIGKILL what is left. */
    KILL_GRACE
}
