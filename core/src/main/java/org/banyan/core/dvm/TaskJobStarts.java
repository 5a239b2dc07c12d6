package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.Placement;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskCommand;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pmix.PmixNamespaces;

/**
 * An MPI task's job (or an executable task's of several ranks), from the agent's placement to
 * its submit: built, then held while the driver makes its sandbox and reads its program
 * ({@link DvmAction.PrepareTaskJob}), then submitted, served as its program needs. Both were
 * done on the DVM's loop, where a sandbox or a program on a hung mount stopped every task and
 * client of the DVM for as long as the loop waited for them.
 */
final class TaskJobStarts {
    /** How long a job may wait for its sandbox and program before the DVM's log says so (once). */
    static final long SLOW_MILLIS = 10_000;

    /** A job built and waiting for its sandbox and program. */
    private record Held(int task, JobDescription job, TaskRequest request) {}

    private final TaskAgent agent;
    private final List<Node> nodes;
    private final HeadSettings settings;
    private final Consumer<DvmAction> out;
    private final Map<Integer, Held> held = new HashMap<>();

    TaskJobStarts(TaskAgent agent, List<Node> nodes, HeadSettings settings, Consumer<DvmAction> out) {
        this.agent = agent;
        this.nodes = nodes;
        this.settings = settings;
        this.out = out;
    }

    /**
     * Task {@code taskId}'s job {@code jobId}, with as many ranks on each node as the agent placed
     * there, each rank running the task's command (pre-exec and post-exec around the executable)
     * with the task's variables; its rank 0 reads the task's stdin file, as mpirun gives its stdin
     * to rank 0. A task with GPUs is one context per node (one MPI_COMM_WORLD all the same), so
     * that the ranks on each node see that node's GPUs of the task in CUDA_VISIBLE_DEVICES and
     * BANYAN_TASK_GPUS. Held until {@link #prepared}.
     */
    void hold(int jobId, int taskId, TaskRequest r, Placement p, int restarts) {
        int[] ranks = new int[nodes.size()];
        long[] gpus = new long[nodes.size()];
        for (Placement.Share s : p.shares()) {
            ranks[s.node()] += s.ranks();
            gpus[s.node()] |= s.gpuIds();
        }
        List<Node> slots = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            slots.add(new Node(nodes.get(i).name(), ranks[i]));
        }
        TaskCommand command = TaskCommand.of(r);
        Map<String, String> env = new LinkedHashMap<>(r.env());
        env.putAll(r.variables(taskId, r.slots().coresPerRank(), restarts)); // each rank's cores
        r.tellThreads(env);
        List<AppContext> apps = new ArrayList<>();
        if (r.slots().gpusPerRank() == 0) {
            if (agent.onGpuNodes(p)) {
                Placement.tellNoGpus(env);
            }
            apps.add(new AppContext(command.executable(), command.args(), r.slots().ranks(), env, r.sandbox()));
        } else { // by slot, in node order: context i's ranks are node i's
            for (int i = 0; i < nodes.size(); i++) {
                if (ranks[i] > 0) {
                    Map<String, String> onNode = new LinkedHashMap<>(env);
                    Placement.tellGpus(onNode, i, gpus[i], agent.gpuNames());
                    apps.add(new AppContext(command.executable(), command.args(), ranks[i], onNode, r.sandbox()));
                }
            }
        }
        JobDescription job = new JobDescription(jobId, apps, slots, MappingPolicy.SLOT, false, r.stdin() == null ? -1 : 0,
                r.sandbox(), Modex.LAZY);
        held.put(jobId, new Held(taskId, job, r));
        out.accept(new DvmAction.PrepareTaskJob(jobId, r.sandbox(), r.executable(), r.env().get("PATH")));
        out.accept(new DvmAction.Arm(new DvmEvent.TaskJobSlow(jobId), SLOW_MILLIS));
    }

    /**
     * Job {@code jobId}'s timer: still held, the DVM's log says which task waits for what (its
     * state reads executing, its cores held, and nothing else would say why it does not run).
     */
    void slow(int jobId) {
        Held h = held.get(jobId);
        if (h != null) {
            out.accept(new DvmAction.Log("task " + h.task() + " waits for its sandbox " + h.request().sandbox()
                    + " and its program " + h.request().executable() + ": their file system has not answered for "
                    + SLOW_MILLIS / 1000 + " s (an NFS server gone?); it starts once they answer, or ends when canceled"));
        }
    }

    /** A job ready to submit, and the task it runs. */
    record Ready(int task, TaskRequest request, HeadEvent.Submit submit) {}

    /**
     * Job {@code jobId} is ready to submit, its ranks served through PMIx when its program is
     * built with Open MPI (or libpmix), as {@code banyan run}'s are (through PMI they ran as that
     * many singletons); null when it is no longer held.
     */
    Ready prepared(int jobId, WireUp wireUp) {
        Held h = held.remove(jobId);
        return h == null ? null
                : new Ready(h.task(), h.request(), new HeadEvent.Submit(PmixNamespaces.name(h.job(), wireUp), settings.forJob(0)));
    }

    /** Whether job {@code jobId} waits for its sandbox and program. */
    boolean isHeld(int jobId) {
        return held.containsKey(jobId);
    }

    /** Job {@code jobId} will not start (its task was canceled, failed or restarted): true when it was held. */
    boolean drop(int jobId) {
        return held.remove(jobId) != null;
    }
}
