package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long a client waits for an answer a DVM gives at once (its hello, a submission's ids, a
 * status), as Slurm's commands wait {@code MessageTimeout} for slurmctld: a DVM whose head is
 * stopped or hung still accepts connections (the kernel does), so without a bound its clients
 * waited for ever. Waiting for tasks or jobs to end has no bound: that is not an answer.
 */
public final class AnswerTimeout {
    /** Seconds, a decimal number above zero; 30 when unset. */
    public static final String VARIABLE = "BANYAN_DVM_TIMEOUT";
    static final int DEFAULT_MILLIS = 30_000;

    private AnswerTimeout() {}

    /** The wait {@code value} (the variable's, or null) asks for, in milliseconds. */
    public static int millis(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_MILLIS;
        }
        double seconds;
        try {
            seconds = Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            seconds = Double.NaN;
        }
        if (!(seconds > 0) || seconds > Integer.MAX_VALUE / 1000.0) {
            throw new IllegalArgumentException(VARIABLE + "='" + value + "' is not a number of seconds above zero");
        }
        return (int) Math.max(1, Math.round(seconds * 1000));
    }

    static String seconds(int millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis / 1000.0 + " s";
    }

    /**
     * "; its process N is stopped..." when {@code pid} is a stopped banyan process of this host
     * (Ctrl-Z on the terminal that started it, SIGSTOP): the likeliest cause, and its remedy.
     */
    static String stoppedHint(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"));
            if ((state == 'T' || state == 't') && cmdline.contains("org.banyan")) {
                return "; its process " + pid + " is stopped (kill -CONT " + pid + " lets it go on)";
            }
        } catch (IOException | RuntimeException e) {
            // not on this host, or gone: nothing to add
        }
        return " (" + VARIABLE + " sets this wait)";
    }

    /** No answer came within the wait: the DVM is stopped, hung or cut off. */
    public static final class NoAnswer extends IOException {
        NoAnswer(int millis, long pid) {
            super("the DVM did not answer within " + seconds(millis) + stoppedHint(pid));
        }
    }
}
