package org.banyan.runtime.launch;

import java.io.IOException;
import org.banyan.core.tree.TopologySpec;

/**
 * The head's starter with Slurm static endpoints: the first child asked for starts one job step
 * of every daemon ({@link LaunchAgent.SlurmStep}); each daemon finds its own parent, so the
 * other requests have nothing left to do. A daemon that fails to start is named by the head's
 * start timer, one that dies by its tree parent. Daemons of the step use {@link ChildStarter#NONE}.
 */
public final class SlurmStepStarter implements ChildStarter {
    private final LaunchAgent.SlurmStep step;
    private final TopologySpec tree;
    private final int daemons;
    private final ChildProcesses processes = new ChildProcesses();
    private boolean started;

    public SlurmStepStarter(LaunchAgent.SlurmStep step, TopologySpec tree, int daemons) {
        this.step = step;
        this.tree = tree;
        this.daemons = daemons;
    }

    @Override
    public synchronized void start(int childId, String host, String parentAddress, Losses losses) {
        if (started) {
            return;
        }
        started = true;
        try {
            processes.start(-1, step.commandForAll(daemons, DaemonCommand.buildStatic(parentAddress, tree, step.hostlist(),
                    step)), null);
        } catch (IOException e) {
            for (int d = 0; d < daemons; d++) {
                losses.lost(d, "cannot run srun: " + e.getMessage());
            }
        }
    }

    @Override
    public void awaitOrKill(long deadlineNanos) {
        processes.awaitOrKill(deadlineNanos);
    }
}
