package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.Node;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;

/**
 * What the DVM's head does for the jobs of its queue ({@link ResourceQueue} decides): starts
 * them on the hosts it holds for them, answers their ranks' checks and joins, gives up
 * expansions that do not come in time, and ends them. Everything it asks of the head goes
 * through {@link Host}; what should happen next comes back as head events.
 */
final class DvmQueue {
    /** What the driver needs from the DVM's head. */
    interface Host {
        /** A DVM job of the queue now runs: the head follows it as any job (output, end). */
        void register(int jobId, Client owner, String command, int ranks, int queueId);

        /** Calls {@link #resizeTimedOut} after {@code millis}. */
        void armResizeTimeout(int queueId, int generation, long millis);

        /** The client of a running queued job, or null. */
        Client ownerOf(int queueId);

        /** A head event to handle after the current one. */
        void follow(HeadEvent e);

        void say(String line);

        /**
         * The secret of a resized job's world of {@code generation} (hex), which its ranks' direct
         * connections prove: the world holds ranks of several DVM jobs, whose job secrets differ.
         * Null for none (the simulator).
         */
        String worldSecret(int queueId, int generation);
    }

    private final List<Node> nodes;
    private final GeneralScheduler scheduler;
    private final HeadSettings settings;
    private final ResourceQueue queue;
    private final Host host;
    /** Queued jobs that asked for a warm pool ({@code dvm submit --warm}) and have not started, by queue id. */
    private final Map<Integer, WarmRequest> warmWanted = new LinkedHashMap<>();
    /** Running queued jobs that keep JVMs waiting, by queue id. */
    private final Map<Integer, WarmJob> warmJobs = new LinkedHashMap<>();

    private record WarmRequest(Client owner, ClientMessage.QueueJob job) {}

    /** A running job's warm pool: what waits, how many a host, and every host told to keep some. */
    private record WarmJob(org.banyan.core.daemon.WarmProgram program, int perHost, java.util.Set<Integer> hosts) {}

    DvmQueue(List<Node> nodes, GeneralScheduler scheduler, HeadSettings settings, ResourceQueue queue, Host host) {
        this.nodes = nodes; // live: an elastic DVM's slots may change hosts
        this.scheduler = scheduler;
        this.settings = settings;
        this.queue = queue;
        this.host = host;
    }

    /** {@code banyan dvm submit}: refused, or queued (and maybe started, with others). */
    void submit(Client s, ClientMessage.QueueJob q) {
        switch (queue.submit(s, q)) {
            case ResourceQueue.Outcome.Refused(String reason) -> s.send(new ClientMessage.JobRejected(reason));
            case ResourceQueue.Outcome.Queued(int id, int ahead, List<ResourceQueue.Launch> launches) -> {
                if (q.warm()) {
                    warmWanted.put(id, new WarmRequest(s, q));
                }
                s.send(new ClientMessage.JobQueued(id, ahead));
                host.say("queued job " + id + " of client " + s.id + ": " + q.minNodes() + ".." + q.maxNodes()
                        + " host(s) of " + q.run().apps().getFirst().executable() + (ahead < 0 ? "" : ", " + ahead + " ahead"));
                start(launches);
            }
        }
    }

    /** The client went away: its queued jobs leave the queue; others may start. */
    void withdraw(Client s) {
        start(queue.withdraw(s));
        warmWanted.values().removeIf(w -> w.owner() == s);
    }

    /**
     * Starts the jobs the resource manager let go: each on its hosts, which it holds whole (no
     * task or {@code run --dvm} job is placed there until it ends).
     */
    private void start(List<ResourceQueue.Launch> launches) {
        for (ResourceQueue.Launch l : launches) {
            List<Node> slots = new ArrayList<>();
            for (Node n : nodes) {
                slots.add(new Node(n.name(), 0));
            }
            for (int h : l.hosts()) {
                slots.set(h, new Node(nodes.get(h).name(), l.ranks() / l.hosts().size()));
                scheduler.hold(h);
            }
            int jobId = l.jobId();
            ClientMessage.RunJob run = l.run();
            JobDescription job = org.banyan.core.pmix.PmixNamespaces.name(new JobDescription(jobId, run.apps(), slots, run.mapping(), false,
                    run.stdinRank(), run.launchDir(), run.modex(), run.placement()), run.wireUp());
            String command = run.apps().getFirst().executable();
            host.register(jobId, l.owner(), command, l.ranks(), l.queueId());
            if (l.expansion()) {
                host.armResizeTimeout(l.queueId(), l.generation(), l.resizeTimeoutMillis());
            } else {
                l.owner().send(new ClientMessage.JobAccepted(jobId, l.ranks()));
            }
            host.say("job " + jobId + (l.expansion() ? " (expansion of job " + l.queueId() + ", its ranks " + l.rankOffset()
                    + " on)" : " (queued)") + " of client " + l.owner().id + ": " + l.ranks()
                    + " rank(s) of " + command + " on host(s) " + l.hosts().stream().map(h -> nodes.get(h).name()).toList());
            host.follow(new HeadEvent.Submit(job, settings.forJob(run.timeoutMillis()).queued("banyan dvm submit", l.rankOffset())));
            WarmRequest warm = l.expansion() ? null : warmWanted.remove(l.queueId());
            if (warm != null) {
                keepWarm(l, warm.job());
            }
        }
    }

    /**
     * A job started with {@code --warm} keeps its JVMs waiting on the hosts it could grow onto (as
     * many hosts as its maximum leaves room for, as many JVMs on each as it runs on a host), busy
     * with other work or not: a waiting JVM takes memory, no CPU. Its expansions there take them
     * instead of starting JVMs; the hosts a shrink leaves get theirs ({@link #rankEnded}), and those
     * an abandoned expansion gives back get theirs again ({@link #resizeTimedOut}). They
     * wait until the job ends.
     */
    private void keepWarm(ResourceQueue.Launch l, ClientMessage.QueueJob q) {
        org.banyan.core.job.AppContext app = q.run().apps().getFirst();
        if (!org.banyan.core.daemon.WarmProgram.isJava(app.executable())) {
            host.say("job " + l.queueId() + ": no warm pool: " + app.executable() + " does not start a JVM");
            return;
        }
        if (q.run().placement().binds()) { // a JVM's CPU mask is set at its start: no waiting JVM could serve
            host.say("job " + l.queueId() + ": no warm pool: its ranks are bound to CPUs");
            return;
        }
        WarmJob w = new WarmJob(new org.banyan.core.daemon.WarmProgram(l.queueId(), app.executable(), app.args(), app.env(),
                app.workdir() != null ? app.workdir() : q.run().launchDir()), l.ranks() / l.hosts().size(),
                new java.util.LinkedHashSet<>());
        warmJobs.put(l.queueId(), w);
        List<Integer> hosts = new ArrayList<>();
        for (int h = 0; h < nodes.size() && hosts.size() < q.maxNodes() - l.hosts().size(); h++) {
            if (!l.hosts().contains(h) && nodes.get(h).slots() > 0) {
                hosts.add(h);
            }
        }
        keepWarmOn(w, hosts);
    }

    /**
     * At most a host's slots wait there, whatever the job's ranks a host: an oversubscribed job
     * ({@code --ranks-per-node} past the slots) would otherwise park that many idle JVMs, about
     * 60 MB each, on every host it could grow onto. Its other ranks start as they come.
     */
    private void keepWarmOn(WarmJob w, List<Integer> hosts) {
        if (hosts.isEmpty()) {
            return;
        }
        java.util.Set<Integer> counts = new java.util.TreeSet<>();
        for (int h : hosts) {
            int count = Math.min(w.perHost(), nodes.get(h).slots());
            counts.add(count);
            host.follow(new HeadEvent.Route(new OverlayMessage.KeepWarm(-1, h, w.program().pool(), count, w.program())));
            w.hosts().add(h);
        }
        host.say("job " + w.program().pool() + ": " + counts.stream().map(String::valueOf).collect(
                java.util.stream.Collectors.joining(" or ")) + " JVM(s) kept waiting on host(s) "
                + hosts.stream().map(h -> nodes.get(h).name()).toList() + " for its expansions");
    }

    /** The job ended: its waiting JVMs end too. */
    private void dropWarm(int queueId) {
        WarmJob w = warmJobs.remove(queueId);
        if (w != null) {
            for (int h : w.hosts()) {
                host.follow(new HeadEvent.Route(new OverlayMessage.DropWarm(-1, h, queueId)));
            }
        }
    }

    /** Hosts the queue gave back return to the agent; queued jobs start on them. */
    private void freed(ResourceQueue.Freed f) {
        f.hosts().forEach(scheduler::unhold);
        start(f.launches());
    }

    /** A rank's DMR check or world join, answered through the routing overlay (a join once all have joined). */
    void resourceRequest(OverlayMessage.NameRequest r) {
        if (r.op() == OverlayMessage.NameRequest.RESIZE_CHECK) {
            ResourceQueue.Answer a = queue.check(r.jobId(), r.name());
            if (a.ok() && !a.text().startsWith("none")) {
                host.say("job " + queue.queueIdOf(r.jobId()) + ": " + a.text().replaceFirst(",(\\d+),(\\d+)$",
                        " to $1 rank(s), generation $2"));
            }
            reply(r, a.ok(), a.text());
            start(a.launches());
        } else {
            ResourceQueue.Joined j = queue.join(r.jobId(), r.name(), r.port(), r);
            if (j != null) {
                String secret = j.error() == null ? host.worldSecret(j.queueId(), j.generation()) : null;
                String answer = j.error() != null ? j.error()
                        : secret == null ? j.cards() : j.cards() + ResourceQueue.WORLD_SECRET + secret + "\f";
                // once per daemon and DVM job (a world spans its first job and its expansions), not per rank
                Map<List<Integer>, List<Integer>> requests = new LinkedHashMap<>();
                for (Object w : j.waiters()) {
                    OverlayMessage.NameRequest q = (OverlayMessage.NameRequest) w;
                    requests.computeIfAbsent(List.of(q.from(), q.jobId()), k -> new ArrayList<>()).add(q.request());
                }
                requests.forEach((to, ids) -> host.follow(new HeadEvent.Route(new OverlayMessage.NameReplies(to.get(1),
                        Topology.daemonOfVertex(0), to.get(0), ids, r.op(), j.error() == null, answer))));
            }
        }
    }

    /**
     * An expansion's new ranks did not all join in time: it is given up, they are ended, the
     * ranks waiting in the join are refused (they go on in their world), and the hosts go back.
     */
    void resizeTimedOut(int queueId, int generation) {
        ResourceQueue.Abandoned a = giveUp(queueId, generation, "its new ranks did not join in time; going on at %d rank(s)", true);
        WarmJob w = warmJobs.get(queueId);
        if (a != null && w != null) { // the JVMs its new ranks took are ended with them: the job may try again there
            keepWarmOn(w, a.freed().hosts());
        }
    }

    private ResourceQueue.Abandoned giveUp(int queueId, int generation, String why, boolean tellClient) {
        ResourceQueue.Abandoned a = queue.abandon(queueId, generation);
        if (a == null) {
            return null;
        }
        for (Object w : a.waiters()) {
            reply((OverlayMessage.NameRequest) w, false, "resize_abandoned");
        }
        freed(a.freed());
        String line = "job " + queueId + ": the expansion to generation " + generation + " was abandoned: "
                + why.formatted(a.ranks());
        host.say(line);
        Client owner = host.ownerOf(queueId);
        if (owner != null && tellClient) {
            owner.send(new ClientMessage.JobReport(queueId, "banyan dvm submit: " + line));
        }
        host.follow(new HeadEvent.CancelJob(a.dvmJob(), "the expansion it was started for was abandoned"));
        return a;
    }

    private void reply(OverlayMessage.NameRequest r, boolean ok, String text) {
        host.follow(new HeadEvent.Route(new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(),
                r.request(), r.op(), ok, text)));
    }

    /** A rank of a DVM job ended (a shrink's last leaving rank frees its hosts). */
    void rankEnded(int dvmJob, int rank) {
        ResourceQueue.Freed f = queue.rankEnded(dvmJob, rank);
        WarmJob w = warmJobs.get(queue.queueIdOf(dvmJob));
        if (w != null && !f.hosts().isEmpty()) { // a shrink: the hosts it left are where it grows back
            keepWarmOn(w, f.hosts());
        }
        freed(f);
    }

    /** The queued job a DVM job belongs to (-1: none), and the world rank of that DVM job's rank 0. */
    int queueIdOf(int dvmJob) {
        return queue.queueIdOf(dvmJob);
    }

    /** The ranks queued job {@code queueId} has now (after its resizes), or -1 when it is not running. */
    int ranksOf(int queueId) {
        return queue.ranksOf(queueId);
    }

    int rankOffsetOf(int dvmJob) {
        return queue.rankOffsetOf(dvmJob);
    }

    /**
     * A DVM job ended; false when it is not the queue's. A failure ends the job's other parts;
     * the last part's end is the queued job's, told to its client.
     */
    boolean ended(int dvmJob, Client owner, int status) {
        ResourceQueue.Ended e = queue.dvmJobEnded(dvmJob, status);
        if (e == null) {
            return false;
        }
        for (int other : e.cancel()) {
            host.follow(new HeadEvent.CancelJob(other, "job " + e.queueId() + " failed; ending the rest of its ranks"));
        }
        if (e.orphaned() >= 0) {
            // an asynchronous check's expansion granted as the program ended: nobody will join its new ranks
            giveUp(e.queueId(), e.orphaned(), "the job's program ended before it acted on it", false);
        }
        if (e.whole()) {
            dropWarm(e.queueId());
            freed(e.freed());
            owner.send(new ClientMessage.JobEnded(e.queueId(), e.status()));
            host.say("job " + e.queueId() + " ended with status " + e.status());
        }
        return true;
    }

    /** Adds, for each host a running queued job holds, who holds it. */
    void holders(Map<Integer, List<String>> byHost) {
        queue.holders(byHost);
    }

    /** Why each queued job waits, in {@link #status}'s order. */
    List<String> reasons() {
        return queue.reasons();
    }

    List<ClientMessage.QueuedStatus> status() {
        return queue.status();
    }

    boolean anyQueued() {
        return queue.anyQueued();
    }

    /** Nodes a job waiting in the batch system lacks, which the DVM could give (0: none). */
    void outsideDemand(int nodes) {
        queue.outsideDemand(nodes);
    }

    /** Whether no queued job holds host {@code i}. */
    boolean isFree(int i) {
        return queue.isFree(i);
    }

    /** Host {@code i}, free, leaves the queue's pool for good. */
    void retire(int i) {
        queue.retire(i);
    }

    /** Host {@code i} is back in the queue's pool; queued jobs may start on it. */
    void restore(int i) {
        start(queue.restore(i));
    }

    /** Hosts the queue and its malleable jobs could use beyond the free ones. */
    int wanted() {
        return queue.wanted();
    }
}
