package org.banyan.core.daemon;

import org.banyan.core.wire.OverlayMessage;

/**
 * What happens to a daemon; fed one at a time to {@link DaemonCore#handle}. Events about a job's
 * ranks name the job: each job's ranks have their own PMI listener, so the driver knows it.
 */
public sealed interface DaemonEvent {
    /**
     * The driver has nothing else queued: what was held to go out with what might follow (task
     * ends) goes now. Drivers that never send it (the simulator) get the timer's window instead.
     */
    record Idle() implements DaemonEvent {}

    /** A message from the tree parent (the head, or another daemon). */
    record FromParent(OverlayMessage message) implements DaemonEvent {}

    /** The link to the tree parent is gone. */
    record ParentLost(String reason) implements DaemonEvent {}

    /**
     * This daemon's own process got SIGTERM, SIGINT or SIGHUP (a {@code kill} of its process
     * group, {@code timeout(1)}, a batch system ending the job's step): its ranks get the same
     * signal (as the head would pass it on) and its tasks SIGTERM, all SIGKILL after the grace,
     * and it exits once they are gone; a second such signal kills them at once.
     */
    record Signaled(int signal) implements DaemonEvent {}

    /** A message from child daemon {@code childId}; its first is its hello. */
    record FromChild(int childId, OverlayMessage message) implements DaemonEvent {}

    /** Child {@code childId} could not be started, or its link closed before shutdown. */
    record ChildLost(int childId, String reason) implements DaemonEvent {}

    /**
     * A rank has ended and its output is fully forwarded; {@code note} is non-empty when it could
     * not be started at all. {@code startMicros} and {@code endMicros} (epoch, this host's clock;
     * 0 when not known) are when its process was created and when it was seen to end.
     * {@code signaled}: a signal ended it ({@code status} is then 128 + the signal), as its wait
     * status said; a status alone cannot tell a rank that exited with 140 from one killed by 12.
     */
    record RankEnded(int jobId, int rank, int status, String note, long startMicros, long endMicros, boolean signaled)
            implements DaemonEvent {
        /** An end whose wait status is not known: signaled as {@link Signals#looksSignaled} says. */
        public RankEnded(int jobId, int rank, int status, String note, long startMicros, long endMicros) {
            this(jobId, rank, status, note, startMicros, endMicros, Signals.looksSignaled(status));
        }

        public RankEnded(int jobId, int rank, int status, String note) {
            this(jobId, rank, status, note, 0, 0);
        }
    }

    /**
     * What a job's ranks do while they wire up, through its PMI listener or this host's PMIx
     * server ({@link RankWireUp} takes them). Each names its job, or the fetch it answers.
     */
    sealed interface WireUp extends DaemonEvent {}

    /** A line arrived on PMI connection {@code conn}. */
    record PmiLine(int jobId, int conn, String line) implements WireUp {}

    /**
     * Rank {@code rank}'s stdin writer has handed it {@code total} bytes in all, or
     * {@link org.banyan.core.wire.OverlayMessage.StdinTaken#STDIN_CLOSED}: it takes no more.
     */
    record StdinWritten(int jobId, int rank, long total) implements DaemonEvent {}

    /** A PMI-2 frame's body ({@code cmd=NAME;k=v;...}) arrived on PMI connection {@code conn}. */
    record PmiFrame(int jobId, int conn, String body) implements WireUp {}

    /**
     * Every local rank of a PMIx job entered a fence (the PMIx server's fence upcall): {@code blob}
     * is what this host's ranks contribute, opaque to Banyan, empty when the fence collects no data.
     */
    record PmixFence(int jobId, byte[] blob) implements WireUp {}

    /** A local rank of a PMIx job connected to the PMIx server (its client-connected upcall). */
    record PmixConnected(int jobId, int rank) implements WireUp {}

    /** A local rank of a PMIx job finalized (its client-finalized upcall: PMIx_Finalize, in MPI_Finalize). */
    record PmixFinalized(int jobId, int rank) implements WireUp {}

    /**
     * A local rank (or a process it started) has an MPI library loaded: {@code library}'s file
     * name; {@code singletonDaemon} when it also started the helper an MPI starts for a
     * singleton (Open MPI's {@code orted --singleton-died-pipe}), which no rank of a wired-up job does.
     */
    record RankMpiSeen(int jobId, int rank, String library, boolean singletonDaemon) implements WireUp {}

    /** The PMIx server wants a remote rank's data (its direct-modex upcall). */
    record PmixModexRequest(int jobId, int rank) implements WireUp {}

    /** The PMIx server packed a local rank's data for a fetch ({@link DaemonAction.PmixModexFetch}); null: none. */
    record PmixModexData(int token, byte[] blob) implements WireUp {}

    /**
     * The PMIx server publishes, unpublishes or looks up a name, or connects ranks ({@code op} as
     * {@code OverlayMessage.NameRequest}'s: 0, 1, 2, 5 lookup and wait, 6 connect) at the head.
     */
    record PmixNameRequest(int jobId, int token, int op, String name, String value) implements WireUp {}

    /**
     * A local rank of a PMIx job spawns a job of these applications (MPI_Comm_spawn): answer with
     * {@link DaemonAction.PmixNameReply} ("jobId namespace" when ok).
     */
    record PmixSpawn(int jobId, int token, java.util.List<org.banyan.core.job.AppContext> apps, java.util.List<String> hosts)
            implements WireUp {}

    /** A rank of a PMIx job called abort ({@code MPI_Abort}). */
    record PmixAbort(int jobId, int rank, int status, String message) implements WireUp {}

    /** PMI connection {@code conn} closed. */
    record PmiClosed(int jobId, int conn) implements WireUp {}

    /** {@code jobId} is the job a job's timer is for (the kill grace), 0 for the daemon's own. */
    record TimerFired(DaemonTimer timer, int jobId) implements DaemonEvent {
        public TimerFired(DaemonTimer timer) {
            this(timer, 0);
        }
    }

    /**
     * A routing link that is not a spawn link is open to {@code vertex}: dialed by this daemon
     * ({@link DaemonAction.ConnectPeer}), or dialed by a routing child, which said hello.
     */
    record PeerUp(int vertex) implements DaemonEvent {}

    /** A message on the routing link to {@code vertex}. */
    record FromPeer(int vertex, OverlayMessage message) implements DaemonEvent {}

    /** The routing link to {@code vertex} could not be opened, or closed. */
    record PeerLost(int vertex, String reason) implements DaemonEvent {}
}
