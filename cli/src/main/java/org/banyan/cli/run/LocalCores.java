package org.banyan.cli.run;

import java.util.List;
import org.banyan.cli.options.LocalHost;
import org.banyan.cli.options.UsageException;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankPlacement;
import org.banyan.topo.CpuBinding;

/** What this machine's cores allow a job, checked before anything starts. */
final class LocalCores {
    private LocalCores() {}

    /**
     * More cores per rank than a host has cannot be bound as asked (each rank got every core, in
     * silence); Open MPI refuses such a mapping. Checked here for this machine, whose cores banyan
     * knows before it starts anything.
     */
    static void checkPerRank(RankPlacement p, List<Node> nodes) throws UsageException {
        if (p == null || p.cpusPerRank() <= 1 || p.bindTo() == CpuBinding.Target.NONE) {
            return;
        }
        boolean threads = p.bindTo() == CpuBinding.Target.HWTHREAD;
        int have = LocalHost.slots(threads);
        for (Node n : nodes) {
            if (LocalHost.isLocal(n.name()) && p.cpusPerRank() > have) {
                throw new UsageException(p.cpusPerRank() + " " + (threads ? "hardware threads" : "cores")
                        + " per rank (--cpus-per-rank, PE=, core:N): " + n.name() + " has " + have);
            }
        }
    }
}
