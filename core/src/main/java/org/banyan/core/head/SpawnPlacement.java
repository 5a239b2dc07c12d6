package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.job.RankPlacement;
import org.banyan.core.pmix.PmixNamespaces;

/**
 * The job MPI_Comm_spawn starts from a job of a run, as mpirun maps it: on the run's hosts, in
 * the slots the running jobs leave free (of the hosts the request names, when it names some),
 * by the parent's mapping policy; over every slot again when they are all taken and the run
 * may oversubscribe; refused otherwise. The children get
 * the parent's exported variables ({@code -x}) under those the spawn request brings (Open
 * MPI's {@code OMPI_PARENT_PORT} among them), its launch directory, modex and binding policy,
 * no standard input, and a PMIx namespace of their own; a job its parent's library reached over
 * PMI-1/PMI-2 (banyan-comm's spawn, or a job served both ways) is served that way too.
 */
public final class SpawnPlacement {
    private SpawnPlacement() {}

    /**
     * @param run    the run's own job: its hosts and slots, and whether it may oversubscribe
     * @param parent the job whose rank spawns
     * @param inUse  ranks of the running jobs per node of {@code run}
     * @param hosts  the hosts the request names (MPI_Info "host"), or none for any of the run's
     * @throws IllegalArgumentException why the job cannot be placed, in one line
     */
    static JobDescription child(JobDescription run, JobDescription parent, int childId, List<AppContext> requested,
                                int[] inUse, List<String> hosts) {
        int ranks = ranks(requested);
        for (String h : hosts) {
            if (run.nodes().stream().noneMatch(n -> n.name().equals(h))) {
                throw new IllegalArgumentException("MPI_Comm_spawn names host " + h + ", which is not one of the run's");
            }
        }
        List<Node> nodes = new ArrayList<>();
        List<Node> all = new ArrayList<>();
        int free = 0;
        int slots = 0;
        for (int n = 0; n < run.nodes().size(); n++) {
            Node node = run.nodes().get(n);
            boolean named = hosts.isEmpty() || hosts.contains(node.name());
            int left = named ? Math.max(0, node.slots() - inUse[n]) : 0;
            nodes.add(new Node(node.name(), left));
            all.add(new Node(node.name(), named ? node.slots() : 0));
            free += left;
            slots += named ? node.slots() : 0;
        }
        boolean oversubscribe = false;
        if (ranks > free) {
            if (!run.oversubscribe()) {
                throw new IllegalArgumentException("MPI_Comm_spawn asks for " + ranks + " process" + (ranks == 1 ? "" : "es")
                        + " but only " + free + " of the " + (hosts.isEmpty() ? "run's " : "named hosts' ") + slots
                        + " slots are free; add --oversubscribe");
            }
            nodes = all;
            oversubscribe = true;
        }
        return child(parent, childId, requested, nodes, oversubscribe, null);
    }

    /**
     * The spawned job over {@code nodes} (node i served by daemon i, its slots those the job may
     * take), as a DVM places it with its own scheduler, binding as its parent does (among
     * {@code heldCores} per node when the DVM gave it cores of its own; null: the whole hosts).
     *
     * @throws IllegalArgumentException why it cannot be, in one line
     */
    public static JobDescription child(JobDescription parent, int childId, List<AppContext> requested, List<Node> nodes,
                                       boolean oversubscribe, int[][] heldCores) {
        ranks(requested);
        Map<String, String> inherited = parent.apps().getFirst().env();
        List<AppContext> apps = new ArrayList<>();
        for (AppContext app : requested) {
            Map<String, String> env = new HashMap<>(inherited);
            env.putAll(app.env());
            apps.add(new AppContext(app.executable(), app.args(), app.count(), env, app.workdir()));
        }
        RankPlacement p = parent.placement();
        RankPlacement placement = new RankPlacement(p.bindTo(), p.bySocket(), p.cpusPerRank(), p.report(), p.displayMap(), null,
                null, heldCores, p.reranked());
        JobDescription job = new JobDescription(childId, apps, nodes, parent.mapping(), oversubscribe, -1, parent.launchDir(),
                parent.modex(), placement, PmixNamespaces.of(childId), parent.jobId(), parent.pmi());
        RankMap.of(job); // throws when the policy cannot place it
        return job;
    }

    /**
     * The processes a request asks for.
     *
     * @throws IllegalArgumentException when it names no program, an application asks for none, or
     *                                  all of them for more than a job may have
     */
    public static int ranks(List<AppContext> requested) {
        if (requested.isEmpty()) {
            throw new IllegalArgumentException("the spawn request names no program");
        }
        for (AppContext app : requested) {
            if (app.count() < 1) {
                throw new IllegalArgumentException("the spawn request asks for " + app.count() + " processes of "
                        + app.executable());
            }
        }
        return JobDescription.ranks(requested);
    }
}
