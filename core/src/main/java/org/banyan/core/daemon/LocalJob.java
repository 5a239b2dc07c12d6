package org.banyan.core.daemon;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.banyan.core.job.FenceData;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.ProcessTable;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.topo.CpuBinding;

/**
 * One job's share of a daemon: the ranks it started for it, their PMI server, the job's fences
 * as this daemon takes part in them, and the job's teardown here (signals, SIGTERM then SIGKILL
 * after the grace). A daemon of {@code banyan run} has one; a daemon of a DVM has one per job.
 */
final class LocalJob {
    private final JobDescription job;
    private final RankMap map;
    private final DaemonOutbox out;
    private final DaemonFence fence;
    private final PmiServer pmi;
    private final WireUpWatch wireUp;
    private final Set<Integer> running = new LinkedHashSet<>();
    private Integer terminateGrace;
    private boolean killed;
    private boolean terminating;
    /** The signal that began the ranks' end (SIGTERM, or the one a signaled daemon got). */
    private int endSignal;
    /**
     * The ending signals (SIGINT, SIGTERM, SIGHUP) the head passed on to the ranks within the
     * last {@link #SIGNAL_ECHO_MILLIS}, one bit each.
     */
    private int passedOn;

    /**
     * How long after the head passed on an ending signal the daemon's own is the same delivery to
     * their process group ({@code timeout(1)} and batch systems signal the head, then the group).
     * Both are one kernel delivery apart, the head's then a hop over the overlay: a second from
     * the user comes later than this.
     */
    static final int SIGNAL_ECHO_MILLIS = 1000;

    /**
     * Starts this daemon's ranks of {@code job}.
     *
     * @param childrenWithRanks the children whose subtrees host ranks of the job (they take part in its fences)
     * @param processTablePath  where the node-local process table goes, or null for none
     * @param host              this host's CPUs, for jobs that bind their ranks
     * @param jobSecrets        the secret of a job for its ranks (hex), by job id; null for none
     */
    LocalJob(JobDescription job, RankMap map, int daemonId, ChildTree tree, List<Integer> childrenWithRanks,
             DaemonOutbox out, DaemonRouting routing, String pmiAddress, String daemonUri, String processTablePath,
             Supplier<CpuBinding> host, java.util.function.IntFunction<String> jobSecrets) {
        this.job = job;
        this.map = map;
        this.out = out;
        List<RankLaunch> launches = RankEnvironment.launches(job, map, daemonId, pmiAddress, daemonUri, processTablePath,
                host);
        this.fence = new DaemonFence(job.jobId(), daemonId, out);
        this.wireUp = new WireUpWatch(job, out);
        fence.start(tree, childrenWithRanks, !launches.isEmpty());
        Set<Integer> local = new LinkedHashSet<>();
        for (RankLaunch l : launches) {
            local.add(l.rank());
        }
        int jobId = job.jobId();
        this.pmi = new PmiServer(map, local, daemonId, out::emit, new PmiServer.Daemon() {
            @Override
            public void fenceReady(Map<String, String> puts, Map<String, Integer> owners) {
                fence.localReady(new FenceData(puts, owners));
            }

            @Override
            public void fetch(int owner, String key) {
                routing.fetch(jobId, owner, key);
            }

            @Override
            public void nameRequest(int request, int op, String name, String port) {
                routing.nameRequest(jobId, request, op, name, port);
            }

            @Override
            public void spawn(int request, java.util.List<org.banyan.core.job.AppContext> apps, java.util.List<String> hosts) {
                routing.spawnRequest(jobId, request, apps, hosts);
            }

            @Override
            public String jobSecret() {
                return jobSecrets == null ? null : jobSecrets.apply(jobId);
            }
        });
        Map<Integer, int[]> cpus = new HashMap<>();
        for (RankLaunch l : launches) {
            cpus.put(l.rank(), l.cpus());
            if (job.placement().report()) {
                reportBinding(l, job.nodes().get(daemonId).name(), host);
            }
        }
        if (processTablePath != null && !launches.isEmpty()) {
            out.emit(new DaemonAction.WriteProcessTable(processTablePath, ProcessTable.encode(map, cpus::get)));
        }
        if (map.size() > 1 && !launches.isEmpty()) {
            out.emit(new DaemonAction.WatchWireUp(jobId));
        }
        if (job.pmix() && !launches.isEmpty()) {
            out.emit(new DaemonAction.ServePmix(org.banyan.core.pmix.PmixRegistration.of(job, map, daemonId,
                    rank -> cpus.getOrDefault(rank, new int[0]), bound -> host.get().locality(bound))));
        }
        for (RankLaunch l : launches) {
            running.add(l.rank());
            out.emit(new DaemonAction.StartRank(l));
        }
    }

    /** {@code --report-bindings}: one line per rank on the job's standard error, before the rank starts. */
    private void reportBinding(RankLaunch l, String hostName, Supplier<CpuBinding> host) {
        String where;
        if (l.bindError() != null) {
            where = "not started: " + l.bindError();
        } else if (l.cpus().length == 0) {
            where = "not bound";
        } else {
            where = "bound to " + host.get().describe(l.cpus());
        }
        String line = "banyan: rank " + l.rank() + " on " + hostName + " " + where + "\n";
        out.up(new OverlayMessage.Output(job.jobId(), l.rank(), 2, line.getBytes(StandardCharsets.UTF_8)));
    }

    JobDescription job() {
        return job;
    }

    RankMap map() {
        return map;
    }

    Set<Integer> running() {
        return running;
    }

    PmiServer pmi() {
        return pmi;
    }

    DaemonFence fence() {
        return fence;
    }

    WireUpWatch wireUp() {
        return wireUp;
    }

    /** A local rank ended with {@code status}; false when it was not running. */
    boolean rankEnded(int rank, int status) {
        if (!running.remove(rank)) {
            return false;
        }
        wireUp.ended(rank, status, pmi.hasFinalized(rank));
        pmi.onRankEnded(rank);
        return true;
    }

    /** The user's signal, as the head passes it on. */
    void signal(int signal) {
        if (Signals.ends(signal)) {
            passedOn |= 1 << signal;
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.SIGNAL_ECHO, SIGNAL_ECHO_MILLIS, job.jobId()));
        }
        send(signal);
    }

    /** {@link DaemonTimer#SIGNAL_ECHO}: a signal of this daemon's own is the user's again. */
    void echoOver() {
        passedOn = 0;
    }

    private void send(int signal) {
        for (int rank : running) {
            out.emit(new DaemonAction.SignalRank(job.jobId(), rank, signal));
        }
    }

    void terminate(int graceMillis) {
        terminate(graceMillis, Signals.SIGTERM, true);
    }

    /**
     * As {@link #terminate(int)}, for the signal the daemon itself got, which the ranks get rather
     * than SIGTERM; not again when the head passed the same on first (a group's signal reaches the
     * head and this daemon in either order).
     */
    void terminateSignaled(int graceMillis, int signal) {
        terminate(graceMillis, signal, (passedOn & 1 << signal) == 0);
    }

    private void terminate(int graceMillis, int first, boolean send) {
        terminateGrace = graceMillis;
        if (terminating) {
            return;
        }
        terminating = true;
        endSignal = first;
        if (!running.isEmpty()) {
            if (send) {
                send(first);
            }
            out.emit(new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, graceMillis, job.jobId()));
        }
    }

    void kill() {
        killed = true;
        send(Signals.SIGKILL);
    }

    /** Whether the ranks already had {@code signal} as the start of their end: the head passing the same on need not send it twice. */
    boolean endingWith(int signal) {
        return killed || terminating && signal == endSignal;
    }

    boolean ending() {
        return terminating || killed;
    }

    /** A child adopted late gets the job first, and later ({@link #catchUpEnding}) how it is ending. */
    void catchUpLaunch(int child) {
        out.toChild(child, new OverlayMessage.LaunchJob(job));
    }

    void catchUpEnding(int child) {
        if (killed) {
            out.toChild(child, new OverlayMessage.KillJob(job.jobId()));
        } else if (terminateGrace != null) {
            out.toChild(child, new OverlayMessage.TerminateJob(job.jobId(), terminateGrace));
        }
    }
}
