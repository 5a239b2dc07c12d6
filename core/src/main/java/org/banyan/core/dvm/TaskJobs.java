package org.banyan.core.dvm;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.AgentAction;
import org.banyan.core.pilot.Placement;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;

/**
 * The jobs that run the DVM's MPI tasks (and executable tasks of several ranks): which job runs
 * which task, each held until its sandbox is made and its program read ({@link TaskJobStarts}),
 * its output into the task's files ({@link TaskJobOutput}) and its stdin from the task's file
 * ({@link TaskJobInput}), and the cores a job keeps on surviving nodes after its task left it.
 * What the agent answers goes back through {@code apply}, {@link TaskDispatch}'s.
 */
final class TaskJobs {
    private final TaskAgent agent;
    private final IntSupplier nextJobId;
    private final Function<List<AgentAction>, List<HeadEvent>> apply;
    private final TaskJobStarts starts;
    private final TaskJobOutput files;
    private final TaskJobInput input;
    /** The job that runs each task, both ways. */
    private final Map<Integer, Integer> jobOfTask = new HashMap<>();
    private final Map<Integer, Integer> taskOfJob = new HashMap<>();
    /**
     * Jobs their task left when a node of theirs was lost, while their ranks elsewhere end: the
     * cores they hold there, given back at the job's end.
     */
    private final Map<Integer, Placement> coresOfLeftJobs = new HashMap<>();
    /** The DVM tells its clients it stops. */
    private boolean stopping;

    /**
     * @param nextJobId the DVM's job numbering, shared with {@code banyan run --dvm}'s jobs
     * @param out       the actions of the current event: timers, the files' opening and closing
     * @param apply     what the agent's answers become, in the current event
     */
    TaskJobs(TaskAgent agent, List<Node> nodes, HeadSettings settings, IntSupplier nextJobId, Consumer<DvmAction> out,
             Function<List<AgentAction>, List<HeadEvent>> apply) {
        this.agent = agent;
        this.nextJobId = nextJobId;
        this.apply = apply;
        this.starts = new TaskJobStarts(agent, nodes, settings, out);
        this.files = new TaskJobOutput(out);
        this.input = new TaskJobInput(out);
    }

    /** Task {@code taskId}'s job, placed on {@code p}: held until its sandbox is made and its program read. */
    void start(int taskId, TaskRequest r, Placement p, int restarts) {
        int jobId = nextJobId.getAsInt();
        jobOfTask.put(taskId, jobId);
        taskOfJob.put(jobId, taskId);
        if (r.stdin() != null) {
            input.expect(jobId, r.sandbox(), r.stdin());
        }
        starts.hold(jobId, taskId, r, p, restarts);
    }

    /** Job {@code jobId}'s sandbox is made and its program read: it is submitted, its task's files opened. */
    List<HeadEvent> prepared(int jobId, WireUp wireUp) {
        TaskJobStarts.Ready ready = starts.prepared(jobId, wireUp);
        if (ready == null) {
            return List.of();
        }
        if (stopping) { // its head takes no job now
            forget(ready.task(), jobId);
            return apply.apply(agent.ended(ready.task(), 128 + Signals.SIGTERM, "never started: its DVM stopped"));
        }
        files.open(ready.task(), ready.request());
        return List.of(ready.submit());
    }

    /** Job {@code jobId} has waited long for its sandbox and program: said, if it still does. */
    void slow(int jobId) {
        starts.slow(jobId);
    }

    /**
     * Job {@code jobId}'s sandbox could not be made: its task fails with why and 127, as a task
     * of one process whose directory cannot be made does (nothing was ended by a signal).
     */
    List<HeadEvent> unprepared(int jobId, String why) {
        Integer task = taskOfJob.get(jobId);
        return task == null || !forgetHeld(task, jobId) ? List.of() : apply.apply(agent.ended(task, 127, why));
    }

    /** Whether job {@code jobId} is an MPI task's. */
    boolean isTaskJob(int jobId) {
        return taskOfJob.containsKey(jobId);
    }

    /** What the head core says of a task's job: its output into the task's files, its stdin from the task's file. */
    void forJob(int jobId, HeadAction a) {
        if (a instanceof HeadAction.EmitOutput(int rank, int stream, byte[] data)) {
            Integer task = taskOfJob.get(jobId);
            if (task != null) {
                files.write(task, stream, data);
            }
        } else if (a instanceof HeadAction.Report(String line)) {
            Integer task = taskOfJob.get(jobId);
            if (task != null) {
                files.report(task, line);
            }
        } else if (taskOfJob.containsKey(jobId)) {
            input.forJob(jobId, a);
        }
    }

    /** A chunk of the stdin file of job {@code jobId} (empty: its end), for its rank 0. */
    void input(int jobId, byte[] data) {
        input.data(jobId, data);
    }

    /** The stdin file of job {@code jobId} could not be read: its task fails with why, its job ended. */
    List<HeadEvent> inputFailed(int jobId, String why) {
        Integer task = taskOfJob.get(jobId);
        return task == null ? List.of() : apply.apply(agent.fail(task, why));
    }

    /** A task's job ended; {@code note} says why when its status does not ("ended as its DVM stopped ..."). */
    List<HeadEvent> jobEnded(int jobId, int status, String note) {
        input.ended(jobId);
        Integer task = taskOfJob.remove(jobId);
        if (task == null) {
            Placement kept = coresOfLeftJobs.remove(jobId);
            return kept == null ? List.of() : apply.apply(agent.releaseCores(kept));
        }
        jobOfTask.remove(task);
        String why = files.why(task, status, note);
        return files.jobEnded(task, jobId, status, why) ? apply.apply(agent.ended(task, status, why)) : List.of();
    }

    /** Task {@code task}'s output files are closed: the task ends as its job did. */
    List<HeadEvent> outputClosed(int task) {
        return ended(task, files.closed(task));
    }

    /**
     * The files of task {@code task}'s job {@code job} were not closed within
     * {@link TaskJobOutput#CLOSE_MILLIS}: the task fails with why (what it wrote may be incomplete).
     */
    List<HeadEvent> outputLate(int task, int job) {
        return ended(task, files.late(task, job));
    }

    private List<HeadEvent> ended(int task, TaskJobOutput.JobEnd end) {
        return end == null ? List.of() : apply.apply(agent.ended(task, end.status(), end.note()));
    }

    /** Task {@code task}'s output files fell {@code behind}, or caught up: its job waits for them meanwhile. */
    List<HeadEvent> outputBacklog(int task, boolean behind) {
        return files.backlog(task, jobOfTask.get(task), behind);
    }

    /** A file of task {@code task} could not be created: the task fails with why, its job ended. */
    List<HeadEvent> outputFailed(int task, String why) {
        return apply.apply(agent.fail(task, why));
    }

    /** The DVM tells its clients it stops: tasks whose job ends from now on end at once. */
    void dvmStopping() {
        stopping = true;
        files.dvmStopping();
    }

    /** Node {@code node} is lost: a left job's cores there are gone with it (a host that rejoins comes back whole). */
    void nodeLost(int node) {
        coresOfLeftJobs.replaceAll((job, p) -> new Placement(p.shares().stream().filter(s -> s.node() != node).toList(), p.colocate()));
    }

    /**
     * The agent signals task {@code taskId}'s job (a cancel, its timeout): one held, never
     * started, is forgotten and its task ends now (what the agent answers, returned); one
     * submitted is ended through the head ({@code out}).
     */
    List<AgentAction> signal(int taskId, int signal, List<HeadEvent> out) {
        Integer job = jobOfTask.get(taskId);
        if (job != null && forgetHeld(taskId, job)) {
            return agent.ended(taskId, 128 + signal, "never started");
        }
        if (job != null) {
            files.cancel(job, "task " + taskId + " canceled or timed out", out);
        }
        return List.of();
    }

    /**
     * Task {@code taskId} left its job on a lost node, whose cores {@code p} on the others the
     * agent keeps: given back now when no rank of it runs (what the agent answers), else at the
     * job's end.
     */
    List<AgentAction> keepCores(int taskId, Placement p) {
        Integer job = jobOfTask.get(taskId);
        if (job == null || starts.isHeld(job)) {
            return agent.releaseCores(p);
        }
        coresOfLeftJobs.put(job, p);
        return List.of();
    }

    /**
     * A task that leaves its job before the job has ended (restarted or failed by the agent when
     * one of its nodes was lost): the job's other ranks are ended, and its end, when it comes, is
     * no longer the task's. It was: the old job's end took the restarted task's new job for its
     * own, failed the task, and left the new job's ranks running on cores the agent thought free.
     */
    void leave(int taskId, List<HeadEvent> out) {
        Integer job = jobOfTask.remove(taskId);
        if (job != null) {
            taskOfJob.remove(job);
            input.ended(job);
            files.close(taskId);
            if (!starts.drop(job)) { // a held one never started
                files.cancel(job, "task " + taskId + " lost one of its nodes; ending its other ranks", out);
            }
        }
    }

    /** Task {@code taskId}'s job {@code jobId} is no longer held: true when it was (and it is forgotten), false when submitted. */
    private boolean forgetHeld(int taskId, int jobId) {
        if (!starts.drop(jobId)) {
            return false;
        }
        forget(taskId, jobId);
        return true;
    }

    /** Task {@code taskId} and its job {@code jobId}, which never started, part. */
    private void forget(int taskId, int jobId) {
        jobOfTask.remove(taskId);
        taskOfJob.remove(jobId);
        input.ended(jobId);
    }
}
