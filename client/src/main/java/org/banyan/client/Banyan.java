package org.banyan.client;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Java rank's way into the job that {@code banyan run} started: who it is, and a key-value
 * exchange with the other ranks through the daemon of its host (PMI-2 underneath).
 *
 * <pre>{@code
 * try (Banyan job = Banyan.init()) {
 *     job.put("address", myAddress);
 *     job.fence();                                   // every rank has put and committed
 *     String next = job.get((job.rank() + 1) % job.size(), "address");
 * }
 * }</pre>
 *
 * <p>Keys belong to the rank that puts them, as in PMIx: {@code get(r, key)} reads rank r's
 * {@code key}, and ranks may all use the same key names. Values are fetched from the owning
 * rank's host on first use when the job runs with {@code --modex lazy} (the default), so a
 * value nobody reads never moves. {@link #close()} is PMI's finalize (Java reserves the name).
 */
public final class Banyan implements AutoCloseable {
    /** Longest key a rank may put (PMI's keylen_max, less the rank prefix Banyan adds). */
    public static final int MAX_KEY = 48;
    /** Longest value (PMI's vallen_max). */
    public static final int MAX_VALUE = 1024;

    private final int rank;
    private final int size;
    private final int localRank;
    private final int nodeRank;
    private final String jobId;
    private final Pmi2Connection pmi;
    private final String processTable;
    private ProcessTableReader table;
    private final Map<String, String> uncommitted = new LinkedHashMap<>();
    private boolean closed;

    private Banyan(int rank, int size, int localRank, int nodeRank, String jobId, Pmi2Connection pmi, String processTable) {
        this.rank = rank;
        this.size = size;
        this.localRank = localRank;
        this.nodeRank = nodeRank;
        this.jobId = jobId;
        this.pmi = pmi;
        this.processTable = processTable;
    }

    /**
     * Joins the job this process belongs to.
     *
     * @throws NotUnderBanyanException when the process was not started by {@code banyan run}
     * @throws BanyanException         when the daemon cannot be reached or refuses
     */
    public static Banyan init() {
        return init(System.getenv());
    }

    static Banyan init(Map<String, String> env) {
        String port = env.get("PMI_PORT");
        String rankText = env.get("BANYAN_RANK");
        if (port == null || rankText == null) {
            throw new NotUnderBanyanException("not started by banyan run (BANYAN_RANK and PMI_PORT are not set): "
                    + "start it as  banyan run -n N java ...");
        }
        int rank = Integer.parseInt(rankText);
        Pmi2Connection pmi = Pmi2Connection.open(port);
        Map<String, String> init = await(pmi.request("fullinit", "pmirank", rankText, "threaded", "TRUE"), "fullinit");
        int size = Integer.parseInt(init.getOrDefault("size", "0"));
        Map<String, String> id = await(pmi.request("job-getid"), "job-getid");
        return new Banyan(rank, size, intOr(env.get("BANYAN_LOCAL_RANK"), 0), intOr(env.get("BANYAN_NODE_RANK"), 0),
                id.get("jobid"), pmi, env.get("BANYAN_PROCTABLE"));
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** Index of this rank among the ranks of its host. */
    public int localRank() {
        return localRank;
    }

    /** Index of this rank's host in the job's host list. */
    public int nodeRank() {
        return nodeRank;
    }

    /** The job's key-value space name, the same for every rank of the job. */
    public String jobId() {
        return jobId;
    }

    /** Puts {@code key} for this rank; other ranks see it after the next {@link #commit()} and fence. */
    public synchronized void put(String key, String value) {
        checkOpen();
        if (key == null || key.isEmpty() || key.length() > MAX_KEY || key.contains(";") || key.contains("=")) {
            throw new IllegalArgumentException("key must be 1 to " + MAX_KEY + " characters without ';' or '=': " + key);
        }
        if (value == null || value.length() > MAX_VALUE) {
            throw new IllegalArgumentException("value must be at most " + MAX_VALUE + " characters");
        }
        uncommitted.put(key, value);
    }

    /** Sends the puts made since the last commit to the daemon. */
    public synchronized void commit() {
        checkOpen();
        List<CompletableFuture<Map<String, String>>> acks = new ArrayList<>();
        for (Map.Entry<String, String> e : uncommitted.entrySet()) {
            acks.add(pmi.request("kvs-put", "key", wireKey(rank, e.getKey()), "value", e.getValue()));
        }
        uncommitted.clear();
        for (CompletableFuture<Map<String, String>> a : acks) {
            await(a, "kvs-put");
        }
    }

    /** Commits, then waits until every rank of the job has entered the fence. */
    public void fence() {
        commit();
        await(pmi.request("kvs-fence"), "kvs-fence");
    }

    /**
     * {@code key} as rank {@code owner} put it, waiting as long as it takes.
     *
     * @throws NoSuchElementException when that rank put no such key before the last fence
     */
    public String get(int owner, String key) {
        try {
            return getAsync(owner, key).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BanyanException("interrupted waiting for " + key + " of rank " + owner, e);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    /** As {@link #get(int, String)}, giving up after {@code timeout}. */
    public String get(int owner, String key, Duration timeout) throws TimeoutException {
        try {
            return getAsync(owner, key).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BanyanException("interrupted waiting for " + key + " of rank " + owner, e);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    /** {@code key} as rank {@code owner} put it, when it arrives; fails with NoSuchElementException. */
    public CompletableFuture<String> getAsync(int owner, String key) {
        checkOpen();
        if (owner < 0 || owner >= size) {
            throw new IllegalArgumentException("rank " + owner + " is not in the job (size " + size + ")");
        }
        return pmi.request("kvs-get", "jobid", jobId, "srcid", Integer.toString(owner), "key", wireKey(owner, key))
                .thenApply(r -> {
                    check(r, "kvs-get");
                    if (!"TRUE".equals(r.get("found"))) {
                        throw new NoSuchElementException("rank " + owner + " put no key '" + key + "' before the last fence");
                    }
                    return r.get("value");
                });
    }

    /** What the node-local process table says about {@code rank}: its host, local rank, ... */
    public synchronized Peer peer(int rank) {
        if (processTable == null) {
            throw new BanyanException("no node-local process table (BANYAN_PROCTABLE is not set)");
        }
        if (table == null) {
            table = new ProcessTableReader(Path.of(processTable));
        }
        return table.peer(rank);
    }

    /**
     * A secret of this job, known to its ranks and its daemons only (256 bits), for ranks that
     * talk to each other directly to prove they belong: handed by the rank's daemon over its
     * PMI connection, which only the job's user may open, never through the environment. Null
     * when the daemon has none to give.
     */
    public byte[] jobSecret() {
        checkOpen();
        Map<String, String> r = await(pmi.request("info-getjobattr", "key", "banyan-job-secret"), "info-getjobattr");
        String hex = "TRUE".equals(r.get("found")) ? r.get("value") : null;
        return hex == null ? null : java.util.HexFormat.of().parseHex(hex);
    }

    /**
     * Banyan's extension for malleable jobs (what banyan-comm's {@code Dmr} is built on): asks the
     * resource manager of the DVM queue this job runs in whether it should change size, given its
     * limits in hosts ({@code preferred} 0 for none). The answer, when it comes, is
     * {@code "expand|shrink|none,ranks,generation"}; it fails with {@link BanyanException} when the
     * job is not in a DVM's queue ({@code banyan dvm submit}) or the limits are invalid.
     */
    public CompletableFuture<String> resizeCheck(int min, int max, int factor, int preferred) {
        checkOpen();
        return pmi.request("banyan-resize-check", "min", Integer.toString(min), "max", Integer.toString(max), "factor",
                Integer.toString(factor), "preferred", Integer.toString(preferred))
                .thenApply(r -> check(r, "banyan-resize-check").get("decision"));
    }

    /**
     * Banyan's extension for malleable jobs: joins the world of {@code generation} as its rank
     * {@code rank} of {@code size}, giving this rank's {@code card} (its endpoints), and returns
     * every rank's card, in rank order, once all of them have joined ({@code seq} numbers the
     * joins of one generation, each a barrier).
     */
    public List<String> join(int generation, int seq, int rank, int size, String card) {
        return joinWorld(generation, seq, rank, size, card).cards();
    }

    /**
     * What a rank learns when its world of a generation is complete: every rank's card in rank
     * order, and the world's secret (256 bits) with which its ranks' direct connections prove they
     * belong; a world of a resized job holds ranks of several DVM jobs, whose {@link #jobSecret}s
     * differ. Null when the DVM gave none.
     */
    public record JoinedWorld(List<String> cards, byte[] secret) {}

    /** {@link #join}, with the world's secret. */
    public JoinedWorld joinWorld(int generation, int seq, int rank, int size, String card) {
        checkOpen();
        var first = await(pmi.request("banyan-join", "generation", Integer.toString(generation), "seq",
                Integer.toString(seq), "rank", Integer.toString(rank), "size", Integer.toString(size), "card", card),
                "banyan-join");
        StringBuilder all = new StringBuilder(first.get("cards"));
        int pages = first.get("pages") == null ? 1 : Integer.parseInt(first.get("pages"));
        for (int page = 1; page < pages; page++) { // a large world's cards do not fit one PMI-2 frame
            all.append(await(pmi.request("banyan-join-page", "page", Integer.toString(page)), "banyan-join-page").get("cards"));
        }
        String cards = all.toString();
        List<String> out = new ArrayList<>(size);
        int from = 0;
        for (int i = cards.indexOf('\f'); i >= 0; i = cards.indexOf('\f', from)) {
            out.add(cards.substring(from, i));
            from = i + 1;
        }
        byte[] secret = null;
        if (out.size() == size + 1 && out.getLast().startsWith(WORLD_SECRET)) {
            try {
                secret = java.util.HexFormat.of().parseHex(out.removeLast().substring(WORLD_SECRET.length()));
            } catch (IllegalArgumentException e) {
                throw new BanyanException("banyan-join returned a world secret that is not hex");
            }
        }
        if (out.size() != size) {
            throw new BanyanException("banyan-join returned " + out.size() + " cards for a world of " + size);
        }
        return new JoinedWorld(out, secret);
    }

    /**
     * How the DVM's join answer ends when it gives the world a secret: one more element after the
     * cards (the daemon's PMI protocol, documented with its server, PmiServer).
     */
    public static final String WORLD_SECRET = "world-secret=";

    /**
     * Starts {@code count} processes of {@code executable} with {@code args} as a new job of this
     * run, spawned by this job (the run's placement finds them slots; they inherit the job's
     * exported variables under {@code env}), and returns its job id once the head started it.
     * What MPI_Comm_spawn's launch is made of; the two jobs then meet through the name service.
     *
     * @throws BanyanException why the run cannot start it (no free slots, a bad request), in one line
     */
    public String spawn(String executable, List<String> args, int count, Map<String, String> env) {
        return spawn(List.of(new SpawnApp(executable, args, count, env, null)), List.of());
    }

    /**
     * One application of a spawn: {@code count} processes of {@code executable} with {@code args},
     * these variables on top of the job's exported ones, started in {@code wdir} (null: the run's
     * launch directory).
     */
    public record SpawnApp(String executable, List<String> args, int count, Map<String, String> env, String wdir) {
        public SpawnApp {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }
    }

    /**
     * As {@link #spawn(String, List, int, Map)} for several applications in one new job
     * (MPI_Comm_spawn_multiple: its ranks numbered across them), on the {@code hosts} named
     * (MPI_Info "host"; none: wherever the run places them).
     */
    public String spawn(List<SpawnApp> apps, List<String> hosts) {
        checkOpen();
        List<String> kv = new ArrayList<>();
        if (apps.size() != 1) {
            kv.add("appc");
            kv.add(Integer.toString(apps.size()));
        }
        for (int a = 0; a < apps.size(); a++) {
            SpawnApp app = apps.get(a);
            String p = apps.size() == 1 ? "" : "app" + a + ".";
            kv.addAll(List.of(p + "executable", app.executable(), p + "count", Integer.toString(app.count()), p + "argc",
                    Integer.toString(app.args().size())));
            for (int i = 0; i < app.args().size(); i++) {
                kv.add(p + "arg" + i);
                kv.add(app.args().get(i));
            }
            kv.add(p + "envc");
            kv.add(Integer.toString(app.env().size()));
            int i = 0;
            for (Map.Entry<String, String> e : app.env().entrySet()) {
                kv.add(p + "env" + i++);
                kv.add(e.getKey() + "=" + e.getValue());
            }
            if (app.wdir() != null) {
                kv.add(p + "wdir");
                kv.add(app.wdir());
            }
        }
        if (!hosts.isEmpty()) {
            kv.add("hosts");
            kv.add(String.join(",", hosts));
        }
        return await(pmi.request("banyan-spawn", kv.toArray(String[]::new)), "banyan-spawn").get("jobid");
    }

    /**
     * Publishes {@code name} at {@code port} in the run's name service (MPI_Publish_name): any job
     * of the run (or of the DVM) may look it up until it is unpublished.
     *
     * @throws BanyanException when the name is taken
     */
    public void publishName(String name, String port) {
        checkOpen();
        await(pmi.request("name-publish", "name", name, "port", port), "name-publish");
    }

    /** Removes a name this job published (MPI_Unpublish_name). */
    public void unpublishName(String name) {
        checkOpen();
        await(pmi.request("name-unpublish", "name", name), "name-unpublish");
    }

    /**
     * The port published under {@code name} (MPI_Lookup_name), waiting up to {@code wait} for it
     * to be published (zero: not at all; null: for as long as this job runs).
     *
     * @throws BanyanException when it is not published in time ({@code ... failed: timeout} or
     *                         {@code name_not_found})
     */
    public String lookupName(String name, Duration wait) {
        checkOpen();
        var reply = wait == null ? pmi.request("name-lookup", "name", name, "wait", "0")
                : wait.isZero() || wait.isNegative() ? pmi.request("name-lookup", "name", name)
                : pmi.request("name-lookup", "name", name, "wait", Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000)));
        Map<String, String> r = await(reply, "name-lookup");
        return r.get("port") != null ? r.get("port") : r.get("value");
    }

    /** Ends the whole job with {@code exitCode}, as MPI_Abort does; does not return. */
    public void abort(int exitCode, String message) {
        try {
            pmi.send("abort", "isworld", "TRUE", "exitcode", Integer.toString(exitCode), "message",
                    message == null ? "" : message);
        } catch (IOException e) {
            // the job is ending anyway
        }
        Runtime.getRuntime().halt(exitCode);
    }

    /** Finalize: tells the daemon this rank is done with it, and closes the connection. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            await(pmi.request("finalize"), "finalize");
        } finally {
            pmi.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Banyan handle is closed (finalized)");
        }
    }

    /** Keys are per rank on the wire: "R/key". */
    private static String wireKey(int owner, String key) {
        return owner + "/" + key;
    }

    private static Map<String, String> await(CompletableFuture<Map<String, String>> f, String what) {
        try {
            return check(f.get(), what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BanyanException("interrupted during " + what, e);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    private static Map<String, String> check(Map<String, String> reply, String what) {
        if (!"0".equals(reply.get("rc"))) {
            throw new BanyanException(what + " failed: " + reply.getOrDefault("errmsg", "rc " + reply.get("rc")));
        }
        return reply;
    }

    private static RuntimeException unwrap(ExecutionException e) {
        return e.getCause() instanceof RuntimeException r ? r : new BanyanException(e.getCause().toString(), e.getCause());
    }

    private static int intOr(String s, int fallback) {
        try {
            return s == null ? fallback : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
