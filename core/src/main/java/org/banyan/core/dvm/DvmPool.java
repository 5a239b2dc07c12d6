package org.banyan.core.dvm;

import java.util.List;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;

/** What the DVM's jobs, tasks and queue are to an elastic DVM's batch-system policy. */
final class DvmPool implements ElasticPool {
    private final List<Node> nodes;
    private final GeneralScheduler scheduler;
    private final DvmQueue queue;
    private final TaskDispatch tasks;

    DvmPool(List<Node> nodes, GeneralScheduler scheduler, DvmQueue queue, TaskDispatch tasks) {
        this.nodes = nodes;
        this.scheduler = scheduler;
        this.queue = queue;
        this.tasks = tasks;
    }

    @Override
    public boolean isFree(int i) {
        return scheduler.freeCoresOn(i) == nodes.get(i).slots() && queue.isFree(i);
    }

    @Override
    public boolean anyQueued() {
        return queue.anyQueued() || tasks.anyWaiting();
    }

    @Override
    public void outsideDemand(int n) {
        queue.outsideDemand(n);
    }

    @Override
    public int wanted() {
        return tasks.anyWaiting() ? nodes.size() : queue.wanted();
    }

    @Override
    public void retire(int i) {
        scheduler.nodeLost(i);
        queue.retire(i);
    }

    @Override
    public void restore(int i) {
        scheduler.nodeRestored(i);
        queue.restore(i);
    }
}
