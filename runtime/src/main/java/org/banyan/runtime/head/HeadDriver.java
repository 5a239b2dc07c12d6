package org.banyan.runtime.head;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadCore;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.daemon.ChildStarters;
import org.banyan.runtime.os.ProcessSignaller;
import org.banyan.runtime.os.UserSignals;

/**
 * Runs a {@link HeadCore} for real: starts its children in the overlay tree through the launch
 * agent, forwards the user's signals and stdin, shows output, and returns the run's exit status.
 */
public final class HeadDriver {
    private final JobDescription job;
    private final RankMap map;
    private final HeadSettings settings;
    private final OutputSink sink;
    private final LaunchAgent agent;
    private final TopologySpec topology;
    private final TopologySpec routing;
    private final EventLoop<HeadEvent> loop = new EventLoop<>();
    private HeadLinks links;
    private final StdinGate stdinGate = new StdinGate();
    /** Output that could not be written, once the job was told to fail for it. */
    private OutputSink.Failure outputLost;
    private final java.util.Map<String, Long> milestones = new java.util.LinkedHashMap<>();
    /** When the head began (class initialisation, right after argument parsing). */
    private static final long START_MILLIS = System.currentTimeMillis();

    private static long sinceStart() {
        return System.currentTimeMillis() - START_MILLIS;
    }

    /** {@code --report-launch}: phase times at the head, then one line per daemon. */
    private void launchReport(java.util.Map<Integer, org.banyan.core.wire.DaemonStats> stats) {
        String p = "banyan run: ";
        sink.report(p + "launch report: " + job.nodes().size() + " daemon(s), spawn tree " + topology + ", routing "
                + routing + ", modex " + job.modex().name().toLowerCase(java.util.Locale.ROOT) + ", launch agent "
                + agent.spec());
        for (var m : milestones.entrySet()) {
            sink.report(p + String.format("  %-36s %7d ms after the head started", m.getKey(), m.getValue()));
        }
        // up: from the parent asking for the daemon to its hello (remote shell, JVM, connect);
        // ranks: from the same moment to its last local rank started.
        sink.report(p + String.format("  %-7s %-16s %5s %12s %12s %12s %12s %8s %10s", "daemon", "host", "links",
                "frames out", "frames in", "bytes out", "bytes in", "up (ms)", "ranks (ms)"));
        for (var e : new java.util.TreeMap<>(stats).entrySet()) {
            var s = e.getValue();
            sink.report(p + String.format("  %-7d %-16s %5d %12d %12d %12d %12d %8d %10d", e.getKey(),
                    job.nodes().get(e.getKey()).name(), s.links(), s.framesSent(), s.framesReceived(), s.bytesSent(),
                    s.bytesReceived(), s.upMillis(), s.ranksMillis()));
        }
        if (stats.size() < job.nodes().size()) {
            sink.report(p + "  (" + (job.nodes().size() - stats.size()) + " daemon(s) did not report in time)");
        }
    }

    /**
     * @param topology the spawn tree
     * @param routing  the routing topology of daemon-to-daemon messages
     */
    public HeadDriver(JobDescription job, RankMap map, HeadSettings settings, OutputOptions output, LaunchAgent agent,
                      TopologySpec topology, TopologySpec routing) {
        this.routing = routing;
        this.job = job;
        this.map = map;
        this.settings = settings;
        this.sink = new OutputSink(output, job.jobId());
        sink.places(rank -> job.nodes().get(map.nodeOf(rank)).name(), map::nodeOf);
        this.agent = agent;
        this.topology = topology;
    }

    /** Runs the job to its end and returns the exit status for the user. */
    public int run() throws Exception {
        try {
            sink.prepareFiles(map.size());
        } catch (IOException e) { // before anything starts: bad input, as an --output-filename that cannot be made
            System.err.println("banyan run: " + OutputSink.cannotOpen(e));
            return 2;
        }
        links = HeadLinks.open(agent, ChildStarters.forHead(agent, topology, job.nodes().size()), loop::post);
        HeadCore core = new HeadCore(job, map, settings, topology, routing,
                links.addressFor(job.nodes().getFirst().name()));
        int[] status = {1};
        try {
            UserSignals.install(sink.endingFirst(sig -> loop.post(new HeadEvent.UserSignal(sig))));
            UserSignals.installJobControl(sig -> loop.post(new HeadEvent.UserSignal(sig)));
            for (HeadAction a : core.start()) {
                execute(a, status);
            }
            loop.run(event -> {
                for (HeadAction a : core.handle(event)) {
                    if (!execute(a, status)) {
                        return false;
                    }
                }
                sink.flush();
                OutputSink.Failure lost = sink.takeFailure();
                if (lost != null) { // a closed pipe or a full disk ends the job, as Hydra ends it
                    outputLost = lost;
                    loop.post(new HeadEvent.FailJob(job.jobId(), lost.status(), lost.why() + "; ending the job"));
                }
                return true;
            });
        } finally {
            sink.close();
            links.close();
        }
        // The last bytes, written as the job ended, or a failure whose FailJob came after the job's end.
        OutputSink.Failure late = sink.takeFailure();
        late = late != null ? late : outputLost;
        if (late != null && status[0] == 0) {
            sink.report("banyan run: " + late.why());
            return late.status();
        }
        return status[0];
    }

    /**
     * Stops this process (Ctrl-Z), a moment after the ranks' SIGSTOP went to the daemons, so that
     * the in-process daemon has sent it before it stops too. Were it later, the ranks would stop
     * at the SIGCONT that resumes this process, and be resumed by the SIGCONT passed on after it.
     */
    private static void suspendSoon() {
        Thread.ofPlatform().daemon().name("banyan-suspend").start(() -> {
            try {
                Thread.sleep(SUSPEND_DELAY_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            ProcessSignaller.signal(ProcessHandle.current(), Signals.SIGSTOP);
        });
    }

    private static final long SUSPEND_DELAY_MILLIS = 50;

    private boolean execute(HeadAction action, int[] status) {
        switch (action) {
            case HeadAction.SendToDaemon(int d, OverlayMessage m) -> links.toDaemon(d, m);
            case HeadAction.SendToPeer(int vertex, OverlayMessage m) -> links.toPeer(vertex, m);
            case HeadAction.SpawnDaemon(int d, String host) -> links.spawn(d, host);
            case HeadAction.EmitOutput(int rank, int stream, byte[] data) -> sink.write(rank, stream, data);
            case HeadAction.Report(String line) -> sink.report(line);
            case HeadAction.ArmTimer(var timer, long delay, int jobId) ->
                    loop.schedule(new HeadEvent.TimerFired(timer, jobId), delay);
            case HeadAction.ForwardStdin(var children, int rank) -> forwardStdin(children, rank);
            case HeadAction.StdinCredit(long limit) -> stdinGate.credit(limit);
            case HeadAction.Suspend s -> suspendSoon();
            case HeadAction.Milestone(String name) -> milestones.put(name, sinceStart());
            case HeadAction.LaunchReport(var stats) -> launchReport(stats);
            case HeadAction.Finish(int exitStatus) -> {
                status[0] = exitStatus;
                return false;
            }
            case HeadAction.ForJob(int jobId, HeadAction.EmitOutput(int rank, int stream, byte[] data)) ->
                    sink.write(jobId, rank, stream, data); // a job the run's ranks spawned
            case HeadAction.ForJob f -> throw new IllegalStateException("a run's jobs only output: " + f);
            case HeadAction.JobEnded e -> throw new IllegalStateException("a run's head has one job: " + e);
            case HeadAction.Ready r -> throw new IllegalStateException("a run's head is no DVM");
            case HeadAction.GpusFound g -> throw new IllegalStateException("a run's head is no DVM");
            case HeadAction.TasksEnded t -> throw new IllegalStateException("a run's head has no tasks");
            case HeadAction.ResourceRequest r -> throw new IllegalStateException("a run's head answers these itself");
            case HeadAction.RankEnded r -> throw new IllegalStateException("a run's head is not told of single ranks");
            case HeadAction.SpawnRequested r -> throw new IllegalStateException("a run's head places spawned jobs itself");
            case HeadAction.DaemonsLost l -> throw new IllegalStateException("a run's head reports losses itself");
            case HeadAction.DaemonReleased r -> throw new IllegalStateException("a run releases no daemon");
            case HeadAction.DaemonRejoined r -> throw new IllegalStateException("a run releases no daemon");
        }
        return true;
    }

    /**
     * Reads stdin on a thread of its own and sends each chunk down to {@code children} (an empty
     * one: its end), keeping within the credit the core grants ({@link HeadAction.StdinCredit});
     * once no rank reads, it reads no more.
     */
    private void forwardStdin(java.util.List<Integer> children, int rank) {
        Thread.ofPlatform().daemon().name("head-stdin").start(() -> {
            InputStream in = System.in;
            byte[] buf = new byte[1 << 16];
            long sent = 0;
            try {
                int n = 0;
                while (stdinGate.awaitRoom(sent) && (n = in.read(buf)) > 0) {
                    OverlayMessage.StdinData chunk = new OverlayMessage.StdinData(job.jobId(), rank, Arrays.copyOf(buf, n));
                    for (int d : children) {
                        links.toDaemon(d, chunk);
                    }
                    sent += n;
                }
                if (n < 0) {
                    for (int d : children) {
                        links.toDaemon(d, new OverlayMessage.StdinData(job.jobId(), rank, new byte[0]));
                    }
                }
            } catch (IOException | InterruptedException e) {
                // stdin went away: the rank sees EOF or is gone
            }
        });
    }
}
