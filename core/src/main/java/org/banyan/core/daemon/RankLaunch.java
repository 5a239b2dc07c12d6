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
 */
public record RankLaunch(int jobId, int rank, String executable, List<String> args, Map<String, String> env, String workdir,
                         boolean workdirRequired, boolean stdinFromHead, String stdoutFile, String stderrFile) {
    public RankLaunch {
        args = List.copyOf(args);
        env = Map.copyOf(env);
    }

    /** A rank whose output is forwarded up the tree. */
    public RankLaunch(int jobId, int rank, String executable, List<String> args, Map<String, String> env, String workdir,
                      boolean workdirRequired, boolean stdinFromHead) {
        this(jobId, rank, executable, args, env, workdir, workdirRequired, stdinFromHead, null, null);
    }
}
