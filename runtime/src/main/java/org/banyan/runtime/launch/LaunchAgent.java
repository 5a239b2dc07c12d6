package org.banyan.runtime.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a daemon starts a child daemon on a host. Passed down the tree as a spec string
 * ({@link #spec()}), so that every daemon spawns its own children the same way.
 */
public sealed interface LaunchAgent permits LaunchAgent.InProcess, LaunchAgent.Local, LaunchAgent.RemoteShell,
        LaunchAgent.Slurm, LaunchAgent.SlurmStep {
    /** The variable that names, to a daemon started in an elastic DVM's own Slurm allocation, that allocation. */
    String CANCEL_ON_ORPHAN = "BANYAN_CANCEL_ON_ORPHAN";

    /** Whether the daemon runs in the launching JVM (its PMIx server is that JVM's). */
    default boolean inThisProcess() {
        return this instanceof InProcess;
    }

    /** Whether the daemons come from the Slurm job's allocation (srun), the hosts being its. */
    default boolean fromSlurm() {
        return this instanceof Slurm || this instanceof SlurmStep;
    }

    /** Whether each daemon is a Slurm step of its own, which can be given back and started anew on its host. */
    default boolean stepPerDaemon() {
        return this instanceof Slurm;
    }

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

        @Override
        public boolean remote() {
            return true;
        }

        /** The full command: the remote shell, the host, and the daemon command as one quoted string. */
        @Override
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
     * same way. With {@code jobId}, in that allocation instead (an elastic DVM's host from a
     * second allocation); the spec does not carry it: such a daemon starts no children.
     */
    record Slurm(String jobId) implements LaunchAgent {
        /** In the allocation the environment names (SLURM_JOB_ID). */
        public Slurm() {
            this(null);
        }

        public String spec() {
            return "slurm";
        }

        @Override
        public boolean remote() {
            return true;
        }

        @Override
        public List<String> commandFor(String host, List<String> daemonCommand) {
            List<String> out = new ArrayList<>(List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=" + host,
                    "--overlap", "--whole", "--quiet", "--kill-on-bad-exit=1"));
            if (jobId != null) {
                out.add(1, "--jobid=" + jobId);
                // an allocation of the DVM's own: its daemon cancels it if the head dies (OrphanedAllocation)
                out.add(2, "--export=ALL," + CANCEL_ON_ORPHAN + "=" + jobId);
            }
            out.addAll(daemonCommand);
            return out;
        }
    }

    /**
     * Inside a Slurm allocation, with static endpoints: one job step starts every daemon at once
     * ({@code srun --nodes=N --ntasks-per-node=1 --overlap --whole}), and each daemon listens on
     * {@code port}, derived from the job, so a child finds its tree parent at the parent's host
     * and that port without being told where. Nothing connects back to the head but its own
     * children in the tree. {@code hostlist} is the job's nodes in Slurm syntax (the head's
     * SLURM_JOB_NODELIST); daemons get it on their command line, not in their agent.
     */
    record SlurmStep(int port, String hostlist) implements LaunchAgent {
        public String spec() {
            return "slurm-step:" + port;
        }

        @Override
        public boolean remote() {
            return true;
        }

        @Override
        public int listenPort() {
            return port;
        }

        /** The srun of the whole step, {@code nodes} tasks, one per node, around the daemon command. */
        public List<String> commandForAll(int nodes, List<String> daemonCommand) {
            List<String> out = new ArrayList<>(List.of("srun", "--nodes=" + nodes, "--ntasks=" + nodes,
                    "--ntasks-per-node=1", "--overlap", "--whole", "--quiet"));
            out.addAll(daemonCommand);
            return out;
        }

        /**
         * The port for a job: 20000 + job id mod 20000, or BANYAN_STATIC_PORT. Two runs with
         * static endpoints at once in one allocation collide; the second's daemons say so.
         */
        public static int portFor(java.util.Map<String, String> env) {
            String fixed = env.get("BANYAN_STATIC_PORT");
            if (fixed != null) {
                return Integer.parseInt(fixed.strip());
            }
            long job = Long.parseLong(env.getOrDefault("SLURM_JOB_ID", env.getOrDefault("SLURM_JOBID", "0")).strip());
            return 20000 + (int) (job % 20000);
        }
    }

    String spec();

    /** Whether children run on other hosts (and must reach the parent over the network). */
    default boolean remote() {
        return false;
    }

    /** Where a vertex listens for its children: 0 for any free port, or the static endpoint. */
    default int listenPort() {
        return 0;
    }

    /** The command that starts a daemon on {@code host}: the daemon command itself, or wrapped. */
    default List<String> commandFor(String host, List<String> daemonCommand) {
        return daemonCommand;
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
        if (spec.startsWith("slurm-step:")) {
            return new SlurmStep(Integer.parseInt(spec.substring(11)), null);
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
