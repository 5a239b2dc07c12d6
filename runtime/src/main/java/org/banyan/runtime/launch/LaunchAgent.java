package org.banyan.runtime.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a daemon starts a child daemon on a host. Passed down the tree as a spec string
 * ({@link #spec()}), so that every daemon spawns its own children the same way.
 */
public sealed interface LaunchAgent {
    /** The daemon runs on a thread of the parent's JVM (single host only). */
    record InProcess() implements LaunchAgent {
        public String spec() {
            return "inproc";
        }
    }

    /** The daemon is a process on this machine, whatever the host name (tests, one-machine trees). */
    record Local() implements LaunchAgent {
        public String spec() {
            return "local";
        }
    }

    /** The daemon is started on the host through a remote shell, {@code ssh} by default. */
    record RemoteShell(List<String> command) implements LaunchAgent {
        public RemoteShell {
            command = List.copyOf(command);
        }

        public String spec() {
            return "ssh:" + String.join(" ", command);
        }

        /** The full command: the remote shell, the host, and the daemon command as one quoted string. */
        public List<String> commandFor(String host, List<String> daemonCommand) {
            List<String> out = new ArrayList<>(command);
            out.add(host);
            StringBuilder remote = new StringBuilder();
            for (String arg : daemonCommand) {
                if (!remote.isEmpty()) {
                    remote.append(' ');
                }
                remote.append(shellQuote(arg));
            }
            out.add(remote.toString());
            return out;
        }
    }

    String spec();

    /** Reads a spec as written by {@link #spec()}, or the {@code --launcher} names. */
    static LaunchAgent parse(String spec) {
        if (spec.equals("inproc")) {
            return new InProcess();
        }
        if (spec.equals("local")) {
            return new Local();
        }
        if (spec.equals("ssh")) {
            return new RemoteShell(List.of("ssh", "-x"));
        }
        if (spec.startsWith("ssh:")) {
            String cmd = spec.substring(4).strip();
            if (cmd.isEmpty()) {
                throw new IllegalArgumentException("empty remote shell command");
            }
            return new RemoteShell(Arrays.asList(cmd.split("\\s+")));
        }
        throw new IllegalArgumentException("unknown launch agent '" + spec + "' (valid: inproc, local, ssh)");
    }

    /** Single-quotes for a POSIX shell, unless the word needs nothing. */
    static String shellQuote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./:=,+@%".indexOf(c) >= 0)) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
