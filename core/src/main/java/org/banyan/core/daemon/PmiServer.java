package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.Modex;
import org.banyan.core.job.RankMap;
import org.banyan.core.pmi.PmiCommand;
import org.banyan.core.pmi.PmiV1Codec;
import org.banyan.core.pmi.PmiV2Codec;
import org.banyan.core.wire.OverlayMessage;

/**
 * The PMI server of one daemon, serving the ranks local to it over PMI-1 and PMI-2. Sans-I/O:
 * requests in, actions out. Every connection starts with PMI-1 lines; {@code cmd=init
 * pmi_version=2} switches it to PMI-2 frames ({@link PmiV2Codec}).
 *
 * <p>PMI-1, as MPICH's simple PMI client and Hydra's proxy exchange it:
 * <pre>
 * cmd=initack pmiid=R            -> cmd=initack / cmd=set size=N / cmd=set rank=R / cmd=set debug=0
 * cmd=init pmi_version=1 ...     -> cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 * cmd=init pmi_version=2 ...     -> cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0, then PMI-2
 * cmd=get_maxes                  -> cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024
 * cmd=get_appnum                 -> cmd=appnum appnum=A
 * cmd=get_universe_size          -> cmd=universe_size size=N
 * cmd=get_my_kvsname             -> cmd=my_kvsname kvsname=K
 * cmd=put kvsname= key= value=   -> cmd=put_result rc=0 msg=success
 * cmd=get kvsname= key=          -> cmd=get_result rc=0 msg=success value=V
 *                                   (missing: rc=-1 msg=key_KEY_not_found value=unknown)
 * cmd=barrier_in                 -> cmd=barrier_out, once the fence is complete over the tree
 * cmd=publish_name service= port=-> cmd=publish_result rc=0 info=ok    (taken: rc=-1 info=name_in_use)
 * cmd=unpublish_name service=    -> cmd=unpublish_result rc=0 info=ok  (rc=-1 info=name_not_found)
 * cmd=lookup_name service=       -> cmd=lookup_result rc=0 info=ok port=P (rc=-1 info=name_not_found)
 * cmd=abort exitcode=C message=M -> (no reply; the head ends the job)
 * cmd=finalize                   -> cmd=finalize_ack
 * mcmd=spawn ... endcmd          -> cmd=spawn_result rc=-1 errmsg=..., once, after the block whose
 *                                   spawnssofar reaches totspawns (spawn is served to PMIx programs only)
 * anything else                  -> cmd=NAME_result rc=-1 msg=unknown_command_NAME
 * </pre>
 *
 * <p>PMI-2 (bodies shown without their length field), as Hydra answers them:
 * <pre>
 * fullinit;pmirank=R|srcid=R;threaded=..  -> fullinit-response;pmi-version=2;pmi-subversion=0;rank=R;size=N;
 *                                            appnum=A;debugged=FALSE;pmiverbose=FALSE;rc=0
 * job-getid                               -> job-getid-response;jobid=K;rc=0
 * kvs-put;key=;value=                     -> kvs-put-response;rc=0
 * kvs-fence                               -> kvs-fence-response;rc=0, once the fence is complete
 * kvs-get;jobid=;srcid=S;key=             -> kvs-get-response;found=TRUE;value=V;rc=0 (found=FALSE;rc=0)
 * info-putnodeattr;key=;value=            -> info-putnodeattr-response;rc=0
 * info-getnodeattr;key=;wait=TRUE|FALSE   -> info-getnodeattr-response;found=TRUE;value=V;rc=0 (with wait,
 *                                            held until a rank of this host puts the key)
 * info-getjobattr;key=                    -> info-getjobattr-response;found=TRUE;value=V;rc=0 for
 *                                            PMI_process_mapping, universeSize and banyan-job-secret (the
 *                                            job's secret for ranks that talk directly, hex; only the job's
 *                                            user reaches this server)
 * name-publish;name=;port=                -> name-publish-response;rc=0      (taken: rc=1;errmsg=name_in_use)
 * name-unpublish;name=                    -> name-unpublish-response;rc=0    (rc=1;errmsg=name_not_found)
 * name-lookup;name=                       -> name-lookup-response;port=P;value=P;rc=0 (rc=1;errmsg=name_not_found)
 * name-lookup;name=;wait=S                -> the same, held until the name is published (rc=1;errmsg=timeout
 *                                            after S seconds; S=0: while the job runs)
 * abort;isworld=;msg=|exitcode=;message=  -> (no reply; the head ends the job)
 * banyan-...                              -> Banyan's own commands, listed with {@link PmiNames}
 * finalize                                -> finalize-response;rc=0
 * anything else                           -> NAME-response;rc=1;errmsg=unknown_command_NAME
 * </pre>
 *
 * <p>A PMI-2 request that carries {@code thrid} (a threaded client's request id) gets it back in
 * its reply, so a client may have several requests outstanding and match answers that come out
 * of order (a lazy get, a fence, a wait). Published names are the job's, kept by the head:
 * requests travel the routing overlay.
 */
public final class PmiServer {
    static final int KVSNAME_MAX = 256;
    static final int KEYLEN_MAX = PmiKeyValues.KEYLEN_MAX;
    static final int VALLEN_MAX = PmiKeyValues.VALLEN_MAX;

    /** What the server needs from its daemon. */
    interface Daemon {
        /** Every local rank entered the fence: the puts since the last one (full) or the keys put (lazy). */
        void fenceReady(Map<String, String> puts, Map<String, Integer> owners);

        /** Lazy modex: fetch {@code key}'s value from daemon {@code owner}; answer with {@link #onFetched}. */
        void fetch(int owner, String key);

        /** Ask the head's name service; answer with {@link #onNameReply}. */
        void nameRequest(int request, int op, String name, String port);

        /** Ask the head to start a job of {@code apps} spawned by this one, on {@code hosts} (none: any); answer with {@link #onNameReply}. */
        void spawn(int request, List<AppContext> apps, List<String> hosts);

        /** The job's secret for its ranks (hex), or null when the daemon has none. */
        default String jobSecret() {
            return null;
        }
    }

    /** A PMI connection waiting for an answer, how it speaks, and the PMI-2 thrid to echo (or null). */
    record Waiter(int conn, int version, String thrid) {
        Waiter(int conn, int version) {
            this(conn, version, null);
        }
    }

    private final RankMap map;
    private final Set<Integer> localRanks;
    private final int daemonId;
    private final boolean lazy;
    private final Consumer<DaemonAction> out;
    private final Daemon daemon;
    private final Map<Integer, Integer> rankOfConn = new HashMap<>();
    /** Connections that switched to PMI-2. */
    private final Set<Integer> v2 = new HashSet<>();
    private final PmiKeyValues values;
    private final Map<String, List<Waiter>> waitingFor = new HashMap<>();
    private final Map<String, String> nodeAttributes = new HashMap<>();
    private final Map<String, List<Waiter>> waitingForNodeAttribute = new HashMap<>();
    private final PmiNames names;
    /**
     * Characters of a join's answer per frame: a frame's body is at most 64 KiB, and escaping may
     * double every ';' of a card.
     */
    static final int JOIN_PAGE = 30_000;
    private final List<Waiter> inFence = new ArrayList<>();
    private final Set<Integer> fenceRanks = new HashSet<>();
    private final Set<Integer> endedRanks = new HashSet<>();
    /** Ranks that sent PMI's finalize (MPI_Finalize, a banyan-comm world's close). */
    private final Set<Integer> finalizedRanks = new HashSet<>();
    private boolean fenceInFlight;
    private int fenceSeq;

    PmiServer(RankMap map, Set<Integer> localRanks, int daemonId, Consumer<DaemonAction> out, Daemon daemon) {
        this.map = map;
        this.localRanks = localRanks;
        this.daemonId = daemonId;
        this.lazy = map.job().modex() == Modex.LAZY;
        this.out = out;
        this.daemon = daemon;
        this.values = new PmiKeyValues(map.processMapping());
        this.names = new PmiNames(daemon, new PmiNames.Replies() {
            @Override
            public void now(int conn, String text) {
                reply(conn, text);
            }

            @Override
            public void later(Waiter w, String frame) {
                reply(w, frame);
            }
        });
    }

    // --- PMI-1 ---------------------------------------------------------------------------

    /** The rank connection {@code conn} said it is, or null while it has not. */
    Integer rankOf(int conn) {
        return rankOfConn.get(conn);
    }

    void onLine(int conn, String line) {
        PmiCommand cmd = PmiV1Codec.parse(line);
        if (cmd == null) {
            reply(conn, PmiV1Codec.reply("error", "rc", "-1", "msg", "no_cmd_in_request"));
            return;
        }
        Integer rank = rankOfConn.get(conn);
        switch (cmd.name()) {
            case "initack" -> initack(conn, cmd);
            case "init" -> {
                int version = cmd.getInt("pmi_version", 1);
                if (version == 1) {
                    reply(conn, PmiV1Codec.reply("response_to_init", "pmi_version", "1", "pmi_subversion", "1",
                            "rc", "0"));
                } else if (version == 2) {
                    v2.add(conn);
                    reply(conn, PmiV1Codec.reply("response_to_init", "pmi_version", "2", "pmi_subversion", "0",
                            "rc", "0"));
                } else {
                    reply(conn, PmiV1Codec.reply("response_to_init", "pmi_version", "2", "pmi_subversion", "0",
                            "rc", "-1", "msg", "pmi_versions_1_and_2_are_served"));
                }
            }
            case "get_maxes" -> reply(conn, PmiV1Codec.reply("maxes", "kvsname_max", str(KVSNAME_MAX),
                    "keylen_max", str(KEYLEN_MAX), "vallen_max", str(VALLEN_MAX)));
            case "get_appnum" -> reply(conn, PmiV1Codec.reply("appnum", "appnum",
                    str(rank == null ? 0 : map.appOf(rank))));
            case "get_universe_size" -> reply(conn, PmiV1Codec.reply("universe_size", "size", str(map.universeSize())));
            case "get_my_kvsname" -> reply(conn, PmiV1Codec.reply("my_kvsname", "kvsname", map.job().kvsName()));
            case "put" -> {
                String error = values.put(cmd.get("key"), cmd.get("value"));
                reply(conn, error == null ? PmiV1Codec.reply("put_result", "rc", "0", "msg", "success")
                        : PmiV1Codec.reply("put_result", "rc", "-1", "msg", error));
            }
            case "get" -> get(new Waiter(conn, 1), cmd.get("key"), -1);
            case "barrier_in" -> {
                if (rank == null) {
                    reply(conn, PmiV1Codec.reply("barrier_out", "rc", "-1", "msg", "barrier_before_initack"));
                } else {
                    enterFence(new Waiter(conn, 1), rank);
                }
            }
            case "publish_name" -> names.ask(new Waiter(conn, 1), 0, cmd.get("service"), cmd.get("port"));
            case "unpublish_name" -> names.ask(new Waiter(conn, 1), 1, cmd.get("service"), null);
            case "lookup_name" -> names.ask(new Waiter(conn, 1), 2, cmd.get("service"), null);
            case "abort" -> out.accept(new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(
                    map.job().jobId(), rank == null ? -1 : rank, cmd.getInt("exitcode", 1), orEmpty(cmd.get("message")))));
            case "finalize" -> {
                finalized(rank);
                reply(conn, PmiV1Codec.reply("finalize_ack"));
            }
            case "mcmd:spawn" -> {
                if (cmd.getInt("spawnssofar", 1) >= cmd.getInt("totspawns", 1)) {
                    reply(conn, PmiV1Codec.reply("spawn_result", "rc", "-1",
                            "errmsg", "banyan_serves_MPI_Comm_spawn_to_PMIx_programs_only"));
                }
            }
            default -> reply(conn, PmiV1Codec.reply(cmd.name().replace(':', '_') + "_result", "rc", "-1",
                    "msg", "unknown_command_" + cmd.name().replace(':', '_')));
        }
    }

    private void initack(int conn, PmiCommand cmd) {
        int rank = cmd.getInt("pmiid", -1);
        if (!localRanks.contains(rank)) {
            reply(conn, PmiV1Codec.reply("initack", "rc", "-1", "msg", "pmiid_" + rank + "_is_not_a_rank_of_this_host"));
            return;
        }
        rankOfConn.put(conn, rank);
        reply(conn, PmiV1Codec.reply("initack"));
        reply(conn, PmiV1Codec.reply("set", "size", str(map.size())));
        reply(conn, PmiV1Codec.reply("set", "rank", str(rank)));
        reply(conn, PmiV1Codec.reply("set", "debug", "0"));
    }

    // --- PMI-2 ---------------------------------------------------------------------------

    void onFrame(int conn, String body) {
        PmiCommand cmd = PmiV2Codec.parse(body);
        if (cmd == null) {
            reply(conn, PmiV2Codec.frame("error-response", "rc", "1", "errmsg", "no_cmd_in_request"));
            return;
        }
        v2.add(conn);
        Integer rank = rankOfConn.get(conn);
        thrid = cmd.get("thrid");
        Waiter self = new Waiter(conn, 2, thrid);
        switch (cmd.name()) {
            case "fullinit" -> fullinit(conn, cmd);
            case "job-getid" -> reply(conn, PmiV2Codec.frame("job-getid-response", "jobid", map.job().kvsName(),
                    "rc", "0"));
            case "kvs-put" -> {
                String error = values.put(cmd.get("key"), cmd.get("value"));
                reply(conn, error == null ? PmiV2Codec.frame("kvs-put-response", "rc", "0")
                        : PmiV2Codec.frame("kvs-put-response", "rc", "1", "errmsg", error));
            }
            case "kvs-get" -> get(self, cmd.get("key"), cmd.getInt("srcid", -1));
            case "kvs-fence" -> {
                if (rank == null) {
                    reply(conn, PmiV2Codec.frame("kvs-fence-response", "rc", "1", "errmsg", "fence_before_fullinit"));
                } else {
                    enterFence(self, rank);
                }
            }
            case "info-putnodeattr" -> putNodeAttribute(conn, cmd.get("key"), cmd.get("value"));
            case "info-getnodeattr" -> getNodeAttribute(self, cmd.get("key"), "TRUE".equalsIgnoreCase(cmd.get("wait")));
            case "info-getjobattr" -> {
                String value = jobAttribute(cmd.get("key"));
                reply(conn, value == null ? PmiV2Codec.frame("info-getjobattr-response", "found", "FALSE", "rc", "0")
                        : PmiV2Codec.frame("info-getjobattr-response", "found", "TRUE", "value", value, "rc", "0"));
            }
            case "name-publish" -> names.ask(self, 0, cmd.get("name"), cmd.get("port"));
            case "name-unpublish" -> names.ask(self, 1, cmd.get("name"), null);
            case "name-lookup" -> {
                String wait = cmd.get("wait");
                names.ask(self, wait == null ? 2 : OverlayMessage.NameRequest.LOOKUP_WAIT, cmd.get("name"), wait);
            }
            case "banyan-spawn" -> names.spawn(self, cmd);
            case "banyan-resize-check" -> names.ask(self, OverlayMessage.NameRequest.RESIZE_CHECK, cmd.get("min") + "," + cmd.get("max") + "," + cmd.get("factor")
                    + "," + cmd.get("preferred"), null);
            case "banyan-join-page" -> names.page(conn, cmd.getInt("page", -1));
            case "banyan-join" -> names.ask(self, OverlayMessage.NameRequest.JOIN, cmd.get("generation") + "," + cmd.get("seq") + "," + cmd.get("rank") + ","
                    + cmd.get("size"), orEmpty(cmd.get("card")));
            case "abort" -> {
                String message = cmd.get("msg") != null ? cmd.get("msg") : orEmpty(cmd.get("message"));
                out.accept(new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(map.job().jobId(),
                        rank == null ? -1 : rank,
                        cmd.getInt("exitcode", 1), message)));
            }
            case "finalize" -> {
                finalized(rankOfConn.get(conn));
                reply(conn, PmiV2Codec.frame("finalize-response", "rc", "0"));
            }
            default -> reply(conn, PmiV2Codec.frame(cmd.name() + "-response", "rc", "1",
                    "errmsg", "unknown_command_" + cmd.name()));
        }
        thrid = null;
    }

    /** The thrid of the PMI-2 request being handled, echoed by {@link #reply} in immediate answers. */
    private String thrid;

    private void fullinit(int conn, PmiCommand cmd) {
        // Hydra's client names itself with pmirank, Slurm's libpmi2 with srcid (its PMI_ID).
        int rank = cmd.getInt("pmirank", cmd.getInt("srcid", cmd.getInt("pmiid", -1)));
        if (!localRanks.contains(rank)) {
            reply(conn, PmiV2Codec.frame("fullinit-response", "rc", "1",
                    "errmsg", "rank_" + rank + "_is_not_a_rank_of_this_host"));
            return;
        }
        rankOfConn.put(conn, rank);
        reply(conn, PmiV2Codec.frame("fullinit-response", "pmi-version", "2", "pmi-subversion", "0",
                "rank", str(rank), "size", str(map.size()), "appnum", str(map.appOf(rank)),
                "debugged", "FALSE", "pmiverbose", "FALSE", "rc", "0"));
    }

    private String jobAttribute(String key) {
        if (key == null) {
            return null;
        }
        return switch (key) {
            case "PMI_process_mapping" -> map.processMapping();
            case "universeSize" -> str(map.universeSize());
            case "banyan-job-secret" -> daemon.jobSecret();
            default -> null;
        };
    }

    private void putNodeAttribute(int conn, String key, String value) {
        if (key == null || value == null) {
            reply(conn, PmiV2Codec.frame("info-putnodeattr-response", "rc", "1", "errmsg", "needs_key_and_value"));
            return;
        }
        nodeAttributes.put(key, value);
        reply(conn, PmiV2Codec.frame("info-putnodeattr-response", "rc", "0"));
        List<Waiter> waiting = waitingForNodeAttribute.remove(key);
        if (waiting != null) {
            for (Waiter w : waiting) {
                reply(w, PmiV2Codec.frame("info-getnodeattr-response", "found", "TRUE", "value", value, "rc", "0"));
            }
        }
    }

    private void getNodeAttribute(Waiter w, String key, boolean wait) {
        String value = key == null ? null : nodeAttributes.get(key);
        if (value != null) {
            reply(w, PmiV2Codec.frame("info-getnodeattr-response", "found", "TRUE", "value", value, "rc", "0"));
        } else if (wait && key != null) {
            waitingForNodeAttribute.computeIfAbsent(key, k -> new ArrayList<>()).add(w);
        } else {
            reply(w, PmiV2Codec.frame("info-getnodeattr-response", "found", "FALSE", "rc", "0"));
        }
    }

    // --- both ----------------------------------------------------------------------------

    /**
     * Answers a get, or fetches the value first (lazy modex): from the daemon of {@code srcRank}
     * when the client names the rank that put it (PMI-2's srcid), else from the daemon the last
     * fences say holds the key.
     */
    private void get(Waiter w, String key, int srcRank) {
        String value = key == null ? null : values.valueOf(key);
        if (value == null && lazy && key != null) {
            Integer owner = srcRank >= 0 && srcRank < map.size() ? Integer.valueOf(map.nodeOf(srcRank)) : values.ownerOf(key);
            if (owner != null && owner != daemonId) {
                List<Waiter> waiting = waitingFor.get(key);
                if (waiting == null) {
                    waitingFor.put(key, new ArrayList<>(List.of(w)));
                    daemon.fetch(owner, key);
                } else {
                    waiting.add(w);
                }
                return;
            }
        }
        getResult(w, key, value);
    }

    private void getResult(Waiter w, String key, String value) {
        if (w.version() == 2) {
            reply(w, value == null ? PmiV2Codec.frame("kvs-get-response", "found", "FALSE", "rc", "0")
                    : PmiV2Codec.frame("kvs-get-response", "found", "TRUE", "value", value, "rc", "0"));
        } else if (value == null) {
            reply(w.conn(), PmiV1Codec.reply("get_result", "rc", "-1", "msg", "key_" + key + "_not_found",
                    "value", "unknown"));
        } else {
            reply(w.conn(), PmiV1Codec.reply("get_result", "rc", "0", "msg", "success", "value", value));
        }
    }

    /** Lazy modex: the value of a key this daemon asked its owner for (null: the owner has none). */
    void onFetched(String key, String value) {
        if (value != null) {
            values.fetched(key, value);
        }
        List<Waiter> waiting = waitingFor.remove(key);
        if (waiting != null) {
            for (Waiter w : waiting) {
                getResult(w, key, value);
            }
        }
    }

    /** What this daemon answers another one's fetch with: the value a local rank put, or one it knows. */
    String localValue(String key) {
        return values.valueOf(key);
    }

    private void enterFence(Waiter w, int rank) {
        inFence.add(w);
        fenceRanks.add(rank);
        maybeEnterFence();
    }

    private void finalized(Integer rank) {
        if (rank != null) {
            finalizedRanks.add(rank);
        }
    }

    /** Whether local rank {@code rank} sent PMI's finalize. */
    boolean hasFinalized(int rank) {
        return finalizedRanks.contains(rank);
    }

    /** A local rank ended: it no longer holds up a fence. */
    void onRankEnded(int rank) {
        endedRanks.add(rank);
        rankOfConn.values().remove(rank);
        maybeEnterFence();
    }

    /** The head's answer to a name request: {@code ok}, and the port for a lookup, or why not. */
    void onNameReply(int request, int op, boolean ok, String portOrReason) {
        names.answered(request, op, ok, portOrReason);
    }

    void onConnClosed(int conn) {
        names.closed(conn);
        rankOfConn.remove(conn);
        v2.remove(conn);
        inFence.removeIf(w -> w.conn() == conn);
    }

    private void maybeEnterFence() {
        if (fenceInFlight || fenceRanks.isEmpty()) {
            return;
        }
        for (int r : localRanks) {
            if (!fenceRanks.contains(r) && !endedRanks.contains(r)) {
                return;
            }
        }
        fenceInFlight = true;
        Map<String, String> puts = values.takeUnfenced();
        if (lazy) {
            Map<String, Integer> mine = new LinkedHashMap<>();
            for (String key : puts.keySet()) {
                mine.put(key, daemonId);
            }
            daemon.fenceReady(Map.of(), mine);
        } else {
            daemon.fenceReady(puts, Map.of());
        }
    }

    void onFenceRelease(OverlayMessage.FenceRelease release) {
        if (!fenceInFlight || release.seq() != fenceSeq) {
            return;
        }
        values.fenced(release);
        for (Waiter w : inFence) {
            if (w.version() == 2) {
                reply(w, PmiV2Codec.frame("kvs-fence-response", "rc", "0"));
            } else {
                reply(w.conn(), PmiV1Codec.reply("barrier_out"));
            }
        }
        inFence.clear();
        fenceRanks.clear();
        fenceInFlight = false;
        fenceSeq++;
    }

    private void reply(int conn, String text) {
        out.accept(new DaemonAction.PmiReply(conn, thrid != null && v2.contains(conn) ? withThrid(text, thrid) : text));
    }

    /** A deferred PMI-2 answer: the thrid of the request it answers goes with it. */
    private void reply(Waiter w, String frame) {
        out.accept(new DaemonAction.PmiReply(w.conn(), w.thrid() != null ? withThrid(frame, w.thrid()) : frame));
    }

    /** Adds {@code thrid=T;} to a PMI-2 frame, right after its command. */
    private static String withThrid(String frame, String thrid) {
        String body = frame.substring(PmiV2Codec.HEADER);
        int afterCmd = body.indexOf(';') + 1;
        String with = body.substring(0, afterCmd) + "thrid=" + thrid.replace(";", ";;") + ";" + body.substring(afterCmd);
        return String.format("%6d", with.length()) + with;
    }

    private static String str(int v) {
        return Integer.toString(v);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
