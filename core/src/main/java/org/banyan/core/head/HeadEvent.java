package org.banyan.core.head;

import org.banyan.core.job.JobDescription;
import org.banyan.core.wire.OverlayMessage;

/** What happens to the head; fed one at a time to {@link HeadCore#handle}. */
public sealed interface HeadEvent {
    /** A message from {@code daemonId}, one of the head's children (it may relay its subtree's). */
    record FromDaemon(int daemonId, OverlayMessage message) implements HeadEvent {}

    /** A child daemon's link closed, or it could not be started: its whole subtree is gone. */
    record DaemonLost(int daemonId, String reason) implements HeadEvent {}

    /** The user sent {@code signal} to the head (Ctrl-C is SIGINT). */
    record UserSignal(int signal) implements HeadEvent {}

    /** {@code jobId}: the job a job's timer is for (timeout, teardown deadline); 0 otherwise, and for the run's job. */
    record TimerFired(HeadTimer timer, int jobId) implements HeadEvent {
        public TimerFired(HeadTimer timer) {
            this(timer, 0);
        }
    }

    /** DVM: run a job on the daemons, which are all up. Its id is the description's. */
    record Submit(JobDescription job, HeadSettings settings) implements HeadEvent {}

    /** DVM: the user's signal for one job (Ctrl-C on its client). */
    /**
     * DVM: the answer to {@link HeadAction.SpawnRequested}: the new job, placed (its slots held
     * until its {@link HeadAction.JobEnded}), or why not ({@code job} null).
     */
    record SpawnAnswer(OverlayMessage.SpawnRequest request, JobDescription job, HeadSettings settings, String refusal)
            implements HeadEvent {}

    record SignalJob(int jobId, int signal) implements HeadEvent {}

    /**
     * The job's output cannot be written (banyan's stdout or stderr closed, an output file on a
     * full disk): it fails with {@code status}, {@code why} said once.
     */
    record FailJob(int jobId, int status, String why) implements HeadEvent {}

    /** DVM: end one job now (its client went away): its ranks get the teardown of a failure. */
    record CancelJob(int jobId, String why) implements HeadEvent {}

    /** DVM: send a message from the head to a daemon along the routing overlay (the task agent's). */
    record Route(OverlayMessage.Routed message) implements HeadEvent {}

    /** DVM: end every job and every daemon, then the head. */
    record Stop() implements HeadEvent {}

    /**
     * A DVM gives these daemons' hosts back to its batch system: each leaves with its subtree,
     * and their ends are no loss ({@link HeadAction.DaemonReleased} as each goes).
     */
    record ReleaseDaemons(java.util.List<Integer> daemonIds) implements HeadEvent {}

    /**
     * A DVM's batch system granted hosts for released or vacant daemon slots: each slot's daemon
     * is started anew on its host (by slot id; the same host it had, or another). Only a slot
     * whose daemon is gone, a child of the head and a leaf of the spawn tree can be filled;
     * {@link HeadAction.DaemonRejoined} once its daemon is adopted,
     * {@link HeadAction.DaemonReleased} if it cannot be.
     */
    record RejoinDaemons(java.util.Map<Integer, String> hosts) implements HeadEvent {}

    /** A routing child that is not a spawn child dialed the head and said hello. */
    record PeerUp(int vertex) implements HeadEvent {}

    /** A message on the routing link from {@code vertex}. */
    record FromPeer(int vertex, OverlayMessage message) implements HeadEvent {}

    /** The routing link from {@code vertex} closed. */
    record PeerLost(int vertex, String reason) implements HeadEvent {}
}
