package org.banyan.core.daemon;

import org.banyan.core.wire.OverlayMessage;

/** What {@link DaemonCore} asks its driver to do. */
public sealed interface DaemonAction {
    record SendToParent(OverlayMessage message) implements DaemonAction {}

    record SendToChild(int childId, OverlayMessage message) implements DaemonAction {}

    /** Start the daemon {@code childId} on {@code host}, with this daemon as its parent. */
    record SpawnChild(int childId, String host) implements DaemonAction {}

    record StartRank(RankLaunch launch) implements DaemonAction {}

    /**
     * Write the node-local process table ({@code org.banyan.core.job.ProcessTable}) to
     * {@code path}, before any rank of the batch starts; remove it when the daemon ends.
     */
    record WriteProcessTable(String path, byte[] table) implements DaemonAction {}

    /**
     * Open a routing link to {@code vertex} (the routing parent) at {@code contact}, saying
     * {@link OverlayMessage.PeerHello} first; report {@link DaemonEvent.PeerUp} or
     * {@link DaemonEvent.PeerLost}.
     */
    record ConnectPeer(int vertex, String contact) implements DaemonAction {}

    /** Send on the routing link to {@code vertex}, opened by either side. */
    record SendToPeer(int vertex, OverlayMessage message) implements DaemonAction {}

    /** Deliver {@code signal} to the rank and to the processes it started. */
    record SignalRank(int jobId, int rank, int signal) implements DaemonAction {}

    /** Write one reply line (newline included) on PMI connection {@code conn}. */
    record PmiReply(int conn, String line) implements DaemonAction {}

    /** Bytes for the rank's stdin; an empty array closes it. */
    record WriteStdin(int jobId, int rank, byte[] data) implements DaemonAction {}

    /** Fire {@link DaemonEvent.TimerFired} with the same timer and job after the delay. */
    record ArmTimer(DaemonTimer timer, long delayMillis, int jobId) implements DaemonAction {
        public ArmTimer(DaemonTimer timer, long delayMillis) {
            this(timer, delayMillis, 0);
        }
    }

    /**
     * Serve a PMIx job's ranks on this host: register its namespace with the PMIx server (started
     * on first use) before any of its ranks starts, and give each rank the server's variables.
     */
    record ServePmix(org.banyan.core.pmix.PmixRegistration registration) implements DaemonAction {}

    /**
     * Look, for a while after each of the job's local ranks starts, for an MPI library loaded in
     * it (or in a process it started) and for Open MPI's singleton helper, telling the core with
     * {@link DaemonEvent.RankMpiSeen}: a job of more than one rank, before its ranks start.
     */
    record WatchWireUp(int jobId) implements DaemonAction {}

    /**
     * A local rank of a watched job reached the PMI or PMIx server: it is no singleton, so the
     * daemon stops looking into it (each look reads the rank's memory map, and an MPI rank's is
     * hundreds of lines, on the cores its ranks are starting on).
     */
    record RankWiredUp(int jobId, int rank) implements DaemonAction {}

    /**
     * A PMIx fence of the job is complete everywhere: hand the PMIx server every daemon's
     * contribution ({@code blobs}, in daemon order; the data a fence collected), which releases
     * the local ranks.
     */
    record PmixFenceDone(int jobId, java.util.List<byte[]> blobs) implements DaemonAction {}

    /** Another daemon wants a local rank's data (direct modex): ask the PMIx server, answer with {@code token}. */
    record PmixModexFetch(int jobId, int rank, int token) implements DaemonAction {}

    /** A remote rank's data (direct modex) came, {@code blob}, or null when its daemon has none. */
    record PmixModexDone(int jobId, int rank, byte[] blob) implements DaemonAction {}

    /** The head answered a PMIx publish, unpublish or lookup ({@code token} the server's): ok, then the value or why not. */
    record PmixNameReply(int jobId, int token, boolean ok, String text) implements DaemonAction {}

    /**
     * A DVM's job is over everywhere: its PMI socket closes, its process table goes, and its PMIx
     * namespace and files (with a rank here or not).
     */
    record ForgetJob(int jobId) implements DaemonAction {}

    /** Keep {@code count} JVMs of {@code program} started and waiting ({@link WarmProgram}). */
    record KeepWarm(WarmProgram program, int count) implements DaemonAction {}

    /** End the waiting JVMs kept for queued job {@code pool}. */
    record DropWarm(int pool) implements DaemonAction {}

    /** The daemon's work is done: the driver closes its links (children see their parent go) and returns. */
    record Exit() implements DaemonAction {}
}
