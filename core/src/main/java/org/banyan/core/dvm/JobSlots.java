package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankPlacement;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.Placement;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.topo.CpuBinding;

/**
 * Where a DVM puts a job of {@code banyan run --dvm} or one that MPI_Comm_spawn starts: on free
 * slots of the scheduler the tasks share, and, for a job bound with {@code --bind-to}, on cores
 * no other bound job holds (a rank of {@code --cpus-per-rank C} takes C of them).
 */
final class JobSlots {
    /**
     * What a job was given: the cores it holds in the scheduler (null when it oversubscribes),
     * the DVM's hosts with the slots it may take on each, and its binding with its own cores.
     */
    record Grant(Placement placement, List<Node> nodes, RankPlacement binding) {}

    private final List<Node> hosts;
    private final DvmHosts service;
    private final GeneralScheduler scheduler;
    private final BoundCores bound = new BoundCores();

    JobSlots(List<Node> hosts, DvmHosts service, GeneralScheduler scheduler) {
        this.hosts = hosts;
        this.service = service;
        this.scheduler = scheduler;
    }

    /** Cores a rank of this binding holds. */
    static int coresPerRank(RankPlacement binding) {
        return binding.bindTo() == CpuBinding.Target.NONE ? 1 : binding.cpusPerRank();
    }

    /**
     * Places job {@code jobId}; null when its ranks do not fit and it may not oversubscribe.
     * An oversubscribing job that does not fit runs over every host in service, holding nothing.
     */
    Grant grant(int jobId, int ranks, RankPlacement binding, boolean oversubscribe) {
        Placement placement = scheduler.place(new SlotRequest(ranks, coresPerRank(binding), 0, null, false));
        if (placement == null && !oversubscribe) {
            return null;
        }
        int[] placed = new int[hosts.size()];
        int[] cores = new int[hosts.size()];
        if (placement != null) {
            for (Placement.Share sh : placement.shares()) {
                placed[sh.node()] += sh.ranks();
                cores[sh.node()] += sh.cores();
            }
        }
        List<Node> nodes = new ArrayList<>();
        int[] slots = new int[hosts.size()];
        for (int i = 0; i < hosts.size(); i++) {
            slots[i] = hosts.get(i).slots();
            nodes.add(new Node(hosts.get(i).name(), placement != null ? placed[i] : service.serves(i) ? slots[i] : 0));
        }
        boolean own = placement != null && binding.bindTo() != CpuBinding.Target.NONE;
        // a spawned job's binding comes from its parent's: never keep the parent's cores
        binding = binding.withHeldCores(own ? bound.take(jobId, cores, slots) : null);
        return new Grant(placement, nodes, binding);
    }

    /** Job {@code jobId}, placed as {@code placement}, has ended or was not started after all. */
    void release(int jobId, Placement placement) {
        if (placement != null) {
            scheduler.release(placement);
        }
        bound.release(jobId);
    }
}
