package org.banyan.core.pilot;

import java.util.List;

/** What the {@link TaskAgent} tells its driver to do, in order: its calls' answers. */
public sealed interface AgentAction {
    /** Start an executable task on {@code node}. */
    record Launch(int node, TaskSpec spec) implements AgentAction {}

    /**
     * Start a task of several processes (an MPI task, or an executable task of several
     * ranks) as a job on the placement's nodes, as many ranks per node as placed.
     */
    record LaunchJob(int taskId, TaskRequest request, Placement placement, int restarts) implements AgentAction {}

    /** Signal a running task: a one-process task on its node, or the job of a {@link LaunchJob} task. */
    record Signal(int taskId, List<Integer> nodes, boolean job, int signal) implements AgentAction {}

    /**
     * A task that ran as a job left it (its placement lost a node): the cores of {@code placement}
     * stay taken until that job has ended on its other nodes, then go back through
     * {@link TaskAgent#releaseCores} (the lost node's are gone already).
     */
    record KeepCores(int taskId, Placement placement) implements AgentAction {}

    /** Fire {@link TaskAgent#timedOut} for the task after the delay. */
    record ArmTimeout(int taskId, long millis) implements AgentAction {}

    /** The task reached {@code state}; for FAILED, {@code exitCode} and what went wrong. */
    record State(int taskId, TaskState state, int exitCode, String detail) implements AgentAction {}
}
