package org.banyan.pilot;

import java.nio.file.Path;
import java.util.List;
import org.banyan.runtime.dvm.DvmWarmUp;

/**
 * What a pilot is: where it runs and how big it is.
 *
 * <ul>
 * <li>{@code local}: this machine, {@code cores} cores (default: all);
 * <li>{@code ssh}: {@code hosts} (as {@code NAME:SLOTS}), daemons started over ssh along a tree;
 * <li>{@code slurm}: a batch job of {@code nodes} nodes submitted with {@code sbatch} (in
 *     {@code partition}, charged to {@code account} when given), whose DVM starts its daemons
 *     as job steps; the session's directory must be on a file system the nodes share;
 * <li>{@code dvm}: an existing DVM, such as one started with {@code banyan dvm start} inside a
 *     Slurm allocation ({@code dvm} its URI file).
 * </ul>
 * {@code runtimeMinutes} ends the pilot (DONE) after that long, and is a Slurm pilot's time
 * limit; 0 for until canceled (a Slurm pilot then gets the partition's default limit).
 * {@code warmUpPerHost} {@code /bin/true} tasks per host run through a DVM the pilot starts
 * before it becomes PMGR_ACTIVE, so that its JIT has compiled the task path for the first tasks
 * (as {@code banyan dvm start --warm-up}; 0 for none, the default of {@code dvm}: a DVM that
 * {@code banyan dvm start} made has been warmed already).
 */
public record PilotDescription(String resource, int cores, List<String> hosts, Path dvm, double runtimeMinutes,
                               int nodes, String partition, String account, int warmUpPerHost, int gpusPerHost) {
    /**
     * {@code gpusPerHost} of a local or ssh pilot until {@link #gpus} is called: each host has the
     * GPUs its daemon finds there ({@code CUDA_VISIBLE_DEVICES} when set, else the NVIDIA or AMD
     * driver's list), as {@code banyan dvm start} does without {@code --gpus-per-host}.
     */
    public static final int FOUND_GPUS = org.banyan.runtime.dvm.DvmHead.FOUND_GPUS;

    public PilotDescription {
        if (gpusPerHost < FOUND_GPUS || gpusPerHost > org.banyan.core.pilot.NodeResources.MAX_GPUS) {
            throw new IllegalArgumentException("a pilot's GPUs per host are 0 to " + org.banyan.core.pilot.NodeResources.MAX_GPUS
                    + ", not " + gpusPerHost);
        }
        if (gpusPerHost == FOUND_GPUS && !resource.equals("local") && !resource.equals("ssh")) {
            throw new IllegalArgumentException("only a local or ssh pilot finds its hosts' GPUs itself; a " + resource
                    + " pilot has those it asks for");
        }
        if (resource.equals("dvm") && gpusPerHost > 0) {
            throw new IllegalArgumentException("a dvm pilot has its DVM's GPUs (banyan dvm start --gpus-per-host)");
        }
        if (warmUpPerHost < 0) {
            throw new IllegalArgumentException("warm-up tasks per host must be 0 or more, not " + warmUpPerHost);
        }
        hosts = List.copyOf(hosts);
        if (!List.of("local", "ssh", "slurm", "dvm").contains(resource)) {
            throw new IllegalArgumentException("resource '" + resource + "' is not local, ssh, slurm or dvm");
        }
        if (resource.equals("slurm") && nodes < 1) {
            throw new IllegalArgumentException("a Slurm pilot needs at least one node");
        }
        if (cores < 0) {
            throw new IllegalArgumentException("a pilot's cores are 0 (all of this machine's) or more, not " + cores);
        }
        if (resource.equals("ssh") && hosts.isEmpty()) {
            throw new IllegalArgumentException("an ssh pilot needs at least one host");
        }
        if (resource.equals("dvm") && dvm == null) {
            throw new IllegalArgumentException("a dvm pilot needs the DVM's URI file");
        }
        if (!resource.equals("slurm") && (partition != null || account != null)) { // they were dropped without a word
            throw new IllegalArgumentException("a partition and an account are a Slurm pilot's (sbatch --partition, --account); "
                    + (resource.equals("ssh") ? "an " : "a ") + resource + " pilot has neither");
        }
        if (!(runtimeMinutes >= 0) || Double.isInfinite(runtimeMinutes)) {
            throw new IllegalArgumentException("a pilot's runtime is 0 (until canceled) or a number of minutes, not " + runtimeMinutes);
        }
    }

    public static PilotDescription local(int cores) {
        return new PilotDescription("local", cores, List.of(), null, 0, 0, null, null, DvmWarmUp.DEFAULT_PER_HOST, FOUND_GPUS);
    }

    public static PilotDescription ssh(List<String> hosts) {
        return new PilotDescription("ssh", 0, hosts, null, 0, 0, null, null, DvmWarmUp.DEFAULT_PER_HOST, FOUND_GPUS);
    }

    /** A Slurm batch job of {@code nodes} nodes, all their cores. */
    public static PilotDescription slurm(int nodes) {
        return new PilotDescription("slurm", 0, List.of(), null, 0, nodes, null, null, DvmWarmUp.DEFAULT_PER_HOST, 0);
    }

    public static PilotDescription dvm(Path uriFile) {
        return new PilotDescription("dvm", 0, List.of(), uriFile, 0, 0, null, null, 0, 0);
    }

    public PilotDescription runtime(double minutes) {
        return new PilotDescription(resource, cores, hosts, dvm, minutes, nodes, partition, account, warmUpPerHost, gpusPerHost);
    }

    public PilotDescription partition(String p) {
        return new PilotDescription(resource, cores, hosts, dvm, runtimeMinutes, nodes, p, account, warmUpPerHost, gpusPerHost);
    }

    public PilotDescription account(String a) {
        return new PilotDescription(resource, cores, hosts, dvm, runtimeMinutes, nodes, partition, a, warmUpPerHost, gpusPerHost);
    }

    /** {@code perHost} warm-up tasks per host (0 for none) instead of {@link DvmWarmUp#DEFAULT_PER_HOST}. */
    public PilotDescription warmUp(int perHost) {
        return new PilotDescription(resource, cores, hosts, dvm, runtimeMinutes, nodes, partition, account, perHost, gpusPerHost);
    }

    /**
     * {@code perHost} GPUs on each host (on each node of a Slurm pilot, which asks Slurm for them
     * with {@code --gpus-per-node}), numbered from 0, for tasks' {@code gpusPerRank}, instead of
     * those found on each host ({@link #FOUND_GPUS}, the default of local and ssh pilots; a Slurm
     * pilot has none unless it asks). A task with GPUs gets its own in {@code BANYAN_TASK_GPUS}
     * and in {@code CUDA_VISIBLE_DEVICES}, by the names its host's daemon was given them under
     * when it was (Slurm's, a user's {@code CUDA_VISIBLE_DEVICES}).
     */
    public PilotDescription gpus(int perHost) {
        if (perHost < 0) {
            throw new IllegalArgumentException("a pilot's GPUs per host are 0 to " + org.banyan.core.pilot.NodeResources.MAX_GPUS
                    + ", not " + perHost);
        }
        return new PilotDescription(resource, cores, hosts, dvm, runtimeMinutes, nodes, partition, account, warmUpPerHost, perHost);
    }
}
