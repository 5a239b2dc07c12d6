package org.banyan.core.head;

import org.banyan.core.job.JobDescription;
import org.banyan.core.wire.OverlayMessage;

/** What {@link HeadCore} asks its driver to do. */
public sealed interface HeadAction {
    /** Send to {@code daemonId}, one of the head's children in the tree. */
    record SendToDaemon(int daemonId, OverlayMessage message) implements HeadAction {}

    /** Send on the routing link a routing child opened to the head, from {@code vertex}. */
    record SendToPeer(int vertex, OverlayMessage message) implements HeadAction {}

    /** Start daemon {@code daemonId} (a child of the head in the tree) on {@code host}. */
    record SpawnDaemon(int daemonId, String host) implements HeadAction {}

    /** Bytes a rank wrote, to show the user (stream 1 stdout, 2 stderr). */
    record EmitOutput(int rank, int stream, byte[] data) implements HeadAction {}

    /** One line for the user's stderr, from banyan itself. */
    record Report(String line) implements HeadAction {}

    /**
     * Stop this process as the terminal's SIGTSTP would have (the ranks were sent their SIGSTOP
     * just before); a SIGCONT resumes it.
     */
    record Suspend() implements HeadAction {}

    /** Fire {@link HeadEvent.TimerFired} with the same timer and job after the delay. */
    record ArmTimer(HeadTimer timer, long delayMillis, int jobId) implements HeadAction {
        public ArmTimer(HeadTimer timer, long delayMillis) {
            this(timer, delayMillis, 0);
        }
    }

    /**
     * DVM: an action of one job — output, a report, stdin forwarding — for the driver to take to
     * that job's client.
     */
    record ForJob(int jobId, HeadAction action) implements HeadAction {}

    /** DVM: the job is over with {@code status}; the DVM goes on. */
    record JobEnded(int jobId, int status) implements HeadAction {}

    /**
     * DVM: a rank's request for the resource manager ({@link OverlayMessage.NameRequest} with op
     * {@code RESIZE_CHECK} or {@code JOIN}, see {@code NameService}); the driver answers, maybe
     * later, with {@link HeadEvent.Route} of the {@link OverlayMessage.NameReply}.
     */
    record ResourceRequest(OverlayMessage.NameRequest request) implements HeadAction {}

    /** DVM, inside {@link ForJob}: a rank of the job ended (a malleable job counts the ranks that leave). */
    record RankEnded(int rank, int status) implements HeadAction {}

    /**
     * DVM: a rank of {@code parent} spawns a job (MPI_Comm_spawn): the DVM places it and answers
     * with {@link HeadEvent.SpawnAnswer}.
     */
    record SpawnRequested(JobDescription parent, OverlayMessage.SpawnRequest request) implements HeadAction {}

    /** DVM: tasks ended (job {@link OverlayMessage#TASKS}: the rank is the task id), as a daemon batched them. */
    record TasksEnded(java.util.List<OverlayMessage.RankExited> ends) implements HeadAction {}

    /** DVM: these daemons are lost (a daemon and the subtree below it): nothing goes there again. */
    record DaemonsLost(java.util.List<Integer> daemonIds, String reason) implements HeadAction {}

    /** A daemon the DVM released ({@link HeadEvent.ReleaseDaemons}) is gone: its host may go back. */
    record DaemonReleased(int daemonId) implements HeadAction {}

    /**
     * DVM: a daemon released earlier is back ({@link HeadEvent.RejoinDaemons}): adopted, its
     * contact known; its host may take jobs again. A rejoin that fails ends as
     * {@link DaemonReleased} instead.
     */
    record DaemonRejoined(int daemonId) implements HeadAction {}

    /**
     * DVM: the GPUs found on these daemons' hosts, by daemon, as {@code CUDA_VISIBLE_DEVICES}
     * lists ({@code 0,1}); told before {@link Ready} (or {@link DaemonRejoined}) for the daemons
     * it covers. Daemons not named have none.
     */
    record GpusFound(java.util.Map<Integer, String> gpus) implements HeadAction {}

    /** DVM: every daemon is up and adopted; jobs may come. */
    record Ready() implements HeadAction {}

    /**
     * From now on, forward the head's stdin to {@code rank} through each of {@code daemonIds},
     * children of the head: one for one rank; for {@link org.banyan.core.job.JobDescription#STDIN_ALL}
     * every child with ranks below it, named once all of them have the job (none misses a byte).
     */
    record ForwardStdin(java.util.List<Integer> daemonIds, int rank) implements HeadAction {
        public ForwardStdin {
            daemonIds = java.util.List.copyOf(daemonIds);
        }
    }

    /**
     * The stdin reader may have sent up to {@code limit} bytes of the job's stdin in all (the
     * slowest reading rank's count plus {@link StdinWindow#WINDOW}); {@link StdinWindow#STOP}: no
     * rank reads any more, stop reading.
     */
    record StdinCredit(long limit) implements HeadAction {}

    /** A point of the launch the driver time-stamps for {@code --report-launch}. */
    record Milestone(String name) implements HeadAction {}

    /** Print the launch report: every daemon's stats, with the milestones' times. */
    record LaunchReport(java.util.Map<Integer, org.banyan.core.wire.DaemonStats> stats) implements HeadAction {}

    /** The job is over: end every process still known and exit with {@code exitStatus}. */
    record Finish(int exitStatus) implements HeadAction {}
}
