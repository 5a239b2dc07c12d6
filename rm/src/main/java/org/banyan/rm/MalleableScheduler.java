package org.banyan.rm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

/**
 * The resource manager's decisions, sans-I/O (the DVM and the workload simulator drive the same
 * object): a queue of jobs served first come, first served with EASY backfill over a pool of
 * nodes, and, for malleable jobs, the seed's reconfiguration policy answered when a running job
 * checks in at an iteration boundary ({@link #check}):
 *
 * <ol>
 *   <li>a job's own request first: a minimum above its size asks to expand (granted when the
 *       nodes are free), a maximum below it asks to shrink;</li>
 *   <li>wide optimisation, shrinking: when the first queued job cannot start, shrink this job
 *       (by the fewest steps) if that lets it start, and give that job top priority; with no job
 *       queued, the same for a job waiting in the batch system the pool lives in
 *       ({@link #outsideDemand});</li>
 *   <li>preferred size: move toward it; beyond it only when nothing is queued; with jobs
 *       queued, shrink toward it only when the running jobs at their preferred sizes would free
 *       enough nodes for one of them;</li>
 *   <li>wide optimisation, expanding: grow by a step when the nodes are free and no queued job
 *       (nor the batch system's) could start with them.</li>
 * </ol>
 *
 * Nodes are counted, not named: the driver maps counts to hosts. An expansion takes its nodes at
 * once; a shrink gives them back when the driver says the leaving ranks are gone
 * ({@link #shrunk}). With {@code flexible} false every check answers NONE: the fixed baseline.
 */
public final class MalleableScheduler {
    /** What the driver must do: start a queued job on {@code nodes} nodes. */
    public record Start(int jobId, int nodes) {}

    public enum Kind { EXPAND, SHRINK, NONE }

    /** The answer to a check: resize to {@code newSize}, or NONE (newSize is then the current size). */
    public record Decision(Kind kind, int newSize) {}

    private static final class Running {
        JobRequest request;
        int size;
        int releasing;
        final double start;

        Running(JobRequest request, int size, double start) {
            this.request = request;
            this.size = size;
            this.start = start;
        }

        double expectedEnd() {
            return start + request.walltimeSeconds();
        }
    }

    private int nodes;
    /** The most nodes the pool can hold: retired ones may come back ({@link #restore}). */
    private final int capacity;
    private final boolean flexible;
    private int free;
    /** Nodes the batch system's first waiting job lacks, which this pool could give it (0: none). */
    private int outside;
    private final LinkedList<JobRequest> queue = new LinkedList<>();
    /** The queued jobs' sizes, counted: whether any fits is then O(log n), not a walk of the queue. */
    private final java.util.TreeMap<Integer, Integer> queuedSizes = new java.util.TreeMap<>();
    /** The queued jobs' ids: whether a job is known without a walk of the queue at each arrival. */
    private final java.util.Set<Integer> queuedIds = new java.util.HashSet<>();
    private final Map<Integer, Running> running = new LinkedHashMap<>();
    /** Moves on at every change of what a check's answer depends on ({@link #version}). */
    private long version;

    public MalleableScheduler(int nodes, boolean flexible) {
        if (nodes < 1) {
            throw new IllegalArgumentException("a resource manager over " + nodes + " nodes");
        }
        this.nodes = nodes;
        this.capacity = nodes;
        this.flexible = flexible;
        this.free = nodes;
    }

    /** Queues a job; returns the jobs that start now (this one, or others by backfill). */
    public List<Start> submit(JobRequest job, double now) {
        version++;
        if (job.maxNodes() > capacity) {
            throw new IllegalArgumentException("job " + job.id() + " needs " + job.maxNodes() + " nodes; there are "
                    + capacity);
        }
        if (running.containsKey(job.id()) || queuedIds.contains(job.id())) {
            throw new IllegalArgumentException("job " + job.id() + " is already known");
        }
        queue.add(job);
        queuedIds.add(job.id());
        queuedSizes.merge(job.maxNodes(), 1, Integer::sum);
        return schedule(now);
    }

    /** A running job ended; its nodes return and queued jobs may start. */
    public List<Start> ended(int jobId, double now) {
        version++;
        Running r = running.remove(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        free += r.size + r.releasing;
        return schedule(now);
    }

    /**
     * A queued job leaves the queue (its submitter went away); false when it is not queued.
     * Jobs behind it may start now.
     */
    public List<Start> withdraw(int jobId, double now) {
        version++;
        for (var it = queue.iterator(); it.hasNext(); ) {
            JobRequest j = it.next();
            if (j.id() == jobId) {
                it.remove();
                queuedIds.remove(jobId);
                queuedSizes.computeIfPresent(j.maxNodes(), (k, c) -> c == 1 ? null : c - 1);
                return schedule(now);
            }
        }
        return List.of();
    }

    /**
     * An expansion did not happen (its new ranks did not come in time): the job is back at
     * {@code size} and the nodes it was given return; queued jobs may start on them.
     */
    public List<Start> abandoned(int jobId, int size, double now) {
        version++;
        Running r = running.get(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        if (size > r.size || size < 1) {
            throw new IllegalArgumentException("job " + jobId + " is at " + r.size + " nodes; it cannot go back to " + size);
        }
        free += r.size - size;
        r.size = size;
        return schedule(now);
    }

    /** A shrink is done: the nodes the job left return to the pool. */
    public List<Start> shrunk(int jobId, double now) {
        version++;
        Running r = running.get(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        free += r.releasing;
        r.releasing = 0;
        return schedule(now);
    }

    /**
     * {@code n} free nodes leave the pool for good (the DVM gave their hosts back to the batch
     * system that granted them).
     */
    public void retire(int n) {
        version++;
        if (n < 0 || n > free || n >= nodes) {
            throw new IllegalArgumentException("cannot retire " + n + " of " + free + " free nodes out of " + nodes);
        }
        nodes -= n;
        free -= n;
    }

    /**
     * {@code n} nodes join the pool (the DVM got hosts it had given back from the batch system
     * again); returns the queued jobs that start on them.
     */
    public List<Start> restore(int n, double now) {
        version++;
        if (n < 0 || nodes + n > capacity) {
            throw new IllegalArgumentException("cannot restore " + n + " nodes to " + nodes + " of " + capacity);
        }
        nodes += n;
        free += n;
        return schedule(now);
    }

    /**
     * How many nodes more the pool could use now: what the first queued job lacks, or, with
     * nothing queued, the room running malleable jobs have below their maximum beyond the free
     * nodes (0 for the fixed baseline, and while the batch system's own waiting job has a
     * claim on this pool's nodes).
     */
    public int wanted() {
        if (!queue.isEmpty()) {
            return Math.max(0, queue.getFirst().maxNodes() - free);
        }
        if (!flexible || outside > 0) {
            return 0;
        }
        int room = 0;
        for (Running r : running.values()) {
            room += Math.max(0, r.request.maxNodes() - r.size);
        }
        return Math.max(0, room - free);
    }

    /**
     * The batch system the pool lives in (a DVM inside Slurm) has a job waiting that lacks
     * {@code nodes} nodes this pool could give back (0: none, or the DVM's own queue waits).
     * Checks then shrink running jobs so that enough nodes are free (the wide-optimisation
     * shrink, after this pool's own queue), and expand none into free nodes.
     */
    public void outsideDemand(int nodes) {
        version++;
        this.outside = Math.max(0, nodes);
    }

    /**
     * A number that moves on whenever anything a check's answer depends on may have changed (a
     * job queued, started, ended, resized; nodes retired or restored; the outside demand; a job's
     * limits). A NONE answer to a job's check with the same limits holds while it stays the same:
     * a simulation may take it as given instead of asking again (answering NONE changes nothing).
     */
    public long version() {
        return version;
    }

    /** A check with the job's submitted limits (DMR's checkStatus with nothing new). */
    public Decision check(int jobId, double now) {
        Running r = running.get(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        return check(jobId, r.request, now);
    }

    /**
     * A running job checks in with its current limits ({@code request}'s min, max, preferred,
     * factor; they may differ from the submitted ones). An EXPAND holds its nodes from now.
     */
    public Decision check(int jobId, JobRequest request, double now) {
        Running r = running.get(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        int cur = r.size;
        if (!flexible || r.releasing > 0) {
            return new Decision(Kind.NONE, cur);
        }
        if (!request.equals(r.request)) {
            version++; // other jobs' answers read this job's preferred size
            r.request = request;
        }
        JobRequest q = request;
        // 1. the job's own request
        if (cur < q.minNodes()) {
            return free >= q.minNodes() - cur ? expand(r, q.minNodes()) : new Decision(Kind.NONE, cur);
        }
        if (cur > q.maxNodes()) {
            return shrink(r, q.maxNodes());
        }
        // 2. shrink so that the first queued job starts, and put it first
        JobRequest head = queue.peekFirst();
        if (head != null && head.maxNodes() > free) {
            int s = cur;
            while (free + (cur - s) < head.maxNodes() && q.down(s) < s) {
                s = q.down(s);
            }
            if (s < cur && free + (cur - s) >= head.maxNodes()) {
                queue.remove(head);
                queue.addFirst(head);
                return shrink(r, s);
            }
        }
        // 2b. the same for the job waiting in the batch system the DVM lives in, behind its own queue
        if (queue.isEmpty() && outside > free) {
            int s = cur;
            while (free + (cur - s) < outside && q.down(s) < s) {
                s = q.down(s);
            }
            if (s < cur && free + (cur - s) >= outside) {
                return shrink(r, s);
            }
        }
        // 3. preferred size
        if (q.preferredNodes() > 0) {
            if (cur < q.preferredNodes()) {
                int t = Math.min(q.up(cur), q.preferredNodes());
                return free >= t - cur ? expand(r, t) : new Decision(Kind.NONE, cur);
            }
            if (!queue.isEmpty()) {
                return cur > q.preferredNodes() && preferredSizesStartAQueuedJob()
                        ? shrink(r, Math.max(q.down(cur), q.preferredNodes())) : new Decision(Kind.NONE, cur);
            }
        }
        // 4. grow into free nodes no queued job could use
        if (cur < q.maxNodes() && noQueuedJobFits() && outside == 0) {
            int t = q.up(cur);
            if (free >= t - cur) {
                return expand(r, t);
            }
        }
        return new Decision(Kind.NONE, cur);
    }

    /**
     * Whether the running jobs, all at their preferred sizes, would free enough nodes for the
     * smallest queued job. When they would not, a shrink toward the preferred size only left its
     * nodes idle and the job slower: on 32 nodes, with every job asking for 32, one job ran at a
     * time at 8 nodes, the cluster 48 % used, the workload 71 % later than the fixed policy's.
     */
    private boolean preferredSizesStartAQueuedJob() {
        long could = free;
        for (Running o : running.values()) {
            int p = o.request.preferredNodes();
            could += o.releasing + (p > 0 && o.size > p ? o.size - p : 0);
        }
        return could >= queuedSizes.firstKey();
    }

    private boolean noQueuedJobFits() {
        return queuedSizes.isEmpty() || queuedSizes.firstKey() > free;
    }

    private Decision expand(Running r, int to) {
        version++;
        free -= to - r.size;
        r.size = to;
        return new Decision(Kind.EXPAND, to);
    }

    private Decision shrink(Running r, int to) {
        version++;
        r.releasing += r.size - to;
        r.size = to;
        return new Decision(Kind.SHRINK, to);
    }

    /** First come, first served; then EASY backfill behind the first job that cannot start. */
    private List<Start> schedule(double now) {
        List<Start> out = new ArrayList<>();
        while (!queue.isEmpty() && queue.getFirst().maxNodes() <= free) {
            out.add(start(queue.removeFirst(), now));
        }
        if (noQueuedJobFits()) {
            // An overloaded pool spends most events here: walking a queue of thousands behind a
            // reservation that no job could use made a 32,000-job simulation take 78 s.
            return out;
        }
        // the first job's reservation: when enough running jobs will have ended for it
        JobRequest head = queue.getFirst();
        List<Running> byEnd = new ArrayList<>(running.values());
        byEnd.sort(Comparator.comparingDouble(Running::expectedEnd));
        int available = free;
        double shadow = Double.POSITIVE_INFINITY;
        int extra = 0;
        for (Running r : byEnd) {
            available += r.size + r.releasing;
            if (available >= head.maxNodes()) {
                shadow = r.expectedEnd();
                extra = available - head.maxNodes();
                break;
            }
        }
        for (var it = queue.listIterator(1); it.hasNext() && !noQueuedJobFits(); ) {
            JobRequest j = it.next();
            if (j.maxNodes() > free) {
                continue;
            }
            boolean endsBefore = now + j.walltimeSeconds() <= shadow;
            if (endsBefore || j.maxNodes() <= extra) {
                it.remove();
                out.add(start(j, now));
                if (!endsBefore) {
                    extra -= j.maxNodes();
                }
            }
        }
        return out;
    }

    private Start start(JobRequest j, double now) {
        queuedIds.remove(j.id());
        queuedSizes.computeIfPresent(j.maxNodes(), (k, c) -> c == 1 ? null : c - 1);
        free -= j.maxNodes();
        running.put(j.id(), new Running(j, j.maxNodes(), now));
        return new Start(j.id(), j.maxNodes());
    }

    public int nodes() {
        return nodes;
    }

    /** The most nodes the pool can hold, retired ones included: a job may ask for up to this many. */
    public int capacity() {
        return capacity;
    }

    public int free() {
        return free;
    }

    /** Nodes held by running jobs (those being released included). */
    public int allocated() {
        return nodes - free;
    }

    public int queued() {
        return queue.size();
    }

    /** The queued jobs' ids, first to be served first. */
    public List<Integer> queuedIds() {
        return queue.stream().map(JobRequest::id).toList();
    }

    public boolean isRunning(int jobId) {
        return running.containsKey(jobId);
    }

    public int runningJobs() {
        return running.size();
    }

    /** A running job's current size. */
    public int sizeOf(int jobId) {
        Running r = running.get(jobId);
        if (r == null) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        return r.size;
    }
}
