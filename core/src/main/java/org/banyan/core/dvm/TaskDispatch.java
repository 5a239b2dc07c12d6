package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.job.WireUp;
import org.banyan.core.pilot.Placement;
import org.banyan.core.pilot.AgentAction;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskSpec;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/**
 * Between the DVM's {@link TaskAgent} and the rest of its head: the agent's launches become one
 * {@link OverlayMessage.RunTasks} per node and event (routed down the overlay), an MPI task
 * becomes a job on the nodes it was placed on (its output written to its sandbox files by the driver),
 * signals become {@link OverlayMessage.SignalTasks} or a job's signal, and states go to the
 * client that submitted the task, stamped with the head's clock and batched until the head
 * flushes them (every few milliseconds).
 */
final class TaskDispatch {
    private final TaskAgent agent;
    private final IntSupplier nextJobId;
    private final Consumer<DvmAction> out;
    private final DvmClock clock;
    /** MPI tasks' jobs until they are submitted. */
    private final TaskJobStarts starts;
    /** The DVM tells its clients it stops. */
    private boolean stopping;
    private final DvmView view;
    private final Map<Integer, Client> owners = new HashMap<>();
    /**
     * Finished tasks whose final state is kept for banyan wait: those of detached submits, the
     * last {@link #KEEP_FINISHED}. A task whose submitter is there to take its final state is
     * forgotten once it has; all were kept, about 110 bytes each, and a DVM running thousands
     * of tasks a second grew by a gigabyte an hour.
     */
    static final int KEEP_FINISHED = 100_000;
    private final int keepFinished;

    /** Every unfinished task's last state, and the finished ones kept (above). */
    private final Map<Integer, ClientMessage.TaskUpdate> latest = new HashMap<>();
    /** The finished tasks in {@link #latest}, oldest first. */
    private final java.util.ArrayDeque<Integer> finished = new java.util.ArrayDeque<>();
    /** When a task's process ran, from its end's message, until its final state goes out. */
    private final Map<Integer, long[]> execTimes = new HashMap<>();
    /** Clients other than the owner that follow a task (banyan wait). */
    private final Map<Integer, java.util.Set<Client>> watchers = new HashMap<>();
    /** Sessions with state changes to send at the end of this event. */
    private final java.util.Set<Client> toFlush = new java.util.LinkedHashSet<>();
    /** MPI tasks: the job that runs each, both ways, and its open output files. */
    private final Map<Integer, Integer> jobOfTask = new HashMap<>();
    private final Map<Integer, Integer> taskOfJob = new HashMap<>();
    /**
     * Jobs their task left when a node of theirs was lost, while their ranks elsewhere end: the
     * cores they hold there, given back at the job's end.
     */
    private final Map<Integer, Placement> coresOfLeftJobs = new HashMap<>();
    /** MPI tasks' output files, and when such a task is final. */
    private final TaskJobOutput files;
    /** Such tasks' stdin files, read for their rank 0. */
    private final TaskJobInput input;

    /**
     * @param nextJobId    the DVM's job numbering, shared with {@code banyan run --dvm}'s jobs
     * @param out          the actions of the current event: timers, an MPI task's output files
     * @param keepFinished how many finished tasks of detached submits to keep (tests keep fewer)
     */
    TaskDispatch(TaskAgent agent, List<Node> nodes, HeadSettings settings, IntSupplier nextJobId, Consumer<DvmAction> out,
                 DvmClock clock, int keepFinished) {
        this(agent, nodes, settings, nextJobId, out, clock, keepFinished, new DvmView());
    }

    /** @param view what the dashboard shows, told of every task state */
    TaskDispatch(TaskAgent agent, List<Node> nodes, HeadSettings settings, IntSupplier nextJobId, Consumer<DvmAction> out,
                 DvmClock clock, int keepFinished, DvmView view) {
        this.view = view;
        this.keepFinished = keepFinished;
        this.agent = agent;
        this.nextJobId = nextJobId;
        this.out = out;
        this.files = new TaskJobOutput(out);
        this.input = new TaskJobInput(out);
        this.clock = clock;
        this.starts = new TaskJobStarts(agent, nodes, settings, out);
    }

    List<HeadEvent> submit(Client s, List<TaskRequest> tasks) {
        List<AgentAction> actions = agent.submit(tasks);
        List<Integer> ids = agent.lastIds();
        for (int id : ids) {
            owners.put(id, s);
            s.tasks.add(id);
        }
        s.send(new ClientMessage.TasksAccepted(ids));
        return apply(actions);
    }

    /** Any client may cancel any task: holding the secret makes it the DVM's owner. */
    List<HeadEvent> cancel(List<Integer> ids) {
        return apply(agent.cancel(ids.stream().filter(id -> latest.containsKey(id) && !latest.get(id).state().isFinal()).toList()));
    }

    /**
     * {@code s} follows tasks (every unfinished one for an empty list): it is told which of them
     * this DVM knows, then their current states, then every change.
     */
    void watch(Client s, List<Integer> ids) {
        List<Integer> known = new ArrayList<>();
        Map<Integer, ClientMessage.TaskUpdate> forgotten = new HashMap<>();
        if (ids.isEmpty()) {
            latest.forEach((id, u) -> {
                if (!u.state().isFinal()) {
                    known.add(id);
                }
            });
        } else {
            for (int id : ids) {
                TaskState end;
                if (latest.containsKey(id)) {
                    known.add(id);
                } else if ((end = agent.endOf(id)) != null) { // an attached task whose submitter took its record
                    known.add(id);
                    forgotten.put(id, new ClientMessage.TaskUpdate(id, end, 0, end == TaskState.DONE ? 0 : -1,
                            end == TaskState.DONE ? "" : "the DVM keeps only how it ended, not its exit code and detail"));
                }
            }
        }
        s.send(new ClientMessage.TasksAccepted(known));
        for (int id : known) {
            ClientMessage.TaskUpdate now = latest.containsKey(id) ? latest.get(id) : forgotten.get(id);
            s.updates.add(now);
            if (!now.state().isFinal()) {
                watchers.computeIfAbsent(id, k -> new java.util.LinkedHashSet<>()).add(s);
            }
        }
        s.flushUpdates();
    }

    /** The client went away: its tasks are canceled with it, unless it detached them. */
    List<HeadEvent> gone(Client s) {
        List<HeadEvent> ends = s.detached ? List.of() : apply(agent.cancel(List.copyOf(s.tasks)));
        for (int id : s.tasks) {
            owners.remove(id);
        }
        s.tasks.clear();
        for (java.util.Set<Client> w : watchers.values()) {
            w.remove(s);
        }
        toFlush.remove(s);
        return ends;
    }

    /**
     * A daemon's batch of ends. The starts they make go out as one {@link OverlayMessage.RunTasks}
     * per node for the whole batch: one per end made a message, a routing and a wake-up of the
     * daemon's loop for nearly every task of a stream of short ones (11,445 messages for 11,500
     * tasks), where the ends came up about six to a batch.
     */
    List<HeadEvent> ended(List<OverlayMessage.RankExited> ends) {
        Batch batch = new Batch();
        for (OverlayMessage.RankExited e : ends) {
            if (e.startMicros() > 0) {
                execTimes.put(e.rank(), new long[] {e.startMicros(), e.endMicros()});
            }
            long ran = e.startMicros() > 0 ? e.endMicros() - e.startMicros() : 0;
            batch.add(agent.ended(e.rank(), e.status(), e.note(), ran));
        }
        return batch.events();
    }

    List<HeadEvent> timedOut(int taskId) {
        return apply(agent.timedOut(taskId));
    }

    List<HeadEvent> nodeLost(int node) {
        return nodeLost(node, "");
    }

    /** @param lossReport the head's words for the loss, which the tasks that fail there carry */
    List<HeadEvent> nodeLost(int node, String lossReport) {
        // a left job's cores on this node are gone with it (a host that rejoins comes back whole)
        coresOfLeftJobs.replaceAll((job, p) -> new Placement(p.shares().stream().filter(s -> s.node() != node).toList(), p.colocate()));
        return apply(agent.nodeLost(node, lossReport));
    }

    /** Whether tasks wait for cores: in the agent, or queued on a daemon behind a running task. */
    boolean anyWaiting() {
        return agent.notStarted() > 0;
    }

    /** Whether job {@code jobId} is an MPI task's. */
    boolean isTaskJob(int jobId) {
        return taskOfJob.containsKey(jobId);
    }

    /** What the head core says of an MPI task's job: its output into the task's files, its stdin from the task's file. */
    void forJob(int jobId, HeadAction a) {
        if (a instanceof HeadAction.EmitOutput(int rank, int stream, byte[] data)) {
            Integer task = taskOfJob.get(jobId);
            if (task != null) {
                files.write(task, stream, data);
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
        return task == null ? List.of() : apply(agent.fail(task, why));
    }

    /** An MPI task's job ended; {@code note} says why when its status does not ("ended as its DVM stopped ..."). */
    List<HeadEvent> jobEnded(int jobId, int status, String note) {
        input.ended(jobId);
        Integer task = taskOfJob.remove(jobId);
        if (task == null) {
            Placement kept = coresOfLeftJobs.remove(jobId);
            return kept == null ? List.of() : apply(agent.releaseCores(kept));
        }
        jobOfTask.remove(task);
        return files.jobEnded(task, jobId, status, note) ? apply(agent.ended(task, status, note)) : List.of();
    }

    /** MPI task {@code task}'s output files are closed: the task ends as its job did. */
    List<HeadEvent> outputClosed(int task) {
        return ended(task, files.closed(task));
    }

    /**
     * The files of MPI task {@code task}'s job {@code job} were not closed within
     * {@link TaskJobOutput#CLOSE_MILLIS}: the task fails with why (what it wrote may be incomplete).
     */
    List<HeadEvent> outputLate(int task, int job) {
        return ended(task, files.late(task, job));
    }

    private List<HeadEvent> ended(int task, TaskJobOutput.JobEnd end) {
        return end == null ? List.of() : apply(agent.ended(task, end.status(), end.note()));
    }

    /** MPI task {@code task}'s output files fell {@code behind}, or caught up: its job waits for them meanwhile. */
    List<HeadEvent> outputBacklog(int task, boolean behind) {
        return files.backlog(task, jobOfTask.get(task), behind);
    }

    /** A file of MPI task {@code task} could not be created: the task fails with why, its job ended. */
    List<HeadEvent> outputFailed(int task, String why) {
        return apply(agent.fail(task, why));
    }

    /** The DVM tells its clients it stops: MPI tasks that end from now on end at once. */
    void dvmStopping() {
        stopping = true;
        files.dvmStopping();
    }

    /** Whether some client has task states not sent yet. */
    boolean hasUpdates() {
        return !toFlush.isEmpty();
    }

    /** Sends each client what its tasks went through since the last flush, in one message. */
    void flush() {
        for (Client s : toFlush) {
            s.flushUpdates();
        }
        toFlush.clear();
    }

    private List<HeadEvent> apply(List<AgentAction> actions) {
        Batch batch = new Batch();
        batch.add(actions);
        return batch.events();
    }

    /**
     * What the agent's answers to one or more calls become, in their order: an MPI task's job
     * held for its sandbox and program; plain starts gathered into one {@link OverlayMessage.RunTasks}
     * per node; signals after the starts of their own call (a task starts before its signal), and
     * a call's signals after every start gathered from the calls before it, so that merging only
     * joins starts that followed one another.
     */
    private final class Batch {
        private final List<HeadEvent> out = new ArrayList<>();
        private final Map<Integer, List<TaskSpec>> launches = new LinkedHashMap<>();
        private final long now = clock.wallMicros();

        void add(List<AgentAction> actions) {
            // one message per daemon and signal: cancel --all of 100,000 tasks is a few messages
            Map<NodeSignal, List<Integer>> signals = new LinkedHashMap<>();
            for (AgentAction a : actions) {
                switch (a) {
                    case AgentAction.Launch(int node, TaskSpec spec) ->
                            launches.computeIfAbsent(node, n -> new ArrayList<>()).add(spec);
                    case AgentAction.LaunchJob(int taskId, TaskRequest r, Placement p, int restarts) ->
                            taskJob(taskId, r, p, restarts);
                    case AgentAction.Signal(int taskId, List<Integer> on, boolean ofJob, int signal) -> {
                        if (ofJob) {
                            Integer job = jobOfTask.get(taskId);
                            if (job != null && forgetHeld(taskId, job)) { // never started: its task ends now
                                add(agent.ended(taskId, 128 + signal, "never started"));
                            } else if (job != null) {
                                files.cancel(job, "task " + taskId + " canceled or timed out", out);
                            }
                        } else {
                            for (int node : on) {
                                signals.computeIfAbsent(new NodeSignal(node, signal), k -> new ArrayList<>()).add(taskId);
                            }
                        }
                    }
                    case AgentAction.KeepCores(int taskId, Placement p) -> {
                        Integer job = jobOfTask.get(taskId);
                        if (job == null || starts.isHeld(job)) { // no rank of it runs
                            add(agent.releaseCores(p));
                        } else {
                            coresOfLeftJobs.put(job, p);
                        }
                    }
                    case AgentAction.ArmTimeout(int taskId, long millis) ->
                            TaskDispatch.this.out.accept(new DvmAction.Arm(new DvmEvent.TaskTimeout(taskId), millis));
                    case AgentAction.State(int taskId, TaskState state, int exitCode, String detail) -> {
                        if (state == TaskState.AGENT_SCHEDULING || state.isFinal()) {
                            leaveJob(taskId, out);
                        }
                        state(taskId, state, exitCode, detail, now);
                    }
                }
            }
            if (!signals.isEmpty()) {
                startsSoFar();
                for (Map.Entry<NodeSignal, List<Integer>> e : signals.entrySet()) {
                    out.add(new HeadEvent.Route(new OverlayMessage.SignalTasks(-1, e.getKey().node(), e.getValue(), e.getKey().signal())));
                }
            }
        }

        private void startsSoFar() {
            for (Map.Entry<Integer, List<TaskSpec>> e : launches.entrySet()) {
                out.add(new HeadEvent.Route(new OverlayMessage.RunTasks(-1, e.getKey(), e.getValue())));
            }
            launches.clear();
        }

        List<HeadEvent> events() {
            startsSoFar();
            return out;
        }
    }

    /**
     * A task that leaves its job before the job has ended (restarted or failed by the agent when
     * one of its nodes was lost): the job's other ranks are ended, and its end, when it comes, is
     * no longer the task's. It was: the old job's end took the restarted task's new job for its
     * own, failed the task, and left the new job's ranks running on cores the agent thought free.
     */
    private void leaveJob(int taskId, List<HeadEvent> out) {
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

    private void state(int taskId, TaskState state, int exitCode, String detail, long now) {
        long[] ran = state.isFinal() ? execTimes.remove(taskId) : null;
        ClientMessage.TaskUpdate u = new ClientMessage.TaskUpdate(taskId, state, now, exitCode, detail,
                ran == null ? 0 : ran[0], ran == null ? 0 : ran[1]);
        ClientMessage.TaskUpdate before = latest.get(taskId);
        boolean named = state == TaskState.AGENT_EXECUTING || state == TaskState.FAILED;
        TaskRequest r = named ? agent.requestOf(taskId) : null;
        view.state(taskId, before == null ? null : before.state(), state, now, exitCode, detail, r == null ? null : r.uid(),
                r == null ? null : r.slots().colocate());
        Client s = owners.get(taskId);
        if (state.isFinal() && s != null && !s.detached) {
            latest.remove(taskId); // its submitter takes it now
        } else {
            latest.put(taskId, u);
            if (state.isFinal()) {
                keepFinished(taskId);
            }
        }
        if (s != null) {
            s.updates.add(u);
            toFlush.add(s);
            if (state.isFinal()) {
                owners.remove(taskId);
                s.tasks.remove(taskId);
            }
        }
        java.util.Set<Client> w = state.isFinal() ? watchers.remove(taskId) : watchers.get(taskId);
        if (w != null) {
            for (Client ws : w) {
                ws.updates.add(u);
                toFlush.add(ws);
            }
        }
    }

    private record NodeSignal(int node, int signal) {}

    private void keepFinished(int taskId) {
        finished.add(taskId);
        if (finished.size() > keepFinished) {
            latest.remove(finished.poll());
        }
    }

    /** Tasks whose state this DVM holds: unfinished, or finished and kept for banyan wait. */
    int known() {
        return latest.size();
    }

    /** For dvm status. */
    ClientMessage.TaskCounts counts() {
        return new ClientMessage.TaskCounts(agent.notStarted() + agent.held(), agent.running(), finished.size());
    }

    /**
     * An MPI task, or an executable task of several ranks: a job, held until its sandbox is made
     * and its program read ({@link TaskJobStarts}).
     */
    private void taskJob(int taskId, TaskRequest r, Placement p, int restarts) {
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
            return apply(agent.ended(ready.task(), 128 + org.banyan.core.daemon.Signals.SIGTERM, "never started: its DVM stopped"));
        }
        files.open(ready.task(), ready.request());
        return List.of(ready.submit());
    }

    /** Job {@code jobId} has waited long for its sandbox and program: said, if it still does. */
    void prepareSlow(int jobId) {
        starts.slow(jobId);
    }

    /**
     * Job {@code jobId}'s sandbox could not be made: its task fails with why and 127, as a task
     * of one process whose directory cannot be made does (nothing was ended by a signal).
     */
    List<HeadEvent> unprepared(int jobId, String why) {
        Integer task = taskOfJob.get(jobId);
        return task == null || !forgetHeld(task, jobId) ? List.of() : apply(agent.ended(task, 127, why));
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
