package org.banyan.runtime.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a daemon starts a child daemon on a host. Passed down the tree as a spec string
 * ({@link #spec()}), so that every daemon spawns its own children the same way.
 */
public sealed interface LaunchAgent permits LaunchAgent.InProcess, LaunchAgent.Local, LaunchAgent.RemoteShell,
        LaunchAgent.Slurm {
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

    /**
     * Inside a Slurm allocation: the daemon is a job step of one task on its host
     * ({@code srun --nodes=1 --ntasks=1 --nodelist=HOST --overlap --whole}), so Slurm accounts
     * for it and ends it with the allocation. {@code --whole} gives the step every CPU the
     * allocation has on the node, which its ranks inherit. Daemons start their children the
     * same way.
     */
    record Slurm() implements LaunchAgent {
        public String spec() {
            return "slurm";
        }

        public List<String> commandFor(String host, List<String> daemonCommand) {
            List<String> out = new ArrayList<>(List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=" + host,
                    "--overlap", "--whole", "--quiet", "--kill-on-bad-exit=1"));
            out.addAll(daemonCommand);
            return out;
        }
    }

    String spec();

    /** Whether children run on other hosts (and must reach the parent over the network). */
    default boolean remote() {
        return this instanceof RemoteShell || this instanceof Slurm;
    }

    /** Reads a spec as written by {@link #spec()}, or the {@code --launcher} names. */
    static LaunchAgent parse(String spec) {
        if (spec.equals("inproc")) {
            return new InProcess();
        }
        if (spec.equals("local")) {
            return new Local();
        }
        if (spec.equals("slurm")) {
            return new Slurm();
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
        throw new IllegalArgumentException("unknown launch agent '" + spec + "' (valid: inproc, local, ssh, slurm)");
    }

    /** Single-quotes for a POSIX shell, unless the word needs nothing. */
    static String shellQuote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./:=,+@%".indexOf(c) >= 0)) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
