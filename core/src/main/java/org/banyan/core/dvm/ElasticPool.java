package org.banyan.core.dvm;

/** What the DVM's scheduling side lends an elastic DVM's batch-system policy; called in the head's loop. */
interface ElasticPool {
    /** No job, task or reservation on host {@code i}. */
    boolean isFree(int i);

    /** Something waits in the DVM's own queue or task list. */
    boolean anyQueued();

    /** Nodes a job waiting in the batch system lacks, which running malleable jobs could give (0: none). */
    void outsideDemand(int nodes);

    /** Hosts the DVM's queue and malleable jobs could use beyond its free ones. */
    int wanted();

    /** Host {@code i}, free, takes nothing any more. */
    void retire(int i);

    /** Host {@code i} serves again. */
    void restore(int i);
}
