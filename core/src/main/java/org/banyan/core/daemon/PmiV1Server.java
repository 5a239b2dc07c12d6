package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.banyan.core.job.Modex;
import org.banyan.core.job.RankMap;
import org.banyan.core.pmi.PmiCommand;
import org.banyan.core.pmi.PmiV1Codec;
import org.banyan.core.wire.OverlayMessage;

/**
 * The PMI-1 server of one daemon, serving the ranks local to it. Sans-I/O: lines in, actions out.
 *
 * <p>Replies, as MPICH's simple PMI client and Hydra's proxy exchange them:
 * <pre>
 * cmd=initack pmiid=R            -> cmd=initack / cmd=set size=N / cmd=set rank=R / cmd=set debug=0
 * cmd=init pmi_version=1 ...     -> cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 * cmd=get_maxes                  -> cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024
 * cmd=get_appnum                 -> cmd=appnum appnum=A
 * cmd=get_universe_size          -> cmd=universe_size size=N
 * cmd=get_my_kvsname             -> cmd=my_kvsname kvsname=K
 * cmd=put kvsname= key= value=   -> cmd=put_result rc=0 msg=success
 * cmd=get kvsname= key=          -> cmd=get_result rc=0 msg=success value=V
 *                                   (missing: rc=-1 msg=key_KEY_not_found value=unknown);
 *                                   in lazy modex, a key held by another daemon is fetched from
 *                                   it first, and kept
 * cmd=barrier_in                 -> cmd=barrier_out, once every local rank has entered and the
 *                                   fence has gathered every daemon's puts up the tree
 * cmd=abort exitcode=C message=M -> (no reply; the head ends the job)
 * cmd=finalize                   -> cmd=finalize_ack
 * anything else                  -> cmd=NAME_result rc=-1 msg=unknown_command_NAME
 * </pre>
 */
public final class PmiV1Server {
    static final int KVSNAME_MAX = 256;
    static final int KEYLEN_MAX = 64;
    static final int VALLEN_MAX = 1024;

    private final RankMap map;
    private final Set<Integer> localRanks;
    private final Consumer<DaemonAction> out;
    private final BiConsumer<Map<String, String>, Map<String, Integer>> localFenceReady;
    private final BiConsumer<Integer, String> fetch;
    private final int daemonId;
    private final boolean lazy;
    /**
     * What fences brought, newest last, kept as received rather than copied into one table: a
     * release may hold millions of keys, and the simulator's daemons all share one.
     */
    private final List<Map<String, String>> fencedValues = new ArrayList<>();
    /** Lazy modex: which daemon holds each key put before a fence, per fence. */
    private final List<Map<String, Integer>> fencedOwners = new ArrayList<>();
    /** Lazy modex: PMI connections waiting for a key being fetched. */
    private final Map<String, List<Integer>> waitingFor = new HashMap<>();
    private final Map<Integer, Integer> rankOfConn = new HashMap<>();
    private final Map<String, String> kvs = new HashMap<>();
    private Map<String, String> unfencedPuts = new LinkedHashMap<>();
    private final List<Integer> barrierConns = new ArrayList<>();
    private final Set<Integer> barrierRanks = new java.util.HashSet<>();
    private final Set<Integer> endedRanks = new java.util.HashSet<>();
    private boolean fenceInFlight;
    private int fenceSeq;

    /**
     * @param localFenceReady told when every local rank has entered a barrier, with the puts made
     *                        since the last fence (full modex) or the keys put and this daemon's
     *                        id (lazy); the daemon aggregates that with its children
     * @param fetch           lazy modex: asked for a key's value, held by the daemon given
     */
    PmiV1Server(RankMap map, Set<Integer> localRanks, int daemonId, Consumer<DaemonAction> out,
                BiConsumer<Map<String, String>, Map<String, Integer>> localFenceReady,
                BiConsumer<Integer, String> fetch) {
        this.map = map;
        this.localRanks = localRanks;
        this.daemonId = daemonId;
        this.lazy = map.job().modex() == Modex.LAZY;
        this.out = out;
        this.localFenceReady = localFenceReady;
        this.fetch = fetch;
        kvs.put("PMI_process_mapping", map.processMapping());
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
                } else {
                    reply(conn, PmiV1Codec.reply("response_to_init", "pmi_version", "1", "pmi_subversion", "1",
                            "rc", "-1", "msg", "only_pmi_version_1_is_served"));
                }
            }
            case "get_maxes" -> reply(conn, PmiV1Codec.reply("maxes", "kvsname_max", str(KVSNAME_MAX),
                    "keylen_max", str(KEYLEN_MAX), "vallen_max", str(VALLEN_MAX)));
            case "get_appnum" -> reply(conn, PmiV1Codec.reply("appnum", "appnum",
                    str(rank == null ? 0 : map.appOf(rank))));
            case "get_universe_size" -> reply(conn, PmiV1Codec.reply("universe_size", "size", str(map.size())));
            case "get_my_kvsname" -> reply(conn, PmiV1Codec.reply("my_kvsname", "kvsname", map.job().kvsName()));
            case "put" -> put(conn, cmd);
            case "get" -> get(conn, cmd);
            case "barrier_in" -> barrierIn(conn, rank);
            case "abort" -> out.accept(new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(
                    rank == null ? -1 : rank, cmd.getInt("exitcode", 1), orEmpty(cmd.get("message")))));
            case "finalize" -> reply(conn, PmiV1Codec.reply("finalize_ack"));
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

    private void put(int conn, PmiCommand cmd) {
        String key = cmd.get("key");
        String value = cmd.get("value");
        if (key == null || value == null) {
            reply(conn, PmiV1Codec.reply("put_result", "rc", "-1", "msg", "put_needs_key_and_value"));
        } else if (key.length() > KEYLEN_MAX || value.length() > VALLEN_MAX) {
            reply(conn, PmiV1Codec.reply("put_result", "rc", "-1", "msg", "key_or_value_too_long"));
        } else {
            kvs.put(key, value);
            unfencedPuts.put(key, value);
            reply(conn, PmiV1Codec.reply("put_result", "rc", "0", "msg", "success"));
        }
    }

    private void get(int conn, PmiCommand cmd) {
        String key = cmd.get("key");
        String value = key == null ? null : valueOf(key);
        Integer owner = key == null || value != null ? null : ownerOf(key);
        if (value == null && lazy && owner != null && owner != daemonId) {
            List<Integer> waiting = waitingFor.get(key);
            if (waiting == null) {
                waitingFor.put(key, new ArrayList<>(List.of(conn)));
                fetch.accept(owner, key);
            } else {
                waiting.add(conn);
            }
            return;
        }
        getResult(conn, key, value);
    }

    private void getResult(int conn, String key, String value) {
        if (value == null) {
            reply(conn, PmiV1Codec.reply("get_result", "rc", "-1", "msg", "key_" + key + "_not_found",
                    "value", "unknown"));
        } else {
            reply(conn, PmiV1Codec.reply("get_result", "rc", "0", "msg", "success", "value", value));
        }
    }

    /** Lazy modex: the value of a key this daemon asked its owner for (null: the owner has none). */
    void onFetched(String key, String value) {
        if (value != null) {
            kvs.put(key, value);
        }
        List<Integer> waiting = waitingFor.remove(key);
        if (waiting != null) {
            for (int conn : waiting) {
                getResult(conn, key, value);
            }
        }
    }

    /** What this daemon answers another one's fetch with: the value a local rank put, or one it knows. */
    String localValue(String key) {
        return valueOf(key);
    }

    private String valueOf(String key) {
        String v = kvs.get(key);
        for (int i = fencedValues.size() - 1; v == null && i >= 0; i--) {
            v = fencedValues.get(i).get(key);
        }
        return v;
    }

    private Integer ownerOf(String key) {
        for (int i = fencedOwners.size() - 1; i >= 0; i--) {
            Integer o = fencedOwners.get(i).get(key);
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    private void barrierIn(int conn, Integer rank) {
        if (rank == null) {
            reply(conn, PmiV1Codec.reply("barrier_out", "rc", "-1", "msg", "barrier_before_initack"));
            return;
        }
        barrierConns.add(conn);
        barrierRanks.add(rank);
        maybeEnterFence();
    }

    /** A local rank ended: it no longer holds up a barrier. */
    void onRankEnded(int rank) {
        endedRanks.add(rank);
        rankOfConn.values().remove(rank);
        maybeEnterFence();
    }

    void onConnClosed(int conn) {
        rankOfConn.remove(conn);
        barrierConns.remove(Integer.valueOf(conn));
    }

    private void maybeEnterFence() {
        if (fenceInFlight || barrierRanks.isEmpty()) {
            return;
        }
        for (int r : localRanks) {
            if (!barrierRanks.contains(r) && !endedRanks.contains(r)) {
                return;
            }
        }
        fenceInFlight = true;
        Map<String, String> puts = unfencedPuts;
        unfencedPuts = new LinkedHashMap<>();
        if (lazy) {
            Map<String, Integer> mine = new LinkedHashMap<>();
            for (String key : puts.keySet()) {
                mine.put(key, daemonId);
            }
            localFenceReady.accept(Map.of(), mine);
        } else {
            localFenceReady.accept(puts, Map.of());
        }
    }

    void onFenceRelease(OverlayMessage.FenceRelease release) {
        if (!fenceInFlight || release.seq() != fenceSeq) {
            return;
        }
        if (!release.puts().isEmpty()) {
            fencedValues.add(release.puts());
        }
        if (!release.owners().isEmpty()) {
            fencedOwners.add(release.owners());
        }
        String line = PmiV1Codec.reply("barrier_out");
        for (int conn : barrierConns) {
            reply(conn, line);
        }
        barrierConns.clear();
        barrierRanks.clear();
        fenceInFlight = false;
        fenceSeq++;
    }

    private void reply(int conn, String line) {
        out.accept(new DaemonAction.PmiReply(conn, line));
    }

    private static String str(int v) {
        return Integer.toString(v);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
