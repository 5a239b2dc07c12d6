package org.banyan.sim;

import org.banyan.core.wire.OverlayMessage;

/**
 * The simulated ranks' side of a {@link ModexWorkload} and what it measures: each rank speaks
 * PMI-1 to its daemon's real PMI server — put its key, fence, get its neighbours' (or everyone's)
 * keys, fence again as MPI_Finalize does, end — one line per reply; and the fence and key-fetch
 * bytes at every vertex. {@link LaunchSimulation} carries the lines, with their costs, and asks
 * it what to do next.
 */
final class SimulatedModex {
    /** What a rank's next step needs from the simulation. */
    interface Ranks {
        /** Rank {@code rank} writes {@code line} to its daemon. */
        void send(int rank, String line);

        /** Rank {@code rank} is done: it ends after its run time. */
        void end(int rank);
    }

    private final ModexWorkload workload;
    private final String kvs;
    private final String value;
    private final long[] bytes;
    private final int[] pendingGets;
    private final boolean[] fenced;
    private long lastBarrierIn = -1;
    private long lastBarrierOut = -1;
    private long lastGetDone = -1;
    private long getsDone;
    private long getsFailed;

    SimulatedModex(ModexWorkload workload, String kvs, int hosts, int ranks) {
        this.workload = workload;
        this.kvs = kvs;
        this.value = "v".repeat(workload.valueBytes());
        this.bytes = new long[hosts + 1];
        this.pendingGets = new int[ranks];
        this.fenced = new boolean[ranks];
    }

    /** A rank's first line once it runs: its PMI connection is numbered by its rank. */
    static String firstLine(int rank) {
        return "cmd=initack pmiid=" + rank;
    }

    /** Rank {@code rank} read {@code line} from its daemon at virtual time {@code now}: its next step. */
    void reply(int rank, String line, long now, Ranks ranks) {
        if (line.startsWith("cmd=set debug")) {
            ranks.send(rank, "cmd=put kvsname=" + kvs + " key=k" + rank + " value=" + value);
        } else if (line.startsWith("cmd=put_result")) {
            lastBarrierIn = Math.max(lastBarrierIn, now);
            ranks.send(rank, "cmd=barrier_in");
        } else if (line.startsWith("cmd=barrier_out") && !fenced[rank]) {
            fenced[rank] = true;
            lastBarrierOut = Math.max(lastBarrierOut, now);
            int n = fenced.length;
            int[] targets = workload.gets() == ModexWorkload.Gets.ALL ? java.util.stream.IntStream.range(0, n).toArray()
                    : n == 1 ? new int[] {rank} : n == 2 ? new int[] {(rank + 1) % n}
                    : new int[] {(rank + n - 1) % n, (rank + 1) % n};
            pendingGets[rank] = targets.length;
            for (int t : targets) {
                ranks.send(rank, "cmd=get kvsname=" + kvs + " key=k" + t);
            }
        } else if (line.startsWith("cmd=get_result")) {
            getsDone++;
            if (!line.contains("rc=0") || !line.endsWith("value=" + value + "\n")) {
                getsFailed++;
            }
            if (--pendingGets[rank] == 0) {
                lastGetDone = Math.max(lastGetDone, now);
                // As MPI_Finalize does: a last fence, so no rank leaves while others still read.
                ranks.send(rank, "cmd=barrier_in");
            }
        } else if (line.startsWith("cmd=barrier_out") && fenced[rank]) {
            ranks.send(rank, "cmd=finalize"); // as MPI_Finalize ends: a rank that leaves without it fails its job
        } else if (line.startsWith("cmd=finalize_ack")) {
            ranks.end(rank);
        }
    }

    /** Whether {@code m} counts: fence and key-fetch traffic. */
    static boolean counts(OverlayMessage m) {
        return m instanceof OverlayMessage.FenceEnter || m instanceof OverlayMessage.FenceRelease
                || m instanceof OverlayMessage.Routed;
    }

    /** {@code size} bytes went from vertex {@code from} to {@code to}: counted at both ends. */
    void count(int from, int to, int size) {
        bytes[from] += size;
        bytes[to] += size;
    }

    ModexResult result() {
        int hosts = bytes.length - 1;
        long max = 0;
        long sum = 0;
        for (int v = 1; v <= hosts; v++) {
            max = Math.max(max, bytes[v]);
            sum += bytes[v];
        }
        return new ModexResult(lastBarrierOut < 0 ? -1 : lastBarrierOut - lastBarrierIn,
                lastGetDone < 0 ? -1 : lastGetDone - lastBarrierIn, getsDone, getsFailed, max, (double) sum / hosts, bytes[0]);
    }
}
