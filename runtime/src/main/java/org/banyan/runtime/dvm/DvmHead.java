package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadCore;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.daemon.ChildStarters;
import org.banyan.runtime.head.HeadLinks;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.os.UserSignals;

/**
 * Runs the head of a persistent DVM: {@link HeadCore#forDvm} over the daemons it starts with the
 * usual tree spawn, and a client socket where {@code banyan run --dvm}, {@code banyan dvm
 * status|stop} and the pilot submit jobs. Clients must present the secret written next to the
 * URI file; a connection that does not is refused and logged. Each job gets the slots not in
 * use by the others; its output, reports and end go to the client that submitted it, and a
 * client that goes away takes its jobs with it. The DVM ends on {@code dvm stop}, on SIGTERM,
 * SIGINT or SIGHUP to its head, or when it cannot start its daemons; its daemons end if the head
 * dies (they lose their parent).
 */
public final class DvmHead {
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    /** What the head's loop handles: the core's events, and its clients'. */
    private sealed interface Event {
        record Head(HeadEvent event) implements Event {}

        record Said(DvmSession session, ClientMessage message) implements Event {}

        record Gone(DvmSession session) implements Event {}

        record TaskTimeout(int taskId) implements Event {}

        /** A queued job's expansion to {@code generation} had its time to join. */
        record ResizeTimeout(int queueId, int generation) implements Event {}

        /** Time to read Slurm's queue again (an elastic DVM). */
        record SlurmProbe() implements Event {}

        /** What Slurm's queue and idle nodes showed. */
        record SlurmSeen(ElasticSlurm.Seen seen) implements Event {}

        /** Time to send clients the task states gathered since the last time. */
        record FlushUpdates() implements Event {}
    }

    /**
     * How long task states may wait before they go to their client. Sent after every event, a
     * 2-slot DVM running /bin/true wrote to its client about twice per task: perf put a quarter
     * of the head thread's samples in those writes, and the client's reader woke as often. No
     * task waits for them (the agent learns of ends from the daemons), and a few milliseconds
     * are nothing to a user watching states.
     */
    static final long UPDATE_DELAY_MILLIS = 4;

    private final List<Node> nodes;
    private final HeadSettings settings;
    private final LaunchAgent agent;
    private final TopologySpec tree;
    private final TopologySpec routing;
    private final DvmFiles files;
    private final PrintStream log;
    private final EventLoop<Event> loop = new EventLoop<>();
    /** A {@link Event.FlushUpdates} is on its way. */
    private boolean flushArmed;
    private final DvmHosts hosts;
    /** The DVM's cores, for jobs and tasks alike. */
    private final GeneralScheduler scheduler;
    /** Jobs of banyan run --dvm, spawned and started queued ones. */
    private final DvmJobs jobs;
    private final TaskDispatch tasks;
    private final DvmGpus gpus;
    /** {@code gpusPerHost} when none are declared: each host offers the GPUs its daemon finds. */
    public static final int FOUND_GPUS = -1;
    /** Jobs queued for whole hosts ({@code banyan dvm submit}). */
    private final QueueDriver queue;
    /** Head events that handling an action led to (a job's end, task ends), handled before the next action. */
    private final java.util.ArrayDeque<HeadEvent> followUps = new java.util.ArrayDeque<>();
    private final String secret = DvmFiles.newSecret();
    private HeadLinks links;
    private ClientDoor door;
    private final DvmJobs.Numbers jobIds = new DvmJobs.Numbers();
    private volatile boolean ready;
    private ElasticSlurm elastic;
    private java.util.Set<Integer> vacant = java.util.Set.of();
    private long probeMillis;
    /** Bags run here for clients; none until {@link #hostBags} is called. */
    private HostedBags bags = new HostedBags(null);

    /**
     * @param log         where the head says what it does (its log file once it has detached)
     * @param gpusPerHost the GPUs each host has for tasks, numbered from 0, or {@link #FOUND_GPUS}
     */
    public DvmHead(List<Node> nodes, HeadSettings settings, LaunchAgent agent, TopologySpec tree, TopologySpec routing,
                   DvmFiles files, PrintStream log, int gpusPerHost) {
        this.settings = settings;
        this.agent = agent;
        this.tree = tree;
        this.routing = routing;
        this.files = files;
        this.log = log;
        this.hosts = new DvmHosts(nodes);
        this.nodes = hosts.live();
        List<NodeResources> resources = new ArrayList<>();
        for (Node n : nodes) {
            resources.add(new NodeResources(n.name(), n.slots(), DvmGpus.atStart(gpusPerHost)));
        }
        this.scheduler = new GeneralScheduler(resources);
        this.queue = new QueueDriver(nodes, scheduler, settings, new ResourceQueue(nodes, jobIds::take),
                new QueueDriver.Host() {
                    @Override
                    public void register(int jobId, DvmSession owner, String command, int ranks, int queueId) {
                        jobs.registerQueued(jobId, owner, command, ranks, queueId);
                    }

                    @Override
                    public void armResizeTimeout(int queueId, int generation, long millis) {
                        loop.schedule(new Event.ResizeTimeout(queueId, generation), millis);
                    }

                    @Override
                    public DvmSession ownerOf(int queueId) {
                        return jobs.ownerOf(queueId);
                    }

                    @Override
                    public void follow(HeadEvent e) {
                        followUps.add(e);
                    }

                    @Override
                    public void say(String line) {
                        DvmHead.this.say(line);
                    }
                });
        TaskAgent taskAgent = new TaskAgent(scheduler, hosts.names(), TaskAgent.QUEUE_DEPTH);
        this.gpus = new DvmGpus(gpusPerHost, scheduler, taskAgent.gpuNames(), i -> elastic != null ? elastic.hostOf(i) : hosts.names().get(i), this::say);
        this.tasks = new TaskDispatch(taskAgent, nodes, settings,
                jobIds::take, (task, millis) -> loop.schedule(new Event.TaskTimeout(task), millis));
        this.jobs = new DvmJobs(hosts, scheduler, new JobSlots(this.nodes, hosts, scheduler), settings, jobIds, queue, tasks,
                followUps::add, this::say);
    }

    /**
     * Makes the DVM elastic inside Slurm job {@code jobId} (before {@link #run}): every
     * {@code probeMillis} it gives free hosts back when a job waiting in Slurm needs them, and
     * grows (into hosts it gave back, or into slots {@code vacant} at first: hosts it may get
     * from Slurm later) when its jobs want more and nothing waits in Slurm.
     */
    public void elastic(String jobId, long probeMillis, java.nio.file.Path workDir, java.util.Set<Integer> vacant) {
        this.elastic = new ElasticSlurm(jobId, hosts, tree, routing, workDir, agent, this::say,
                e -> loop.post(new Event.Head(e)));
        this.probeMillis = probeMillis;
        this.vacant = java.util.Set.copyOf(vacant);
        for (int i : vacant) {
            hosts.vacant(i);
            scheduler.nodeLost(i);
            queue.retire(i);
        }
    }

    /** Asks the head to stop (any thread): as {@code banyan dvm stop} does. */
    public void stop() {
        loop.post(new Event.Head(new HeadEvent.Stop()));
    }

    /** Serves until stopped; returns the exit status (0 after a stop, 1 when the daemons could not start). */
    public int run() throws Exception {
        ChildStarter starter = ChildStarters.forHead(agent, tree, nodes.size());
        links = HeadLinks.open(agent, elastic != null ? elastic.starter(starter) : starter,
                e -> loop.post(new Event.Head(e)));
        door = new ClientDoor(agent.remote(), secret, () -> new ClientMessage.Welcome(nodes.size(), hosts.totalSlots()),
                new ClientDoor.Clients() {
                    @Override
                    public void said(DvmSession session, ClientMessage message) {
                        loop.post(new Event.Said(session, message));
                    }

                    @Override
                    public void gone(DvmSession session) {
                        loop.post(new Event.Gone(session));
                    }
                }, this::say);
        HeadCore core = HeadCore.forDvm(nodes, settings, tree, routing, links.addressFor(nodes.getFirst().name()),
                vacant);
        int[] status = {1};
        long pid = ProcessHandle.current().pid();
        say("starting " + (nodes.size() - vacant.size()) + " daemon(s), spawn tree " + tree + ", routing " + routing + ", launch agent "
                + agent.spec());
        try {
            UserSignals.install(sig -> loop.post(new Event.Head(new HeadEvent.UserSignal(sig))));
            for (HeadAction a : core.start()) {
                execute(a, status);
            }
            loop.run(event -> {
                List<HeadEvent> events = switch (event) {
                    case Event.Head(HeadEvent e) -> List.of(e);
                    case Event.Said(DvmSession s, ClientMessage m) -> fromClient(s, m);
                    case Event.Gone(DvmSession s) -> clientGone(s);
                    case Event.TaskTimeout(int task) -> tasks.timedOut(task);
                    case Event.ResizeTimeout(int queueId, int generation) -> {
                        queue.resizeTimedOut(queueId, generation);
                        yield List.of();
                    }
                    case Event.SlurmProbe p -> {
                        elastic.probe(o -> loop.post(new Event.SlurmSeen(o)));
                        yield List.of();
                    }
                    case Event.SlurmSeen(ElasticSlurm.Seen seen) -> {
                        loop.schedule(new Event.SlurmProbe(), probeMillis);
                        yield elastic.decide(seen, elasticPool());
                    }
                    case Event.FlushUpdates f -> {
                        flushArmed = false;
                        tasks.flush();
                        yield List.of();
                    }
                };
                boolean more = handleAll(events, core, status);
                if (!flushArmed && tasks.hasUpdates()) {
                    flushArmed = true;
                    loop.schedule(new Event.FlushUpdates(), UPDATE_DELAY_MILLIS);
                }
                return more;
            });
        } finally {
            tasks.flush();
            files.withdraw(pid);
            door.close();
            links.close();
            if (elastic != null) {
                elastic.close();
            }
            say("stopped");
        }
        return status[0];
    }

    private boolean executeAll(List<HeadAction> actions, int[] status) {
        for (HeadAction a : actions) {
            if (!execute(a, status)) {
                return false;
            }
        }
        return true;
    }

    /** Queues events to handle; not ArrayDeque.addAll, whose forEach(this::addLast) C1 builds through a method handle. */
    private void follow(List<HeadEvent> events) {
        for (HeadEvent e : events) {
            followUps.add(e);
        }
    }

    /**
     * Handles head events in order, and the events their actions lead to (a job's end frees cores
     * for tasks, task ends start more) before the next; false once the head finishes.
     */
    private boolean handleAll(List<HeadEvent> events, HeadCore core, int[] status) {
        follow(events);
        while (!followUps.isEmpty()) {
            if (!executeAll(core.handle(followUps.poll()), status)) {
                followUps.clear();
                return false;
            }
        }
        return true;
    }

    private boolean execute(HeadAction action, int[] status) {
        switch (action) {
            case HeadAction.SendToDaemon(int d, OverlayMessage m) -> links.toDaemon(d, m);
            case HeadAction.SendToPeer(int vertex, OverlayMessage m) -> links.toPeer(vertex, m);
            case HeadAction.SpawnDaemon(int d, String host) -> links.spawn(d, host);
            case HeadAction.ArmTimer(var timer, long delay, int jobId) ->
                    loop.schedule(new Event.Head(new HeadEvent.TimerFired(timer, jobId)), delay);
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
            case HeadAction.ForJob(int jobId, HeadAction a) -> jobs.forJob(jobId, a);
            case HeadAction.JobEnded(int jobId, int exitStatus) -> jobs.ended(jobId, exitStatus);
            case HeadAction.GpusFound(Map<Integer, String> found) -> gpus.found(found);
            case HeadAction.Ready r -> becomeReady();
            case HeadAction.DaemonsLost(List<Integer> ids, String why) -> {
                // Their hosts take no more jobs or tasks; the agent fails or restarts the tasks there.
                for (int d : ids) {
                    hosts.lost(d);
                    follow(tasks.nodeLost(d, why));
                }
                say(why + (ready ? "; its hosts take no more jobs" : ""));
            }
            case HeadAction.DaemonReleased(int d) -> elastic.gone(d);
            case HeadAction.DaemonRejoined(int d) -> elastic.rejoined(d, elasticPool());
            case HeadAction.TasksEnded(List<OverlayMessage.RankExited> ends) -> follow(tasks.ended(ends));
            case HeadAction.ResourceRequest(OverlayMessage.NameRequest r) -> queue.resourceRequest(r);
            case HeadAction.SpawnRequested(JobDescription parent, OverlayMessage.SpawnRequest request) ->
                    followUps.add(jobs.spawn(parent, request));
            case HeadAction.RankEnded r -> throw new IllegalStateException("a rank's end belongs to a job");
            case HeadAction.Finish(int exitStatus) -> {
                status[0] = exitStatus;
                return false;
            }
        }
        return true;
    }

    private void becomeReady() {
        try {
            String host = agent.remote() ? links.addressFor(nodes.getFirst().name()).replaceAll(":\\d+$", "")
                    : "127.0.0.1";
            files.publish(host + ":" + door.port(), ProcessHandle.current().pid(), secret);
        } catch (IOException e) {
            say("cannot write " + files.uri() + ": " + e.getMessage() + "; stopping");
            loop.post(new Event.Head(new HeadEvent.Stop()));
            return;
        }
        ready = true;
        say("ready: " + hosts.inService() + " host(s), " + (hosts.totalSlots() - hosts.slotsOutOfService()) + " slot(s)"
                + (vacant.isEmpty() ? "" : ", room for " + vacant.size() + " more") + "; contact in " + files.uri());
        door.open();
        if (elastic != null) {
            loop.schedule(new Event.SlurmProbe(), probeMillis);
        }
    }

    /** What an elastic DVM's hosts are to its jobs, tasks and queue. */
    private ElasticSlurm.Pool elasticPool() {
        return new ElasticSlurm.Pool() {
            @Override
            public boolean isFree(int i) {
                return scheduler.freeCoresOn(i) == nodes.get(i).slots() && queue.isFree(i);
            }

            @Override
            public boolean anyQueued() {
                return queue.anyQueued() || tasks.anyWaiting();
            }

            @Override
            public void outsideDemand(int n) {
                queue.outsideDemand(n);
            }

            @Override
            public int wanted() {
                return tasks.anyWaiting() ? nodes.size() : queue.wanted();
            }

            @Override
            public void retire(int i) {
                scheduler.nodeLost(i);
                queue.retire(i);
            }

            @Override
            public void restore(int i) {
                scheduler.nodeRestored(i);
                queue.restore(i);
            }
        };
    }

    /** Runs {@code banyan submit}'s bags in this JVM from now on (call before {@link #run}). */
    public void hostBags(BagHost host) {
        bags = new HostedBags(host);
    }

    /** On the loop thread: what a client asks, as head events (a job to submit, a signal, a stop). */
    private List<HeadEvent> fromClient(DvmSession s, ClientMessage m) {
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
                        links.toDaemon(d, chunk);
                    }
                }
                return List.of();
            }
            case ClientMessage.SignalJob(int jobId, int signal) -> {
                return jobs.owns(s, jobId) ? List.of(new HeadEvent.SignalJob(jobId, signal)) : List.of();
            }
            case ClientMessage.SubmitTasks(List<TaskRequest> requests) -> {
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
            case ClientMessage.RunBag bag -> {
                say("client " + s.id + " asked for a bag: " + LoggedArguments.of(bag.args()));
                bags.start(s, bag);
                return List.of();
            }
            case ClientMessage.SignalBag(int signal) -> {
                bags.signal(s, signal);
                return List.of();
            }
            case ClientMessage.Stop stop -> {
                say("stop asked by client " + s.id);
                return List.of(new HeadEvent.Stop());
            }
            default -> {
                say("client " + s.id + " sent " + m.getClass().getSimpleName() + ", which a client does not send");
                return List.of();
            }
        }
    }

    private List<HeadEvent> clientGone(DvmSession s) {
        s.channel.close();
        bags.gone(s);
        List<HeadEvent> out = new ArrayList<>(tasks.gone(s));
        queue.withdraw(s);
        out.addAll(jobs.cancelAllOf(s));
        return out;
    }

    private ClientMessage.Status status() {
        return new ClientMessage.Status(ProcessHandle.current().pid(),
                hosts.status(scheduler::freeCoresOn, scheduler::gpusOn, scheduler::freeGpusOn), jobs.status(), queue.status(),
                tasks.counts());
    }

    /** Any thread: println is synchronized, so lines stay whole. */
    private void say(String line) {
        // formatted, not LocalDateTime.toString(), which drops ":00" seconds (a log whose lines do not line up)
        log.println("[" + LOG_TIME.format(LocalDateTime.now()) + "] banyan dvm: " + line);
        log.flush();
    }
}
