package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
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
 * becomes a job on the nodes it was placed on ({@link TaskJobs}), signals become {@link OverlayMessage.SignalTasks} or a job's signal, and states go to the
 * client that submitted the task, stamped with the head's clock and batched until the head
 * flushes them (every few milliseconds).
 */
final class TaskDispatch {
    private final TaskAgent agent;
    private final Consumer<DvmAction> out;
    private final DvmClock clock;
    /** MPI tasks' jobs. */
    private final TaskJobs jobs;
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
        this.out = out;
        this.clock = clock;
        this.jobs = new TaskJobs(agent, nodes, settings, nextJobId, out, this::apply);
    }

    /** The jobs of MPI tasks: their sandboxes, files, stdin and ends. */
    TaskJobs jobs() {
        return jobs;
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
        jobs.nodeLost(node);
        return apply(agent.nodeLost(node, lossReport));
    }

    /** Whether tasks wait for cores: in the agent, or queued on a daemon behind a running task. */
    boolean anyWaiting() {
        return agent.notStarted() > 0;
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
                            jobs.start(taskId, r, p, restarts);
                    case AgentAction.Signal(int taskId, List<Integer> on, boolean ofJob, int signal) -> {
                        if (ofJob) {
                            add(jobs.signal(taskId, signal, out));
                        } else {
                            for (int node : on) {
                                signals.computeIfAbsent(new NodeSignal(node, signal), k -> new ArrayList<>()).add(taskId);
                            }
                        }
                    }
                    case AgentAction.KeepCores(int taskId, Placement p) -> add(jobs.keepCores(taskId, p));
                    case AgentAction.ArmTimeout(int taskId, long millis) ->
                            TaskDispatch.this.out.accept(new DvmAction.Arm(new DvmEvent.TaskTimeout(taskId), millis));
                    case AgentAction.State(int taskId, TaskState state, int exitCode, String detail) -> {
                        if (state == TaskState.AGENT_SCHEDULING || state.isFinal()) {
                            jobs.leave(taskId, out);
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
}
