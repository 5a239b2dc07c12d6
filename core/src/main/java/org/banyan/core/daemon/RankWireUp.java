package org.banyan.core.daemon;

import java.util.Map;
import org.banyan.core.wire.OverlayMessage;

/**
 * A daemon's side of its ranks wiring up: PMI-1 lines and PMI-2 frames to the job's PMI server,
 * the PMIx server's upcalls (fences, direct modex, names, spawns, aborts) to the helpers that
 * answer them, and every sign of life to the job's wire-up watch ({@link WireUpWatch}), which
 * tells a rank that never reached a server from one that did.
 */
final class RankWireUp {
    private final int daemonId;
    private final Map<Integer, LocalJob> jobs;
    private final DaemonOutbox out;
    private final DaemonRouting routing;
    private final PmixModex pmixModex;
    private final PmixSpawns pmixSpawns;

    RankWireUp(int daemonId, Map<Integer, LocalJob> jobs, DaemonOutbox out, DaemonRouting routing,
               PmixModex pmixModex, PmixSpawns pmixSpawns) {
        this.daemonId = daemonId;
        this.jobs = jobs;
        this.out = out;
        this.routing = routing;
        this.pmixModex = pmixModex;
        this.pmixSpawns = pmixSpawns;
    }

    void handle(DaemonEvent.WireUp event) {
        switch (event) {
            case DaemonEvent.PmiLine(int jobId, int conn, String line) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.pmi().onLine(conn, line);
                    j.wireUp().pmi(conn, j.pmi().rankOf(conn));
                }
            }
            case DaemonEvent.PmiFrame(int jobId, int conn, String body) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.pmi().onFrame(conn, body);
                    j.wireUp().pmi(conn, j.pmi().rankOf(conn));
                }
            }
            case DaemonEvent.PmixFence(int jobId, byte[] blob) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.wireUp().pmix(-1);
                    j.fence().localReady(PmixFences.contribution(daemonId, blob));
                }
            }
            case DaemonEvent.PmixConnected(int jobId, int rank) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.wireUp().pmix(rank);
                }
            }
            case DaemonEvent.PmixFinalized(int jobId, int rank) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.wireUp().pmixFinalized(rank);
                }
            }
            case DaemonEvent.RankMpiSeen(int jobId, int rank, String library, boolean singletonDaemon) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null && j.running().contains(rank)) {
                    j.wireUp().mpiSeen(rank, library, singletonDaemon);
                }
            }
            case DaemonEvent.PmixModexRequest(int jobId, int rank) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.wireUp().pmix(-1);
                    pmixModex.request(jobId, rank, j.map());
                }
            }
            case DaemonEvent.PmixModexData(int token, byte[] blob) -> pmixModex.dataReady(token, blob);
            case DaemonEvent.PmixNameRequest(int jobId, int token, int op, String name, String value) -> {
                if (jobs.containsKey(jobId)) {
                    jobs.get(jobId).wireUp().pmix(-1);
                    if (PmixSpawns.isConnectAnswer(op)) {
                        pmixSpawns.connecting(token, name);
                    }
                    routing.nameRequest(jobId, token, op, name, value);
                } else {
                    out.emit(new DaemonAction.PmixNameReply(jobId, token, false, "no_such_job"));
                }
            }
            case DaemonEvent.PmixSpawn(int jobId, int token, var apps, var hosts) -> {
                if (jobs.containsKey(jobId)) {
                    jobs.get(jobId).wireUp().pmix(-1);
                    routing.spawnRequest(jobId, token, apps, hosts);
                } else {
                    out.emit(new DaemonAction.PmixNameReply(jobId, token, false, "no_such_job"));
                }
            }
            case DaemonEvent.PmixAbort(int jobId, int rank, int status, String message) -> {
                if (jobs.containsKey(jobId)) {
                    out.up(new OverlayMessage.AbortRequest(jobId, rank, status, message));
                }
            }
            case DaemonEvent.PmiClosed(int jobId, int conn) -> {
                LocalJob j = jobs.get(jobId);
                if (j != null) {
                    j.pmi().onConnClosed(conn);
                }
            }
        }
    }
}
