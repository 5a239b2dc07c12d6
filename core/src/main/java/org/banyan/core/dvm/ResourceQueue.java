package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.Node;
import org.banyan.core.wire.ClientMessage;
import org.banyan.rm.HostPool;
import org.banyan.rm.JobRequest;
import org.banyan.rm.MalleableScheduler;

/**
 * The DVM's resource manager ({@code banyan dvm submit}): jobs queued for whole hosts, first come,
 * first served with EASY backfill ({@link MalleableScheduler}), the hosts each running one holds
 * ({@link HostPool}), and the resizes of malleable ones. It decides and remembers; {@link DvmCore}
 * starts what it says, answers the ranks, and tells it what happened. Its clock is seconds since
 * the DVM started.
 *
 * <p>A queued job runs as one or more DVM jobs (PMI jobs): the first at its start, one more per
 * expansion, holding the new ranks. Its ranks keep their world rank for life: an expansion adds
 * ranks after the last, a shrink removes the last, so world rank = the DVM job's offset + its
 * rank there. Hosts hold blocks of {@code ranksPerNode} consecutive world ranks.
 */
final class ResourceQueue {
    /** Start a DVM job: a queued job's first, or an expansion's new ranks. */
    record Launch(int jobId, int queueId, Client owner, List<Integer> hosts, ClientMessage.RunJob run, int ranks,
                  int rankOffset, boolean expansion, int generation, long resizeTimeoutMillis) {}

    /** An expansion given up: the joins to refuse, its DVM job to end, what it freed, the size the job is back at. */
    record Abandoned(List<Object> waiters, int dvmJob, Freed freed, int ranks) {}

    /** An expansion under way: its generation, the DVM job of its new ranks, their hosts, and the size before. */
    private record Expansion(int generation, int dvmJob, List<Integer> hosts, int previousHosts) {}

    /** What the head does for a rank's request: answer it (ok or not), and maybe start an expansion. */
    record Answer(boolean ok, String text, List<Launch> launches) {}

    /** Hosts the queue no longer uses, and the jobs that may start on them. */
    record Freed(List<Integer> hosts, List<Launch> launches) {}

    /**
     * A DVM job of a queued job ended: DVM jobs of it to cancel, and, when it was the last, its end.
     * {@code orphaned}: the generation of an expansion whose new ranks are all that is left of the
     * job (its program ended with a granted expansion not acted on), to give up now; else -1.
     */
    record Ended(List<Integer> cancel, boolean whole, int queueId, int status, Freed freed, int orphaned) {}

    private record Entry(Client owner, ClientMessage.QueueJob job) {}

    /** One generation's join: the cards of its ranks as they arrive, and who waits for the answer. */
    private static final class Join {
        final String[] cards;
        final List<Object> waiters = new ArrayList<>();
        int joined;

        Join(int size) {
            cards = new String[size];
        }
    }

    /** A started queued job. */
    private static final class Running {
        final int id;
        final Entry entry;
        /** DVM job id to the world rank of its rank 0. */
        final Map<Integer, Integer> dvmJobs = new LinkedHashMap<>();
        /** Host (DVM index) of each block of ranksPerNode world ranks. */
        final List<Integer> hostOfBlock = new ArrayList<>();
        final Map<String, Join> joins = new HashMap<>();
        final Set<Integer> leaving = new HashSet<>();
        final List<Integer> releasing = new ArrayList<>();
        /** DVM jobs of abandoned expansions: their end is no failure of the job. */
        final Set<Integer> abandoned = new HashSet<>();
        Expansion expanding;
        int generation;
        int status;

        Running(int id, Entry entry) {
            this.id = id;
            this.entry = entry;
        }

        int rpn() {
            return entry.job().ranksPerNode();
        }

        int ranks() {
            return hostOfBlock.size() * rpn();
        }
    }

    private final List<Node> nodes;
    private final MalleableScheduler scheduler;
    private final HostPool pool;
    private final Map<Integer, Entry> entries = new LinkedHashMap<>();
    private final Map<Integer, Running> running = new HashMap<>();
    /** Every DVM job of a running queued job, to its queued job. */
    private final Map<Integer, Running> byDvmJob = new HashMap<>();
    private final DvmClock clock;
    private final long startNanos;
    /** The DVM's job numbers: a queued job keeps its number when it starts. */
    private final java.util.function.IntSupplier ids;

    ResourceQueue(List<Node> nodes, java.util.function.IntSupplier ids) {
        this(nodes, ids, DvmClock.SYSTEM);
    }

    ResourceQueue(List<Node> nodes, java.util.function.IntSupplier ids, DvmClock clock) {
        this.nodes = nodes; // live: an elastic DVM's slots may change hosts
        this.clock = clock;
        this.startNanos = clock.nanos();
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

    Outcome submit(Client owner, ClientMessage.QueueJob q) {
        String problem = problem(q);
        if (problem != null) {
            return new Outcome.Refused(problem);
        }
        try {
            new JobRequest(0, q.minNodes(), q.maxNodes(), q.preferredNodes(), q.factor(), seconds(q));
        } catch (IllegalArgumentException e) {
            return new Outcome.Refused(e.getMessage().replaceFirst("^job \\d+: ", ""));
        }
        int id = ids.getAsInt();
        entries.put(id, new Entry(owner, q));
        List<Launch> launches = launches(scheduler.submit(new JobRequest(id, q.minNodes(), q.maxNodes(), q.preferredNodes(),
                q.factor(), seconds(q)), now()));
        return new Outcome.Queued(id, scheduler.queuedIds().indexOf(id), launches);
    }

    private static double seconds(ClientMessage.QueueJob q) {
        return Math.max(1, q.walltimeMillis()) / 1000.0;
    }

    private String problem(ClientMessage.QueueJob q) {
        if (q.maxNodes() > scheduler.capacity()) {
            return "the job asks for " + q.maxNodes() + " host" + (q.maxNodes() == 1 ? "" : "s") + "; the DVM has "
                    + scheduler.capacity();
        }
        if (q.run().apps().size() != 1) {
            return "a queued job runs one program (no ':' contexts)";
        }
        if (q.ranksPerNode() < 1) {
            return "--ranks-per-node must be at least 1";
        }
        for (Node n : nodes) {
            if (q.ranksPerNode() > n.slots() && !q.run().oversubscribe()) { // a queued job has its hosts to itself
                return "--ranks-per-node " + q.ranksPerNode() + " is more than the " + n.slots() + " slot"
                        + (n.slots() == 1 ? "" : "s") + " of host " + n.name() + " (add --oversubscribe to run more ranks than slots)";
            }
        }
        return null;
    }

    /** The queued job a DVM job belongs to, or -1; and the world rank of its rank 0. */
    int queueIdOf(int dvmJob) {
        Running r = byDvmJob.get(dvmJob);
        return r == null ? -1 : r.id;
    }

    int ranksOf(int queueId) {
        Running r = running.get(queueId);
        return r == null ? -1 : r.ranks();
    }

    int rankOffsetOf(int dvmJob) {
        Running r = byDvmJob.get(dvmJob);
        return r == null ? 0 : r.dvmJobs.get(dvmJob);
    }

    // --- resizes -------------------------------------------------------------------------

    /**
     * A DMR check from the job's rank 0: {@code limits} is "min,max,factor,preferred" in hosts.
     * While a resize is under way (ranks still joining or leaving) the answer is none.
     */
    Answer check(int dvmJob, String limits) {
        Running r = byDvmJob.get(dvmJob);
        if (r == null) {
            return new Answer(false, "not in a queue", List.of());
        }
        int[] l;
        JobRequest request;
        try {
            l = ints(limits, 4);
            request = new JobRequest(r.id, l[0], l[1], l[3], l[2], seconds(r.entry.job()));
        } catch (IllegalArgumentException e) {
            return new Answer(false, e.getMessage().replaceFirst("^job \\d+: ", ""), List.of()); // PMI-2 carries spaces
        }
        if (request.maxNodes() > nodes.size()) {
            return new Answer(false, "max " + request.maxNodes() + " exceeds the " + nodes.size() + " hosts", List.of());
        }
        if (!r.leaving.isEmpty() || r.expanding != null || r.joins.values().stream().anyMatch(j -> j.joined < j.cards.length)) {
            return new Answer(true, "none," + r.ranks() + "," + r.generation, List.of());
        }
        MalleableScheduler.Decision d = scheduler.check(r.id, request, now());
        int from = r.hostOfBlock.size();
        switch (d.kind()) {
            case NONE -> {
                return new Answer(true, "none," + r.ranks() + "," + r.generation, List.of());
            }
            case EXPAND -> {
                List<Integer> added = pool.expand(r.id, d.newSize() - from).stream().map(Integer::parseInt).sorted().toList();
                r.generation++;
                int offset = r.ranks();
                r.hostOfBlock.addAll(added);
                Launch l2 = launch(r, ids.getAsInt(), added, offset, true);
                r.expanding = new Expansion(r.generation, l2.jobId(), added, from);
                return new Answer(true, "expand," + r.ranks() + "," + r.generation, List.of(l2));
            }
            case SHRINK -> {
                r.generation++;
                int keep = d.newSize();
                for (int w = keep * r.rpn(); w < from * r.rpn(); w++) {
                    r.leaving.add(w);
                }
                List<Integer> tail = r.hostOfBlock.subList(keep, from);
                r.releasing.addAll(tail);
                tail.clear();
                return new Answer(true, "shrink," + r.ranks() + "," + r.generation, List.of());
            }
        }
        throw new AssertionError(d);
    }

    /**
     * A rank joins its generation's world ({@code what}: "generation,seq,rank,size"): null while
     * others have not, then the waiters to answer and all the cards.
     */
    /**
     * The element after the cards in a join's answer that gives the world its secret
     * (PmiServer's banyan-join; the client library reads it as {@code Banyan.WORLD_SECRET}).
     */
    static final String WORLD_SECRET = "world-secret=";

    record Joined(List<Object> waiters, String cards, String error, int queueId, int generation) {
        Joined(List<Object> waiters, String error) {
            this(waiters, null, error, 0, 0);
        }
    }

    Joined join(int dvmJob, String what, String card, Object waiter) {
        Running r = byDvmJob.get(dvmJob);
        if (r == null) {
            return new Joined(List.of(waiter), "not in a queue");
        }
        int[] w;
        try {
            w = ints(what, 4);
        } catch (IllegalArgumentException e) {
            return new Joined(List.of(waiter), "bad_join");
        }
        int generation = w[0];
        int rank = w[2];
        int size = w[3];
        if (generation != r.generation || size != r.ranks() || rank < 0 || rank >= size) {
            return new Joined(List.of(waiter), "generation_" + generation + "_size_" + size
                    + "_is_not_the_job's_" + r.generation + "_size_" + r.ranks());
        }
        Join j = r.joins.computeIfAbsent(generation + "." + w[1], k -> new Join(size));
        if (j.cards[rank] == null) {
            j.joined++;
        }
        j.cards[rank] = card;
        j.waiters.add(waiter);
        if (j.joined < size) {
            return null;
        }
        r.joins.remove(generation + "." + w[1]);
        if (r.expanding != null && r.expanding.generation() == generation) {
            r.expanding = null; // every rank, new ones included, came: it can no longer be abandoned
        }
        StringBuilder all = new StringBuilder();
        for (String c : j.cards) {
            all.append(c).append('\f');
        }
        // Daemons page a long answer to their ranks (PmiServer's banyan-join-page); the limit is
        // the overlay frame that carries it to each daemon.
        String cards = all.toString();
        if (cards.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > org.banyan.core.wire.OverlayCodec.MAX_FRAME - 4096) {
            return new Joined(j.waiters, "the world's cards exceed one overlay frame (" + size + " ranks)");
        }
        return new Joined(j.waiters, cards, null, r.id, generation);
    }

    /**
     * An expansion's time to join is up ({@code generation}'s): when its new ranks have not all
     * joined, it is given up and the job goes on at its size before; null when it completed.
     */
    Abandoned abandon(int queueId, int generation) {
        Running r = running.get(queueId);
        if (r == null || r.expanding == null || r.expanding.generation() != generation) {
            return null;
        }
        Expansion e = r.expanding;
        r.expanding = null;
        r.generation = generation - 1;
        r.hostOfBlock.subList(e.previousHosts(), r.hostOfBlock.size()).clear();
        r.abandoned.add(e.dvmJob());
        List<Object> waiters = new ArrayList<>();
        r.joins.entrySet().removeIf(j -> {
            if (j.getKey().startsWith(generation + ".")) {
                waiters.addAll(j.getValue().waiters);
                return true;
            }
            return false;
        });
        pool.giveBack(r.id, e.hosts().stream().map(i -> Integer.toString(i)).toList());
        List<Launch> launches = launches(scheduler.abandoned(r.id, e.previousHosts(), now()));
        return new Abandoned(waiters, e.dvmJob(), new Freed(e.hosts(), launches), r.ranks());
    }

    /** A rank of a DVM job ended: the last of a shrink's leaving ranks gives their hosts back. */
    Freed rankEnded(int dvmJob, int rank) {
        Running r = byDvmJob.get(dvmJob);
        if (r == null || !r.leaving.remove(r.dvmJobs.get(dvmJob) + rank) || !r.leaving.isEmpty()) {
            return new Freed(List.of(), List.of());
        }
        List<Integer> hosts = List.copyOf(r.releasing);
        r.releasing.clear();
        pool.giveBack(r.id, hosts.stream().map(i -> Integer.toString(i)).toList());
        return new Freed(hosts, launches(scheduler.shrunk(r.id, now())));
    }

    /**
     * A DVM job of a queued job ended. A failure ends the others (a rank that dies, during a
     * resize or not, ends the job); the last one's end is the queued job's, with the first
     * failure's status.
     */
    Ended dvmJobEnded(int dvmJob, int status) {
        Running r = byDvmJob.remove(dvmJob);
        if (r == null) {
            return null;
        }
        r.dvmJobs.remove(dvmJob);
        List<Integer> cancel = List.of();
        if (r.abandoned.remove(dvmJob)) {
            status = 0; // ended by the head when its expansion was given up
        }
        if (status != 0 && r.status == 0) {
            r.status = status;
            cancel = List.copyOf(r.dvmJobs.keySet());
        }
        if (!r.dvmJobs.isEmpty()) {
            boolean orphaned = cancel.isEmpty() && r.expanding != null && r.dvmJobs.size() == 1
                    && r.dvmJobs.containsKey(r.expanding.dvmJob());
            return new Ended(cancel, false, r.id, r.status, new Freed(List.of(), List.of()),
                    orphaned ? r.expanding.generation() : -1);
        }
        running.remove(r.id);
        entries.remove(r.id);
        List<Integer> hosts = new ArrayList<>(r.hostOfBlock);
        hosts.addAll(r.releasing);
        pool.end(r.id);
        return new Ended(cancel, true, r.id, r.status, new Freed(hosts, launches(scheduler.ended(r.id, now()))), -1);
    }

    // --- the queue -------------------------------------------------------------------------

    /** The client went away: its queued jobs leave the queue (its running ones are ended by the head). */
    List<Launch> withdraw(Client owner) {
        List<Launch> out = new ArrayList<>();
        for (Integer id : List.copyOf(entries.keySet())) {
            if (entries.get(id).owner() == owner && !running.containsKey(id)) {
                entries.remove(id);
                out.addAll(launches(scheduler.withdraw(id, now())));
            }
        }
        return out;
    }

    boolean anyQueued() {
        return scheduler.queued() > 0;
    }

    void outsideDemand(int nodes) {
        scheduler.outsideDemand(nodes);
    }

    boolean isFree(int host) {
        return pool.isFree(Integer.toString(host));
    }

    /** A free host leaves the pool for good (given back to the batch system). */
    void retire(int host) {
        pool.retire(Integer.toString(host));
        scheduler.retire(1);
    }

    /** A retired host is back (the DVM got it again): the jobs that start on it. */
    List<Launch> restore(int host) {
        pool.restore(Integer.toString(host));
        return launches(scheduler.restore(1, now()));
    }

    /** Hosts the queue and its malleable jobs could use beyond the free ones. */
    int wanted() {
        return scheduler.wanted();
    }

    List<ClientMessage.QueuedStatus> status() {
        List<ClientMessage.QueuedStatus> out = new ArrayList<>();
        for (int id : scheduler.queuedIds()) {
            ClientMessage.QueueJob q = entries.get(id).job();
            out.add(new ClientMessage.QueuedStatus(id, q.minNodes(), q.maxNodes(), q.run().apps().getFirst().executable()));
        }
        return out;
    }

    /** Why each queued job (in {@link #status}'s order) waits, in words, for the dashboard. */
    List<String> reasons() {
        List<String> out = new ArrayList<>();
        List<Integer> ids = scheduler.queuedIds();
        int free = pool.free();
        for (int k = 0; k < ids.size(); k++) {
            ClientMessage.QueueJob q = entries.get(ids.get(k)).job();
            String need = "needs " + q.minNodes() + " host" + (q.minNodes() == 1 ? "" : "s") + ", " + free + " free";
            out.add(k == 0 ? need : "behind job " + ids.get(k - 1) + "; " + need);
        }
        return out;
    }

    private List<Launch> launches(List<MalleableScheduler.Start> starts) {
        List<Launch> out = new ArrayList<>();
        for (MalleableScheduler.Start s : starts) {
            Entry e = entries.get(s.jobId());
            Running r = new Running(s.jobId(), e);
            running.put(r.id, r);
            List<Integer> hosts = pool.start(s.jobId(), s.nodes()).stream().map(Integer::parseInt).sorted().toList();
            r.hostOfBlock.addAll(hosts);
            out.add(launch(r, r.id, hosts, 0, false));
        }
        return out;
    }

    /**
     * A DVM job of {@code r} on {@code hosts}, its ranks world ranks {@code offset} on. They learn
     * their place from the environment (banyan-comm's {@code Dmr} reads it).
     */
    private Launch launch(Running r, int jobId, List<Integer> hosts, int offset, boolean expansion) {
        r.dvmJobs.put(jobId, offset);
        byDvmJob.put(jobId, r);
        int ranks = hosts.size() * r.rpn();
        AppContext app = r.entry.job().run().apps().getFirst();
        Map<String, String> env = new LinkedHashMap<>(app.env());
        env.put("BANYAN_DMR_JOB", Integer.toString(r.id));
        env.put("BANYAN_DMR_GENERATION", Integer.toString(r.generation));
        env.put("BANYAN_DMR_OFFSET", Integer.toString(offset));
        env.put("BANYAN_DMR_SIZE", Integer.toString(r.ranks()));
        ClientMessage.QueueJob q = r.entry.job();
        env.put("BANYAN_DMR_LIMITS", q.minNodes() + "," + q.maxNodes() + "," + q.factor() + "," + q.preferredNodes());
        ClientMessage.RunJob run = r.entry.job().run();
        ClientMessage.RunJob sized = new ClientMessage.RunJob(
                List.of(new AppContext(app.executable(), app.args(), ranks, env, app.workdir())), run.mapping(), false,
                expansion ? -1 : run.stdinRank(), run.launchDir(), run.modex(), run.timeoutMillis(), run.placement(),
                run.wireUp());
        return new Launch(jobId, r.id, r.entry.owner(), hosts, sized, ranks, offset, expansion, r.generation,
                r.entry.job().resizeTimeoutMillis());
    }

    private static int[] ints(String text, int n) {
        String[] parts = text.split(",");
        if (parts.length != n) {
            throw new IllegalArgumentException("expected " + n + " numbers, got '" + text + "'");
        }
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number: '" + parts[i] + "'");
            }
        }
        return out;
    }

    /** Adds, for each host a running queued job holds, "job ID (queued)" to {@code byHost}. */
    void holders(Map<Integer, List<String>> byHost) {
        for (Running r : running.values()) {
            for (int h : new java.util.LinkedHashSet<>(r.hostOfBlock)) {
                byHost.computeIfAbsent(h, k -> new ArrayList<>()).add("job " + r.id + " (queued)");
            }
        }
    }

    private double now() {
        return (clock.nanos() - startNanos) / 1e9;
    }
}
