package org.banyan.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.banyan.core.pilot.AgentScheduler;
import org.banyan.core.pilot.ConstantTimeScheduler;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;

/**
 * A many-task workload on a pilot, simulated: the DVM's real task agent ({@link TaskAgent} and its
 * scheduler) under a virtual clock, with each host's daemon starting one process at a time at a
 * calibrated rate, messages a LAN latency each way, and the head paying a fixed cost per task
 * handled. Seeded faults: hosts lost (their running tasks failed, or started again elsewhere
 * when restartable) and a client that goes away (its unfinished tasks canceled). After every
 * event an invariant checker ({@link PilotInvariants}) looks at the whole state: no core given out
 * twice, each task's states in a legal order, exactly one final state per task.
 *
 * <p>The DVM's other decisions (its clients, sessions, jobs and the queue) are not in this
 * simulation: they are not yet a sans-I/O core (issue 18, Deliver 1).
 */
public final class PilotSimulation {
    /** The knobs of a run. */
    public record Setup(int hosts, int coresPerHost, int tasks, double taskSeconds, double taskSpread, long seed,
                        int lostHosts, boolean clientLost, double restartableShare, String scheduler,
                        double spawnsPerHostPerSecond, double latencySeconds, double headSecondsPerTask) {
        public Setup {
            if (hosts < 1 || coresPerHost < 1 || tasks < 1 || !(taskSeconds >= 0) || taskSpread < 0 || lostHosts < 0
                    || lostHosts >= hosts || restartableShare < 0 || restartableShare > 1 || !(spawnsPerHostPerSecond > 0)
                    || latencySeconds < 0 || headSecondsPerTask < 0) {
                throw new IllegalArgumentException("a pilot simulation needs hosts, cores and tasks, and fewer lost hosts than hosts");
            }
        }
    }

    /** What a run measured. */
    public record Result(int tasks, int done, int failed, int canceled, double firstTaskSeconds, double lastEndSeconds,
                         double tasksPerSecond, long events, long checks, double wallSeconds) {}

    /**
     * The cost model (docs/pilot.md, "sim pilot"): a daemon starting 2,600 processes a second,
     * 100 µs each way between head and daemon, 190 µs of the head's per task (the upper end of
     * what docs/pilot.md measured for the DVM's own CPU) and a /bin/true of 0.4 ms. Against 5,000
     * /bin/true on a local 2-slot DVM (1,911-2,007 tasks/s measured) it gives 1,576 (-19 %): the
     * simulated daemons keep no queue of tasks behind running ones, so each start waits for a
     * round trip through the head, which the real DVM's does not.
     */
    public static final double SPAWNS_PER_SECOND = 2_600;
    public static final double LATENCY_SECONDS = 100e-6;
    public static final double HEAD_SECONDS_PER_TASK = 190e-6;
    public static final double TRUE_SECONDS = 0.0004;

    private static final int ARRIVE = 0;
    private static final int START = 1;
    private static final int END = 2;
    private static final int REPORTED = 3;
    private static final int HOST_LOST = 4;
    private static final int CLIENT_LOST = 5;

    private record Event(double time, long seq, int kind, int node, int task, int generation) {}

    private final Setup setup;
    private final PriorityQueue<Event> queue = new PriorityQueue<>(
            (a, b) -> a.time != b.time ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private long seq;
    private final TaskAgent agent;
    private final AgentScheduler scheduler;
    private final PilotInvariants invariants;
    private final double[] spawnerFree;
    private final boolean[] lost;
    /** Each task's launch generation: an end from before a restart is dropped. */
    private final int[] generation;
    private final double[] duration;
    private double head;

    public PilotSimulation(Setup setup) {
        this.setup = setup;
        List<NodeResources> nodes = new ArrayList<>(setup.hosts());
        List<String> names = new ArrayList<>(setup.hosts());
        for (int i = 0; i < setup.hosts(); i++) {
            nodes.add(new NodeResources("h" + i, setup.coresPerHost(), 0));
            names.add("h" + i);
        }
        scheduler = setup.scheduler().equals("general") ? new GeneralScheduler(nodes) : new ConstantTimeScheduler(nodes);
        agent = new TaskAgent(scheduler, names);
        invariants = new PilotInvariants(setup.hosts(), setup.coresPerHost(), setup.tasks());
        spawnerFree = new double[setup.hosts()];
        lost = new boolean[setup.hosts()];
        generation = new int[setup.tasks() + 1];
        duration = new double[setup.tasks() + 1];
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
        double ideal = (double) setup.tasks() / (setup.hosts() * setup.coresPerHost()) * Math.max(setup.taskSeconds(), 1e-3);
        for (int i = 0; i < setup.lostHosts(); i++) {
            int node;
            do {
                node = r.nextInt(setup.hosts());
            } while (planned(node));
            post(r.nextDouble() * ideal, HOST_LOST, node, 0);
        }
        if (setup.clientLost()) {
            post(ideal * (0.25 + 0.5 * r.nextDouble()), CLIENT_LOST, -1, 0);
        }
        // the submit: half of each task's head cost, paid as the head takes them in, so the first
        // tasks go out before the whole bag is read (the DVM takes a bag in slices)
        head = 0;
        actPaced(agent.submit(work), setup.headSecondsPerTask() / 2);
        invariants.check(scheduler);
        long events = 0;
        double first = -1;
        double last = 0;
        while (!queue.isEmpty()) {
            Event e = queue.poll();
            events++;
            switch (e.kind) {
                case ARRIVE -> {
                    if (lost[e.node] || e.generation != generation[e.task]) {
                        break;
                    }
                    double start = Math.max(e.time, spawnerFree[e.node]) + 1 / setup.spawnsPerHostPerSecond();
                    spawnerFree[e.node] = start;
                    post(start, START, e.node, e.task, e.generation);
                }
                case START -> {
                    if (lost[e.node] || e.generation != generation[e.task]) {
                        break;
                    }
                    first = first < 0 ? e.time : first;
                    post(e.time + duration[e.task], END, e.node, e.task, e.generation);
                }
                case END -> {
                    if (!lost[e.node] && e.generation == generation[e.task]) {
                        post(e.time + setup.latencySeconds(), REPORTED, e.node, e.task, e.generation);
                    }
                }
                case REPORTED -> {
                    if (lost[e.node] || e.generation != generation[e.task]) { // its daemon died with the report on the way
                        break;
                    }
                    head = Math.max(head, e.time) + setup.headSecondsPerTask() / 2;
                    last = Math.max(last, e.time);
                    invariants.ended(e.task, e.node);
                    act(agent.ended(e.task, invariants.killed(e.task) ? 128 + TaskAgent.SIGTERM : 0, ""), head);
                }
                case HOST_LOST -> {
                    lost[e.node] = true;
                    head = Math.max(head, e.time);
                    invariants.hostLost(e.node);
                    act(agent.nodeLost(e.node), head);
                }
                case CLIENT_LOST -> {
                    head = Math.max(head, e.time);
                    List<Integer> all = new ArrayList<>(setup.tasks());
                    for (int i = 1; i <= setup.tasks(); i++) {
                        all.add(i);
                    }
                    act(agent.cancel(all), head);
                }
                default -> throw new IllegalStateException("event " + e.kind);
            }
            invariants.check(scheduler);
        }
        invariants.finished();
        double span = last - Math.max(first, 0);
        return new Result(setup.tasks(), invariants.count(TaskState.DONE), invariants.count(TaskState.FAILED),
                invariants.count(TaskState.CANCELED), first, last, span > 0 ? invariants.count(TaskState.DONE) / span : 0, events,
                invariants.checks(), (System.nanoTime() - wall) / 1e9);
    }

    private boolean planned(int node) {
        for (Event e : queue) {
            if (e.kind == HOST_LOST && e.node == node) {
                return true;
            }
        }
        return false;
    }

    private void post(double time, int kind, int node, int task) {
        post(time, kind, node, task, 0);
    }

    private void post(double time, int kind, int node, int task, int gen) {
        queue.add(new Event(time, seq++, kind, node, task, gen));
    }

    /** As {@link #act}, the head paying {@code perTask} before each launch (its submit of a bag). */
    private void actPaced(List<TaskAgent.Action> actions, double perTask) {
        List<TaskAgent.Action> one = new ArrayList<>(1);
        for (TaskAgent.Action a : actions) {
            if (a instanceof TaskAgent.Action.Launch) {
                head += perTask;
            }
            one.clear();
            one.add(a);
            act(one, head);
        }
        head += perTask * (setup.tasks() - launchesIn(actions));
    }

    private static int launchesIn(List<TaskAgent.Action> actions) {
        int n = 0;
        for (TaskAgent.Action a : actions) {
            n += a instanceof TaskAgent.Action.Launch ? 1 : 0;
        }
        return n;
    }

    /** What the agent decided: launches go to their daemons, states to the checker, signals kill. */
    private void act(List<TaskAgent.Action> actions, double at) {
        for (TaskAgent.Action a : actions) {
            switch (a) {
                case TaskAgent.Action.Launch(int node, var spec) -> {
                    int task = spec.taskId();
                    generation[task]++;
                    invariants.launched(task, node);
                    post(at + setup.latencySeconds(), ARRIVE, node, task, generation[task]);
                }
                case TaskAgent.Action.State(int task, TaskState state, int code, String detail) -> invariants.state(task, state);
                case TaskAgent.Action.Signal(int task, List<Integer> nodes, boolean job, int signal) -> {
                    // the daemon kills it: it ends at once (its own end, later, is dropped), reported as any other
                    invariants.kill(task);
                    int node = nodes.getFirst();
                    generation[task]++;
                    post(at + setup.latencySeconds(), END, node, task, generation[task]);
                }
                case TaskAgent.Action.LaunchJob j -> throw new IllegalStateException("the simulated tasks are one-process");
                case TaskAgent.Action.ArmTimeout t -> {
                    // no simulated task has a timeout
                }
            }
        }
    }
}
