package org.banyan.core.daemon;

import java.util.Map;
import org.banyan.core.wire.OverlayMessage;

/**
 * Where routed messages for one job end on this daemon: key fetches and name-service answers go
 * to the job's PMI-1/PMI-2 server, or, for a job served over PMIx, to the PMIx modex and spawn
 * bookkeeping (or to the ranks' PMIx server when they speak PMIx).
 */
final class JobEndpoint implements DaemonRouting.Endpoint {
    private final int jobId;
    private final PmiServer pmi;
    private final WireUpWatch wireUp;
    private final boolean pmix;
    private final PmixModex pmixModex;
    private final PmixSpawns pmixSpawns;
    private final DaemonOutbox out;
    private final Map<Integer, LocalJob> jobs;

    JobEndpoint(LocalJob job, PmixModex pmixModex, PmixSpawns pmixSpawns, DaemonOutbox out, Map<Integer, LocalJob> jobs) {
        this.jobId = job.job().jobId();
        this.pmi = job.pmi();
        this.wireUp = job.wireUp();
        this.pmix = job.job().pmix();
        this.pmixModex = pmixModex;
        this.pmixSpawns = pmixSpawns;
        this.out = out;
        this.jobs = jobs;
    }

    @Override
    public String localValue(String key) {
        return pmi.localValue(key);
    }

    @Override
    public boolean defers(OverlayMessage.KvsFetch f) {
        return pmix && pmixModex.fetchArrived(f);
    }

    @Override
    public void fetched(String key, String value) {
        if (pmix && key.startsWith(PmixModex.PREFIX)) {
            pmixModex.fetched(jobId, key, value);
        } else {
            pmi.onFetched(key, value);
        }
    }

    @Override
    public void nameReply(int request, int op, boolean ok, String portOrReason) {
        if (PmixSpawns.isSpawnAnswer(op) && request < 0) { // the PMI server's own (banyan-spawn)
            pmi.onNameReply(request, op, ok, portOrReason);
        } else if (pmix && PmixSpawns.isSpawnAnswer(op)) {
            pmixSpawns.answered(jobId, request, ok, portOrReason, jobs::get);
        } else if (pmix && PmixSpawns.isConnectAnswer(op)) {
            pmixSpawns.connected(jobId, request, ok, portOrReason, jobs.values());
        } else if (wireUp.speaksPmix()) {
            out.emit(new DaemonAction.PmixNameReply(jobId, request, ok, portOrReason));
        } else {
            pmi.onNameReply(request, op, ok, portOrReason);
        }
    }
}
