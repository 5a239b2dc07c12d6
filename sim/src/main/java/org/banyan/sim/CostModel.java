package org.banyan.sim;

/**
 * What things cost in simulated time, in microseconds.
 *
 * @param spawnMicros      a vertex starting one child (the remote shell's share at the spawner)
 * @param spawnConcurrency children one vertex starts at the same time
 * @param daemonStartMicros from the child's process start to its hello (JVM, connect)
 * @param latencyMicros    one message across the network
 * @param messageCpuMicros CPU a vertex spends per message it sends or receives
 * @param rankStartMicros  a daemon starting one local rank
 * @param rankRunMicros    how long a rank runs
 * @param sharedCpus       0: every host has CPUs of its own (a cluster); N: all hosts share N CPUs
 *                         (vcluster's network namespaces on one machine): remote-shell starts,
 *                         daemon start-ups and rank starts in progress share them equally
 *                         (processor sharing, as the kernel's scheduler does), while a message's
 *                         CPU stays on its vertex
 * @param bytesPerMicro    network bandwidth per host interface, bytes per microsecond (1250 is
 *                         10 Gb/s); 0 leaves size out
 * @param spawnLatencyMicros wall time of one remote-shell start that no modelled CPU pays: the
 *                         protocol's round trips and the remote side's waits (measured as what a
 *                         lone start takes beyond its CPU)
 * @param daemonSpawnExtraMicros CPU a daemon pays per child beyond what the head pays (a freshly
 *                         started JVM forking its first processes), which makes a tree on shared
 *                         CPUs cost more than the star
 * @param interleave       with shared CPUs, how many CPU-heavy steps share them at once (0: all
 *                         in progress, processor sharing; the CPU count: first come, first served)
 * @param dialMicros       CPU a daemon spends dialing one routing link that is not a spawn link
 *                         (a cold code path in a young JVM: connect, hello, a reader thread)
 */
public record CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                        long messageCpuMicros, long rankStartMicros, long rankRunMicros, int sharedCpus,
                        long bytesPerMicro, long spawnLatencyMicros, long daemonSpawnExtraMicros, int interleave, long dialMicros) {
    public CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                     long messageCpuMicros, long rankStartMicros, long rankRunMicros) {
        this(spawnMicros, spawnConcurrency, daemonStartMicros, latencyMicros, messageCpuMicros, rankStartMicros,
                rankRunMicros, 0, DEFAULT_BYTES_PER_MICRO, 0, 0, 0, 0);
    }

    public CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                     long messageCpuMicros, long rankStartMicros, long rankRunMicros, int sharedCpus) {
        this(spawnMicros, spawnConcurrency, daemonStartMicros, latencyMicros, messageCpuMicros, rankStartMicros,
                rankRunMicros, sharedCpus, DEFAULT_BYTES_PER_MICRO, 0, 0, 0, 0);
    }

    /** 10 Gb/s, a common cluster interconnect for the management network daemons use. */
    public static final long DEFAULT_BYTES_PER_MICRO = 1250;

    /**
     * Defaults from measurements on vcluster (docs/benchmarks.md): an ssh session 375 ms of which
     * ~110 ms CPU at the spawner, a daemon JVM ~90 ms, loopback-bridge latency ~50 us.
     */
    public static final CostModel SSH = new CostModel(110_000, 16, 355_000, 50, 20, 1_500, 1_000);

    /** The CPU of one spawn at vertex {@code v} (0 is the head). */
    long spawnCpuAt(int v) {
        return spawnMicros + (v == 0 ? 0 : daemonSpawnExtraMicros);
    }
}
