package org.banyan.runtime.dvm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.banyan.runtime.os.ProcessScan;

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
     * "; its process N is stopped..." when the DVM's contact {@code address} is this host's and
     * {@code pid} is a stopped banyan process here (Ctrl-Z on the terminal that started it,
     * SIGSTOP): the likeliest cause, and its remedy. Another host's pid says nothing about a
     * process here, so a DVM elsewhere gets no such guess.
     */
    static String stoppedHint(String address, long pid) {
        if (isThisHost(address)) {
            ProcessScan.Proc head = ProcessScan.of(pid);
            if (head != null && (head.state() == 'T' || head.state() == 't') && isBanyan(pid)) {
                return "; its process " + pid + " is stopped (kill -CONT " + pid + " lets it go on)";
            }
        }
        return " (" + VARIABLE + " sets this wait)";
    }

    private static boolean isBanyan(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.ISO_8859_1)
                    .contains("org.banyan");
        } catch (IOException | RuntimeException e) {
            return false; // gone meanwhile
        }
    }

    /** Whether {@code address} ({@code host:port}, {@code [v6]:port}) names an address of this host. */
    static boolean isThisHost(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon > 0 ? address.substring(0, colon) : address;
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            InetAddress at = InetAddress.getByName(host);
            return at.isLoopbackAddress() || at.isAnyLocalAddress() || NetworkInterface.getByInetAddress(at) != null;
        } catch (IOException | RuntimeException e) {
            return false; // a name that no longer resolves is no host of ours
        }
    }

    /** No answer came within the wait: the DVM is stopped, hung or cut off. */
    public static final class NoAnswer extends IOException {
        NoAnswer(int millis, String address, long pid) {
            super("the DVM did not answer within " + seconds(millis) + stoppedHint(address, pid));
        }
    }
}
