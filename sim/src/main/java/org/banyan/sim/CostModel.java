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
 *                         (vcluster's network namespaces on one machine), and spawns, daemon
 *                         start-up and messages all queue for them
 * @param bytesPerMicro    network bandwidth per host interface, bytes per microsecond (1250 is
 *                         10 Gb/s); 0 leaves size out
 */
public record CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                        long messageCpuMicros, long rankStartMicros, long rankRunMicros, int sharedCpus,
                        long bytesPerMicro) {
    public CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                     long messageCpuMicros, long rankStartMicros, long rankRunMicros) {
        this(spawnMicros, spawnConcurrency, daemonStartMicros, latencyMicros, messageCpuMicros, rankStartMicros,
                rankRunMicros, 0, DEFAULT_BYTES_PER_MICRO);
    }

    public CostModel(long spawnMicros, int spawnConcurrency, long daemonStartMicros, long latencyMicros,
                     long messageCpuMicros, long rankStartMicros, long rankRunMicros, int sharedCpus) {
        this(spawnMicros, spawnConcurrency, daemonStartMicros, latencyMicros, messageCpuMicros, rankStartMicros,
                rankRunMicros, sharedCpus, DEFAULT_BYTES_PER_MICRO);
    }

    /** 10 Gb/s, a common cluster interconnect for the management network daemons use. */
    public static final long DEFAULT_BYTES_PER_MICRO = 1250;

    /**
     * Defaults from measurements on vcluster (docs/benchmarks.md): an ssh session 375 ms of which
     * ~110 ms CPU at the spawner, a daemon JVM ~90 ms, loopback-bridge latency ~50 us.
     */
    public static final CostModel SSH = new CostModel(110_000, 16, 355_000, 50, 20, 1_500, 1_000);
}
