package org.banyan.core.pilot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent of a pilot: it holds the tasks a manager submitted, places them with its
 * {@link AgentScheduler} as resources come free (higher priority first, then in order; a task
 * that does not fit now lets the ones behind it try, up to {@link #LOOKAHEAD}), starts them on
 * their nodes, and turns their ends, cancellations, timeouts and lost nodes into states. Sans-I/O
 * like the other cores: each call returns what the driver must do.
 *
 * <p><b>Queueing behind running tasks</b> (when asked for): with every core busy, the next
 * waiting executable task without tags is sent at once to the daemon of a running task of the
 * same shape, {@linkplain TaskSpec#after() to start when that one ends}, and takes its cores then
 * without a round trip to the agent. Tasks wait in a chain behind each running task, as many as
 * {@link ChainDepth} allows for its shape (deep behind short tasks, one behind long ones, never
 * more than the pilot's maximum), chosen in the usual order when they were queued: a task submitted later with a
 * higher priority gets the next core not already promised. A queued task stays
 * {@link TaskState#AGENT_SCHEDULING} until its predecessor's end reaches the agent; it is
 * canceled through its daemon (which drops it from its chain), and goes back to waiting if its
 * node is lost. Chains let the daemon hold ends for a moment (see {@code ExitBatch}): with tasks
 * queued behind every running one, no core waits for the agent.
 *
 * <p>A queued task never waits for a long predecessor while cores it fits sit idle: when cores
 * are free and no waiting task takes them, the agent reserves them for a queued task and
 * withdraws it from its daemon (signal 0: dropped if still queued, a no-op once started). The
 * daemon's answer, the task's end with status 128, sends it to the reserved cores; if its
 * predecessor ended first, it runs there and the reservation is released.
 *
 * <p><b>Dependencies</b> ({@link TaskDependency}): a task that waits for other tasks to start or
 * end is held apart ({@link DependencyBook}), AGENT_SCHEDULING_PENDING, and joins the waiting tasks,
 * in its place by priority and age, once they have; it fails when one no longer can be met.
 */
public final class TaskAgent {
    /** How many waiting tasks one scheduling pass tries past one that does not fit. */
    public static final int LOOKAHEAD = 64;
    /** The signal of a cancellation or a timeout (the daemon follows it with SIGKILL). */
    public static final int SIGTERM = 15;

    private final AgentScheduler scheduler;
    private final List<String> nodeNames;
    private final TaskSpecs specs;
    private final Map<Integer, AgentTask> tasks = new HashMap<>();
    /** Canceled tasks still in {@link #waiting}, dropped as they come up. */
    private int canceledInQueue;
    /** Higher priority first, then in the order submitted. */
    private final WaitingQueue waiting = new WaitingQueue();
    private final List<AgentAction> actions = new ArrayList<>();
    /** Tasks waiting for others to start or end before they are scheduled, by the DVM ids they name. */
    private final DependencyBook<AgentTask, Integer> held = new DependencyBook<>("this DVM knows (ids are given in order, "
            + "so a task can wait only on earlier ones; the ends of the latest " + FinalStates.KEPT + " are kept)");
    /** How the latest tasks ended, for those that depend on them. */
    private final FinalStates ends = new FinalStates();
    /** Tasks that started or ended, whose held tasks are still to be looked at (see {@link #settle}). */
    private final ArrayDeque<Reached> toSettle = new ArrayDeque<>();
    private boolean settling;
    private int nextId = 1;
    private long seq;
    /** Tasks queued on daemons behind running ones. */
    private final TaskChains chains;
    /** The signal that withdraws a queued task (a no-op for a process). */
    static final int WITHDRAW = 0;
    /**
     * How many tasks a DVM queues behind each running one at most ({@link ChainDepth} chooses
     * fewer behind longer tasks). One removed the agent's round trip between a task's end and the
     * next start; three let the daemon batch the ends as well; eight keep two busy cores fed
     * while the head is slow to answer (docs/pilot.md has the figures).
     */
    public static final int QUEUE_DEPTH = 8;

    /**
     * @param nodeNames the host of each node, for the reasons given to users; read when needed,
     *                  so a DVM whose slots change hosts may pass a live view
     */
    public TaskAgent(AgentScheduler scheduler, List<String> nodeNames) {
        this(scheduler, nodeNames, 0);
    }

    /** @param queueDepth how many tasks may be queued behind each running one at most when no core is free (see above); 0: none */
    public TaskAgent(AgentScheduler scheduler, List<String> nodeNames, int queueDepth) {
        this.scheduler = scheduler;
        this.nodeNames = nodeNames;
        this.chains = new TaskChains(queueDepth);
        this.specs = new TaskSpecs(scheduler);
    }

    /** Whether a node of {@code p} has GPUs: a task placed there that holds none is told so. */
    public boolean onGpuNodes(Placement p) {
        return specs.onGpuNodes(p);
    }

    /** What tasks call each node's GPUs; the DVM fills it in as its daemons tell theirs. */
    public GpuNames gpuNames() {
        return specs.gpuNames();
    }

    /**
     * Takes tasks; their ids are consecutive from the one returned first in {@link #lastIds}. A
     * task with dependencies waits, AGENT_SCHEDULING_PENDING, until they are met, and fails when
     * one no longer can be.
     */
    public List<AgentAction> submit(List<TaskRequest> requests) {
        lastIds.clear();
        for (TaskRequest r : requests) {
            AgentTask t = new AgentTask(nextId++, seq++, r);
            lastIds.add(t.id);
            ends.given(t.id);
            String never = scheduler.neverFits(r.slots());
            if (never != null) {
                never = "cannot run on this pilot: " + never;
            } else if (!r.dependencies().isEmpty()) {
                // before it is among the tasks: it cannot wait on itself
                never = held.hold(t, r.dependencies().stream().map(TaskDependency::condition).toList(), this::stateOf);
            }
            tasks.put(t.id, t);
            if (never != null) {
                finish(t, TaskState.FAILED, -1, never);
            } else if (held.isHeld(t)) {
                t.state = TaskState.AGENT_SCHEDULING_PENDING;
                emit(new AgentAction.State(t.id, TaskState.AGENT_SCHEDULING_PENDING, 0, held.waitingFor(t)));
            } else {
                emit(new AgentAction.State(t.id, TaskState.AGENT_SCHEDULING, 0, ""));
                waiting.add(t);
            }
        }
        schedule();
        return drain();
    }

    /**
     * How task {@code id} ended, when it has and is among the latest ids: the DVM lets go of an
     * attached task's record once its submitter has it, and this answers for it afterwards.
     */
    public TaskState endOf(int id) {
        return tasks.containsKey(id) ? null : ends.of(id, nextId - 1);
    }

    /** A task's state now, or how it ended (null: not a task of the latest ids). */
    private TaskState stateOf(int id) {
        AgentTask t = tasks.get(id);
        return t != null ? t.state : ends.of(id, nextId - 1);
    }

    private final List<Integer> lastIds = new ArrayList<>();

    /** What a task was submitted with, while the agent still holds it; else null. */
    public TaskRequest requestOf(int id) {
        AgentTask t = tasks.get(id);
        return t == null ? null : t.request;
    }

    /** The ids given to the tasks of the last {@link #submit}, in order. */
    public List<Integer> lastIds() {
        return List.copyOf(lastIds);
    }

    /** A task's processes ended: {@code status} as a rank's (128+N for signal N); {@code note} the stderr's tail or why it could not start. */
    public List<AgentAction> ended(int taskId, int status, String note) {
        return ended(taskId, status, note, 0);
    }

    /** As {@link #ended(int, int, String)}, with how long its process ran ({@code runMicros}; 0 when not known). */
    public List<AgentAction> ended(int taskId, int status, String note, long runMicros) {
        AgentTask t = tasks.get(taskId);
        if (t != null && t.after != null) { // its daemon dropped it before it started: canceled or withdrawn
            AgentTask before = t.after;
            chains.leave(t);
            chains.offer(TaskChains.end(before));
            Placement reserved = t.reserved;
            t.reserved = null;
            if (t.canceled) {
                if (reserved != null) {
                    scheduler.release(reserved);
                }
                finish(t, TaskState.CANCELED, status, "");
            } else if (reserved != null) {
                launch(t, reserved);
            } else { // its reserved cores' node was lost meanwhile
                waiting.add(t);
            }
            schedule();
            return drain();
        }
        if (t == null || t.state != TaskState.AGENT_EXECUTING) {
            return drain();
        }
        chains.ran(t.request.slots(), runMicros);
        AgentTask next = t.next;
        if (next != null) { // its daemon started the task queued behind it, on its cores
            t.next = null;
            next.after = null;
            chains.started(next);
            if (next.reserved != null) { // its withdrawal came too late
                scheduler.release(next.reserved);
                next.reserved = null;
            }
            execute(next, t.placement);
            chains.offer(TaskChains.end(next)); // the chain moved up a place
        } else {
            scheduler.release(t.placement);
        }
        if (t.canceled) {
            finish(t, TaskState.CANCELED, status, "");
        } else if (t.failure != null) {
            finish(t, TaskState.FAILED, status, t.failure);
        } else if (status == 0) {
            finish(t, TaskState.DONE, 0, "");
        } else {
            finish(t, TaskState.FAILED, status, note);
        }
        schedule();
        return drain();
    }

    /** The cores of a {@link AgentAction.KeepCores} are free: the job that held them has ended. */
    public List<AgentAction> releaseCores(Placement p) {
        scheduler.release(p);
        schedule();
        return drain();
    }

    /** Cancels tasks in any state: waiting ones at once, running ones through their processes. */
    public List<AgentAction> cancel(Collection<Integer> ids) {
        for (int id : ids) {
            AgentTask t = tasks.get(id);
            if (t == null || t.state.isFinal()) {
                continue;
            }
            if (t.state == TaskState.AGENT_EXECUTING || t.after != null) { // running, or queued on its daemon
                if (!t.canceled) {
                    t.canceled = true;
                    chains.canceled(t);
                    signal(t, SIGTERM);
                }
            } else if (held.isHeld(t)) { // not in the queue
                finish(t, TaskState.CANCELED, 0, "");
            } else {
                // Left in the queue and skipped when it comes up: removing from the middle is a scan,
                // and cancelling a whole bag of waiting tasks made it quadratic.
                canceledInQueue++;
                finish(t, TaskState.CANCELED, 0, "");
            }
        }
        schedule();
        return drain();
    }

    /** A task's timeout passed: it is ended and will be FAILED. */
    public List<AgentAction> timedOut(int taskId) {
        AgentTask t = tasks.get(taskId);
        return fail(taskId, t == null ? "" : "timed out after " + t.request.timeoutMillis() / 1000.0 + " s");
    }

    /** A running task cannot go on ({@code why}: its output file cannot be written): it is ended and will be FAILED. */
    public List<AgentAction> fail(int taskId, String why) {
        AgentTask t = tasks.get(taskId);
        if (t != null && t.state == TaskState.AGENT_EXECUTING && t.failure == null && !t.canceled) {
            t.failure = why;
            signal(t, SIGTERM);
        }
        return drain();
    }

    /** A node is gone with what ran there: restartable tasks wait for a place again, the others fail. */
    public List<AgentAction> nodeLost(int node) {
        return nodeLost(node, "");
    }

    /**
     * As {@link #nodeLost(int)}, with the head's words for the loss ("lost the daemon on HOST:
     * no word from it for 20 s ..."), which the tasks that fail there carry: theirs when they
     * name this node, after its name when the loss was of a daemon above it.
     */
    public List<AgentAction> nodeLost(int node, String lossReport) {
        scheduler.nodeGone(node);
        List<AgentTask> queuedThere = chains.leaveNode(node, scheduler); // they never started
        for (AgentTask t : queuedThere) { // whole chains: their running tasks are handled below
            if (t.reserved != null) {
                scheduler.release(t.reserved);
                t.reserved = null;
            }
            if (t.canceled) {
                finish(t, TaskState.CANCELED, 0, "");
            } else {
                waiting.add(t);
            }
        }
        for (AgentTask t : List.copyOf(tasks.values())) {
            if (t.state != TaskState.AGENT_EXECUTING || !TaskChains.onNode(t.placement, node)) {
                continue;
            }
            if (t.request.runsAsJob()) {
                // its ranks elsewhere run on until their job is ended: given out now, those cores
                // were taken twice for the ending's grace
                emit(new AgentAction.KeepCores(t.id, t.placement));
            } else {
                scheduler.release(t.placement);
            }
            String own = "lost the daemon on " + nodeNames.get(node);
            String why = lossReport.isEmpty() ? own : lossReport.startsWith(own + ":") ? lossReport : own + " (" + lossReport + ")";
            if (t.request.restartable() && !t.canceled && scheduler.neverFits(t.request.slots()) == null) {
                t.placement = null;
                t.restarts++;
                t.state = TaskState.AGENT_SCHEDULING;
                emit(new AgentAction.State(t.id, TaskState.AGENT_SCHEDULING, 0, why + "; restarting"));
                waiting.add(t);
            } else if (t.canceled) {
                finish(t, TaskState.CANCELED, 0, "");
            } else {
                finish(t, TaskState.FAILED, 1, why);
            }
        }
        failWhatCanNoLongerRun(lossReport.isEmpty() ? "lost the daemon on " + nodeNames.get(node) : lossReport);
        schedule();
        return drain();
    }

    /**
     * Waiting tasks that no host left can run fail, saying so; they waited for ever. (Tasks held
     * on dependencies are judged when they are released, as at submission.)
     */
    private void failWhatCanNoLongerRun(String why) {
        List<AgentTask> keep = new ArrayList<>();
        while (!waiting.isEmpty()) {
            AgentTask t = waiting.poll();
            String never = t.state.isFinal() ? null : scheduler.neverFits(t.request.slots());
            if (never == null) {
                keep.add(t);
            } else {
                finish(t, TaskState.FAILED, -1, "cannot run on this pilot any more: " + never + "; " + why);
            }
        }
        waiting.addAll(keep);
    }

    /** Tasks waiting in the agent for cores (not those queued on daemons). */
    public int waiting() {
        return waiting.size() - canceledInQueue;
    }

    /** Tasks not started yet: waiting here, or queued on a daemon behind a running one (not the {@link #held} ones). */
    public int notStarted() {
        return waiting() + chains.queuedCount();
    }

    /** Tasks waiting for others to start or end before they are scheduled. */
    public int held() {
        return held.count();
    }

    public int running() {
        return (int) tasks.values().stream().filter(t -> t.state == TaskState.AGENT_EXECUTING).count();
    }

    /** Tasks not final yet. */
    public int unfinished() {
        return tasks.size();
    }

    /** Tasks held as chain ends that others may queue behind: for tests (none once all are over). */
    int chainEndsHeld() {
        return chains.endsHeld();
    }

    private void schedule() {
        List<AgentTask> skipped = new ArrayList<>();
        int looked = 0;
        while (!waiting.isEmpty() && looked < LOOKAHEAD) {
            boolean free = scheduler.freeCores() > 0;
            if (!free && !chains.anyEnds()) {
                break;
            }
            AgentTask t = waiting.poll();
            if (t.state.isFinal()) { // canceled while it waited
                canceledInQueue--;
                continue;
            }
            Placement p = free ? scheduler.place(t.request.slots()) : null;
            if (p != null) {
                launch(t, p);
                continue;
            }
            AgentTask before = chains.accepts(t.request) ? chains.endLike(t.request.slots()) : null;
            if (before != null) {
                chains.queueBehind(t, before);
                Placement on = TaskChains.root(before).placement;
                emit(new AgentAction.Launch(on.shares().getFirst().node(), specs.spec(t.id, t.request, t.restarts, on, before.id)));
                continue;
            }
            skipped.add(t);
            looked++;
        }
        waiting.addAll(skipped);
        withdrawForIdleCores();
    }

    /** Cores are free that no waiting task took: queued tasks that fit them are withdrawn to run there. */
    private void withdrawForIdleCores() {
        for (AgentTask t : chains.reserveIdleCores(scheduler)) {
            signal(t, WITHDRAW);
        }
    }

    private void launch(AgentTask t, Placement p) {
        TaskRequest r = t.request;
        if (r.runsAsJob()) {
            emit(new AgentAction.LaunchJob(t.id, r, p, t.restarts));
        } else {
            emit(new AgentAction.Launch(p.shares().getFirst().node(), specs.spec(t.id, r, t.restarts, p, 0)));
        }
        execute(t, p);
    }

    /** The task runs on {@code p}: launched by the agent, or started by its daemon behind another. */
    private void execute(AgentTask t, Placement p) {
        t.placement = p;
        t.state = TaskState.AGENT_EXECUTING;
        emit(new AgentAction.State(t.id, TaskState.AGENT_EXECUTING, 0, nodeNames.get(p.shares().getFirst().node())));
        if (t.request.timeoutMillis() > 0) {
            emit(new AgentAction.ArmTimeout(t.id, t.request.timeoutMillis()));
        }
        chains.offer(t);
        if (held.anyWaitOn(t.id)) {
            settle(t.id, TaskState.AGENT_EXECUTING);
        }
    }

    private void signal(AgentTask t, int signal) {
        Placement on = TaskChains.root(t).placement;
        List<Integer> nodes = on.shares().stream().map(Placement.Share::node).toList();
        emit(new AgentAction.Signal(t.id, nodes, t.request.runsAsJob(), signal));
    }

    private void finish(AgentTask t, TaskState state, int exitCode, String detail) {
        t.state = state;
        tasks.remove(t.id);
        ends.ended(t.id, state);
        chains.forget(t);
        held.forget(t);
        emit(new AgentAction.State(t.id, state, exitCode, detail == null ? "" : detail));
        if (held.anyWaitOn(t.id)) {
            settle(t.id, state);
        }
    }

    private record Reached(int id, TaskState state) {}

    /**
     * The task of {@code id} started or ended: the tasks held on it that may now run go to the
     * waiting queue, those that never can fail, and so on down their own dependents; a loop, not
     * a recursion, so that a long chain of dependencies cannot overflow the stack.
     */
    private void settle(int id, TaskState state) {
        toSettle.add(new Reached(id, state));
        if (settling) {
            return;
        }
        settling = true;
        try {
            while (!toSettle.isEmpty()) {
                Reached r = toSettle.poll();
                DependencyBook.Outcome<AgentTask> o = held.reached(r.id(), r.state());
                for (AgentTask w : o.released()) {
                    String never = scheduler.neverFits(w.request.slots());
                    if (never != null) { // its hosts were lost while it was held
                        finish(w, TaskState.FAILED, -1, "cannot run on this pilot any more: " + never);
                        continue;
                    }
                    w.state = TaskState.AGENT_SCHEDULING;
                    emit(new AgentAction.State(w.id, TaskState.AGENT_SCHEDULING, 0, ""));
                    waiting.add(w);
                }
                o.failed().forEach((w, why) -> finish(w, TaskState.FAILED, -1, why));
            }
        } finally {
            settling = false;
        }
    }

    private void emit(AgentAction a) {
        actions.add(a);
    }

    private List<AgentAction> drain() {
        List<AgentAction> out = List.copyOf(actions);
        actions.clear();
        return out;
    }
}
