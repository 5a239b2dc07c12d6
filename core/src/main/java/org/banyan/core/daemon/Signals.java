package org.banyan.core.daemon;

/** Linux signal numbers the runtime uses, and their names for messages. */
public final class Signals {
    public static final int SIGHUP = 1;
    public static final int SIGINT = 2;
    public static final int SIGKILL = 9;
    public static final int SIGUSR1 = 10;
    public static final int SIGUSR2 = 12;
    public static final int SIGTERM = 15;
    public static final int SIGCONT = 18;
    public static final int SIGSTOP = 19;
    public static final int SIGTSTP = 20;

    private static final String[] NAMES = {
        null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
        "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
        "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
        "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS"
    };

    private Signals() {}

    /** Whether {@code signal} asks a run to end (SIGINT, SIGTERM, SIGHUP), as the head, a job and a DVM take them. */
    public static boolean ends(int signal) {
        return signal == SIGINT || signal == SIGTERM || signal == SIGHUP;
    }

    public static String name(int signal) {
        return signal > 0 && signal < NAMES.length ? NAMES[signal] : "signal " + signal;
    }

    /**
     * Whether an exit status may be a death by signal (status - 128), as the JDK and shells report
     * one: what is assumed where the wait status is not known (a rank the JDK started, an end made
     * up by the runtime itself).
     */
    public static boolean looksSignaled(int status) {
        return status > 128 && status < 128 + NAMES.length;
    }

    /** How a rank ended, for messages, when only its exit status is known ({@link #looksSignaled}). */
    public static String describeStatus(int status) {
        return describeStatus(status, looksSignaled(status));
    }

    /**
     * How a rank ended, for messages: killed by signal {@code status - 128} when {@code signaled},
     * else its exit status (a program may exit with 140 itself, or a shell report so what it ran).
     */
    public static String describeStatus(int status, boolean signaled) {
        if (signaled && status > 128) {
            int sig = status - 128;
            return "was killed by signal " + sig + " (" + name(sig) + ")";
        }
        return "exited with status " + status;
    }
}
