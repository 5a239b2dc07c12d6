package org.banyan.core.dvm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadCore;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/**
 * What a persistent DVM decides, as one state machine: {@link HeadCore#forDvm} over its daemons,
 * and around it the DVM's clients, the jobs of {@code banyan run --dvm} and MPI_Comm_spawn, the
 * task bags with their agent and scheduler, the resource manager's queue and resizes, and the
 * GPUs the daemons found. An event in ({@link DvmEvent}), the actions it leads to out
 * ({@link DvmAction}); no sockets, files, threads or clocks of its own. The driver
 * ({@code DvmHead}) holds the client connections and the links; the simulator drives the same
 * class under a virtual clock.
 *
 * <p>Within one event the core handles every head event that event leads to (a job's end frees
 * cores for tasks, task ends start more) before it returns: its actions come out in the order
 * they were decided.
 */
public final class DvmCore {
    /** {@code gpusPerHost} when none are declared: each host offers the GPUs its daemon finds. */
    public static final int FOUND_GPUS = -1;

    /**
     * How long task states may wait before they go to their client. Sent after every event, a
     * 2-slot DVM running /bin/true wrote to its client about twice per task: perf put a quarter
     * of the head thread's samples in those writes, and the client's reader woke as often. No
     * task waits for them (the agent learns of ends from the daemons), and a few milliseconds
     * are nothing to a user watching states.
     */
    public static final long UPDATE_DELAY_MILLIS = 4;

    private final List<Node> nodes;
    private final HeadSettings settings;
    private final TopologySpec tree;
    private final TopologySpec routing;
    private final long pid;
    private final DvmHosts hosts;
    /** The DVM's cores, for jobs and tasks alike. */
    private final GeneralScheduler scheduler;
    /** Jobs of banyan run --dvm, spawned and started queued ones. */
    private final DvmJobs jobs;
    private final TaskDispatch tasks;
    private final DvmGpus gpus;
    /** Jobs queued for whole hosts ({@code banyan dvm submit}). */
    private final DvmQueue queue;
    private final DvmJobs.Numbers jobIds = new DvmJobs.Numbers();
    /** What the dashboard shows, kept as the core decides. */
    private final DvmView view = new DvmView();
    private final DvmClock clock;
    private final Map<Integer, Client> clients = new HashMap<>();
    /** Head events that handling an action led to, handled before the event's actions go out. */
    private final ArrayDeque<HeadEvent> followUps = new ArrayDeque<>();
    /** The actions of the event being handled. */
    private final List<DvmAction> out = new ArrayList<>();
    private HeadCore head;
    private boolean ready;
    private boolean finished;
    /** Why the DVM stops, as its clients are told (null: not known, or not stopping). */
    private String stopWhy;
    private boolean toldClosing;
    /** A {@link DvmEvent.FlushUpdates} is on its way. */
    private boolean flushArmed;
    private Set<Integer> vacant = Set.of();
    /** An elastic DVM's batch-system policy; null for others. */
    private ElasticPolicy elastic;
    private final ElasticPool pool;
    private final DvmSnapshots snapshots;
    /** A resized job's world's secret by queue id and generation (the driver's; none in the simulator). */
    private java.util.function.BiFunction<Integer, Integer, String> worldSecrets;

    /**
     * @param gpusPerHost the GPUs each host has for tasks, numbered from 0, or {@link #FOUND_GPUS}
     * @param pid         the head's process, for {@code dvm status}
     */
    public DvmCore(List<Node> nodes, HeadSettings settings, TopologySpec tree, TopologySpec routing, int gpusPerHost, long pid,
                   DvmClock clock) {
        this(nodes, settings, tree, routing, gpusPerHost, pid, clock, TaskDispatch.KEEP_FINISHED);
    }

    /** @param keepFinished how many finished tasks of detached submits to keep (tests keep fewer) */
    DvmCore(List<Node> nodes, HeadSettings settings, TopologySpec tree, TopologySpec routing, int gpusPerHost, long pid,
            DvmClock clock, int keepFinished) {
        this.settings = settings;
        this.clock = clock;
        this.tree = tree;
        this.routing = routing;
        this.pid = pid;
        this.hosts = new DvmHosts(nodes);
        this.nodes = hosts.live();
        List<NodeResources> resources = new ArrayList<>();
        for (Node n : nodes) {
            resources.add(new NodeResources(n.name(), n.slots(), DvmGpus.atStart(gpusPerHost)));
        }
        this.scheduler = new GeneralScheduler(resources);
        this.queue = new DvmQueue(this.nodes, scheduler, settings, new ResourceQueue(this.nodes, jobIds::take, clock),
                new DvmQueue.Host() {
                    @Override
                    public void register(int jobId, Client owner, String command, int ranks, int queueId) {
                        jobs.registerQueued(jobId, owner, command, ranks, queueId);
                    }

                    @Override
                    public void armResizeTimeout(int queueId, int generation, long millis) {
                        out.add(new DvmAction.Arm(new DvmEvent.ResizeTimeout(queueId, generation), millis));
                    }

                    @Override
                    public Client ownerOf(int queueId) {
                        return jobs.ownerOf(queueId);
                    }

                    @Override
                    public void follow(HeadEvent e) {
                        followUps.add(e);
                    }

                    @Override
                    public void say(String line) {
                        DvmCore.this.say(line);
                    }

                    @Override
                    public String worldSecret(int queueId, int generation) {
                        return worldSecrets == null ? null : worldSecrets.apply(queueId, generation);
                    }
                });
        TaskAgent taskAgent = new TaskAgent(scheduler, hosts.names(), TaskAgent.QUEUE_DEPTH);
        this.gpus = new DvmGpus(gpusPerHost, scheduler, taskAgent.gpuNames(),
                i -> elastic != null ? elastic.hostOf(i) : hosts.get(i).name(), this::say);
        this.tasks = new TaskDispatch(taskAgent, this.nodes, settings, jobIds::take, out::add, clock, keepFinished,
                view);
        this.jobs = new DvmJobs(hosts, scheduler, new JobSlots(this.nodes, hosts, scheduler), settings, jobIds, queue, tasks,
                followUps::add, this::say);
        this.pool = new DvmPool(this.nodes, scheduler, queue, tasks);
        this.snapshots = new DvmSnapshots(this.nodes, hosts, scheduler, jobs, queue, view);
    }

    /**
     * Makes this DVM elastic inside Slurm job {@code jobId} (before {@link #start}): it gives free
     * hosts back when a job waiting in Slurm needs them and asks for hosts again when its jobs want
     * more ({@link ElasticPolicy}); {@code vacant} slots have no host yet and take nothing until
     * one fills them.
     *
     * @param stepPerDaemon whether each daemon runs in a job step of its own (false with static ports)
     */
    public void elastic(String jobId, boolean stepPerDaemon, Set<Integer> vacant) {
        this.elastic = new ElasticPolicy(jobId, hosts, tree, routing, stepPerDaemon, this::say, out::add);
        this.vacant = Set.copyOf(vacant);
        for (int i : vacant) {
            hosts.vacant(i);
            pool.retire(i);
        }
    }

    /** Gives the worlds of resized jobs their secrets (hex), derived by the driver from the DVM's. */
    public void worldSecrets(java.util.function.BiFunction<Integer, Integer, String> secrets) {
        this.worldSecrets = secrets;
    }

    /** The Slurm jobs an elastic DVM took after its own, to cancel as it stops. */
    public Set<String> laterSlurmJobs() {
        return elastic == null ? Set.of() : elastic.laterJobs();
    }

    /** The hosts and which of them serve (an elastic DVM's batch-system side reads and marks them). */
    public DvmHosts hosts() {
        return hosts;
    }

    /** What a client is told when it connects. */
    public ClientMessage.Welcome welcome() {
        return new ClientMessage.Welcome(nodes.size(), hosts.totalSlots());
    }

    /** Whether the daemons are up and clients are served. */
    public boolean isReady() {
        return ready;
    }

    /**
     * Starts the daemons; {@code headContact} is where they reach the head, {@code launchAgent}
     * how they are started (for the log).
     */
    public List<DvmAction> start(String headContact, String launchAgent) {
        head = HeadCore.forDvm(nodes, settings, tree, routing, headContact, vacant);
        say("starting " + (nodes.size() - vacant.size()) + " daemon(s), spawn tree " + tree + ", routing " + routing
                + ", launch agent " + launchAgent);
        for (HeadAction a : head.start()) {
            if (!execute(a)) {
                break;
            }
        }
        drain();
        return take();
    }

    /** Handles one event; returns what to do, in order. Nothing once a {@link DvmAction.Finish} went out. */
    public List<DvmAction> handle(DvmEvent event) {
        if (finished) {
            return List.of();
        }
        switch (event) {
            case DvmEvent.Head(HeadEvent e) -> followUps.add(e);
            case DvmEvent.ClientSaid(int id, ClientMessage m) -> follow(fromClient(client(id), m));
            case DvmEvent.Stop(String why) -> {
                stopWhy = stopWhy == null ? why : stopWhy;
                followUps.add(new HeadEvent.Stop());
            }
            case DvmEvent.ClientBacklog(int id, boolean behind) -> {
                Client s = clients.get(id);
                if (s != null) {
                    follow(ClientBacklog.jobSignals(s, behind, this::say));
                }
            }
            case DvmEvent.ClientGone(int id) -> {
                Client s = clients.remove(id);
                if (s != null) {
                    follow(clientGone(s));
                }
            }
            case DvmEvent.TaskTimeout(int task) -> follow(tasks.timedOut(task));
            case DvmEvent.TaskJobPrepared(int job, var wireUp) -> follow(tasks.jobs().prepared(job, wireUp));
            case DvmEvent.TaskJobUnprepared(int job, String why) -> follow(tasks.jobs().unprepared(job, why));
            case DvmEvent.TaskJobSlow(int job) -> tasks.jobs().slow(job);
            case DvmEvent.TaskOutputClosed(int task) -> follow(tasks.jobs().outputClosed(task));
            case DvmEvent.TaskOutputLate(int task, int job) -> follow(tasks.jobs().outputLate(task, job));
            case DvmEvent.TaskOutputBacklog(int task, boolean behind) -> follow(tasks.jobs().outputBacklog(task, behind));
            case DvmEvent.TaskOutputFailed(int task, String why) -> follow(tasks.jobs().outputFailed(task, why));
            case DvmEvent.TaskInput(int job, byte[] data) -> tasks.jobs().input(job, data);
            case DvmEvent.TaskInputFailed(int job, String why) -> follow(tasks.jobs().inputFailed(job, why));
            case DvmEvent.ResizeTimeout(int queueId, int generation) -> queue.resizeTimedOut(queueId, generation);
            case DvmEvent.FlushUpdates f -> {
                flushArmed = false;
                tasks.flush();
            }
            case DvmEvent.SlurmSeen(var outside, Set<String> idle) -> follow(elastic.decide(outside, idle, pool, clock.nanos()));
            case DvmEvent.SlurmGranted(String job, List<String> got) -> {
                HeadEvent rejoin = elastic.granted(job, got, clock.nanos());
                if (rejoin != null) {
                    followUps.add(rejoin);
                }
            }
            case DvmEvent.SlurmGrantFailed(String why) -> elastic.grantFailed(why);
            case DvmEvent.SlurmShrunk(boolean last) -> elastic.shrunk(last);
        }
        drain();
        return take();
    }

    /** The DVM is stopping: every client's last task states. */
    public List<DvmAction> closing() {
        tasks.flush();
        return take();
    }

    /** The state {@code banyan dvm status} shows. */
    public ClientMessage.Status status() {
        return new ClientMessage.Status(pid, hosts.status(scheduler::freeCoresOn, scheduler::gpusOn, scheduler::freeGpusOn),
                jobs.status(), queue.status(), tasks.counts());
    }

    /** Cores free on host {@code i} for jobs and tasks (for invariant checks). */
    public int freeCoresOn(int i) {
        return scheduler.freeCoresOn(i);
    }

    private List<DvmAction> take() {
        if (!finished && !flushArmed && tasks.hasUpdates()) {
            flushArmed = true;
            out.add(new DvmAction.Arm(new DvmEvent.FlushUpdates(), UPDATE_DELAY_MILLIS));
        }
        List<DvmAction> done = List.copyOf(out);
        out.clear();
        return done;
    }

    private Client client(int id) {
        return clients.computeIfAbsent(id, k -> new Client(k, out::add));
    }

    /** Queues events to handle; not ArrayDeque.addAll, whose forEach(this::addLast) C1 builds through a method handle. */
    private void follow(List<HeadEvent> events) {
        for (HeadEvent e : events) {
            followUps.add(e);
        }
    }

    /**
     * Every client connected hears why the DVM stops, before the driver closes their
     * connections (the driver's: a client that only watches has said nothing the core knows).
     */
    private void tellClosing(HeadEvent stop) {
        toldClosing = true;
        tasks.jobs().dvmStopping();
        if (stop instanceof HeadEvent.UserSignal(int sig) && stopWhy == null) {
            stopWhy = "it was stopped by " + Signals.name(sig);
        }
        stopWhy = stopWhy != null ? stopWhy : "it was stopped";
        out.add(new DvmAction.ToEveryClient(new ClientMessage.Closing(stopWhy)));
    }

    private void drain() {
        while (!followUps.isEmpty() && !finished) {
            HeadEvent e = followUps.poll();
            if (!toldClosing && (e instanceof HeadEvent.Stop || e instanceof HeadEvent.UserSignal(int sig) && Signals.ends(sig))) {
                tellClosing(e);
            }
            for (HeadAction a : head.handle(e)) {
                if (!execute(a)) {
                    followUps.clear();
                    finished = true;
                    break;
                }
            }
        }
    }

    /** False once the head finishes. */
    private boolean execute(HeadAction action) {
        switch (action) {
            case HeadAction.SendToDaemon(int d, OverlayMessage m) -> out.add(new DvmAction.ToDaemon(d, m));
            case HeadAction.SendToPeer(int vertex, OverlayMessage m) -> out.add(new DvmAction.ToPeer(vertex, m));
            case HeadAction.SpawnDaemon(int d, String host) -> out.add(new DvmAction.SpawnDaemon(d, host));
            case HeadAction.ArmTimer(var timer, long delay, int jobId) ->
                    out.add(new DvmAction.Arm(new DvmEvent.Head(new HeadEvent.TimerFired(timer, jobId)), delay));
            case HeadAction.Report(String line) -> say(line);
            case HeadAction.Milestone(String name) -> {
                // the launch report is banyan run's
            }
            case HeadAction.LaunchReport r -> {
                // idem
            }
            case HeadAction.EmitOutput e -> throw new IllegalStateException("a DVM's output belongs to a job");
            case HeadAction.ForwardStdin f -> throw new IllegalStateException("a DVM's stdin belongs to a job");
            case HeadAction.StdinCredit c -> throw new IllegalStateException("a DVM's stdin belongs to a job");
            case HeadAction.Suspend s -> throw new IllegalStateException("a DVM is not stopped by a terminal");
            case HeadAction.ForJob(int jobId, HeadAction a) -> jobs.forJob(jobId, a);
            case HeadAction.JobEnded(int jobId, int exitStatus) ->
                    jobs.ended(jobId, exitStatus, toldClosing ? "ended as its DVM stopped (" + stopWhy + ")" : "");
            case HeadAction.GpusFound(Map<Integer, String> found) -> gpus.found(found);
            case HeadAction.Ready r -> {
                ready = true;
                out.add(new DvmAction.Publish(hosts.inService() + " host(s), " + (hosts.totalSlots() - hosts.slotsOutOfService())
                        + " slot(s)" + (vacant.isEmpty() ? "" : ", room for " + vacant.size() + " more")));
            }
            case HeadAction.DaemonsLost(List<Integer> ids, String why) -> {
                // Their hosts take no more jobs or tasks; the agent fails or restarts the tasks there.
                for (int d : ids) {
                    hosts.lost(d);
                    follow(tasks.nodeLost(d, why));
                }
                say(why + (ready ? "; its hosts take no more jobs" : ""));
            }
            case HeadAction.DaemonReleased(int d) -> elastic.gone(d);
            case HeadAction.DaemonRejoined(int d) -> elastic.rejoined(d, pool);
            case HeadAction.TasksEnded(List<OverlayMessage.RankExited> ends) -> follow(tasks.ended(ends));
            case HeadAction.ResourceRequest(OverlayMessage.NameRequest r) -> queue.resourceRequest(r);
            case HeadAction.SpawnRequested(var parent, OverlayMessage.SpawnRequest request) ->
                    followUps.add(jobs.spawn(parent, request));
            case HeadAction.RankEnded r -> throw new IllegalStateException("a rank's end belongs to a job");
            case HeadAction.Finish(int exitStatus) -> {
                out.add(new DvmAction.Finish(exitStatus));
                return false;
            }
        }
        return true;
    }

    /** What a client asks, as head events (a job to submit, a signal, a stop). */
    private List<HeadEvent> fromClient(Client s, ClientMessage m) {
        switch (m) {
            case ClientMessage.RunJob run -> {
                HeadEvent submit = jobs.accept(s, run, ready);
                return submit == null ? List.of() : List.of(submit);
            }
            case ClientMessage.QueueJob q -> {
                if (!ready) {
                    s.send(new ClientMessage.JobRejected("the DVM is not ready"));
                    return List.of();
                }
                queue.submit(s, q);
                return List.of();
            }
            case ClientMessage.Stdin(int jobId, byte[] data) -> {
                HeadAction.ForwardStdin target = jobs.stdinTarget(s, jobId);
                if (target != null) {
                    OverlayMessage.StdinData chunk = new OverlayMessage.StdinData(jobId, target.rank(), data);
                    for (int d : target.daemonIds()) {
                        out.add(new DvmAction.ToDaemon(d, chunk));
                    }
                }
                return List.of();
            }
            case ClientMessage.SignalJob(int jobId, int signal) -> {
                if (!jobs.owns(s, jobId)) {
                    return List.of();
                }
                if (signal == Signals.SIGSTOP || signal == Signals.SIGCONT) {
                    s.paused.forget(jobId); // the user's own: a catching-up does not continue it
                } else if (Signals.ends(signal)) { // stopped, it would not see it before its client caught up
                    List<HeadEvent> events = new ArrayList<>(2);
                    s.paused.end(jobId, new HeadEvent.SignalJob(jobId, signal), events);
                    return events;
                }
                return List.of(new HeadEvent.SignalJob(jobId, signal));
            }
            case ClientMessage.SubmitTasks(var requests) -> {
                if (!ready) {
                    s.send(new ClientMessage.TasksAccepted(List.of()));
                    return List.of();
                }
                say("client " + s.id + " submitted " + requests.size() + " task(s)");
                return tasks.submit(s, requests);
            }
            case ClientMessage.CancelTasks(List<Integer> ids) -> {
                return tasks.cancel(ids);
            }
            case ClientMessage.Detach d -> {
                s.detached = true;
                return List.of();
            }
            case ClientMessage.WatchTasks(List<Integer> ids) -> {
                tasks.watch(s, ids);
                return List.of();
            }
            case ClientMessage.StatusRequest r -> {
                s.send(status());
                return List.of();
            }
            case ClientMessage.OpenDashboard(String bind, int port) -> {
                out.add(new DvmAction.OpenDashboard(s.id, bind, port));
                return List.of();
            }
            case ClientMessage.Stop stop -> {
                say("stop asked by client " + s.id);
                stopWhy = stopWhy == null ? "it was stopped by banyan dvm stop" : stopWhy;
                return List.of(new HeadEvent.Stop());
            }
            default -> {
                say("client " + s.id + " sent " + m.getClass().getSimpleName() + ", which a client does not send");
                return List.of();
            }
        }
    }

    /** A client went away: its tasks (unless detached), its queued and running jobs. */
    private List<HeadEvent> clientGone(Client s) {
        List<HeadEvent> events = new ArrayList<>(tasks.gone(s));
        queue.withdraw(s);
        events.addAll(jobs.cancelAllOf(s));
        s.paused.resumeAll(job -> true, events); // stopped for it: their ranks see the end's SIGTERM in its grace, not only its SIGKILL
        return events;
    }

    private void say(String line) {
        out.add(new DvmAction.Log(line));
        view.said(clock.wallMicros(), line);
    }

    /**
     * The state for the dashboard now: hosts, jobs, queue and sizes, tasks with the rates of the
     * last {@code seconds} seconds, the last {@code decisions} lines of the log ({@link DvmSnapshots}).
     */
    public DvmSnapshot snapshot(int seconds, int decisions) {
        return snapshots.take(clock.wallMicros(), seconds, decisions);
    }
}
