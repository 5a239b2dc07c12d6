package org.banyan.core.dvm;

import org.banyan.core.head.HeadEvent;
import org.banyan.core.wire.ClientMessage;

/** What happens to a DVM, as its core hears it: from its daemons, its clients, and its timers. */
public sealed interface DvmEvent {
    /** The tree and the jobs on it: a daemon said something, a link broke, a signal came, a head timer fired. */
    record Head(HeadEvent event) implements DvmEvent {}

    /**
     * Stop, for a reason the driver knows ("by SIGTERM", "its program ended"): the clients are
     * told why before their connections close. A client's own stop comes as {@link ClientSaid}.
     */
    record Stop(String why) implements DvmEvent {}

    /** Client {@code client} (numbered by the driver, which proved its secret) sent a message. */
    record ClientSaid(int client, ClientMessage message) implements DvmEvent {}

    /**
     * Client {@code client} has more unread than the driver lets it have ({@code behind}), or
     * has caught up: its jobs wait for it meanwhile.
     */
    record ClientBacklog(int client, boolean behind) implements DvmEvent {}

    /** Client {@code client}'s connection ended. */
    record ClientGone(int client) implements DvmEvent {}

    /** Task {@code taskId}'s time is up. */
    record TaskTimeout(int taskId) implements DvmEvent {}

    /** Job {@code jobId}'s sandbox is made and its program read: its ranks are served {@code wireUp}. */
    record TaskJobPrepared(int jobId, org.banyan.core.job.WireUp wireUp) implements DvmEvent {}

    /** Job {@code jobId}'s sandbox could not be made, and why: its task fails. */
    record TaskJobUnprepared(int jobId, String why) implements DvmEvent {}

    /** A while after job {@code jobId} was held for its sandbox and program (the core's timer): still held, it is said. */
    record TaskJobSlow(int jobId) implements DvmEvent {}

    /** MPI task {@code taskId}'s output files are closed (the driver, which writes them). */
    record TaskOutputClosed(int taskId) implements DvmEvent {}

    /** The wait for the files of MPI task {@code taskId}, whose job {@code jobId} ended, is over (the core's timer). */
    record TaskOutputLate(int taskId, int jobId) implements DvmEvent {}

    /** A file of MPI task {@code taskId} could not be created ({@code why}): the task fails. */
    record TaskOutputFailed(int taskId, String why) implements DvmEvent {}

    /**
     * MPI task {@code taskId}'s output files have more waiting to be written than the driver lets
     * wait ({@code behind}), or have caught up: its job waits for them meanwhile.
     */
    record TaskOutputBacklog(int taskId, boolean behind) implements DvmEvent {}

    /** A chunk of the stdin file of job {@code jobId}, a task's (empty: the file's end), for its rank 0. */
    record TaskInput(int jobId, byte[] data) implements DvmEvent {}

    /** The stdin file of job {@code jobId}, a task's, could not be opened or read ({@code why}): the task fails. */
    record TaskInputFailed(int jobId, String why) implements DvmEvent {}

    /** A queued job's expansion to {@code generation} had its time to join. */
    record ResizeTimeout(int queueId, int generation) implements DvmEvent {}

    /** Time to send clients the task states gathered since the last time. */
    record FlushUpdates() implements DvmEvent {}

    /** An elastic DVM's probe of Slurm: the first job waiting there, and the idle nodes by name. */
    record SlurmSeen(org.banyan.rm.AllocationPolicy.Outside outside, java.util.Set<String> idle) implements DvmEvent {}

    /** Slurm granted job {@code job} on these hosts (after a {@link DvmAction.SlurmGrow}). */
    record SlurmGranted(String job, java.util.List<String> hosts) implements DvmEvent {}

    /** A {@link DvmAction.SlurmGrow} got nothing, and why. */
    record SlurmGrantFailed(String why) implements DvmEvent {}

    /** A {@link DvmAction.SlurmShrink} is done (its jobs shrunk or cancelled, or said why not in the log). */
    record SlurmShrunk(boolean last) implements DvmEvent {}
}
