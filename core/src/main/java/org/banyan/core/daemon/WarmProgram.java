package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Java program a daemon keeps started and waiting for a DVM's queued job ({@code pool}), so
 * that an expansion placed on its host takes a JVM that has already started (the JVM's own start
 * and the loading of the program's main class) instead of starting one: the warm pool of
 * docs/malleability.md. The waiting JVM runs the program's own command line with an agent in
 * front ({@link #command}); the agent waits for the rank's variables on its stdin, sets them,
 * and lets {@code main} run.
 *
 * <p>A waiting JVM serves a rank only where starting it cold would give the same process: the
 * same program, arguments and directory, the variables it started with all among the rank's
 * (the rank's own are set when it is taken), output forwarded (not to files), no stdin and no
 * CPU binding (a JVM's start cannot be redone under another mask).
 *
 * @param env     the job's variables (without a generation's or a rank's), set when the JVM starts
 * @param workdir the ranks' working directory
 */
public record WarmProgram(int pool, String executable, List<String> args, Map<String, String> env, String workdir) {
    /** Lets the agent set the rank's variables (a restricted call) without a warning on the rank's stderr. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    public WarmProgram {
        args = List.copyOf(args);
        env = Map.copyOf(env);
    }

    /** Whether {@code executable} starts a JVM (a {@code java} launcher), the only kind kept warm. */
    public static boolean isJava(String executable) {
        return executable != null && (executable.equals("java") || executable.endsWith("/java"));
    }

    /** The waiting JVM's command line: the program's, with the agent's options after the launcher. */
    public List<String> command(String agentJar) {
        List<String> cmd = new ArrayList<>(args.size() + 3);
        cmd.add(executable);
        cmd.add(NATIVE_ACCESS);
        cmd.add("-javaagent:" + agentJar);
        cmd.addAll(args);
        return cmd;
    }

    /** Whether a JVM waiting for this program can be rank {@code launch}. */
    public boolean serves(RankLaunch launch) {
        if (!executable.equals(launch.executable()) || !args.equals(launch.args()) || !java.util.Objects.equals(workdir,
                launch.workdir()) || launch.stdoutFile() != null || launch.stdinFromHead() || launch.stdinFile() != null
                || launch.cpus().length > 0 || launch.bindError() != null || launch.needsBytes()) {
            return false;
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!e.getValue().equals(launch.env().get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
