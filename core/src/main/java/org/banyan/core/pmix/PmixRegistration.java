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

    /** A job whose ranks here are not bound. */
    public static PmixRegistration of(JobDescription job, RankMap map, int daemonId) {
        return of(job, map, daemonId, rank -> new int[0], cpus -> null);
    }

    /**
     * @param cpusOf   the CPUs (OS indexes) each local rank is bound to, empty when not bound
     * @param locality the locality string of a set of CPUs ({@code PMIX_LOCALITY_STRING}), null for none
     */
    public static PmixRegistration of(JobDescription job, RankMap map, int daemonId,
                                      java.util.function.IntFunction<int[]> cpusOf,
                                      java.util.function.Function<int[], String> locality) {
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
        info.add(PmixInfo.uint32("pmix.max.size", map.universeSize())); // mpirun: the slots, as the universe
        info.add(PmixInfo.uint32("pmix.num.nodes", nodeCount));
        info.add(PmixInfo.uint32("pmix.job.napps", job.apps().size()));
        info.add(PmixInfo.string("pmix.nmap", hosts.toString()));
        info.add(PmixInfo.string("pmix.pmap", procs.toString()));
        if (job.apps().size() == 1) {
            info.add(PmixInfo.uint32("pmix.appnum", 0));
            info.add(PmixInfo.uint32("pmix.app.size", size));
            info.add(PmixInfo.rank("pmix.aldr", 0));
        }
        // how mpirun names its policies (Open MPI 4.1's rmaps and hwloc strings)
        boolean byNode = switch (job.mapping()) {
            case NODE, NODE_RANKED_BY_SLOT -> true;
            case SLOT, SLOT_RANKED_BY_NODE -> false;
        };
        boolean rankedByNode = switch (job.mapping()) {
            case NODE, SLOT_RANKED_BY_NODE -> true;
            case SLOT, NODE_RANKED_BY_SLOT -> false;
        };
        info.add(PmixInfo.string("pmix.mapby", (byNode ? "BYNODE" : "BYSLOT") + (job.oversubscribe() ? ":OVERSUBSCRIBE"
                : ":NOOVERSUBSCRIBE")));
        info.add(PmixInfo.string("pmix.rankby", rankedByNode ? "NODE" : "SLOT"));
        info.add(PmixInfo.string("pmix.bindto", job.placement().binds() ? job.placement().bindTo().name() : "NONE"));
        if (mine.length > job.nodes().get(daemonId).slots()) {
            // this host runs more ranks than it has slots: Open MPI 5 then yields while it waits
            info.add(PmixInfo.bool("pmix.ndosub", true));
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
            List<PmixInfo> proc = new ArrayList<>(List.of(
                    PmixInfo.rank("pmix.rank", rank),
                    PmixInfo.uint16("pmix.lrank", local),
                    PmixInfo.uint16("pmix.nrank", local),
                    PmixInfo.rank("pmix.grank", rank),
                    PmixInfo.rank("pmix.apprank", rank - appStart[app]),
                    PmixInfo.uint32("pmix.appnum", app),
                    PmixInfo.string("pmix.hname", host),
                    PmixInfo.uint32("pmix.nodeid", nodeId)));
            int[] cpus = cpusOf.apply(rank);
            String where = cpus.length == 0 ? null : locality.apply(cpus);
            if (where != null) {
                proc.add(PmixInfo.string("pmix.cpuset", org.banyan.topo.CpuList.format(cpus)));
                proc.add(PmixInfo.string("pmix.locstr", where));
            }
            info.add(PmixInfo.array("pmix.pdata", proc));
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
