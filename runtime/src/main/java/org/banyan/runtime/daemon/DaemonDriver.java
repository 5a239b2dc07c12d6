package org.banyan.runtime.daemon;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.banyan.core.daemon.DaemonAction;
import org.banyan.core.daemon.DaemonCore;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.daemon.Signals;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.EventLoop;
import org.banyan.runtime.net.FrameChannel;

/**
 * Runs a {@link DaemonCore} for real: TCP to the head, processes, a PMI listener. The same code
 * serves a daemon in its own JVM ({@link DaemonMain}) and the one a single-host head runs on a
 * thread of its own; both reach the head over a TCP connection.
 */
public final class DaemonDriver {
    /** Threads that create rank processes; process creation is CPU-bound, so one per core. */
    private static final int SPAWNERS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private final int daemonId;
    private final String host;
    private final FrameChannel head;
    private final EventLoop<DaemonEvent> loop = new EventLoop<>();
    private final Map<Integer, RankProcess> ranks = new ConcurrentHashMap<>();
    private final ExecutorService spawners = Executors.newFixedThreadPool(SPAWNERS,
            Thread.ofPlatform().daemon().name("spawner-", 0).factory());
    private PmiListener pmi;
    private RankGuard guard;

    public DaemonDriver(int daemonId, String host, FrameChannel head) {
        this.daemonId = daemonId;
        this.host = host;
        this.head = head;
    }

    /** Serves until the job is over or the head is gone; never leaves a rank running. */
    public void run() throws Exception {
        pmi = PmiListener.open(loop::dispatch);
        guard = RankGuard.start();
        DaemonCore core = new DaemonCore(daemonId, pmi.address(), "tcp://" + pmi.address());
        try {
            head.send(new OverlayMessage.DaemonHello(daemonId, host, ProcessHandle.current().pid()));
            Thread.ofPlatform().daemon().name("daemon-" + daemonId + "-from-head").start(this::readHead);
            loop.run(event -> {
                List<DaemonAction> actions = core.handle(event);
                startRanks(actions);
                for (DaemonAction action : actions) {
                    if (!execute(action)) {
                        return false;
                    }
                }
                return true;
            });
        } finally {
            for (RankProcess r : ranks.values()) {
                r.signal(Signals.SIGKILL);
            }
            guard.close();
            spawners.shutdown();
            pmi.close();
            head.close();
        }
    }

    /**
     * Starts every rank of a batch before any other action of the batch runs, using both
     * spawner threads: process creation is most of the launch time.
     */
    private void startRanks(List<DaemonAction> actions) throws InterruptedException {
        List<Callable<Void>> work = new ArrayList<>();
        for (DaemonAction a : actions) {
            if (a instanceof DaemonAction.StartRank(RankLaunch launch)) {
                work.add(() -> {
                    startRank(launch);
                    return null;
                });
            }
        }
        if (work.size() > 1) {
            spawners.invokeAll(work);
        } else if (work.size() == 1) {
            startRank(((DaemonAction.StartRank) actions.stream()
                    .filter(DaemonAction.StartRank.class::isInstance).findFirst().orElseThrow()).launch());
        }
    }

    private void startRank(RankLaunch launch) {
        try {
            ranks.put(launch.rank(), RankProcess.start(launch, guard, this::sendToHead, loop::post));
        } catch (IOException e) {
            loop.post(new DaemonEvent.RankEnded(launch.rank(), 127, launch.executable() + ": " + e.getMessage()));
        }
    }

    private void readHead() {
        try {
            while (true) {
                loop.dispatch(new DaemonEvent.FromHead(head.receive()));
            }
        } catch (IOException e) {
            loop.post(new DaemonEvent.HeadLost(head.isClosed() ? "closed" : "connection to the head closed"));
        }
    }

    private boolean execute(DaemonAction action) {
        switch (action) {
            case DaemonAction.SendToHead(OverlayMessage m) -> sendToHead(m);
            case DaemonAction.StartRank s -> {
                // started by startRanks before the actions run
            }
            case DaemonAction.SignalRank(int rank, int signal) -> {
                RankProcess r = ranks.get(rank);
                if (r != null) {
                    r.signal(signal);
                }
            }
            case DaemonAction.PmiReply(int conn, String line) -> pmi.reply(conn, line);
            case DaemonAction.WriteStdin(int rank, byte[] data) -> {
                RankProcess r = ranks.get(rank);
                if (r != null) {
                    r.writeStdin(data);
                }
            }
            case DaemonAction.ArmTimer(var timer, long delay) -> loop.schedule(new DaemonEvent.TimerFired(timer), delay);
            case DaemonAction.Exit() -> {
                return false;
            }
        }
        return true;
    }

    private void sendToHead(OverlayMessage m) {
        try {
            head.send(m);
        } catch (IOException e) {
            // the reader notices the broken connection and posts HeadLost
        }
    }
}
