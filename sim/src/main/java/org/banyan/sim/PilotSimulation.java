package org.banyan.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.banyan.core.dvm.DvmAction;
import org.banyan.core.dvm.DvmClock;
import org.banyan.core.dvm.DvmCore;
import org.banyan.core.dvm.DvmEvent;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskSpec;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/**
 * A many-task workload on a pilot, simulated: the DVM's own core ({@link DvmCore}: its client
 * handling, task dispatch, agent and scheduler, and the head core under it) under a virtual
 * clock, driven as its driver drives it. Each host's daemon keeps its tasks as the real one does
 * (a task sent behind a running one starts when that one ends; a signalled queued task never
 * starts) and starts one process at a time at a calibrated rate; messages take a LAN latency each
 * way; the head pays a fixed cost per task. Seeded faults: hosts lost (their running tasks failed,
 * or started again elsewhere when restartable) and a client that goes away (its unfinished tasks
 * canceled, followed to their ends by a second client, as {@code banyan wait} would). After every
 * event an invariant checker ({@link PilotInvariants}) looks at what the event touched: no host
 * runs more tasks than it has cores and the core's free count never exceeds what is left, each
 * task's states as a client is told them in a legal order, exactly one final state per task.
 */
public final class PilotSimulation {
    /** The knobs of a run. */
    public record Setup(int hosts, int coresPerHost, int tasks, double taskSeconds, double taskSpread, long seed,
                        int lostHosts, boolean clientLost, double restartableShare,
                        double spawnsPerHostPerSecond, double latencySeconds, double headSecondsPerTask) {
        public Setup {
            if (hosts < 1 || coresPerHost < 1 || tasks < 1 || !(taskSeconds >= 0) || taskSpread < 0 || lostHosts < 0
                    || lostHosts >= hosts || restartableShare < 0 || restartableShare > 1 || !(spawnsPerHostPerSecond > 0)
                    || latencySeconds < 0 || headSecondsPerTask < 0) {
                throw new IllegalArgumentException("a pilot simulation needs hosts, cores and tasks, and fewer lost hosts than hosts");
            }
        }
    }

    /**
     * What a run measured; {@code timeline}: rows of (simulated seconds, tasks running, tasks done,
     * tasks failed or canceled), about 200 over the run.
     */
    public record Result(int tasks, int done, int failed, int canceled, double firstTaskSeconds, double lastEndSeconds,
                         double tasksPerSecond, long events, long checks, double wallSeconds, List<double[]> timeline) {}

    /**
     * The cost model (docs/pilot.md, "sim pilot"): a daemon starting 2,600 processes a second,
     * 100 µs each way between head and daemon, 190 µs of the head's per task (the upper end of
     * what docs/pilot.md measured for the DVM's own CPU) and a /bin/true of 0.4 ms.
     */
    public static final double SPAWNS_PER_SECOND = 2_600;
    public static final double LATENCY_SECONDS = 100e-6;
    public static final double HEAD_SECONDS_PER_TASK = 190e-6;
    public static final double TRUE_SECONDS = 0.0004;

    /** The client that submits the bag. */
    private static final int CLIENT = 1;
    /**
     * The client whose view the checker takes: the submitter, or, when the submitter is to go
     * away, a second client following every task from the start (as {@code banyan wait} does).
     */
    private final int observer;

    private static final int RUN_TASKS = 0;
    private static final int SIGNAL = 1;
    private static final int END = 2;
    private static final int REPORTED = 3;
    private static final int HOST_LOST = 4;
    private static final int CLIENT_LOST = 5;
    private static final int TIMER = 6;

    /** {@code generation}: the task's start count when posted; an END from before a kill or restart is dropped. */
    private record Event(double time, long seq, int kind, int node, int task, int generation, int status, Object payload) {}

    /** A host's daemon: its running tasks and those queued behind them, as {@code LocalTasks} keeps them. */
    private static final class Daemon {
        final java.util.Set<Integer> running = new java.util.HashSet<>();
        /** Running or queued task → the task queued to start when it ends. */
        final Map<Integer, TaskSpec> queued = new HashMap<>();
        /** Queued task → the task it waits for. */
        final Map<Integer, Integer> waitsFor = new HashMap<>();
        double spawnerFree;
        boolean lost;
    }

    private final Setup setup;
    private final PriorityQueue<Event> queue = new PriorityQueue<>(
            (a, b) -> a.time != b.time ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private long seq;
    private final VirtualClock clock = new VirtualClock();
    private final DvmCore core;
    private final PilotInvariants invariants;
    private final Daemon[] daemons;
    private final int[] generation;
    private final double[] duration;
    private final long[] startMicros;
    private double head;
    private double first = -1;
    private double last;

    /** The core's clocks, set to the simulated time before each event. */
    private static final class VirtualClock implements DvmClock {
        double seconds;

        @Override
        public long wallMicros() {
            return (long) (seconds * 1e6);
        }

        @Override
        public long nanos() {
            return (long) (seconds * 1e9);
        }
    }

    public PilotSimulation(Setup setup) {
        this.setup = setup;
        this.observer = setup.clientLost() ? CLIENT + 1 : CLIENT;
        List<Node> nodes = new ArrayList<>(setup.hosts());
        for (int i = 0; i < setup.hosts(); i++) {
            nodes.add(new Node("h" + i, setup.coresPerHost()));
        }
        // a star: every daemon the head's child, so a message costs one latency, as the cost model says
        TopologySpec star = TopologySpec.parse("direct");
        core = new DvmCore(nodes, new HeadSettings(0, 1000, 10_000), star, star, 0, 1, clock);
        invariants = new PilotInvariants(setup.hosts(), setup.coresPerHost(), setup.tasks());
        daemons = new Daemon[setup.hosts()];
        for (int i = 0; i < daemons.length; i++) {
            daemons[i] = new Daemon();
        }
        generation = new int[setup.tasks() + 1];
        duration = new double[setup.tasks() + 1];
        startMicros = new long[setup.tasks() + 1];
    }

    public Result run() {
        long wall = System.nanoTime();
        SplittableRandom r = new SplittableRandom(setup.seed());
        List<TaskRequest> work = new ArrayList<>(setup.tasks());
        for (int i = 1; i <= setup.tasks(); i++) {
            duration[i] = setup.taskSeconds() + (setup.taskSpread() > 0 ? r.nextDouble() * setup.taskSpread() : 0);
            boolean restartable = r.nextDouble() < setup.restartableShare();
            work.add(new TaskRequest("t" + i, "/bin/true", List.of(), Map.of(), "/s", "o", "e", null, List.of(), List.of(),
                    SlotRequest.cores(1), 0, false, 0, restartable, List.of()));
        }
        comeUp();
        double ideal = (double) setup.tasks() / (setup.hosts() * setup.coresPerHost()) * Math.max(setup.taskSeconds(), 1e-3);
        for (int i = 0; i < setup.lostHosts(); i++) {
            int node;
            do {
                node = r.nextInt(setup.hosts());
            } while (planned(node));
            post(r.nextDouble() * ideal, HOST_LOST, node, 0, 0, 0, null);
        }
        if (setup.clientLost()) {
            post(ideal * (0.25 + 0.5 * r.nextDouble()), CLIENT_LOST, -1, 0, 0, 0, null);
        }
        // the submit: half of each task's head cost, paid as the head takes them in, so the first
        // tasks go out before the whole bag is read (the DVM takes a bag in slices)
        head = 0;
        submit(work);
        invariants.check(core::freeCoresOn);
        long events = 0;
        double sampleEvery = Math.max(ideal, 1e-3) / 200;
        double nextSample = 0;
        List<double[]> timeline = new ArrayList<>();
        while (!queue.isEmpty() && !invariants.allFinal()) {
            Event e = queue.poll();
            events++;
            clock.seconds = e.time;
            if (e.time >= nextSample) {
                timeline.add(sample(e.time));
                nextSample = e.time + sampleEvery;
            }
            switch (e.kind) {
                case RUN_TASKS -> {
                    if (!daemons[e.node].lost) {
                        run(e.node, (OverlayMessage.RunTasks) e.payload, e.time);
                    }
                }
                case SIGNAL -> {
                    if (!daemons[e.node].lost) {
                        signal(e.node, (OverlayMessage.SignalTasks) e.payload, e.time);
                    }
                }
                case END -> {
                    if (!daemons[e.node].lost && e.generation == generation[e.task]) {
                        ended(e.node, e.task, e.status, e.time);
                    }
                }
                case REPORTED -> {
                    if (!daemons[e.node].lost) { // else its daemon died with the report on the way
                        head = Math.max(head, e.time) + setup.headSecondsPerTask() / 2;
                        clock.seconds = head;
                        last = Math.max(last, e.time);
                        apply(core.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(e.node, new OverlayMessage.RanksExited(
                                List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, e.task, e.status, "",
                                        startMicros[e.task], (long) (e.time * 1e6))))))), head);
                    }
                }
                case HOST_LOST -> {
                    daemons[e.node].lost = true;
                    head = Math.max(head, e.time);
                    invariants.hostLost(e.node);
                    apply(core.handle(new DvmEvent.Head(new HeadEvent.DaemonLost(e.node, "simulated loss"))), head);
                }
                case CLIENT_LOST -> {
                    head = Math.max(head, e.time);
                    apply(core.handle(new DvmEvent.ClientGone(CLIENT)), head);
                }
                case TIMER -> {
                    head = Math.max(head, e.time);
                    apply(core.handle((DvmEvent) e.payload), head);
                }
                default -> throw new IllegalStateException("event " + e.kind);
            }
            invariants.check(core::freeCoresOn);
        }
        invariants.finished(core::freeCoresOn);
        timeline.add(sample(Math.max(last, clock.seconds)));
        double span = last - Math.max(first, 0);
        return new Result(setup.tasks(), invariants.count(TaskState.DONE), invariants.count(TaskState.FAILED),
                invariants.count(TaskState.CANCELED), first, last, span > 0 ? invariants.count(TaskState.DONE) / span : 0, events,
                invariants.checks(), (System.nanoTime() - wall) / 1e9, timeline);
    }

    /** One row of the timeline at {@code time}: tasks running on the daemons, done, and ended otherwise. */
    private double[] sample(double time) {
        int running = 0;
        for (Daemon d : daemons) {
            running += d.lost ? 0 : d.running.size();
        }
        int done = invariants.count(TaskState.DONE);
        return new double[] {time, running, done, invariants.count(TaskState.FAILED) + invariants.count(TaskState.CANCELED)};
    }

    /** Every daemon says hello and gives its contact; the core publishes its own once all are in. */
    private void comeUp() {
        List<DvmAction> out = new ArrayList<>(core.start("sim-head:0", "simulated"));
        for (int d = 0; d < setup.hosts(); d++) {
            core.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "h" + d, d + 2, "h" + d + ":1"))));
            out.addAll(core.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(d, new OverlayMessage.Contacts(Map.of(d, "h" + d + ":1"))))));
        }
        if (!core.isReady()) {
            throw new IllegalStateException("the simulated DVM did not come up");
        }
        for (DvmAction a : out) {
            if (a instanceof DvmAction.Arm(DvmEvent e, long delay)) {
                post(delay / 1000.0, TIMER, -1, 0, 0, 0, e);
            }
        }
    }

    /** The client's bag in one message; the head's cost for each task paced over the starts it sends. */
    private void submit(List<TaskRequest> work) {
        List<DvmAction> actions = core.handle(new DvmEvent.ClientSaid(CLIENT, new ClientMessage.SubmitTasks(work)));
        double perTask = setup.headSecondsPerTask() / 2;
        int sent = 0;
        for (DvmAction a : actions) {
            if (a instanceof DvmAction.ToDaemon(int d, OverlayMessage.RunTasks run)) {
                head += perTask * run.tasks().size();
                sent += run.tasks().size();
            }
            apply(List.of(a), head);
        }
        head += perTask * (setup.tasks() - sent);
        if (observer != CLIENT) {
            apply(core.handle(new DvmEvent.ClientSaid(observer, new ClientMessage.WatchTasks(List.of()))), head);
        }
    }

    private boolean planned(int node) {
        for (Event e : queue) {
            if (e.kind == HOST_LOST && e.node == node) {
                return true;
            }
        }
        return false;
    }

    private void post(double time, int kind, int node, int task, int gen, int status, Object payload) {
        queue.add(new Event(time, seq++, kind, node, task, gen, status, payload));
    }

    /** What the core decided, at head time {@code at}: messages to daemons and timers; task states to the checker. */
    private void apply(List<DvmAction> actions, double at) {
        for (DvmAction a : actions) {
            switch (a) {
                case DvmAction.ToDaemon(int d, OverlayMessage.RunTasks run) -> {
                    for (TaskSpec t : run.tasks()) {
                        invariants.sent(t.taskId(), run.to());
                    }
                    post(at + setup.latencySeconds(), RUN_TASKS, run.to(), 0, 0, 0, run);
                }
                case DvmAction.ToDaemon(int d, OverlayMessage.SignalTasks s) ->
                        post(at + setup.latencySeconds(), SIGNAL, s.to(), 0, 0, 0, s);
                case DvmAction.ToClient(int c, ClientMessage.TaskUpdates(List<ClientMessage.TaskUpdate> updates)) when c == observer -> {
                    for (ClientMessage.TaskUpdate u : updates) {
                        invariants.state(u.taskId(), u.state());
                    }
                }
                case DvmAction.Arm(DvmEvent e, long delay) -> post(at + delay / 1000.0, TIMER, -1, 0, 0, 0, e);
                case DvmAction.Finish f -> throw new IllegalStateException("the simulated DVM finished: " + f);
                default -> {
                    // the log, contacts, accepted ids: nothing the simulation models
                }
            }
        }
    }

    private void run(int node, OverlayMessage.RunTasks m, double now) {
        Daemon d = daemons[node];
        for (TaskSpec t : m.tasks()) {
            int after = t.after();
            if (after != 0 && (d.running.contains(after) || d.waitsFor.containsKey(after)) && !d.queued.containsKey(after)) {
                d.queued.put(after, t);
                d.waitsFor.put(t.taskId(), after);
            } else {
                start(node, t.taskId(), now);
            }
        }
    }

    /** The daemon starts the task's process: one spawn at a time on each host. */
    private void start(int node, int task, double now) {
        Daemon d = daemons[node];
        d.running.add(task);
        invariants.started(task, node);
        double at = Math.max(now, d.spawnerFree) + 1 / setup.spawnsPerHostPerSecond();
        d.spawnerFree = at;
        first = first < 0 ? at : Math.min(first, at);
        startMicros[task] = (long) (at * 1e6);
        generation[task]++;
        post(at + duration[task], END, node, task, generation[task], 0, null);
    }

    private void signal(int node, OverlayMessage.SignalTasks m, double now) {
        Daemon d = daemons[node];
        for (int id : m.taskIds()) {
            Integer before = d.waitsFor.remove(id);
            if (before != null) { // it leaves its chain: the one behind it moves up, and its end goes up at once
                d.queued.remove(before);
                TaskSpec behind = d.queued.remove(id);
                if (behind != null) {
                    d.queued.put(before, behind);
                    d.waitsFor.put(behind.taskId(), before);
                }
                post(now + setup.latencySeconds(), REPORTED, node, id, 0, 128 + m.signal(), null);
            } else if (d.running.contains(id) && m.signal() != 0) {
                // killed: it ends now (its own end, later, is dropped)
                generation[id]++;
                post(now, END, node, id, generation[id], 128 + m.signal(), null);
            }
        }
    }

    /** A task's process ended: the one queued behind it starts; the end goes up to the head. */
    private void ended(int node, int task, int status, double now) {
        Daemon d = daemons[node];
        d.running.remove(task);
        invariants.ended(task, node);
        TaskSpec next = d.queued.remove(task);
        if (next != null) {
            d.waitsFor.remove(next.taskId());
            start(node, next.taskId(), now);
        }
        post(now + setup.latencySeconds(), REPORTED, node, task, 0, status, null);
    }
}
