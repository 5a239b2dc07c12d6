package org.banyan.runtime.dvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.Node;
import org.banyan.core.wire.ClientMessage;
import org.banyan.rm.HostPool;
import org.banyan.rm.JobRequest;
import org.banyan.rm.MalleableScheduler;

/**
 * The DVM's resource manager ({@code banyan dvm submit}): jobs queued for whole hosts, first come,
 * first served with EASY backfill ({@link MalleableScheduler}), and the hosts each running one
 * holds ({@link HostPool}). It decides and remembers; {@link DvmHead} starts what it says and
 * tells it when jobs end. Its clock is seconds since the DVM started.
 */
final class ResourceQueue {
    /** A queued job's start: its hosts (indexes into the DVM's hosts) and the job to run there. */
    record Launch(int queueId, DvmSession owner, List<Integer> hosts, ClientMessage.RunJob run, int ranks) {}

    private record Entry(DvmSession owner, ClientMessage.QueueJob job) {}

    private final List<Node> nodes;
    private final MalleableScheduler scheduler;
    private final HostPool pool;
    private final Map<Integer, Entry> entries = new LinkedHashMap<>();
    private final long startNanos = System.nanoTime();
    /** The DVM's job numbers: a queued job keeps its number when it starts. */
    private final java.util.function.IntSupplier ids;

    ResourceQueue(List<Node> nodes, java.util.function.IntSupplier ids) {
        this.nodes = List.copyOf(nodes);
        this.ids = ids;
        this.scheduler = new MalleableScheduler(nodes.size(), true);
        List<String> indexes = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            indexes.add(Integer.toString(i));
        }
        this.pool = new HostPool(indexes);
    }

    /** What {@link #submit} did: refused with a reason, or queued (and maybe started some jobs). */
    sealed interface Outcome {
        record Refused(String reason) implements Outcome {}

        /** {@code ahead}: jobs before it in the queue, or -1 when it started at once. */
        record Queued(int queueId, int ahead, List<Launch> launches) implements Outcome {}
    }

    Outcome submit(DvmSession owner, ClientMessage.QueueJob q) {
        String problem = problem(q);
        if (problem != null) {
            return new Outcome.Refused(problem);
        }
        JobRequest request;
        try {
            request = new JobRequest(0, q.minNodes(), q.maxNodes(), q.preferredNodes(), q.factor(),
                    Math.max(1, q.walltimeMillis()) / 1000.0);
        } catch (IllegalArgumentException e) {
            return new Outcome.Refused(e.getMessage().replaceFirst("^job \\d+: ", ""));
        }
        int id = ids.getAsInt();
        request = new JobRequest(id, request.minNodes(), request.maxNodes(), request.preferredNodes(), request.factor(),
                request.walltimeSeconds());
        entries.put(id, new Entry(owner, q));
        List<Launch> launches = launches(scheduler.submit(request, now()));
        return new Outcome.Queued(id, scheduler.queuedIds().indexOf(id), launches);
    }

    private String problem(ClientMessage.QueueJob q) {
        if (q.maxNodes() > nodes.size()) {
            return "the job asks for " + q.maxNodes() + " host" + (q.maxNodes() == 1 ? "" : "s") + "; the DVM has "
                    + nodes.size();
        }
        if (q.run().apps().size() != 1) {
            return "a queued job runs one program (no ':' contexts)";
        }
        if (q.ranksPerNode() < 1) {
            return "--ranks-per-node must be at least 1";
        }
        for (Node n : nodes) {
            if (q.ranksPerNode() > n.slots()) {
                return "--ranks-per-node " + q.ranksPerNode() + " is more than the " + n.slots() + " slot"
                        + (n.slots() == 1 ? "" : "s") + " of host " + n.name();
            }
        }
        return null;
    }

    /** A queued job's run ended: its hosts return, and queued jobs may start. */
    List<Launch> ended(int queueId) {
        entries.remove(queueId);
        pool.end(queueId);
        return launches(scheduler.ended(queueId, now()));
    }

    /** The client went away: its queued jobs leave the queue (its running ones are ended by the head). */
    List<Launch> withdraw(DvmSession owner) {
        List<Launch> out = new ArrayList<>();
        for (Integer id : List.copyOf(entries.keySet())) {
            if (entries.get(id).owner() == owner && !scheduler.isRunning(id)) {
                entries.remove(id);
                out.addAll(launches(scheduler.withdraw(id, now())));
            }
        }
        return out;
    }

    List<ClientMessage.QueuedStatus> status() {
        List<ClientMessage.QueuedStatus> out = new ArrayList<>();
        for (int id : scheduler.queuedIds()) {
            ClientMessage.QueueJob q = entries.get(id).job();
            out.add(new ClientMessage.QueuedStatus(id, q.minNodes(), q.maxNodes(), q.run().apps().getFirst().executable()));
        }
        return out;
    }

    private List<Launch> launches(List<MalleableScheduler.Start> starts) {
        List<Launch> out = new ArrayList<>();
        for (MalleableScheduler.Start s : starts) {
            Entry e = entries.get(s.jobId());
            List<Integer> hosts = pool.start(s.jobId(), s.nodes()).stream().map(Integer::parseInt).toList();
            int ranks = s.nodes() * e.job().ranksPerNode();
            AppContext app = e.job().run().apps().getFirst();
            ClientMessage.RunJob run = e.job().run();
            ClientMessage.RunJob sized = new ClientMessage.RunJob(
                    List.of(new AppContext(app.executable(), app.args(), ranks, app.env(), app.workdir())), run.mapping(),
                    false, run.stdinRank(), run.launchDir(), run.modex(), run.timeoutMillis(), run.placement());
            out.add(new Launch(s.jobId(), e.owner(), hosts, sized, ranks));
        }
        return out;
    }

    private double now() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
