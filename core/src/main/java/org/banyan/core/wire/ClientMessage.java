package org.banyan.core.wire;

import java.util.List;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.RankPlacement;

/**
 * Messages between a persistent DVM's head and its clients ({@code banyan run --dvm},
 * {@code banyan dvm status|stop}, the pilot). Encoded only by {@link ClientCodec}. The DVM's
 * first message is a {@link Challenge}, a client's first a {@link Hello} that proves the DVM's
 * secret against it; anything else, or a wrong proof, and the DVM closes the connection. The
 * {@link Welcome} proves the secret back, against the client's own nonce: a client sends nothing
 * more to a process that cannot.
 */
public sealed interface ClientMessage {
    // --- client to DVM ---------------------------------------------------------------------

    /**
     * First message: the proof of the secret from the DVM's secret file against the DVM's
     * {@link Challenge} (the secret itself before protocol 10), who asks (for the DVM's log), and the
     * client's {@link ClientCodec#PROTOCOL}: a DVM refuses another, so a DVM left running across
     * an upgrade of banyan says so instead of misreading what a newer client sends. {@code nonce}
     * is the client's fresh random value that the {@link Welcome} must prove the secret against
     * (empty from a client before protocol 11).
     */
    record Hello(String secret, String client, int protocol, String nonce) implements ClientMessage {
        public Hello {
            java.util.Objects.requireNonNull(nonce, "nonce");
        }

        /** This build's hello. */
        public Hello(String secret, String client, String nonce) {
            this(secret, client, ClientCodec.PROTOCOL, nonce);
        }
    }

    /**
     * Run a job on the DVM's daemons; the DVM places it on the slots not in use.
     *
     * @param timeoutMillis 0 for none
     */
    /** {@code wireUp}: how the ranks are served (the DVM names the job's PMIx namespace when it needs one). */
    record RunJob(List<AppContext> apps, MappingPolicy mapping, boolean oversubscribe, int stdinRank, String launchDir,
                  Modex modex, long timeoutMillis, RankPlacement placement, org.banyan.core.job.WireUp wireUp)
            implements ClientMessage {
        public RunJob {
            apps = List.copyOf(apps);
        }

        /** A job whose ranks use PMI-1/PMI-2. */
        public RunJob(List<AppContext> apps, MappingPolicy mapping, boolean oversubscribe, int stdinRank, String launchDir,
                      Modex modex, long timeoutMillis, RankPlacement placement) {
            this(apps, mapping, oversubscribe, stdinRank, launchDir, modex, timeoutMillis, placement, org.banyan.core.job.WireUp.PMI);
        }

        /** A job mapped by policy, not bound. */
        public RunJob(List<AppContext> apps, MappingPolicy mapping, boolean oversubscribe, int stdinRank, String launchDir,
                      Modex modex, long timeoutMillis) {
            this(apps, mapping, oversubscribe, stdinRank, launchDir, modex, timeoutMillis, RankPlacement.NONE);
        }
    }

    /** Bytes for the job's stdin rank; an empty array closes its stdin. */
    record Stdin(int jobId, byte[] data) implements ClientMessage {}

    /** The user's signal, for the job's ranks (Ctrl-C on the client). */
    record SignalJob(int jobId, int signal) implements ClientMessage {}

    record StatusRequest() implements ClientMessage {}

    /** Tasks for the DVM's agent; answered by {@link TasksAccepted} with their ids, in order. */
    record SubmitTasks(List<org.banyan.core.pilot.TaskRequest> tasks) implements ClientMessage {
        public SubmitTasks {
            tasks = List.copyOf(tasks);
        }
    }

    /** Cancel tasks (of any client: whoever has the secret is the DVM's owner), in whatever state they are. */
    record CancelTasks(List<Integer> taskIds) implements ClientMessage {
        public CancelTasks {
            taskIds = List.copyOf(taskIds);
        }
    }

    /** End the DVM: every job, every daemon, the head. */
    record Stop() implements ClientMessage {}

    /** The tasks this client submits from now on outlive its connection (submit --detach). */
    record Detach() implements ClientMessage {}

    /**
     * Follow tasks of any client: the head answers with {@link TasksAccepted} listing those it
     * knows (for an empty list: every unfinished task), then their current states as
     * {@link TaskUpdates}, then every later change.
     */
    record WatchTasks(List<Integer> taskIds) implements ClientMessage {
        public WatchTasks {
            taskIds = List.copyOf(taskIds);
        }
    }

    /**
     * Queue a job for the DVM's resource manager, which starts it on whole hosts when its turn
     * comes (first come, first served with EASY backfill): {@code run}'s one program, with
     * {@code ranksPerNode} ranks on each host. A malleable job ({@code minNodes < maxNodes}) is
     * started at its maximum and may be resized when it checks in.
     *
     * @param preferredNodes      0 for none
     * @param walltimeMillis      the user's estimate of its run time at maxNodes, for backfill
     * @param resizeTimeoutMillis how long an expansion's new ranks have to join before it is abandoned
     */
    record QueueJob(int minNodes, int maxNodes, int preferredNodes, int factor, long walltimeMillis, int ranksPerNode,
                    long resizeTimeoutMillis, RunJob run, boolean warm) implements ClientMessage {
        /** A job whose expansions start their JVMs when they come (no warm pool). */
        public QueueJob(int minNodes, int maxNodes, int preferredNodes, int factor, long walltimeMillis, int ranksPerNode,
                        long resizeTimeoutMillis, RunJob run) {
            this(minNodes, maxNodes, preferredNodes, factor, walltimeMillis, ranksPerNode, resizeTimeoutMillis, run, false);
        }
    }

    /** Client to DVM: open the dashboard on {@code bind:port} (port 0: any free), or say where it is open. */
    record OpenDashboard(String bind, int port) implements ClientMessage {}

    /** DVM to client: where its dashboard is open; {@code error} empty, or why it is not. */
    record DashboardAt(String bind, int port, String error) implements ClientMessage {}

    // --- DVM to client ---------------------------------------------------------------------

    /** The secret was wrong, or the first message was not a hello: the DVM closes the connection. */
    record Refused(String reason) implements ClientMessage {}

    /**
     * DVM to every client, just before it closes their connections because it stops: why, in
     * words that follow "lost the DVM (" ("it was stopped by banyan dvm stop").
     */
    record Closing(String why) implements ClientMessage {}

    /**
     * DVM to a client, as soon as it connects (protocol 10): a fresh random value that the
     * client's {@link Hello} proves the secret against, so the secret itself never crosses the
     * wire and whoever listens at the address a client was given learns nothing that opens the
     * DVM (a port a dead DVM's URI file still names, taken by another user).
     */
    record Challenge(String nonce) implements ClientMessage {}

    /**
     * The secret was right: the DVM's size, and its own proof of the secret against the client's
     * and its own nonces (empty from the DVM core, which knows no secret; the door adds it).
     */
    record Welcome(int hosts, int slots, String proof) implements ClientMessage {
        public Welcome {
            java.util.Objects.requireNonNull(proof, "proof");
        }

        /** A welcome before the door proves the secret in it. */
        public Welcome(int hosts, int slots) {
            this(hosts, slots, "");
        }

        public Welcome withProof(String proof) {
            return new Welcome(hosts, slots, proof);
        }
    }

    /** The ids the agent gave the tasks of a {@link SubmitTasks}, in the same order. */
    record TasksAccepted(List<Integer> taskIds) implements ClientMessage {
        public TasksAccepted {
            taskIds = List.copyOf(taskIds);
        }
    }

    /**
     * A task reached {@code state} at {@code timeMicros} (epoch, the head's clock); a FAILED task's
     * exit code and what went wrong (the last lines of its stderr, a lost node, a timeout). A
     * task's final update carries when its process really ran ({@code execStartMicros} to
     * {@code execEndMicros}, its daemon's clock; 0 when not known).
     */
    record TaskUpdate(int taskId, org.banyan.core.pilot.TaskState state, long timeMicros, int exitCode, String detail,
                      long execStartMicros, long execEndMicros) {
        public TaskUpdate(int taskId, org.banyan.core.pilot.TaskState state, long timeMicros, int exitCode, String detail) {
            this(taskId, state, timeMicros, exitCode, detail, 0, 0);
        }
    }

    /** State changes of this client's tasks, batched. */
    record TaskUpdates(List<TaskUpdate> updates) implements ClientMessage {
        public TaskUpdates {
            updates = List.copyOf(updates);
        }
    }

    /**
     * The resource manager took a {@link QueueJob} as job {@code queueId} (the number it runs
     * under); {@code ahead} jobs are before it in the queue, -1 when it started at once.
     * {@link JobAccepted} follows when it starts.
     */
    record JobQueued(int queueId, int ahead) implements ClientMessage {}

    /** The job runs as {@code jobId}, with {@code ranks} ranks. */
    record JobAccepted(int jobId, int ranks) implements ClientMessage {}

    /** The job cannot run: why, in one line. Nothing was started. */
    record JobRejected(String reason) implements ClientMessage {}

    /** Bytes a rank of the job wrote (stream 1 stdout, 2 stderr). */
    record JobOutput(int jobId, int rank, int stream, byte[] data) implements ClientMessage {}

    /** One line for the user's stderr about the job (a rank failed, a daemon was lost, ...). */
    record JobReport(int jobId, String line) implements ClientMessage {}

    /**
     * The client may have sent up to {@code limit} bytes of the job's stdin in all; -1: no rank
     * reads any more, stop reading (the head's flow control, passed on by the DVM).
     */
    record StdinCredit(int jobId, long limit) implements ClientMessage {}

    /** The job is over; {@code status} as {@code banyan run}'s exit status. */
    record JobEnded(int jobId, int status) implements ClientMessage {}

    /**
     * One host of the DVM: its slots, those in use, and its state: up, lost (its daemon died), or
     * given back (to the batch system the DVM lives in).
     */
    record HostStatus(String name, int slots, int slotsInUse, State state, int gpus, int gpusInUse) {
        public enum State { LOST, UP, RELEASED, VACANT }

        /** A host without GPUs. */
        public HostStatus(String name, int slots, int slotsInUse, State state) {
            this(name, slots, slotsInUse, state, 0, 0);
        }
    }

    /** One running job. */
    record JobStatus(int jobId, int ranks, String command) {}

    /** One job waiting in the resource manager's queue, first to start first. */
    record QueuedStatus(int queueId, int minNodes, int maxNodes, String command) {}

    /** The DVM's tasks: not started yet, running, and finished with their state kept for banyan wait. */
    record TaskCounts(int waiting, int running, int kept) {}

    record Status(long pid, List<HostStatus> hosts, List<JobStatus> jobs, List<QueuedStatus> queued, TaskCounts tasks)
            implements ClientMessage {
        public Status {
            hosts = List.copyOf(hosts);
            jobs = List.copyOf(jobs);
            queued = List.copyOf(queued);
        }
    }
}
