package org.banyan.sim;

/** A fault the simulator injects. */
public sealed interface Fault {
    /** Daemon {@code daemonId} dies at virtual time {@code atMicros} (its ranks die with it). */
    record Crash(int daemonId, long atMicros) implements Fault {}

    /** Starting daemon {@code daemonId} fails (host down, sshd refusing). */
    record SpawnFailure(int daemonId) implements Fault {}

    /** Daemon {@code daemonId} is {@code factor} times slower to start. */
    record SlowHost(int daemonId, int factor) implements Fault {}
}
