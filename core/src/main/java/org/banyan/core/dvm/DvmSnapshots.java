package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.wire.ClientMessage;

/** What the dashboard shows of a DVM, read from its core's parts ({@link DvmCore#snapshot}). */
final class DvmSnapshots {
    private final List<Node> nodes;
    private final DvmHosts hosts;
    private final GeneralScheduler scheduler;
    private final DvmJobs jobs;
    private final DvmQueue queue;
    private final DvmView view;

    DvmSnapshots(List<Node> nodes, DvmHosts hosts, GeneralScheduler scheduler, DvmJobs jobs, DvmQueue queue, DvmView view) {
        this.nodes = nodes;
        this.hosts = hosts;
        this.scheduler = scheduler;
        this.jobs = jobs;
        this.queue = queue;
        this.view = view;
    }

    /**
     * The state at {@code now}: hosts, jobs, queue and sizes, tasks with the rates of the last
     * {@code seconds} seconds, the last {@code decisions} lines of the log. Its cost is the hosts'
     * count plus bounded lists, whatever the number of tasks.
     */
    DvmSnapshot take(long now, int seconds, int decisions) {
        for (int queueId : view.sizedJobs()) {
            view.size(now, queueId, Math.max(0, queue.ranksOf(queueId)));
        }
        for (ClientMessage.QueuedStatus q : queue.status()) {
            view.size(now, q.queueId(), Math.max(0, queue.ranksOf(q.queueId())));
        }
        List<ClientMessage.JobStatus> running = jobs.status();
        for (ClientMessage.JobStatus j : running) {
            if (queue.ranksOf(j.jobId()) > 0) {
                view.size(now, j.jobId(), queue.ranksOf(j.jobId()));
            }
        }
        Map<Integer, List<String>> byHost = new HashMap<>();
        jobs.holders(byHost);
        queue.holders(byHost);
        List<List<String>> holders = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            holders.add(List.copyOf(byHost.getOrDefault(i, List.of())));
        }
        return new DvmSnapshot(now, hosts.status(scheduler::freeCoresOn, scheduler::gpusOn, scheduler::freeGpusOn), holders,
                running, queued(), view.tasks(now, seconds), view.sizes(), view.decisions(decisions), jobs.monitored());
    }

    private List<DvmSnapshot.Queued> queued() {
        List<ClientMessage.QueuedStatus> status = queue.status();
        List<String> reasons = queue.reasons();
        List<DvmSnapshot.Queued> out = new ArrayList<>(status.size());
        for (int i = 0; i < status.size(); i++) {
            out.add(new DvmSnapshot.Queued(status.get(i), i < reasons.size() ? reasons.get(i) : ""));
        }
        return out;
    }
}
