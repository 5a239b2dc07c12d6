package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.core.dvm.DvmAction;
import org.banyan.core.dvm.DvmClock;
import org.banyan.core.dvm.DvmCore;
import org.banyan.core.dvm.DvmEvent;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.ClientMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.daemon.ChildStarters;
import org.banyan.runtime.head.HeadLinks;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.os.UserSignals;

/**
 * Runs the head of a persistent DVM: the driver of {@link DvmCore}, which decides everything
 * (jobs, tasks, the queue, clients' requests). This class holds what the core may not: the links
 * to the daemons it starts with the usual tree spawn, the client socket where {@code banyan run
 * --dvm}, {@code banyan dvm status|stop}, {@code banyan submit} and the pilot connect, the URI
 * file, the MPI tasks' output and stdin files ({@link TaskOutputFiles}, {@link TaskInputFiles}), timers, and an elastic DVM's Slurm
 * commands. Clients must
 * present the secret written next to the URI file; a connection that does not is refused and
 * logged. The DVM ends on {@code dvm stop}, on SIGTERM, SIGINT or SIGHUP to its head, or when it
 * cannot start its daemons; its daemons end if the head dies (they lose their parent).
 */
public final class DvmHead {
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    /** What the head's loop handles: the core's events, a client's arrival, and Slurm's side. */
    private sealed interface Event {
        record Core(DvmEvent event) implements Event {}

        /** A client proved the secret: its messages follow as {@link DvmEvent.ClientSaid}. */
        record Came(int client, ClientChannel channel) implements Event {}

        /**
         * A client's outbox fell behind or caught up: the core hears its state when this is
         * handled, not when it was posted (the two are posted by two threads, in either order).
         */
        record Backlog(int client) implements Event {}

        /** An MPI task's output files fell behind or caught up: read, as a client's, when handled. */
        record TaskBacklog(int task) implements Event {}

        /** Time to read Slurm's queue again (an elastic DVM). */
        record SlurmProbe() implements Event {}

        /** Time to hand the dashboard the state, if someone watches. */
        record DashboardTick() implements Event {}
    }

    /** How long a stopping DVM waits for its clients to take their last messages (task states, why it stops). */
    static final long LAST_WORDS_NANOS = 2_000_000_000L;

    /** How often the dashboard gets the state while someone watches. */
    static final long DASHBOARD_MILLIS = 1000;

    /** {@code gpusPerHost} when none are declared: each host offers the GPUs its daemon finds. */
    public static final int FOUND_GPUS = DvmCore.FOUND_GPUS;

    private final List<Node> nodes;
    private final LaunchAgent agent;
    private final TopologySpec tree;
    private final TopologySpec routing;
    private final DvmFiles files;
    private final PrintStream log;
    private final EventLoop<Event> loop = new EventLoop<>();
    private final DvmCore core;
    /** What goes to each client connected, by number: its connection, written off the loop. */
    private final Map<Integer, ClientOutbox> clients = new ConcurrentHashMap<>();
    /** MPI tasks' stdout and stderr files, written off the loop. */
    private final TaskOutputFiles taskOutput = new TaskOutputFiles(new TaskOutputFiles.Events() {
        @Override
        public void closed(int task) {
            loop.post(new Event.Core(new DvmEvent.TaskOutputClosed(task)));
        }

        @Override
        public void backlog(int task) {
            loop.post(new Event.TaskBacklog(task));
        }

        @Override
        public void failed(int task, String why) {
            loop.post(new Event.Core(new DvmEvent.TaskOutputFailed(task, why)));
        }
    }, this::say);
    /** MPI tasks' sandboxes made and programs read, off the loop, before their jobs are submitted. */
    private final TaskJobSetup taskJobs = new TaskJobSetup(new TaskJobSetup.Events() {
        @Override
        public void prepared(int job, org.banyan.core.job.WireUp wireUp) {
            loop.post(new Event.Core(new DvmEvent.TaskJobPrepared(job, wireUp)));
        }

        @Override
        public void failed(int job, String why) {
            loop.post(new Event.Core(new DvmEvent.TaskJobUnprepared(job, why)));
        }
    });
    /** The stdin files of tasks that run as jobs, read off the loop for their rank 0. */
    private final TaskInputFiles taskInput = new TaskInputFiles(new TaskInputFiles.Events() {
        @Override
        public void data(int job, byte[] data) {
            loop.post(new Event.Core(new DvmEvent.TaskInput(job, data)));
        }

        @Override
        public void failed(int job, String why) {
            loop.post(new Event.Core(new DvmEvent.TaskInputFailed(job, why)));
        }
    });
    private final String secret = DvmFiles.newSecret();
    private HeadLinks links;
    private ClientDoor door;
    /** Runs {@code banyan run --dvm} for the banyan script without a JVM of its own, or null: no quick door. */
    private QuickDoor.Runner quickRunner;
    private QuickDoor quickDoor;
    private ElasticSlurm elastic;
    private long probeMillis;
    private int status = 1;
    /** The dashboard, once a client asked for it (banyan dashboard, dvm start --dashboard). */
    private DashboardServer dashboard;

    /**
     * @param log         where the head says what it does (its log file once it has detached)
     * @param gpusPerHost the GPUs each host has for tasks, numbered from 0, or {@link #FOUND_GPUS}
     */
    public DvmHead(List<Node> nodes, HeadSettings settings, LaunchAgent agent, TopologySpec tree, TopologySpec routing,
                   DvmFiles files, PrintStream log, int gpusPerHost) {
        this.agent = agent;
        this.tree = tree;
        this.routing = routing;
        this.files = files;
        this.log = log;
        this.core = new DvmCore(nodes, settings, tree, routing, gpusPerHost, ProcessHandle.current().pid(), DvmClock.SYSTEM);
        core.worldSecrets(org.banyan.runtime.net.LinkAuth::worldSecret);
        this.nodes = core.hosts().live();
    }

    /**
     * Makes the DVM elastic inside Slurm job {@code jobId} (before {@link #run}): every
     * {@code probeMillis} it gives free hosts back when a job waiting in Slurm needs them, and
     * grows (into hosts it gave back, or into slots {@code vacant} at first: hosts it may get
     * from Slurm later) when its jobs want more and nothing waits in Slurm.
     */
    public void elastic(String jobId, long probeMillis, Path workDir, java.util.Set<Integer> vacant) {
        this.elastic = new ElasticSlurm(jobId, workDir, agent, this::say, e -> loop.post(new Event.Core(e)));
        this.probeMillis = probeMillis;
        core.elastic(jobId, agent.stepPerDaemon(), vacant);
    }

    /** Opens a quick door for local clients once ready ({@link QuickDoor}), served by {@code runner}. */
    public void quickRuns(QuickDoor.Runner runner) {
        this.quickRunner = runner;
    }

    /**
     * Asks the head to stop (any thread), as {@code banyan dvm stop} does; {@code why} is what its
     * clients are told ("it was stopped by SIGTERM").
     */
    public void stop(String why) {
        loop.post(new Event.Core(new DvmEvent.Stop(why)));
    }

    /** Serves until stopped; returns the exit status (0 after a stop, 1 when the daemons could not start). */
    public int run() throws Exception {
        ChildStarter starter = ChildStarters.forHead(agent, tree, nodes.size());
        links = HeadLinks.open(agent, elastic != null ? elastic.starter(starter) : starter,
                e -> loop.post(new Event.Core(new DvmEvent.Head(e))));
        door = new ClientDoor(agent.remote(), secret, core::welcome, new ClientDoor.Clients() {
            @Override
            public void came(int client, ClientChannel channel) {
                loop.post(new Event.Came(client, channel));
            }

            @Override
            public void said(int client, ClientMessage message) {
                loop.post(new Event.Core(new DvmEvent.ClientSaid(client, message)));
            }

            @Override
            public void gone(int client) {
                loop.post(new Event.Core(new DvmEvent.ClientGone(client)));
            }
        }, this::say);
        long pid = ProcessHandle.current().pid();
        try {
            UserSignals.install(sig -> loop.post(new Event.Core(new DvmEvent.Head(new HeadEvent.UserSignal(sig)))));
            if (executeAll(core.start(links.addressFor(nodes.getFirst().name()), agent.spec()))) {
                loop.run(event -> switch (event) {
                    case Event.Core(DvmEvent.ClientGone gone) -> {
                        boolean more = executeAll(core.handle(gone));
                        ClientOutbox out = clients.remove(gone.client());
                        if (out != null) {
                            out.close();
                        }
                        yield more;
                    }
                    case Event.Core(DvmEvent.SlurmSeen seen) -> {
                        loop.schedule(new Event.SlurmProbe(), probeMillis); // one probe at a time
                        yield executeAll(core.handle(seen));
                    }
                    case Event.Core(DvmEvent e) -> executeAll(core.handle(e));
                    case Event.Came(int client, ClientChannel channel) -> {
                        clients.put(client, new ClientOutbox(channel, client, behind -> loop.post(new Event.Backlog(client))));
                        yield true;
                    }
                    case Event.Backlog(int client) -> {
                        ClientOutbox out = clients.get(client);
                        yield out == null || executeAll(core.handle(new DvmEvent.ClientBacklog(client, out.isBehind())));
                    }
                    case Event.TaskBacklog(int task) ->
                            executeAll(core.handle(new DvmEvent.TaskOutputBacklog(task, taskOutput.isBehind(task))));
                    case Event.SlurmProbe p -> {
                        elastic.probe();
                        yield true;
                    }
                    case Event.DashboardTick t -> {
                        loop.schedule(new Event.DashboardTick(), DASHBOARD_MILLIS);
                        if (dashboard.wanted()) {
                            dashboard.publish(core.snapshot(120, 200));
                        }
                        yield true;
                    }
                });
            }
        } finally {
            executeAll(core.closing());
            long lastWords = System.nanoTime() + LAST_WORDS_NANOS;
            for (ClientOutbox out : clients.values()) {
                out.drain(lastWords);
                out.close();
            }
            if (quickDoor != null) {
                quickDoor.close();
            }
            files.withdraw(pid);
            door.close();
            links.close();
            if (elastic != null) {
                elastic.close(core.laterSlurmJobs());
            }
            if (dashboard != null) {
                dashboard.close();
            }
            taskOutput.closeAll(System.nanoTime() + LAST_WORDS_NANOS);
            say("stopped");
        }
        return status;
    }


    /** False once the core has finished. */
    private boolean executeAll(List<DvmAction> actions) {
        for (DvmAction a : actions) {
            if (!execute(a)) {
                return false;
            }
        }
        return true;
    }

    private boolean execute(DvmAction action) {
        switch (action) {
            case DvmAction.ToDaemon(int d, var m) -> links.toDaemon(d, m);
            case DvmAction.ToPeer(int vertex, var m) -> links.toPeer(vertex, m);
            case DvmAction.SpawnDaemon(int d, String host) -> links.spawn(d, host);
            case DvmAction.Arm(DvmEvent e, long delay) -> loop.schedule(new Event.Core(e), delay);
            case DvmAction.ToClient(int client, ClientMessage m) -> send(client, m);
            case DvmAction.ToEveryClient(ClientMessage m) -> clients.keySet().forEach(c -> send(c, m));
            case DvmAction.Log(String line) -> say(line);
            case DvmAction.Publish(String summary) -> publish(summary);
            case DvmAction.PrepareTaskJob(int job, String sandbox, String executable, String path) ->
                    taskJobs.prepare(job, sandbox, executable, path);
            case DvmAction.OpenTaskOutput(int task, String sandbox, String stdout, String stderr) ->
                    taskOutput.open(task, sandbox, stdout, stderr);
            case DvmAction.TaskOutput(int task, int stream, byte[] data) -> taskOutput.write(task, stream, data);
            case DvmAction.CloseTaskOutput(int task) -> taskOutput.close(task);
            case DvmAction.AbandonTaskOutput(int task) -> taskOutput.abandon(task);
            case DvmAction.OpenTaskInput(int job, String sandbox, String stdin) -> taskInput.open(job, sandbox, stdin);
            case DvmAction.TaskInputCredit(int job, long limit) -> taskInput.credit(job, limit);
            case DvmAction.CloseTaskInput(int job) -> taskInput.close(job);
            case DvmAction.OpenDashboard(int client, String bind, int port) -> openDashboard(client, bind, port);
            case DvmAction.SlurmGrow g -> elastic.grow(g);
            case DvmAction.SlurmShrink s -> elastic.shrink(s);
            case DvmAction.Finish(int exitStatus) -> {
                status = exitStatus;
                return false;
            }
        }
        return true;
    }

    private void send(int client, ClientMessage m) {
        ClientOutbox out = clients.get(client);
        if (out == null) {
            return;
        }
        if (!out.offer(m)) {
            giveUp(client, out, "");
        } else if (out.commonCheckDue()) {
            Integer furthest = ClientOutbox.furthestBehind(clients, ClientOutbox.ALL_CLIENTS_LIMIT);
            if (furthest != null) {
                giveUp(furthest, clients.get(furthest), ", the most of all clients, which together left more than "
                        + (ClientOutbox.ALL_CLIENTS_LIMIT >> 20) + " MiB");
            }
        }
    }

    private void giveUp(int client, ClientOutbox out, String more) {
        if (out.giveUp()) {
            say("client " + client + " left " + (out.unsent() >> 20) + " MiB unread" + more + " (suspended, or its output piped "
                    + "into a reader that stopped); closing its connection as if it had gone");
            loop.post(new Event.Core(new DvmEvent.ClientGone(client)));
        }
    }

    /**
     * Opens the dashboard where the client asked (once; a later request is told where it is, or
     * that it is open elsewhere), and answers where. The URL's token is the client's to make from
     * the secret: it never appears here, nor in the log.
     */
    private void openDashboard(int client, String bind, int port) {
        if (dashboard == null) {
            try {
                dashboard = new DashboardServer(bind, port, secret);
            } catch (IOException | RuntimeException e) {
                send(client, new ClientMessage.DashboardAt(bind, port, "cannot serve the dashboard on " + bind + ":" + port + ": "
                        + e.getMessage()));
                return;
            }
            say("dashboard on http://" + dashboard.bind() + ":" + dashboard.port() + "/ (asked by client " + client + ")");
            loop.schedule(new Event.DashboardTick(), 0);
        } else if ((port != 0 && port != dashboard.port()) || !sameAddress(bind, dashboard.bind())) {
            send(client, new ClientMessage.DashboardAt(dashboard.bind(), dashboard.port(), "the dashboard is open on "
                    + dashboard.bind() + ":" + dashboard.port() + " already"));
            return;
        }
        send(client, new ClientMessage.DashboardAt(dashboard.bind(), dashboard.port(), ""));
    }

    private static boolean sameAddress(String a, String b) {
        try {
            return java.net.InetAddress.getByName(a).equals(java.net.InetAddress.getByName(b));
        } catch (IOException e) {
            return false;
        }
    }

    private void publish(String summary) {
        try {
            String host = agent.remote() ? links.addressFor(nodes.getFirst().name()).replaceAll(":\\d+$", "")
                    : "127.0.0.1";
            files.publish(host + ":" + door.port(), ProcessHandle.current().pid(), secret);
        } catch (IOException e) {
            say("cannot write " + files.uri() + ": " + e.getMessage() + "; stopping");
            stop("it could not write its contact file");
            return;
        }
        say("ready: " + summary + "; contact in " + files.uri());
        door.open();
        if (quickRunner != null) {
            try {
                quickDoor = QuickDoor.open(secret, quickRunner, this::say);
                files.publishQuick(quickDoor.port());
            } catch (IOException e) { // its clients start a JVM, as before
                say("no quick door (" + e.getMessage() + "); banyan run --dvm starts a JVM client");
            }
        }
        if (elastic != null) {
            loop.schedule(new Event.SlurmProbe(), probeMillis);
        }
    }

    /** Any thread: println is synchronized, so lines stay whole. */
    private void say(String line) {
        // formatted, not LocalDateTime.toString(), which drops ":00" seconds (a log whose lines do not line up)
        log.println("[" + LOG_TIME.format(LocalDateTime.now()) + "] banyan dvm: " + line);
        log.flush();
    }
}
