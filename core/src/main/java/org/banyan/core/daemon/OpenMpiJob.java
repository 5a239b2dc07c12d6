package org.banyan.core.daemon;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;

/**
 * The variables mpirun (Open MPI 4.1.4's, read from its ranks' environment here) gives every
 * rank besides the world's ranks and sizes, which Open MPI reads at start-up: the application
 * contexts' sizes and first ranks, the rank's context, the job's node count, where it started,
 * the shared-memory hint and, for a job served PMIx, the components that must not be chosen
 * (PMI-1/PMI-2's s1 and s2, and the singleton, so that a rank that cannot reach the server
 * fails instead of running alone) and the job's transport key. A value the user gave (-x, or an
 * OMPI_MCA_ variable of banyan's environment, which banyan run forwards as mpirun does) wins.
 */
record OpenMpiJob(String appSizes, String firstRanks, int apps, int nodes, String transportKey) {
    static OpenMpiJob of(JobDescription job, RankMap map) {
        StringJoiner sizes = new StringJoiner(",");
        StringJoiner firsts = new StringJoiner(",");
        int first = 0;
        for (AppContext app : job.apps()) {
            sizes.add(Integer.toString(app.count()));
            firsts.add(Integer.toString(first));
            first += app.count();
        }
        return new OpenMpiJob(sizes.toString(), firsts.toString(), job.apps().size(), map.nodesWithRanks(),
                job.pmix() ? transportKey(job.pmixNamespace()) : null);
    }

    /**
     * PSM, PSM2 and OFI's job key ({@code OMPI_MCA_orte_precondition_transports}, two 64-bit hex
     * numbers), the same on every daemon and different for every job: two FNV-1a hashes of the
     * job's PMIx namespace, which is unique among the jobs a host runs (mpirun draws it at random).
     * Not a digest: it names the job, it keeps nothing secret, and the JDK's SHA-256 costs a fresh
     * JVM 20 ms to load on the way to the ranks' start.
     */
    static String transportKey(String namespace) {
        java.util.HexFormat hex = java.util.HexFormat.of();
        return hex.toHexDigits(fnv(namespace, 0xcbf29ce484222325L)) + "-" + hex.toHexDigits(fnv(namespace, 0x84222325cbf29ce4L));
    }

    private static long fnv(String s, long basis) {
        long h = basis;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    void tell(Map<String, String> env, int app, String workdir) {
        env.putIfAbsent("OMPI_NUM_APP_CTX", Integer.toString(apps));
        env.putIfAbsent("OMPI_APP_CTX_NUM_PROCS", appSizes);
        env.putIfAbsent("OMPI_FIRST_RANKS", firstRanks);
        env.putIfAbsent("OMPI_MCA_orte_app_num", Integer.toString(app));
        env.putIfAbsent("OMPI_MCA_orte_num_nodes", Integer.toString(nodes));
        if (workdir != null) {
            env.putIfAbsent("OMPI_MCA_initial_wdir", workdir);
        }
        env.putIfAbsent("OMPI_MCA_shmem_RUNTIME_QUERY_hint", "mmap");
        if (transportKey != null) {
            env.putIfAbsent("OMPI_MCA_orte_precondition_transports", transportKey);
            env.putIfAbsent("OMPI_MCA_pmix", "^s1,s2,cray,isolated");
            env.putIfAbsent("OMPI_MCA_ess", "^singleton");
        }
    }
}
