package org.banyan.core.pilot;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a daemon is told to start for a task the agent placed: the task's command (see
 * {@link TaskCommand}) with its variables, its threads, and its GPUs named as the node's daemon
 * names them (or word that it holds none on a node that has some).
 */
final class TaskSpecs {
    private final AgentScheduler scheduler;
    private final GpuNames gpuNames = new GpuNames();

    TaskSpecs(AgentScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /** What tasks call each node's GPUs; the DVM fills it in as its daemons tell theirs. */
    GpuNames gpuNames() {
        return gpuNames;
    }

    /** Whether a node of {@code p} has GPUs: a task placed there that holds none is told so. */
    boolean onGpuNodes(Placement p) {
        for (Placement.Share s : p.shares()) {
            if (scheduler.gpusOn(s.node()) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Task {@code id}'s start on {@code p}; {@code after} the task it is queued behind (0: none). */
    TaskSpec spec(int id, TaskRequest r, int restarts, Placement p, int after) {
        TaskCommand command = TaskCommand.of(r);
        // Immutable, so that TaskSpec keeps it as it is when the task brings nothing more (most
        // do) instead of copying a LinkedHashMap into a new map: two maps a task, 1 % of a DVM's CPU.
        Map<String, String> env = r.variables(id, p.cores(), restarts);
        Placement.Share share = p.shares().getFirst();
        boolean noGpus = r.slots().gpusPerRank() == 0 && scheduler.gpusOn(share.node()) > 0;
        if (!r.env().isEmpty() || r.slots().gpusPerRank() > 0 || noGpus || r.slots().coresPerRank() > 1) {
            Map<String, String> all = new LinkedHashMap<>(r.env());
            all.putAll(env);
            r.tellThreads(all);
            if (r.slots().gpusPerRank() > 0) { // as RADICAL-Pilot and Slurm tell a task (a queued task takes its predecessor's)
                Placement.tellGpus(all, share.node(), share.gpuIds(), gpuNames);
            } else if (noGpus) {
                Placement.tellNoGpus(all);
            }
            env = all;
        }
        return new TaskSpec(id, command.executable(), command.args(), env, r.sandbox(), r.stdout(), r.stderr(), r.stdin(), after);
    }
}
