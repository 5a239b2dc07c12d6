package org.banyan.core.daemon;

import java.util.List;
import java.util.Map;

/**
 * Everything a driver needs to start one rank.
 *
 * @param env        variables to set on top of the daemon's own environment
 * @param workdir    working directory, or {@code null} for the daemon's
 * @param workdirRequired whether a missing {@code workdir} fails the rank ({@code --wdir}) or falls
 *                   back to the daemon's directory (the launch directory, absent on this host)
 * @param stdinFromHead whether the rank reads stdin forwarded from the head (otherwise /dev/null)
 * @param stdoutFile    where stdout goes as a file (a task's), or null to forward it up the tree
 * @param stderrFile    the same for stderr
 * @param stdinFile     a file its stdin reads (a task's), or null: forwarded from the head, or /dev/null
 * @param cpus          the OS indexes of the CPUs the rank is bound to, empty for none
 * @param bindError     why the rank's binding cannot be made on this host (it is then not started), or null
 */
public record RankLaunch(int jobId, int rank, String executable, List<String> args, Map<String, String> env, String workdir,
                         boolean workdirRequired, boolean stdinFromHead, String stdoutFile, String stderrFile,
                         String stdinFile, int[] cpus, String bindError) {
    private static final int[] UNBOUND = new int[0];

    public RankLaunch {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        cpus = cpus.length == 0 ? UNBOUND : cpus.clone();
    }

    /**
     * Whether a string of this launch stands for bytes that are not UTF-8 ({@link
     * org.banyan.core.wire.RawText}): only a spawner that takes bytes can start it as asked.
     */
    public boolean needsBytes() {
        if (raw(executable) || raw(workdir) || raw(stdoutFile) || raw(stderrFile) || raw(stdinFile)) {
            return true;
        }
        for (String a : args) {
            if (raw(a)) {
                return true;
            }
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (raw(e.getKey()) || raw(e.getValue())) {
                return true;
            }
        }
        return false;
    }

    private static boolean raw(String s) {
        if (s == null) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (org.banyan.core.wire.RawText.isEscapedByte(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** A task's process: not bound, its streams to and from files. */
    public static RankLaunch task(int taskId, String executable, List<String> args, Map<String, String> env, String sandbox,
                                  String stdoutFile, String stderrFile, String stdinFile) {
        return new RankLaunch(org.banyan.core.wire.OverlayMessage.TASKS, taskId, executable, args, env, sandbox, true, false,
                stdoutFile, stderrFile, stdinFile, UNBOUND, null);
    }

    /** A rank that is not bound, whose output is forwarded up the tree. */
    public RankLaunch(int jobId, int rank, String executable, List<String> args, Map<String, String> env, String workdir,
                      boolean workdirRequired, boolean stdinFromHead) {
        this(jobId, rank, executable, args, env, workdir, workdirRequired, stdinFromHead, null, null, null, UNBOUND, null);
    }
}
