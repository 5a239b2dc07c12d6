package org.banyan.core.pilot;

import java.util.List;
import java.util.Map;

/**
 * A task as the agent receives it from a task manager: RADICAL-Pilot's task description, less
 * what the manager did already (input staging to the sandbox) and what it will do (output
 * staging).
 *
 * @param uid         the manager's name for it ({@code task.000042})
 * @param sandbox     the task's directory (created by the daemon); relative stdout/stderr/stdin are in it
 * @param stdin       the file its standard input reads, or null for none ({@code /dev/null})
 * @param mpi         whether its ranks are an MPI job, wired up as {@code banyan run} wires its
 *                    own; an executable task of several ranks runs as a job too, each rank a copy
 * @param timeoutMillis 0 for none; the task is ended (SIGTERM, then SIGKILL) and FAILED after it
 * @param restartable whether it is started again elsewhere when its node is lost
 * @param dependencies what must happen to other tasks of the DVM before it is scheduled (see {@link TaskDependency})
 */
public record TaskRequest(String uid, String executable, List<String> args, Map<String, String> env, String sandbox,
                          String stdout, String stderr, String stdin, List<String> preExec, List<String> postExec, SlotRequest slots,
                          int priority, boolean mpi, long timeoutMillis, boolean restartable,
                          List<TaskDependency> dependencies) {
    public TaskRequest {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        preExec = List.copyOf(preExec);
        postExec = List.copyOf(postExec);
        dependencies = List.copyOf(dependencies);
    }

    /**
     * Whether its processes start as one job on the nodes it was placed on: an MPI task, and an
     * executable task of several ranks (each rank a copy of it, as {@code srun -n}, {@code flux
     * run -n} and RADICAL-Pilot's launch methods start them). Anything else is one process.
     */
    public boolean runsAsJob() {
        return mpi || slots.ranks() > 1;
    }

    /**
     * The variables each of its processes sees besides its own environment: its id, uid and
     * sandbox, the cores the process holds, its ranks, cores and GPUs per rank (each also under
     * RADICAL-Pilot's {@code RP_*} name), and, once it has been restarted because its node was
     * lost, how many times (as Slurm's {@code SLURM_RESTART_COUNT}, so that it can resume from
     * its checkpoint). Immutable, so that a spec keeps it as it is when the task brings nothing more.
     * A task that starts outside its sandbox ({@link #sandbox} is then where it starts) has its
     * sandbox in its own {@code env}, from the task manager.
     */
    public Map<String, String> variables(int id, int cores, int restarts) {
        String sandbox = env.getOrDefault("BANYAN_TASK_SANDBOX", this.sandbox);
        String rpSandbox = env.getOrDefault("RP_TASK_SANDBOX", sandbox);
        String ranks = Integer.toString(slots.ranks());
        String perRank = Integer.toString(slots.coresPerRank());
        String gpus = Integer.toString(slots.gpusPerRank());
        String idText = Integer.toString(id);
        String coresText = Integer.toString(cores);
        // Immutable and made in one go: the agent keeps it as it is for a task that brings no variables of its own.
        if (restarts > 0) {
            return Map.ofEntries(Map.entry("BANYAN_TASK_ID", idText), Map.entry("BANYAN_TASK_UID", uid),
                    Map.entry("BANYAN_TASK_SANDBOX", sandbox), Map.entry("BANYAN_TASK_CORES", coresText),
                    Map.entry("BANYAN_TASK_RANKS", ranks), Map.entry("BANYAN_TASK_CORES_PER_RANK", perRank),
                    Map.entry("BANYAN_TASK_GPUS_PER_RANK", gpus), Map.entry("RP_TASK_ID", uid),
                    Map.entry("RP_TASK_SANDBOX", rpSandbox), Map.entry("RP_RANKS", ranks), Map.entry("RP_CORES_PER_RANK", perRank),
                    Map.entry("RP_GPUS_PER_RANK", gpus), Map.entry("BANYAN_TASK_RESTARTS", Integer.toString(restarts)));
        }
        return Map.ofEntries(Map.entry("BANYAN_TASK_ID", idText), Map.entry("BANYAN_TASK_UID", uid),
                Map.entry("BANYAN_TASK_SANDBOX", sandbox), Map.entry("BANYAN_TASK_CORES", coresText),
                Map.entry("BANYAN_TASK_RANKS", ranks), Map.entry("BANYAN_TASK_CORES_PER_RANK", perRank),
                Map.entry("BANYAN_TASK_GPUS_PER_RANK", gpus), Map.entry("RP_TASK_ID", uid),
                Map.entry("RP_TASK_SANDBOX", rpSandbox), Map.entry("RP_RANKS", ranks), Map.entry("RP_CORES_PER_RANK", perRank),
                Map.entry("RP_GPUS_PER_RANK", gpus));
    }

    /**
     * Tells each process of a task of several cores per rank how many threads to run, as Flux's
     * shell does for {@code -c N} and RADICAL-Pilot for an OpenMP task: {@code OMP_NUM_THREADS},
     * unless the task sets its own. Without it an OpenMP rank starts a thread per core of the
     * host, on cores other tasks hold.
     */
    public void tellThreads(Map<String, String> env) {
        if (slots.coresPerRank() > 1) {
            env.putIfAbsent("OMP_NUM_THREADS", Integer.toString(slots.coresPerRank()));
        }
    }

    /** A one-core executable task with the defaults of everything else. */
    public static TaskRequest of(String uid, String sandbox, String executable, String... args) {
        return new TaskRequest(uid, executable, List.of(args), Map.of(), sandbox, uid + ".out", uid + ".err", null, List.of(),
                List.of(), SlotRequest.cores(1), 0, false, 0, false, List.of());
    }
}
