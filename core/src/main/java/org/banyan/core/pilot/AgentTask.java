package org.banyan.core.pilot;

/**
 * A task as {@link TaskAgent} holds it from submission to its final state: where it runs or is
 * queued, whether it was canceled, how often it was placed again.
 */
final class AgentTask {
    final int id;
    final long seq;
    final TaskRequest request;
    TaskState state = TaskState.AGENT_SCHEDULING;
    Placement placement;
    String failure;
    boolean canceled;
    /** How many times it was placed again because its node was lost. */
    int restarts;
    /** The task (running, or queued itself) this one is queued behind on its daemon, or null. */
    AgentTask after;
    /** The task queued behind this one, or null. */
    AgentTask next;
    /** Free cores held for this queued task while its withdrawal from its daemon is on the way. */
    Placement reserved;
    /** When it was queued behind another, counted by {@link TaskChains}: the order idle cores go to queued tasks. */
    long queuedAt;

    AgentTask(int id, long seq, TaskRequest request) {
        this.id = id;
        this.seq = seq;
        this.request = request;
    }
}
