package org.banyan.core.dvm;

import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/** What the DVM core asks its driver to do: send, start, write, arm a timer, log, finish. */
public sealed interface DvmAction {
    /** Send to a daemon (along the tree). */
    record ToDaemon(int daemon, OverlayMessage message) implements DvmAction {}

    /** Send to a routing peer of the head. */
    record ToPeer(int vertex, OverlayMessage message) implements DvmAction {}

    /** Start the daemon of host {@code daemon} on {@code host}. */
    record SpawnDaemon(int daemon, String host) implements DvmAction {}

    /** Hand {@code event} back to the core after {@code delayMillis}. */
    record Arm(DvmEvent event, long delayMillis) implements DvmAction {}

    /** Send to a client; a client whose connection is gone is skipped (its {@link DvmEvent.ClientGone} follows). */
    record ToClient(int client, ClientMessage message) implements DvmAction {}

    /** Send to every client connected, including those that never said anything after their hello (watchers). */
    record ToEveryClient(ClientMessage message) implements DvmAction {}

    /** A line for the DVM's log. */
    record Log(String line) implements DvmAction {}

    /**
     * The daemons are up: publish the contact, open the door to clients, and log
     * {@code "ready: " + summary}; if the contact cannot be written, stop.
     */
    record Publish(String summary) implements DvmAction {}

    /**
     * An MPI task's job is about to start: make its {@code sandbox} and read its program
     * ({@code executable}, found from the sandbox along {@code path}, the driver's own PATH when
     * null) for how its ranks are served, off the loop (a hung file system holds neither), then
     * say {@link DvmEvent.TaskJobPrepared} or {@link DvmEvent.TaskJobUnprepared}.
     */
    record PrepareTaskJob(int jobId, String sandbox, String executable, String path) implements DvmAction {}

    /** An MPI task's job starts: create its stdout and stderr files in its sandbox (made by then). */
    record OpenTaskOutput(int taskId, String sandbox, String stdout, String stderr) implements DvmAction {}

    /** An MPI task's job wrote: append to its stdout ({@code stream} 1) or stderr (2) file. */
    record TaskOutput(int taskId, int stream, byte[] data) implements DvmAction {}

    /** An MPI task's job ended or was left: close its files. */
    record CloseTaskOutput(int taskId) implements DvmAction {}

    /**
     * An MPI task's files did not close in time and the task failed for it: leave them, telling
     * nothing more of them, and free what waits on them (a FIFO's open, a write nobody takes).
     */
    record AbandonTaskOutput(int taskId) implements DvmAction {}

    /**
     * The rank 0 of job {@code jobId}, a task's, reads the task's {@code stdin} file (relative to
     * {@code sandbox}): read it off the loop, within the credit, and hand back each chunk as
     * {@link DvmEvent.TaskInput}.
     */
    record OpenTaskInput(int jobId, String sandbox, String stdin) implements DvmAction {}

    /** How many bytes of job {@code jobId}'s stdin file may have been handed back in all ({@code -1}: no more). */
    record TaskInputCredit(int jobId, long limit) implements DvmAction {}

    /** Job {@code jobId} ended or was left: stop reading its stdin file (a FIFO's open included). */
    record CloseTaskInput(int jobId) implements DvmAction {}

    /**
     * An elastic DVM wants {@code n} more hosts: ask Slurm for an allocation of them
     * ({@code preferred} among them when idle, none of {@code serving}, each with {@code cpus}
     * CPUs), then say what it granted ({@link DvmEvent.SlurmGranted} or
     * {@link DvmEvent.SlurmGrantFailed}).
     */
    record SlurmGrow(int n, java.util.List<String> preferred, java.util.List<String> serving, int cpus) implements DvmAction {}

    /**
     * Released daemons are gone: each Slurm job of {@code letGo} lets those hosts go, keeping
     * {@code keep}'s (cancelled when it keeps none), once its steps there ended; then
     * {@link DvmEvent.SlurmShrunk} with {@code last}.
     */
    record SlurmShrink(java.util.Map<String, java.util.List<String>> letGo, java.util.Map<String, java.util.List<String>> keep,
                       boolean last) implements DvmAction {}

    /**
     * Open the dashboard on {@code bind:port} (or find the open one) and answer the client with
     * {@link org.banyan.core.wire.ClientMessage.DashboardAt}; from then on, ask for a
     * {@link DvmCore#snapshot} each second while someone watches.
     */
    record OpenDashboard(int client, String bind, int port) implements DvmAction {}

    /** The DVM is over, with this exit status. */
    record Finish(int exitStatus) implements DvmAction {}
}
