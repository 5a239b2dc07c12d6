package org.banyan.core.pmix;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;

/**
 * What one daemon registers with its PMIx server for a job before starting its ranks
 * ({@code PMIx_server_register_nspace}): computed from the job's description and this daemon's
 * share of the map alone (distributed mapping, as for PMI), with what Open MPI 4.1 reads at
 * {@code MPI_Init}: job and universe size, the node and process maps (from which PMIx derives
 * every peer's host and locality), this node's local peers and leader, and each local rank's
 * local, node and application ranks.
 *
 * <p>Nodes are the job's hosts that run ranks, numbered in job order; the maps use PMIx's
 * {@code raw:} form (host names by commas; each node's ranks by commas, nodes by semicolons),
 * which every PMIx 4 server parses.
 *
 * @param nspace  the job's namespace
 * @param ranks   this daemon's ranks, in order
 * @param info    the job-, node- and process-level information, in registration order
 * @param pmiToo  the ranks are served PMI-1/PMI-2 as well: where PMIx cannot be served, they
 *                start with PMI alone instead of failing
 */
public record PmixRegistration(int jobId, String nspace, int[] ranks, List<PmixInfo> info, boolean pmiToo) {
    public PmixRegistration {
        ranks = ranks.clone();
        info = List.copyOf(info);
    }

    /** Ranks served through PMIx alone. */
    public PmixRegistration(int jobId, String nspace, int[] ranks, List<PmixInfo> info) {
        this(jobId, nspace, ranks, info, false);
    }

    public static PmixRegistration of(JobDescription job, RankMap map, int daemonId) {
        if (!job.pmix()) {
            throw new IllegalArgumentException("job " + job.jobId() + " does not wire up through PMIx");
        }
        int size = map.size();
        StringJoiner hosts = new StringJoiner(",", "raw:", "");
        StringJoiner procs = new StringJoiner(";", "raw:", "");
        int nodeCount = 0;
        int nodeId = -1;
        for (int n = 0; n < job.nodes().size(); n++) {
            int[] on = map.ranksOf(n);
            if (on.length == 0) {
                continue;
            }
            if (n == daemonId) {
                nodeId = nodeCount;
            }
            nodeCount++;
            hosts.add(job.nodes().get(n).name());
            procs.add(joined(on));
        }
        int[] mine = map.ranksOf(daemonId);
        String host = job.nodes().get(daemonId).name();
        List<PmixInfo> info = new ArrayList<>();
        info.add(PmixInfo.string("pmix.jobid", job.pmixNamespace()));
        info.add(PmixInfo.uint32("pmix.univ.size", map.universeSize()));
        info.add(PmixInfo.uint32("pmix.job.size", size));
        info.add(PmixInfo.uint32("pmix.max.size", size));
        info.add(PmixInfo.uint32("pmix.num.nodes", nodeCount));
        info.add(PmixInfo.uint32("pmix.job.napps", job.apps().size()));
        info.add(PmixInfo.string("pmix.nmap", hosts.toString()));
        info.add(PmixInfo.string("pmix.pmap", procs.toString()));
        if (job.apps().size() == 1) {
            info.add(PmixInfo.uint32("pmix.appnum", 0));
            info.add(PmixInfo.uint32("pmix.app.size", size));
            info.add(PmixInfo.rank("pmix.aldr", 0));
        }
        if (mine.length > 0) {
            info.add(PmixInfo.string("pmix.hname", host));
            info.add(PmixInfo.uint32("pmix.nodeid", nodeId));
            info.add(PmixInfo.uint32("pmix.local.size", mine.length));
            info.add(PmixInfo.uint32("pmix.node.size", mine.length));
            info.add(PmixInfo.string("pmix.lpeers", joined(mine)));
            info.add(PmixInfo.rank("pmix.lldr", mine[0]));
        }
        int[] appStart = new int[job.apps().size()];
        for (int a = 1; a < appStart.length; a++) {
            appStart[a] = appStart[a - 1] + job.apps().get(a - 1).count();
        }
        for (int rank : mine) {
            int app = map.appOf(rank);
            int local = map.localRankOf(rank);
            info.add(PmixInfo.array("pmix.pdata", List.of(
                    PmixInfo.rank("pmix.rank", rank),
                    PmixInfo.uint16("pmix.lrank", local),
                    PmixInfo.uint16("pmix.nrank", local),
                    PmixInfo.rank("pmix.grank", rank),
                    PmixInfo.rank("pmix.apprank", rank - appStart[app]),
                    PmixInfo.uint32("pmix.appnum", app),
                    PmixInfo.string("pmix.hname", host),
                    PmixInfo.uint32("pmix.nodeid", nodeId))));
        }
        return new PmixRegistration(job.jobId(), job.pmixNamespace(), mine, info, job.pmiToo());
    }

    private static String joined(int[] ranks) {
        StringJoiner j = new StringJoiner(",");
        for (int r : ranks) {
            j.add(Integer.toString(r));
        }
        return j.toString();
    }
}
