package org.banyan.sim;

/** A fault the simulator injects. */
public sealed interface Fault {
    /** Daemon {@code daemonId} dies at virtual time {@code atMicros} (its ranks die with it). */
    record Crash(int daemonId, long atMicros) implements Fault {}

    /** Starting daemon {@code daemonId} fails (host down, sshd refusing). */
    record SpawnFailure(int daemonId) implements Fault {}

    /** Daemon {@code daemonId} is {@code factor} times slower to start. */
    record SlowHost(int daemonId, int factor) implements Fault {}

    /**
     * The link between daemon {@code daemonId} and its parent breaks at {@code atMicros} (a
     * message lost for good, in TCP terms): both ends see it close; the daemon lives on.
     */
    record LinkBreak(int daemonId, long atMicros) implements Fault {}

    /**
     * Daemon {@code daemonId}'s host goes silent at {@code atMicros} (its link cut, the host
     * frozen): nothing reaches it or comes from it any more, and nothing closes. Only the
     * overlay's failure detector notices, a heartbeat timeout later, at both ends of each link.
     */
    record Silent(int daemonId, long atMicros) implements Fault {}

    /** Every message to or from daemon {@code daemonId} takes {@code extraMicros} longer. */
    record SlowLink(int daemonId, long extraMicros) implements Fault {}
}
