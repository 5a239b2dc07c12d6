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
     * How a rank ended, for messages: an exit status above 128 is what the JDK and shells report
     * for death by signal (status - 128).
     */
    public static String describeStatus(int status) {
        if (status > 128 && status < 128 + NAMES.length) {
            int sig = status - 128;
            return "was killed by signal " + sig + " (" + name(sig) + ")";
        }
        return "exited with status " + status;
    }
}
