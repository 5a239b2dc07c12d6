package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.banyan.topo.CpuBinding;
import org.banyan.topo.CpuList;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;

/**
 * What a daemon starts for its own share of the job (distributed mapping): each local rank's
 * program, arguments, directory and environment — PMI's, MPICH's and Open MPI's hints, and
 * Banyan's own variables (listed in docs/run.md).
 */
final class RankEnvironment {
    private RankEnvironment() {}

    /**
     * @param pmiAddress       {@code host:port} of the daemon's PMI listener (PMI_PORT), null for a PMIx job
     * @param daemonUri        how local clients reach the daemon (BANYAN_DAEMON_URI), null for a PMIx job
     * @param processTablePath the node-local process table (BANYAN_PROCTABLE), or null
     * @param cpus             this host's CPUs, asked for only when the job binds its ranks
     */
    static List<RankLaunch> launches(JobDescription job, RankMap map, int daemonId, String pmiAddress,
                                     String daemonUri, String processTablePath, Supplier<CpuBinding> cpus) {
        int[] mine = map.ranksOf(daemonId);
        String host = job.nodes().get(daemonId).name();
        String size = Integer.toString(map.size());
        String localSize = Integer.toString(mine.length);
        String universe = Integer.toString(map.universeSize());
        // More ranks than slots here: Open MPI's ranks then yield while they wait instead of
        // spinning (mpirun's schizo sets it); 3 mpi4py ranks on 2 cores took 182-287 s without it, 20 s with
        boolean oversubscribed = mine.length > job.nodes().get(daemonId).slots();
        OpenMpiJob ompi = OpenMpiJob.of(job, map);
        List<RankLaunch> out = new ArrayList<>(mine.length);
        for (int rank : mine) {
            AppContext app = job.apps().get(map.appOf(rank));
            Map<String, String> env = new HashMap<>(app.env());
            String r = Integer.toString(rank);
            String localRank = Integer.toString(map.localRankOf(rank));
            if (pmiAddress != null) {
                env.put("PMI_PORT", pmiAddress);
            }
            env.put("PMI_ID", r);
            env.put("PMI_RANK", r);
            env.put("PMI_SIZE", size);
            env.put("MPI_LOCALNRANKS", localSize);
            env.put("MPI_LOCALRANKID", localRank);
            env.put("OMPI_COMM_WORLD_RANK", r);
            env.put("OMPI_COMM_WORLD_SIZE", size);
            env.put("OMPI_COMM_WORLD_LOCAL_RANK", localRank);
            env.put("OMPI_COMM_WORLD_LOCAL_SIZE", localSize);
            env.put("OMPI_COMM_WORLD_NODE_RANK", localRank); // a job's own ranks: their local rank, as mpirun sets it
            env.put("OMPI_UNIVERSE_SIZE", universe);
            env.putIfAbsent("OMPI_MCA_mpi_oversubscribe", oversubscribed ? "1" : "0"); // a value the user gave (-x) wins
            env.put("BANYAN_RANK", r);
            env.put("BANYAN_OVERSUBSCRIBED", oversubscribed ? "1" : "0"); // banyan-comm's ranks spin only on cores of their own
            if (env.containsKey("RP_TASK_ID")) { // a pilot's task of several ranks: its rank as RADICAL-Pilot names it
                env.put("RP_RANK", r);
            }
            env.put("BANYAN_SIZE", size);
            env.put("BANYAN_LOCAL_RANK", localRank);
            env.put("BANYAN_NODE_RANK", Integer.toString(daemonId));
            env.put("BANYAN_JOBID", Integer.toString(job.jobId()));
            env.put("BANYAN_APPNUM", Integer.toString(map.appOf(rank)));
            if (daemonUri != null) {
                env.put("BANYAN_DAEMON_URI", daemonUri);
            }
            if (processTablePath != null) {
                env.put("BANYAN_PROCTABLE", processTablePath);
            }
            // As Hydra sets them: unbuffered Fortran output, and MPICH ch3's idea of the host name.
            env.put("GFORTRAN_UNBUFFERED_PRECONNECTED", "y");
            env.put("MPIR_CVAR_CH3_INTERFACE_HOSTNAME", host);
            if (job.pmix()) {
                // Open MPI 4.1's "orte" launch detection makes a process it does not recognise a
                // singleton, PMIx server or not; without it the PMIx component is chosen
                env.putIfAbsent("OMPI_MCA_schizo", "^orte");
            }
            boolean explicit = app.workdir() != null;
            ompi.tell(env, map.appOf(rank), explicit ? app.workdir() : job.launchDir());
            int[] bound = new int[0];
            String bindError = null;
            if (job.placement().binds()) {
                try {
                    bound = job.placement().cpus(cpus.get(), rank, map.localRankOf(rank), daemonId, map.ranksOn(daemonId));
                    env.put("BANYAN_CPUS", CpuList.format(bound));
                } catch (IllegalArgumentException e) {
                    bindError = "cannot bind rank " + rank + " on " + job.nodes().get(daemonId).name() + ": " + e.getMessage();
                }
            }
            out.add(new RankLaunch(job.jobId(), rank, app.executable(), app.args(), env,
                    explicit ? app.workdir() : job.launchDir(), explicit, job.readsStdin(rank), null, null, null, bound,
                    bindError));
        }
        return out;
    }
}
