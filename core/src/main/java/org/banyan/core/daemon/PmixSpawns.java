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
 * one of a parent and its child registers the other with no local rank.
 */
final class PmixSpawns {
    private final int daemonId;
    private final DaemonOutbox out;
    /** The PMIx jobs registered with this daemon's server. */
    private final Set<Integer> served = new HashSet<>();
    /** Answers to spawn requests, by the job they started, that came before the job did. */
    private final Map<Integer, DaemonAction.PmixNameReply> early = new HashMap<>();

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
}
