package org.banyan.runtime.daemon;

import org.banyan.core.tree.TopologySpec;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.launch.ProcessStarter;
import org.banyan.runtime.launch.SlurmStepStarter;

/** The one place a launch agent is turned into the starter of a vertex's children. */
public final class ChildStarters {
    private ChildStarters() {}

    /** For the head, the root: with static endpoints it starts the whole step of {@code daemons} daemons. */
    public static ChildStarter forHead(LaunchAgent agent, TopologySpec tree, int daemons) {
        return switch (agent) {
            case LaunchAgent.SlurmStep step -> new SlurmStepStarter(step, tree, daemons);
            default -> forDaemon(agent);
        };
    }

    /** For a daemon, which starts its own children the way it was started. */
    public static ChildStarter forDaemon(LaunchAgent agent) {
        return switch (agent) {
            case LaunchAgent.InProcess p -> new InProcessStarter(agent);
            case LaunchAgent.SlurmStep step -> ChildStarter.NONE;
            case LaunchAgent.Local l -> new ProcessStarter(agent);
            case LaunchAgent.RemoteShell r -> new ProcessStarter(agent);
            case LaunchAgent.Slurm s -> new ProcessStarter(agent);
        };
    }
}
