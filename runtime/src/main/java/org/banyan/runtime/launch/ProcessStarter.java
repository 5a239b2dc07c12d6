package org.banyan.runtime.launch;

import java.io.IOException;
import java.util.List;

/**
 * One process per child: the daemon JVM itself on this machine ({@link LaunchAgent.Local}), or
 * wrapped in a remote shell ({@link LaunchAgent.RemoteShell}) or a one-task srun
 * ({@link LaunchAgent.Slurm}). The child's daemons start theirs the same way.
 */
public final class ProcessStarter implements ChildStarter {
    private final LaunchAgent agent;
    private final ChildProcesses processes = new ChildProcesses();
    private volatile boolean closing;

    public ProcessStarter(LaunchAgent agent) {
        this.agent = agent;
    }

    @Override
    public void start(int childId, String host, String parentAddress, Losses losses) {
        List<String> command = agent.commandFor(host, DaemonCommand.build(childId, host, parentAddress, agent));
        try {
            processes.start(childId, command, (status, lastLine) -> {
                if (!closing) {
                    losses.lost(childId, "daemon via " + command.getFirst() + " ended, exit status " + status
                            + (lastLine.isEmpty() ? "" : ": " + lastLine));
                }
            });
        } catch (IOException e) {
            losses.lost(childId, "cannot run " + command.getFirst() + ": " + e.getMessage());
        }
    }

    @Override
    public void abandon(int childId) {
        processes.kill(childId);
    }

    @Override
    public void awaitOrKill(long deadlineNanos) {
        closing = true;
        processes.awaitOrKill(deadlineNanos);
    }
}
