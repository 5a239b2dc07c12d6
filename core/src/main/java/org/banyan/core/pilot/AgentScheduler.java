package org.banyan.core.pilot;

/**
 * The agent's scheduler: places a task's ranks on the pilot's nodes, or says it does not fit
 * now. Sans-I/O and single-threaded: the agent and the simulator call it alike.
 */
public interface AgentScheduler {
    /** A placement holding the request's resources, or null when they are not free now. */
    Placement place(SlotRequest request);

    /** Gives back what {@link #place} took. */
    void release(Placement placement);

    /** Null when the request can run on this pilot once enough is free; otherwise why it never will. */
    String neverFits(SlotRequest request);

    int freeCores();

    /** Free cores on one node. */
    int freeCoresOn(int node);

    int totalCores();

    /** The GPUs of one node (0 for a scheduler that does not place GPUs). */
    default int gpusOn(int node) {
        return 0;
    }

    /** The node is gone: nothing is placed there again (what runs there is released by the caller). */
    void nodeLost(int node);

    /**
     * The node is lost for good (its daemon died): as {@link #nodeLost}, and {@link #neverFits}
     * judges by the nodes left where the scheduler can.
     */
    default void nodeGone(int node) {
        nodeLost(node);
    }
}
