package org.banyan.core.daemon;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.pmix.PmixRegistration;
import org.banyan.core.wire.OverlayMessage;

/**
 * A daemon's part in MPI_Comm_spawn between PMIx jobs. The request goes to the head, which
 * starts the new job down the tree; the spawning rank hears the new namespace only once this
 * daemon registered it (the answer may overtake the job on another route, and then waits here).
 * A PMIx server connects two namespaces only when it knows both: a daemon that hosts ranks of
 * one of a parent and its child registers the other with no local rank, and a connect between
 * any jobs registers the participants' namespaces before it completes.
 */
final class PmixSpawns {
    private final int daemonId;
    private final DaemonOutbox out;
    /** The PMIx jobs registered with this daemon's server. */
    private final Set<Integer> served = new HashSet<>();
    /** Answers to spawn requests, by the job they started, that came before the job did. */
    private final Map<Integer, DaemonAction.PmixNameReply> early = new HashMap<>();
    /** The names of this daemon's connects, disconnects and fences over several jobs in progress, by token. */
    private final Map<Integer, String> connecting = new HashMap<>();

    PmixSpawns(int daemonId, DaemonOutbox out) {
        this.daemonId = daemonId;
        this.out = out;
    }

    /**
     * Before {@code job}'s ranks here (if any) are registered and started: the registrations the
     * connection between it and the job that spawned it needs on this daemon.
     */
    void launching(JobDescription job, RankMap map, boolean local, IntFunction<LocalJob> known) {
        if (!job.pmix()) {
            return;
        }
        LocalJob parent = job.spawnedBy() >= 0 ? known.apply(job.spawnedBy()) : null;
        if (local) {
            if (parent != null && parent.job().pmix() && served.add(parent.job().jobId())) {
                out.emit(new DaemonAction.ServePmix(PmixRegistration.of(parent.job(), parent.map(), daemonId)));
            }
            served.add(job.jobId()); // the job's own registration comes with its ranks
        } else if (parent != null && served.contains(parent.job().jobId()) && served.add(job.jobId())) {
            out.emit(new DaemonAction.ServePmix(PmixRegistration.of(job, map, daemonId)));
        }
    }

    /** The job is over everywhere: its registration goes with it. */
    void forget(int jobId) {
        served.remove(jobId);
        early.remove(jobId);
    }

    /** {@code jobId} is known here now: a spawn answer that waited for it goes to the server. */
    void launched(int jobId) {
        DaemonAction.PmixNameReply reply = early.remove(jobId);
        if (reply != null) {
            out.emit(reply);
        }
    }

    /** The head's answer to a spawn request of this daemon's server ({@code text}: "jobId namespace" when ok). */
    void answered(int jobId, int token, boolean ok, String text, IntFunction<LocalJob> known) {
        DaemonAction.PmixNameReply reply = new DaemonAction.PmixNameReply(jobId, token, ok, text);
        if (ok) {
            int child = Integer.parseInt(text.substring(0, text.indexOf(' ')));
            if (known.apply(child) == null) {
                early.put(child, reply);
                return;
            }
        }
        out.emit(reply);
    }

    static boolean isSpawnAnswer(int op) {
        return op == OverlayMessage.NameRequest.SPAWN;
    }

    /** This daemon's server asks the head to connect the participants {@code name} lists. */
    void connecting(int token, String name) {
        connecting.put(token, name);
    }

    /**
     * The connect is done everywhere: the server learns the namespaces of the participants it
     * does not serve yet (jobs with no rank here, such as another job of a DVM that connects
     * with MPI_Comm_connect), then its connect completes.
     */
    void connected(int jobId, int token, boolean ok, String text, Iterable<LocalJob> known) {
        String name = connecting.remove(token);
        if (ok && name != null) {
            Set<String> nspaces = new HashSet<>();
            for (String p : name.substring(name.indexOf(' ') + 1).split(",")) {
                nspaces.add(p.substring(0, p.lastIndexOf(':'))); // a participant per rank: a namespace per job
            }
            for (LocalJob j : known) {
                if (nspaces.contains(j.job().pmixNamespace()) && served.add(j.job().jobId())) {
                    out.emit(new DaemonAction.ServePmix(PmixRegistration.of(j.job(), j.map(), daemonId)));
                }
            }
        }
        out.emit(new DaemonAction.PmixNameReply(jobId, token, ok, text));
    }

    static boolean isConnectAnswer(int op) {
        return op == OverlayMessage.NameRequest.CONNECT;
    }
}
