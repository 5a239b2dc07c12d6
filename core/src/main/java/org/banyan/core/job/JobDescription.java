package org.banyan.core.job;

import java.util.List;

/**
 * What the head broadcasts to every daemon: the application description, never a per-process
 * map. Each daemon runs {@link RankMap} over it to find its own ranks (distributed mapping).
 *
 * @param jobId        small job number, shown in tags ({@code [jobId,rank]})
 * @param apps         the application contexts in command-line order; ranks are numbered across them
 * @param nodes        the hosts in order; node index i is served by daemon i
 * @param mapping      placement policy
 * @param oversubscribe whether a node may take more ranks than it has slots
 * @param stdinRank    the rank that reads the head's stdin, -1 for none, or {@link #STDIN_ALL}
 * @param launchDir    the directory banyan was started in: ranks without {@code --wdir} start
 *                     there when it exists on their host (as with mpirun), else in the daemon's
 * @param modex        how fences treat the keys ranks put: all values to every daemon, or values
 *                     fetched on first use
 * @param placement    hosts from a rankfile and CPU binding, resolved by each daemon
 * @param pmixNamespace the job's PMIx namespace when its ranks wire up through PMIx (Open MPI
 *                     programs: each daemon serves them with libpmix), null for PMI-1/PMI-2; the
 *                     same on every daemon and unique among the jobs a host may run at once
 * @param spawnedBy    the job whose rank started this one with MPI_Comm_spawn, or -1: daemons that
 *                     host ranks of only one of the two register the other's namespace too, so
 *                     that their PMIx servers can connect them
 * @param pmiToo       a PMIx job whose ranks are served PMI-1/PMI-2 as well, each daemon following
 *                     whichever its ranks speak ({@link WireUp#BOTH}: programs whose MPI is not
 *                     known before they start, such as interpreters and scripts)
 */
public record JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                             boolean oversubscribe, int stdinRank, String launchDir, Modex modex,
                             RankPlacement placement, String pmixNamespace, int spawnedBy, boolean pmiToo) {
    /** {@code stdinRank}: every rank reads the head's stdin (mpirun's {@code --stdin all}, srun's default). */
    public static final int STDIN_ALL = -2;

    /** Whether {@code rank} reads the head's stdin. */
    public boolean readsStdin(int rank) {
        return stdinRank == STDIN_ALL || rank == stdinRank;
    }

    /** A job served one way: PMIx when it has a namespace, else PMI-1/PMI-2. */
    public JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                          boolean oversubscribe, int stdinRank, String launchDir, Modex modex, RankPlacement placement,
                          String pmixNamespace, int spawnedBy) {
        this(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement, pmixNamespace, spawnedBy, false);
    }

    /** A job no other job spawned. */
    public JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                          boolean oversubscribe, int stdinRank, String launchDir, Modex modex, RankPlacement placement,
                          String pmixNamespace) {
        this(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement, pmixNamespace, -1);
    }

    /** A job whose ranks wire up through PMI-1/PMI-2. */
    public JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                          boolean oversubscribe, int stdinRank, String launchDir, Modex modex, RankPlacement placement) {
        this(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement, null);
    }

    /** A job mapped by policy and not bound. */
    public JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                          boolean oversubscribe, int stdinRank, String launchDir, Modex modex) {
        this(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, RankPlacement.NONE);
    }

    /** A job with the default modex, {@link Modex#LAZY}. */
    public JobDescription(int jobId, List<AppContext> apps, List<Node> nodes, MappingPolicy mapping,
                          boolean oversubscribe, int stdinRank, String launchDir) {
        this(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, Modex.LAZY, RankPlacement.NONE);
    }

    public JobDescription {
        if (pmixNamespace != null && (pmixNamespace.isEmpty() || pmixNamespace.length() > 255)) {
            throw new IllegalArgumentException("a PMIx namespace has 1 to 255 characters: '" + pmixNamespace + "'");
        }
        if (pmiToo && pmixNamespace == null) {
            throw new IllegalArgumentException("a job served PMI as well as PMIx needs a PMIx namespace");
        }
        apps = List.copyOf(apps);
        nodes = List.copyOf(nodes);
        if (apps.isEmpty() || nodes.isEmpty()) {
            throw new IllegalArgumentException("a job needs at least one application and one node");
        }
        for (AppContext app : apps) {
            if (app.count() < 1) {
                throw new IllegalArgumentException("every application of a job needs a rank count: " + app.executable());
            }
        }
        int size = ranks(apps); // refuses a job too large to map
        if (placement.nodeOf() != null) {
            if (placement.nodeOf().length != size) {
                throw new IllegalArgumentException("the rankfile places " + placement.nodeOf().length + " ranks; the job has "
                        + size);
            }
            for (int n : placement.nodeOf()) {
                if (n < 0 || n >= nodes.size()) {
                    throw new IllegalArgumentException("a rank placed on node " + n + " of " + nodes.size());
                }
            }
        }
    }

    public int size() {
        return ranks(apps);
    }

    /** The ranks of these application contexts, numbered across them. */
    public static int ranks(List<AppContext> apps) {
        long n = 0;
        for (AppContext app : apps) {
            n += app.count();
        }
        if (n > MAX_RANKS) {
            throw new IllegalArgumentException("a job of " + n + " ranks is more than Banyan runs as one job (at most "
                    + MAX_RANKS + ")");
        }
        return (int) n;
    }

    /**
     * The most ranks of one job: a request for more (a typo, or a rank's spawn asking for
     * 2^31 - 1 processes) is refused before any per-rank table is made, where it would exhaust
     * the head's memory; the largest MPI jobs run today are about a tenth of it.
     */
    public static final int MAX_RANKS = 1 << 24;

    public int totalSlots() {
        int n = 0;
        for (Node node : nodes) {
            n += node.slots();
        }
        return n;
    }

    public String kvsName() {
        return "kvs_banyan_" + jobId;
    }

    /** Whether the ranks are served PMIx (only, or besides PMI when {@link #pmiToo}). */
    public boolean pmix() {
        return pmixNamespace != null;
    }

    /** Whether the ranks are served PMI-1/PMI-2 (only, or besides PMIx). */
    public boolean pmi() {
        return pmixNamespace == null || pmiToo;
    }

    /** The same job, its ranks served through PMIx under {@code namespace}. */
    public JobDescription withPmix(String namespace) {
        return new JobDescription(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement, namespace,
                spawnedBy, false);
    }

    /** The same job served {@code how}; a PMIx namespace, when one is needed, is {@code namespace}. */
    public JobDescription served(WireUp how, String namespace) {
        return new JobDescription(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir, modex, placement,
                how == WireUp.PMI ? null : namespace, spawnedBy, how == WireUp.BOTH);
    }
}
