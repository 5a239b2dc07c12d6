package org.banyan.sim;

import java.util.ArrayDeque;

/**
 * Each vertex's remote-shell slots ({@link CostModel#spawnConcurrency()} at once): the daemons a
 * vertex was told to start wait for a slot, and each start takes the spawn's CPU and latency.
 */
final class SpawnSlots {
    /** A start finished: daemon {@code d}'s process runs, started by vertex {@code parentVertex}. */
    interface Started {
        void started(int parentVertex, int d);
    }

    private final VirtualClock clock;
    private final SimulatedNetwork net;
    private final SharedCpus shared;
    private final CostModel costs;
    private final Started started;
    private final ArrayDeque<Integer>[] waiting;
    private final int[] inFlight;
    /** When each daemon's parent began starting it. */
    private final long[] asked;

    @SuppressWarnings("unchecked")
    SpawnSlots(int vertices, int daemons, VirtualClock clock, SimulatedNetwork net, SharedCpus shared, CostModel costs,
               Started started) {
        this.clock = clock;
        this.net = net;
        this.shared = shared;
        this.costs = costs;
        this.started = started;
        this.waiting = new ArrayDeque[vertices];
        this.inFlight = new int[vertices];
        this.asked = new long[daemons];
    }

    /** Vertex {@code parentVertex} starts daemon {@code d}, in one of its spawn slots. */
    void spawn(int parentVertex, int d) {
        if (waiting[parentVertex] == null) {
            waiting[parentVertex] = new ArrayDeque<>();
        }
        waiting[parentVertex].add(d);
        pump(parentVertex);
    }

    /** When daemon {@code d}'s start was begun. */
    long askedAt(int d) {
        return asked[d];
    }

    private void pump(int v) {
        while (inFlight[v] < costs.spawnConcurrency() && !waiting[v].isEmpty()) {
            int d = waiting[v].poll();
            inFlight[v]++;
            asked[d] = clock.now();
            Runnable spawned = () -> clock.at(clock.now() + costs.spawnLatencyMicros(), () -> {
                inFlight[v]--;
                pump(v);
                started.started(v, d);
            });
            long cpu = costs.spawnCpuAt(v);
            if (shared == null) {
                // On a host's own CPUs a remote shell mostly waits: its CPU is a share of its time.
                long share = cpu / costs.spawnConcurrency();
                clock.at(net.cpu(v, clock.now(), share) + cpu - share, spawned);
            } else {
                shared.submit(cpu, spawned);
            }
        }
    }
}
