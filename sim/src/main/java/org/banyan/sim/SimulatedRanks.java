package org.banyan.sim;

import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.Signals;
import org.banyan.core.tree.Topology;

/**
 * The ranks of a {@link LaunchSimulation}: each starts on its daemon's host (CPU work), then
 * either ends after the model's run time or runs a {@link ModexWorkload} over its daemon's real
 * PMI-1 server, one line at a time; signals end it, and a crashed daemon's rank guard kills its
 * ranks without a report.
 */
final class SimulatedRanks {
    /** What the ranks need of the simulation. */
    interface Host {
        long now();

        void at(long time, Runnable action);

        /** A CPU-heavy step of vertex {@code v} (a rank starting); {@code then} when done. */
        void work(int v, long micros, Runnable then);

        /** Vertex {@code v}'s own CPU for {@code micros} from now; when done. */
        long cpu(int v, long micros);

        void toDaemon(int d, DaemonEvent e);
    }

    private final Host host;
    private final CostModel costs;
    private final int jobId;
    private final boolean[] alive;
    private final int[] daemonOf;
    /** The ranks' modex workload, or null when they end at once. */
    private SimulatedModex modex;

    SimulatedRanks(Host host, CostModel costs, int jobId, int ranks) {
        this.host = host;
        this.costs = costs;
        this.jobId = jobId;
        this.alive = new boolean[ranks];
        this.daemonOf = new int[ranks];
    }

    void runModex(SimulatedModex workload) {
        this.modex = workload;
    }

    int count() {
        return alive.length;
    }

    void placed(int rank, int daemon) {
        daemonOf[rank] = daemon;
    }

    boolean isAlive(int rank) {
        return alive[rank];
    }

    int leftRunning() {
        int n = 0;
        for (boolean a : alive) {
            n += a ? 1 : 0;
        }
        return n;
    }

    void start(int d, int rank) {
        alive[rank] = true;
        host.work(Topology.vertexOfDaemon(d), costs.rankStartMicros(), () -> {
            if (modex != null) {
                pmi(d, rank, SimulatedModex.firstLine(rank));
            } else {
                endLater(d, rank);
            }
        });
    }

    /** A rank writes one PMI-1 line to its daemon (same host: CPU, no network). */
    private void pmi(int d, int rank, String line) {
        if (!alive[rank]) {
            return;
        }
        long arrives = host.cpu(Topology.vertexOfDaemon(d), costs.messageCpuMicros());
        host.at(arrives, () -> host.toDaemon(d, new DaemonEvent.PmiLine(jobId, rank, line)));
    }

    /** A reply of the daemon's PMI server: the rank's {@link ModexWorkload} moves on. */
    void reads(int d, int rank, String line) {
        if (!alive[rank]) {
            return;
        }
        modex.reply(rank, line, host.now(), new SimulatedModex.Ranks() {
            @Override
            public void send(int r, String l) {
                pmi(d, r, l);
            }

            @Override
            public void end(int r) {
                endLater(d, r);
            }
        });
    }

    private void endLater(int d, int rank) {
        host.at(host.now() + costs.rankRunMicros(), () -> {
            if (alive[rank]) {
                alive[rank] = false;
                host.toDaemon(d, new DaemonEvent.RankEnded(jobId, rank, 0, ""));
            }
        });
    }

    void signal(int d, int rank, int signal) {
        if (alive[rank] && (signal == Signals.SIGTERM || signal == Signals.SIGKILL || signal == Signals.SIGINT
                || signal == Signals.SIGHUP)) {
            alive[rank] = false;
            host.at(host.now() + 100, () -> host.toDaemon(d, new DaemonEvent.RankEnded(jobId, rank, 128 + signal, "")));
        }
    }

    /** Daemon {@code d} crashed: its rank guard kills its ranks; nothing reports it. */
    void daemonCrashed(int d) {
        for (int r = 0; r < alive.length; r++) {
            if (alive[r] && daemonOf[r] == d) {
                alive[r] = false;
            }
        }
    }
}
