package org.banyan.runtime.head;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadAction;
import org.banyan.core.head.HeadCore;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.net.FrameChannel;

/**
 * Runs a {@link HeadCore} for real: listens for daemons, starts them, forwards the user's
 * signals and stdin, shows output, and returns the run's exit status.
 */
public final class HeadDriver {
    private final JobDescription job;
    private final RankMap map;
    private final HeadSettings settings;
    private final OutputSink sink;
    private final DaemonStarter daemons;
    private final EventLoop<HeadEvent> loop = new EventLoop<>();
    private final Map<Integer, FrameChannel> channels = new ConcurrentHashMap<>();
    private volatile boolean finishing;

    public HeadDriver(JobDescription job, RankMap map, HeadSettings settings, OutputOptions output,
                      DaemonStarter daemons) {
        this.job = job;
        this.map = map;
        this.settings = settings;
        this.sink = new OutputSink(output, job.jobId());
        this.daemons = daemons;
    }

    /** Runs the job to its end and returns the exit status for the user. */
    public int run() throws Exception {
        sink.prepareFiles(map.size());
        HeadCore core = new HeadCore(job, map, settings);
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        int[] status = {1};
        try {
            installSignalHandlers();
            Thread.ofPlatform().daemon().name("head-accept").start(() -> acceptLoop(server));
            String address = server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
            daemons.start(job.nodes(), address, (d, reason) -> loop.post(new HeadEvent.DaemonLost(d, reason)));
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
                return true;
            });
        } finally {
            finishing = true;
            sink.close();
            daemons.awaitOrKill(5000);
            server.close();
            channels.values().forEach(FrameChannel::close);
        }
        return status[0];
    }

    private boolean execute(HeadAction action, int[] status) {
        switch (action) {
            case HeadAction.SendToDaemon(int d, OverlayMessage m) -> {
                FrameChannel c = channels.get(d);
                if (c != null) {
                    try {
                        c.send(m);
                    } catch (IOException e) {
                        // its reader reports the loss
                    }
                }
            }
            case HeadAction.EmitOutput(int rank, int stream, byte[] data) -> sink.write(rank, stream, data);
            case HeadAction.Report(String line) -> sink.report(line);
            case HeadAction.ArmTimer(var timer, long delay) -> loop.schedule(new HeadEvent.TimerFired(timer), delay);
            case HeadAction.ForwardStdin(int d, int rank) -> forwardStdin(d, rank);
            case HeadAction.Finish(int exitStatus) -> {
                status[0] = exitStatus;
                finishing = true;
                return false;
            }
        }
        return true;
    }

    private void acceptLoop(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofPlatform().daemon().name("head-from-daemon").start(() -> readDaemon(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void readDaemon(Socket socket) {
        int daemon = -1;
        try {
            FrameChannel c = new FrameChannel(socket);
            OverlayMessage first = c.receive();
            if (!(first instanceof OverlayMessage.DaemonHello hello) || hello.daemonId() < 0
                    || hello.daemonId() >= job.nodes().size() || channels.putIfAbsent(hello.daemonId(), c) != null) {
                c.close();
                return;
            }
            daemon = hello.daemonId();
            loop.post(new HeadEvent.FromDaemon(daemon, hello));
            while (true) {
                loop.post(new HeadEvent.FromDaemon(daemon, c.receive()));
            }
        } catch (IOException e) {
            if (daemon >= 0 && !finishing) {
                loop.post(new HeadEvent.DaemonLost(daemon, "connection closed"));
            }
        }
    }

    private void forwardStdin(int daemon, int rank) {
        Thread.ofPlatform().daemon().name("head-stdin").start(() -> {
            FrameChannel c = channels.get(daemon);
            if (c == null) {
                return;
            }
            InputStream in = System.in;
            byte[] buf = new byte[1 << 16];
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    c.send(new OverlayMessage.StdinData(rank, Arrays.copyOf(buf, n)));
                }
                c.send(new OverlayMessage.StdinData(rank, new byte[0]));
            } catch (IOException e) {
                // stdin or the daemon went away: the rank sees EOF or is gone
            }
        });
    }

    @SuppressWarnings("restriction")
    private void installSignalHandlers() {
        int[] signals = {Signals.SIGINT, Signals.SIGTERM, Signals.SIGHUP, Signals.SIGUSR1, Signals.SIGUSR2};
        for (int sig : signals) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(Signals.name(sig).substring(3)),
                        s -> loop.post(new HeadEvent.UserSignal(sig)));
            } catch (IllegalArgumentException e) {
                // the JVM reserves this one (e.g. under -Xrs); it keeps its default action
            }
        }
    }
}
