package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;

/**
 * The protocol logic of one node daemon, without sockets, threads or clocks: it maps its own
 * ranks from the job description, starts them, serves their PMI requests, reports their ends to
 * the head, and ends them when told to or when the head is gone.
 */
public final class DaemonCore {
    private final int daemonId;
    private final String pmiAddress;
    private final String daemonUri;
    private final List<DaemonAction> actions = new ArrayList<>();
    private final Set<Integer> running = new LinkedHashSet<>();
    private RankMap map;
    private PmiV1Server pmi;
    private boolean terminating;
    private boolean headGone;
    private boolean exited;

    /**
     * @param pmiAddress {@code host:port} of this daemon's PMI listener, given to ranks as PMI_PORT
     * @param daemonUri  how to reach this daemon, given to ranks as BANYAN_DAEMON_URI
     */
    public DaemonCore(int daemonId, String pmiAddress, String daemonUri) {
        this.daemonId = daemonId;
        this.pmiAddress = pmiAddress;
        this.daemonUri = daemonUri;
    }

    /** Handles one event and returns what the driver must do, in order. */
    public List<DaemonAction> handle(DaemonEvent event) {
        actions.clear();
        if (exited) {
            return List.of();
        }
        switch (event) {
            case DaemonEvent.FromHead(OverlayMessage message) -> fromHead(message);
            case DaemonEvent.HeadLost lost -> {
                headGone = true;
                terminate(Signals.SIGTERM, TERM_GRACE_WITHOUT_HEAD_MILLIS);
                exitIfIdle();
            }
            case DaemonEvent.RankEnded ended -> {
                if (running.remove(ended.rank())) {
                    if (pmi != null) {
                        pmi.onRankEnded(ended.rank());
                    }
                    if (!headGone) {
                        emit(new DaemonAction.SendToHead(
                                new OverlayMessage.RankExited(ended.rank(), ended.status(), ended.note())));
                    }
                }
                if (headGone) {
                    exitIfIdle();
                }
            }
            case DaemonEvent.PmiLine(int conn, String line) -> {
                if (pmi != null) {
                    pmi.onLine(conn, line);
                }
            }
            case DaemonEvent.PmiClosed(int conn) -> {
                if (pmi != null) {
                    pmi.onConnClosed(conn);
                }
            }
            case DaemonEvent.TimerFired(DaemonTimer timer) -> {
                if (timer == DaemonTimer.KILL_GRACE) {
                    signalAll(Signals.SIGKILL);
                }
            }
        }
        return List.copyOf(actions);
    }

    /** Grace between SIGTERM and SIGKILL when the head is gone and cannot say. */
    static final long TERM_GRACE_WITHOUT_HEAD_MILLIS = 2000;

    private void fromHead(OverlayMessage message) {
        switch (message) {
            case OverlayMessage.LaunchJob(JobDescription job) -> launch(job);
            case OverlayMessage.StdinData(int rank, byte[] data) -> {
                if (running.contains(rank)) {
                    emit(new DaemonAction.WriteStdin(rank, data));
                }
            }
            case OverlayMessage.SignalRanks(int signal) -> signalAll(signal);
            case OverlayMessage.TerminateJob(int grace) -> terminate(Signals.SIGTERM, grace);
            case OverlayMessage.KillJob k -> signalAll(Signals.SIGKILL);
            case OverlayMessage.FenceRelease release -> {
                if (pmi != null) {
                    pmi.onFenceRelease(release);
                }
            }
            case OverlayMessage.Shutdown s -> {
                signalAll(Signals.SIGKILL);
                exit();
            }
            default -> throw new IllegalStateException("a daemon does not expect " + message.getClass().getSimpleName());
        }
    }

    private void launch(JobDescription job) {
        map = RankMap.of(job);
        int[] mine = map.ranksOf(daemonId);
        Set<Integer> local = new LinkedHashSet<>();
        for (int r : mine) {
            local.add(r);
        }
        pmi = new PmiV1Server(daemonId, map, local, this::emit);
        int localCount = mine.length;
        for (int rank : mine) {
            AppContext app = job.apps().get(map.appOf(rank));
            Map<String, String> env = new HashMap<>(app.env());
            String r = Integer.toString(rank);
            String size = Integer.toString(map.size());
            String localRank = Integer.toString(map.localRankOf(rank));
            env.put("PMI_PORT", pmiAddress);
            env.put("PMI_ID", r);
            env.put("PMI_RANK", r);
            env.put("PMI_SIZE", size);
            env.put("MPI_LOCALNRANKS", Integer.toString(localCount));
            env.put("MPI_LOCALRANKID", localRank);
            env.put("OMPI_COMM_WORLD_RANK", r);
            env.put("OMPI_COMM_WORLD_SIZE", size);
            env.put("OMPI_COMM_WORLD_LOCAL_RANK", localRank);
            env.put("OMPI_COMM_WORLD_LOCAL_SIZE", Integer.toString(localCount));
            env.put("BANYAN_RANK", r);
            env.put("BANYAN_SIZE", size);
            env.put("BANYAN_LOCAL_RANK", localRank);
            env.put("BANYAN_NODE_RANK", Integer.toString(daemonId));
            env.put("BANYAN_JOBID", Integer.toString(job.jobId()));
            env.put("BANYAN_APPNUM", Integer.toString(map.appOf(rank)));
            env.put("BANYAN_DAEMON_URI", daemonUri);
            // As Hydra sets them: unbuffered Fortran output, and MPICH ch3's idea of the host name.
            env.put("GFORTRAN_UNBUFFERED_PRECONNECTED", "y");
            env.put("MPIR_CVAR_CH3_INTERFACE_HOSTNAME", job.nodes().get(daemonId).name());
            running.add(rank);
            emit(new DaemonAction.StartRank(new RankLaunch(rank, app.executable(), app.args(), env, app.workdir(),
                    rank == job.stdinRank())));
        }
    }

    private void terminate(int signal, long graceMillis) {
        if (terminating) {
            return;
        }
        terminating = true;
        if (!running.isEmpty()) {
            signalAll(signal);
            emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, graceMillis));
        }
    }

    private void signalAll(int signal) {
        for (int rank : running) {
            emit(new DaemonAction.SignalRank(rank, signal));
        }
    }

    private void exitIfIdle() {
        if (running.isEmpty()) {
            exit();
        }
    }

    private void exit() {
        if (!exited) {
            emit(new DaemonAction.Exit());
            exited = true;
        }
    }

    private void emit(DaemonAction action) {
        actions.add(action);
    }

    /** Ranks started and not yet ended. */
    public Set<Integer> runningRanks() {
        return Set.copyOf(running);
    }
}
