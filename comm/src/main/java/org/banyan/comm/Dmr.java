package org.banyan.comm;

import java.util.Map;
import org.banyan.client.Banyan;
import org.banyan.client.BanyanException;

/**
 * Malleability for Java ranks, after the DMR API (Dynamic Management of Resources): a job queued
 * with {@code banyan dvm submit --nodes MIN:MAX} asks the DVM's resource manager, at its iteration
 * boundaries, whether to change size, and changes it without stopping.
 *
 * <pre>{@code
 * try (Dmr dmr = Dmr.init()) {
 *     double[] mine;
 *     long step;
 *     if (dmr.joined()) {                       // started by an expansion: data comes from the others
 *         Dmr.Arrival a = dmr.arrive(LENGTH);
 *         mine = a.block();
 *         step = a.progress();
 *     } else {
 *         mine = firstBlock(dmr.world());
 *         step = 0;
 *     }
 *     boolean arrived = dmr.joined();           // a new rank resumes after the resize of its step
 *     for (; step < STEPS; step++) {
 *         if (!arrived) {
 *             mine = dmr.resize(dmr.check(), mine, LENGTH, step);
 *             if (dmr.left()) {
 *                 return;                         // this rank's host went back to the queue
 *             }
 *         }
 *         arrived = false;
 *         compute(dmr.world(), mine);
 *     }
 * }
 * }</pre>
 *
 * <p>Sizes in checks are hosts, as the resource manager counts them; with
 * {@code --ranks-per-node R} a world has R ranks per host. A rank's number in the world never
 * changes: an expansion adds ranks after the last one, a shrink takes the last ones away. Data
 * is a block-distributed array of doubles, moved by {@link BlockRedistribution}. Outside a DVM
 * queue (under {@code banyan run}) every check answers NONE and the world is the job's.
 *
 * <p>{@link #checkAsync} is DMR's asynchronous variant: the question is asked at one step and
 * answered at the next, so the decision is made while the step computes.
 *
 * <p>{@code BANYAN_DMR_INHIBIT=SECONDS} is the checking inhibitor: for that long after a check
 * that reached the resource manager, checks answer NONE without asking it (rank 0 decides, so
 * every rank agrees).
 */
public final class Dmr implements AutoCloseable {
    public enum Action { EXPAND, SHRINK, NONE }

    /** The resource manager's answer: {@code ranks} is the world's size after the action. */
    public record Decision(Action action, int ranks, int generation) {
        public boolean resizes() {
            return action != Action.NONE;
        }
    }

    /** What a rank started by an expansion receives: its block, and the others' progress value. */
    public record Arrival(double[][] blocks, long progress) {
        /** The block of the first (or only) array. */
        public double[] block() {
            return blocks[0];
        }
    }

    private static final int ERROR = -1;
    /** NONE's number in that answer (see {@link #code}). */
    private static final long NONE_CODE = 0;

    private final Banyan job;
    private final Map<String, String> env;
    private final boolean managed;
    private final int worldRank;
    /** The world's size before this rank's expansion started it; 0 for a rank of the first world. */
    private final int previousSize;
    private final long inhibitNanos;
    private long lastAsked = Long.MIN_VALUE;
    private Comm world;
    private int generation;
    private boolean left;
    private boolean abandoned;
    /** Rank 0: the asynchronous check's question in flight, and one put off until a resize is done. */
    private java.util.concurrent.CompletableFuture<long[]> pending;
    private int[] deferred;
    private String refusal;
    /** A rank an expansion started: the size of the world it has yet to join (0 once joined). */
    private int joinSize;
    /** Blocks allocated ahead of the resizes that need them; null until {@link #prepareBlocks}. */
    private PreparedBlocks blocks;

    private Dmr(Banyan job, Map<String, String> env) {
        this.job = job;
        this.env = env;
        String jobNumber = env.get("BANYAN_DMR_JOB");
        this.managed = jobNumber != null && !jobNumber.isEmpty();
        double inhibit = 0;
        String inhibitText = env.get("BANYAN_DMR_INHIBIT");
        if (inhibitText != null && !inhibitText.isBlank()) {
            try {
                inhibit = Double.parseDouble(inhibitText.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("BANYAN_DMR_INHIBIT must be a number of seconds, got '" + inhibitText + "'");
            }
            if (inhibit < 0) {
                throw new IllegalArgumentException("BANYAN_DMR_INHIBIT must not be negative, got '" + inhibitText + "'");
            }
        }
        this.inhibitNanos = (long) (inhibit * 1e9);
        if (managed) {
            generation = Integer.parseInt(env.get("BANYAN_DMR_GENERATION"));
            int offset = Integer.parseInt(env.get("BANYAN_DMR_OFFSET"));
            int size = Integer.parseInt(env.get("BANYAN_DMR_SIZE"));
            worldRank = offset + job.rank();
            previousSize = offset;
            if (offset == 0) {
                world = joinWorld(generation, worldRank, size);
            } else {
                // a rank an expansion started joins when it first needs the world (arrive): its
                // block can be allocated meanwhile (prepareBlocks), off the join's 0.2 s
                joinSize = size;
            }
        } else {
            worldRank = job.rank();
            previousSize = 0;
            world = World.create(job);
        }
    }

    /** Joins the job, and its current world. */
    public static Dmr init() {
        return new Dmr(Banyan.init(), System.getenv());
    }

    /** The world as of the last resize (or the start). */
    public Comm world() {
        if (left) {
            throw new IllegalStateException("this rank left the job at the last shrink");
        }
        if (world == null && joinSize > 0) {
            world = joinWorld(generation, worldRank, joinSize);
            joinSize = 0;
        }
        return world;
    }

    /** Whether this rank was started by an expansion (it then calls {@link #arrive} first). */
    public boolean joined() {
        return previousSize > 0;
    }

    /**
     * Whether the last expansion was abandoned (its new ranks did not join within the job's
     * {@code --resize-timeout}): {@link #resize} then returned the block unchanged and the world is
     * the one before.
     */
    public boolean abandoned() {
        return abandoned;
    }

    /** Whether this rank left the job at the last shrink (it should end now). */
    public boolean left() {
        return left;
    }

    /** {@link #check(int, int, int, int)} with the limits the job was submitted with ({@code --nodes MIN:MAX ...}). */
    public Decision check() {
        int[] l = submittedLimits();
        return check(l[0], l[1], l[2], l[3]);
    }

    /**
     * Asks the resource manager whether the job should change size, given its limits in hosts
     * ({@code factor}: the step between sizes, 2 doubling and halving, 1 any size; {@code preferred}
     * 0 for none). Collective over {@link #world()}: rank 0 asks, every rank gets the answer. A
     * decision an asynchronous check left pending is answered first, without asking again.
     *
     * @throws IllegalArgumentException when the resource manager refuses the limits
     */
    public Decision check(int minHosts, int maxHosts, int factor, int preferred) {
        return decide(() -> {
            if (pending != null) {
                return awaitPending();
            }
            deferred = null;
            return ask(new int[] {minHosts, maxHosts, factor, preferred}).join();
        });
    }

    /** {@link #checkAsync(int, int, int, int)} with the limits the job was submitted with. */
    public Decision checkAsync() {
        int[] l = submittedLimits();
        return checkAsync(l[0], l[1], l[2], l[3]);
    }

    /**
     * DMR's asynchronous check: answers what the resource manager decided on the question the
     * previous asynchronous check asked (NONE the first time), and asks the next question, whose
     * answer is decided while this step computes and acted on at the next check. A decision that
     * resizes is asked about again only once {@link #resize} has acted on it, so the resource
     * manager judges the job at its new size. A program that ends with a question pending leaves
     * nothing behind: an expansion granted to a job that has ended is given up by the DVM at once.
     * Collective over {@link #world()}, as {@link #check}.
     */
    public Decision checkAsync(int minHosts, int maxHosts, int factor, int preferred) {
        int[] limits = {minHosts, maxHosts, factor, preferred};
        Decision d = decide(() -> {
            if (deferred != null) { // the last decision was not acted on: ask now
                pending = ask(deferred);
                deferred = null;
            }
            long[] answer = pending != null ? awaitPending() : new long[] {NONE_CODE, world.size(), generation};
            if (answer[0] == NONE_CODE) {
                pending = ask(limits);
            } else if (answer[0] != ERROR) {
                deferred = limits;
            }
            return answer;
        });
        if (!d.resizes()) {
            deferred = null;
        }
        return d;
    }

    /** Rank 0 computes the answer ({@code {action, ranks, generation}} or ERROR); every rank of the world gets it. */
    private Decision decide(java.util.function.Supplier<long[]> atRankZero) {
        Comm w = world();
        if (!managed) {
            return new Decision(Action.NONE, w.size(), generation);
        }
        long[] answer = new long[3];
        if (w.rank() == 0) {
            refusal = null;
            answer = atRankZero.get();
        }
        long[] shared = answer;
        ScopedValue.where(Waiting.PATIENT, true).run(() -> w.bcast(shared, 0)); // the others wait for rank 0's question
        if (answer[0] == ERROR) {
            throw new IllegalArgumentException(refusal != null ? refusal : "the resource manager refused the check (see rank 0)");
        }
        return new Decision(action(answer[0]), (int) answer[1], (int) answer[2]);
    }

    /** Rank 0 asks, unless the inhibitor says not yet (then the answer is NONE at once). */
    private java.util.concurrent.CompletableFuture<long[]> ask(int[] l) {
        long now = System.nanoTime();
        if (lastAsked != Long.MIN_VALUE && now - lastAsked < inhibitNanos) {
            return java.util.concurrent.CompletableFuture.completedFuture(
                    new long[] {NONE_CODE, world.size(), generation});
        }
        lastAsked = now;
        return job.resizeCheck(l[0], l[1], l[2], l[3]).handle((text, failure) -> {
            if (failure == null) {
                return parse(text);
            }
            Throwable cause = failure instanceof java.util.concurrent.CompletionException c ? c.getCause() : failure;
            refusal = cause instanceof BanyanException b ? b.getMessage() : String.valueOf(cause);
            return new long[] {ERROR, 0, 0};
        });
    }

    private long[] awaitPending() {
        java.util.concurrent.CompletableFuture<long[]> p = pending;
        pending = null;
        return p.join();
    }

    /** After a resize, rank 0 asks the question an asynchronous check put off. */
    private void askDeferred() {
        if (deferred != null && world != null && world.rank() == 0) {
            pending = ask(deferred);
        }
        deferred = null;
    }

    private int[] submittedLimits() {
        String limits = env.get("BANYAN_DMR_LIMITS");
        if (!managed || limits == null) {
            return new int[] {1, 1, 1, 0};
        }
        String[] l = limits.split(",");
        return new int[] {Integer.parseInt(l[0]), Integer.parseInt(l[1]), Integer.parseInt(l[2]), Integer.parseInt(l[3])};
    }

    /** An action's number in the answer rank 0 broadcasts: fixed, whatever the enum's order. */
    private static long code(Action a) {
        return switch (a) {
            case NONE -> NONE_CODE;
            case EXPAND -> 1;
            case SHRINK -> 2;
        };
    }

    private static Action action(long code) {
        return code == NONE_CODE ? Action.NONE : code == 1 ? Action.EXPAND : Action.SHRINK;
    }

    private static long[] parse(String decision) {
        String[] p = decision.split(",");
        return new long[] {code(Action.valueOf(p[0].toUpperCase(java.util.Locale.ROOT))), Long.parseLong(p[1]),
                Long.parseLong(p[2])};
    }

    /** {@link #prepareBlocks(long, int, int...)} for one array. */
    public void prepareBlocks(long length, int... worldSizes) {
        prepareBlocks(length, 1, worldSizes);
    }

    /**
     * Takes the first touch of new blocks off the resizes: this rank's blocks of {@code arrays}
     * arrays of {@code length} elements for each of {@code worldSizes} (in ranks, as
     * {@link Decision#ranks()}) are allocated now on a background thread, while the program
     * computes, and the blocks a resize replaces are kept for a later resize of that length (the
     * expansion back after a shrink needs the very blocks the shrink gave up). Costs memory: the
     * prepared blocks and one replaced block per array stay allocated. Not collective: each rank
     * decides for itself.
     *
     * <p>After this call <b>the arrays passed to {@link #resize} belong to Dmr</b>: one may come
     * back as a later block, overwritten. A program that keeps using an old block must not call it.
     */
    public void prepareBlocks(long length, int arrays, int... worldSizes) {
        blocks = new PreparedBlocks(length, arrays, worldSizes, worldRank);
        if (joinSize > 0) { // not joined yet: the block this rank arrives with is allocated during the join
            blocks.arriving(joinSize);
        } else {
            blocks.ahead(world().size());
        }
    }

    /** Blocks kept or being prepared (for tests). */
    int blocksAhead() {
        return blocks == null ? 0 : blocks.count();
    }

    /**
     * Acts on a decision, collectively over the current world: its ranks' blocks of a
     * {@code length}-element array move to the new world's ranks, and this rank's new block is
     * returned (an expansion's new ranks get theirs from {@link #arrive}, with {@code progress}).
     * After a shrink the ranks that left get an empty block and {@link #left()} is true. NONE
     * returns {@code mine} unchanged.
     */
    public double[] resize(Decision d, double[] mine, long length, long progress) {
        return resize(d, new double[][] {mine}, length, progress)[0];
    }

    /**
     * As {@link #resize(Decision, double[], long, long)} for several arrays of the same length and
     * layout (a body's position and velocity components, say), moved one after the other.
     */
    public double[][] resize(Decision d, double[][] mine, long length, long progress) {
        if (!d.resizes()) {
            return mine;
        }
        Comm old = world();
        int from = old.size();
        generation = d.generation();
        abandoned = false;
        long t0 = System.nanoTime();
        if (d.action() == Action.EXPAND) {
            Comm next;
            try {
                next = joinWorld(generation, worldRank, d.ranks());
            } catch (BanyanException e) {
                if (e.getMessage() == null || !e.getMessage().contains("resize_abandoned")) {
                    throw e;
                }
                // the new ranks did not come in time: the job goes on as it was
                generation = d.generation() - 1;
                abandoned = true;
                askDeferred();
                return mine;
            }
            long t1 = System.nanoTime();
            double[][] block = redistribute(next, mine, length, from, d.ranks(), worldRank);
            long t2 = System.nanoTime();
            next.bcast(new long[] {progress}, 0);
            old.close();
            world = next;
            trace("expand", "join", t0, t1, "redistribution", t2);
            askDeferred();
            keepReplaced(mine);
            return block;
        }
        double[][] block = redistribute(old, mine, length, from, d.ranks(), worldRank);
        long t1 = System.nanoTime();
        if (worldRank < d.ranks()) {
            Comm next = joinWorld(generation, worldRank, d.ranks());
            long t2 = System.nanoTime();
            old.close();
            world = next;
            trace("shrink", "redistribution", t0, t1, "join", t2);
            askDeferred();
            keepReplaced(mine);
            return block;
        }
        old.close();
        deferred = null;
        left = true;
        world = null;
        return block;
    }

    /** With BANYAN_DMR_TRACE set, one line on stderr per resize: where its time went. */
    private void trace(String what, String first, long t0, long t1, String second, long t2) {
        if (env.get("BANYAN_DMR_TRACE") == null) {
            return;
        }
        System.err.printf("dmr: rank %d %s: %s %.1f ms, %s %.1f ms, closing the old world %.1f ms%n", worldRank, what, first,
                (t1 - t0) / 1e6, second, (t2 - t1) / 1e6, (System.nanoTime() - t2) / 1e6);
    }

    private double[][] redistribute(Comm c, double[][] mine, long length, int from, int to, int rank) {
        double[][] out = new double[mine.length][];
        int newLength = rank < to ? Math.toIntExact(BlockRedistribution.blockLength(length, to, rank)) : 0;
        for (int i = 0; i < mine.length; i++) {
            out[i] = blocks != null ? blocks.take(i, newLength) : new double[newLength];
            BlockRedistribution.redistribute(c, mine[i], out[i], length, from, to);
        }
        return out;
    }

    /** With {@link #prepareBlocks}: the blocks a resize replaced are kept, and what the new size lacks is prepared. */
    private void keepReplaced(double[][] replaced) {
        if (blocks != null) {
            for (int i = 0; i < replaced.length; i++) {
                blocks.keep(i, replaced[i]);
            }
            blocks.ahead(world.size());
        }
    }

    /** For a rank started by an expansion: its block of the redistributed array, and the progress value. */
    public Arrival arrive(long length) {
        return arrive(length, 1);
    }

    /** As {@link #arrive(long)} when the others resize {@code arrays} arrays at once. */
    public Arrival arrive(long length, int arrays) {
        if (!joined()) {
            throw new IllegalStateException("only a rank started by an expansion arrives");
        }
        Comm w = world();
        double[][] none = new double[arrays][0];
        double[][] arrived = redistribute(w, none, length, previousSize, w.size(), worldRank);
        long[] progress = new long[1];
        w.bcast(progress, 0);
        if (blocks != null) {
            blocks.ahead(w.size());
        }
        return new Arrival(arrived, progress[0]);
    }

    private Comm joinWorld(int gen, int rank, int size) {
        return WorldJoin.join(job, env, gen, rank, size);
    }

    @Override
    public void close() {
        try {
            if (world != null) {
                world.close();
            }
        } finally {
            job.close();
        }
    }
}
