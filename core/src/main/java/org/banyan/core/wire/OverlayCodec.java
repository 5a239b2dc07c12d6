package org.banyan.core.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.tree.TopologySpec;

/**
 * The one codec for {@link OverlayMessage}. All integers are big-endian.
 *
 * <pre>
 * frame   := length:u32 type:u8 body          length counts type and body
 * string  := n:u32 utf8[n]                    n = 0xFFFFFFFF encodes null
 * bytes   := n:u32 byte[n]
 * map     := n:u32 (key:string value:string){n}
 * list    := n:u32 string{n}
 *
 * type body
 * type                body                                                (job: jobId:u32 first, see below)
 *  1 DAEMON_HELLO    daemonId:u32 host:string pid:u64 contact:string
 *  2 LAUNCH_JOB      job   (the job as {@link JobWire} writes it)
 *  3 RANK_EXITED     jobId:u32 rank:u32 status:u32 note:string startMicros:u64 endMicros:u64 signaled:u8
 *                    (1: a signal ended it, status is 128 + the signal; 0: it exited with status)
 *  4 OUTPUT          jobId:u32 rank:u32 stream:u8 data:bytes
 *  5 STDIN_DATA      jobId:u32 rank:u32 (-2: every rank) data:bytes
 *  6 SIGNAL_RANKS    jobId:u32 signal:u32
 *  7 TERMINATE_JOB   jobId:u32 graceMillis:u32
 *  8 KILL_JOB        jobId:u32
 *  9 ABORT_REQUEST   jobId:u32 rank:u32 exitCode:u32 message:string
 * 10 FENCE_ENTER     jobId:u32 daemonId:u32 seq:u32 puts:map owners:ownermap
 * 11 FENCE_RELEASE   jobId:u32 seq:u32 puts:map owners:ownermap
 * 12 SHUTDOWN        (empty)
 * 13 ADOPT           topology:string vertices:u32 hostsBelow:intmap routing:string   (TopologySpec text forms)
 * 14 CONTACTS        contacts:intmap gpus:intmap   (gpus: daemonId -> "0,1", daemons with GPUs only)
 * 15 ALL_CONTACTS    contacts:intmap
 * 16 DAEMON_FAILED   daemonId:u32 host:string reason:string
 * 17 COLLECT_STATS   (empty)
 * 18 STATS           n:u32 (daemonId:u32 links:u32 sent:u64 received:u64 upMillis:u64 ranksMillis:u64
 *                           bytesSent:u64 bytesReceived:u64){n}
 * 19 OUTPUT_BATCH    n:u32 (jobId:u32 rank:u32 stream:u8 data:bytes){n}
 * 20 PEER_HELLO      daemonId:u32
 * 21 KVS_FETCH       jobId:u32 from:u32 to:u32 request:u32 key:string
 * 22 KVS_FETCHED     jobId:u32 from:u32 to:u32 request:u32 key:string value:string (null: no such key)
 * 23 NAME_REQUEST    jobId:u32 from:u32 to:u32 request:u32 op:u8 name:string port:string
 * 24 NAME_REPLY      jobId:u32 from:u32 to:u32 request:u32 op:u8 ok:u8 portOrReason:string
 * 25 RANKS_EXITED    n:u32 (jobId:u32 rank:u32 status:u32 note:string startMicros:u64 endMicros:u64 signaled:u8){n}
 * 26 RUN_TASKS       from:u32 to:u32 n:u32 (taskId:u32 executable:string args:list env:map sandbox:string
 *                    stdout:string stderr:string stdin:string after:u32){n}   (after: 0, or the task whose end starts it)
 * 27 SIGNAL_TASKS    from:u32 to:u32 n:u32 taskId:u32{n} signal:u32   (signal 0: withdraw the still queued)
 * 29 FORGET_JOB      jobId:u32
 * 30 LEAVE           from:u32 to:u32
 * 28 SPAWN_REQUEST   jobId:u32 from:u32 to:u32 request:u32 apps:u32 app{apps} hosts:list  (app as in LAUNCH_JOB)
 * 31 NAME_REPLIES    jobId:u32 from:u32 to:u32 n:u32 request:u32{n} op:u8 ok:u8 portOrReason:string  (one answer to n requests)
 * 32 STDIN_TAKEN     jobId:u32 rank:u32 bytes:u64   (-1: the rank takes no more)
 * 33 RANK_ALONE      jobId:u32 rank:u32 library:string evidence:string   (an MPI singleton in a larger job)
 * 34 KEEP_WARM       from:u32 to:u32 pool:u32 count:u32 executable:string args:list env:map workdir:string
 *                    (a DVM's queued job whose JVMs wait on an idle host for its expansions)
 * 35 DROP_WARM       from:u32 to:u32 pool:u32
 * 36 RANK_UNFINALIZED jobId:u32 rank:u32   (a rank that wired up exited 0 without finalizing)
 *
 * intmap   := n:u32 (key:u32 value:string){n}      daemon id -1 is the head
 * ownermap := n:u32 (key:string daemonId:u32){n}
 * </pre>
 */
public final class OverlayCodec {
    static final int DAEMON_HELLO = 1;
    static final int LAUNCH_JOB = 2;
    static final int RANK_EXITED = 3;
    static final int OUTPUT = 4;
    static final int STDIN_DATA = 5;
    static final int SIGNAL_RANKS = 6;
    static final int TERMINATE_JOB = 7;
    static final int KILL_JOB = 8;
    static final int ABORT_REQUEST = 9;
    static final int FENCE_ENTER = 10;
    static final int FENCE_RELEASE = 11;
    static final int SHUTDOWN = 12;
    static final int ADOPT = 13;
    static final int CONTACTS = 14;
    static final int ALL_CONTACTS = 15;
    static final int DAEMON_FAILED = 16;
    static final int COLLECT_STATS = 17;
    static final int STATS = 18;
    static final int OUTPUT_BATCH = 19;
    static final int PEER_HELLO = 20;
    static final int KVS_FETCH = 21;
    static final int KVS_FETCHED = 22;
    static final int NAME_REQUEST = 23;
    static final int NAME_REPLY = 24;
    static final int RANKS_EXITED = 25;
    static final int RUN_TASKS = 26;
    static final int SIGNAL_TASKS = 27;
    static final int SPAWN_REQUEST = 28;
    static final int FORGET_JOB = 29;
    static final int LEAVE = 30;
    static final int NAME_REPLIES = 31;
    static final int STDIN_TAKEN = 32;
    static final int RANK_ALONE = 33;
    static final int KEEP_WARM = 34;
    static final int DROP_WARM = 35;
    static final int RANK_UNFINALIZED = 36;

    /** Largest frame accepted, so a corrupt length cannot make a reader allocate gigabytes. */
    public static final int MAX_FRAME = 64 << 20;

    private OverlayCodec() {}

    /** Encodes a whole frame, length prefix included. */
    public static byte[] encode(OverlayMessage message) {
        WireWriter w = new WireWriter();
        w.u32(0); // length, patched below
        switch (message) {
            case OverlayMessage.DaemonHello m -> w.u8(DAEMON_HELLO).u32(m.daemonId()).string(m.host()).u64(m.pid())
                    .string(m.contact());
            case OverlayMessage.Adopt m -> w.u8(ADOPT).string(m.topology().toString()).u32(m.vertices())
                    .intMap(m.hostsBelow()).string(m.routing().toString());
            case OverlayMessage.PeerHello m -> w.u8(PEER_HELLO).u32(m.daemonId());
            case OverlayMessage.KvsFetch m -> w.u8(KVS_FETCH).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.request()).string(m.key());
            case OverlayMessage.NameRequest m -> w.u8(NAME_REQUEST).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.request()).u8(m.op())
                    .string(m.name()).string(m.port());
            case OverlayMessage.NameReply m -> w.u8(NAME_REPLY).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.request()).u8(m.op())
                    .u8(m.ok() ? 1 : 0).string(m.portOrReason());
            case OverlayMessage.NameReplies m -> {
                w.u8(NAME_REPLIES).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.requests().size());
                m.requests().forEach(w::u32);
                w.u8(m.op()).u8(m.ok() ? 1 : 0).string(m.portOrReason());
            }
            case OverlayMessage.SpawnRequest m -> {
                w.u8(SPAWN_REQUEST).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.request()).u32(m.apps().size());
                m.apps().forEach(app -> JobWire.writeApp(w, app));
                w.list(m.hosts());
            }
            case OverlayMessage.KvsFetched m -> w.u8(KVS_FETCHED).u32(m.jobId()).u32(m.from()).u32(m.to()).u32(m.request()).string(m.key())
                    .string(m.value());
            case OverlayMessage.Contacts m -> w.u8(CONTACTS).intMap(m.contacts()).intMap(m.gpus());
            case OverlayMessage.AllContacts m -> w.u8(ALL_CONTACTS).intMap(m.contacts());
            case OverlayMessage.DaemonFailed m -> w.u8(DAEMON_FAILED).u32(m.daemonId()).string(m.host()).string(m.reason());
            case OverlayMessage.CollectStats m -> w.u8(COLLECT_STATS);
            case OverlayMessage.OutputBatch m -> {
                w.u8(OUTPUT_BATCH).u32(m.chunks().size());
                for (OverlayMessage.Output o : m.chunks()) {
                    w.u32(o.jobId()).u32(o.rank()).u8(o.stream()).bytes(o.data());
                }
            }
            case OverlayMessage.Stats m -> {
                w.u8(STATS).u32(m.stats().size());
                for (Map.Entry<Integer, DaemonStats> e : m.stats().entrySet()) {
                    DaemonStats s = e.getValue();
                    w.u32(e.getKey()).u32(s.links()).u64(s.framesSent()).u64(s.framesReceived()).u64(s.upMillis())
                            .u64(s.ranksMillis()).u64(s.bytesSent()).u64(s.bytesReceived());
                }
            }
            case OverlayMessage.LaunchJob m -> {
                w.u8(LAUNCH_JOB);
                JobWire.write(w, m.job());
            }
            case OverlayMessage.RankExited m -> w.u8(RANK_EXITED).u32(m.jobId()).u32(m.rank()).u32(m.status()).string(m.note())
                    .u64(m.startMicros()).u64(m.endMicros()).u8(m.signaled() ? 1 : 0);
            case OverlayMessage.RunTasks m -> {
                w.u8(RUN_TASKS).u32(m.from()).u32(m.to()).u32(m.tasks().size());
                for (org.banyan.core.pilot.TaskSpec t : m.tasks()) {
                    w.u32(t.taskId()).string(t.executable()).list(t.args()).map(t.env()).string(t.sandbox())
                            .string(t.stdout()).string(t.stderr()).string(t.stdin()).u32(t.after());
                }
            }
            case OverlayMessage.SignalTasks m -> {
                w.u8(SIGNAL_TASKS).u32(m.from()).u32(m.to()).u32(m.taskIds().size());
                for (int id : m.taskIds()) {
                    w.u32(id);
                }
                w.u32(m.signal());
            }
            case OverlayMessage.RanksExited m -> {
                w.u8(RANKS_EXITED).u32(m.exits().size());
                for (OverlayMessage.RankExited e : m.exits()) {
                    w.u32(e.jobId()).u32(e.rank()).u32(e.status()).string(e.note()).u64(e.startMicros()).u64(e.endMicros())
                            .u8(e.signaled() ? 1 : 0);
                }
            }
            case OverlayMessage.Output m -> w.u8(OUTPUT).u32(m.jobId()).u32(m.rank()).u8(m.stream()).bytes(m.data());
            case OverlayMessage.StdinData m -> w.u8(STDIN_DATA).u32(m.jobId()).u32(m.rank()).bytes(m.data());
            case OverlayMessage.SignalRanks m -> w.u8(SIGNAL_RANKS).u32(m.jobId()).u32(m.signal());
            case OverlayMessage.StdinTaken m -> w.u8(STDIN_TAKEN).u32(m.jobId()).u32(m.rank()).u64(m.bytes());
            case OverlayMessage.RankAlone m -> w.u8(RANK_ALONE).u32(m.jobId()).u32(m.rank()).string(m.library())
                    .string(m.evidence());
            case OverlayMessage.RankUnfinalized m -> w.u8(RANK_UNFINALIZED).u32(m.jobId()).u32(m.rank());
            case OverlayMessage.TerminateJob m -> w.u8(TERMINATE_JOB).u32(m.jobId()).u32(m.graceMillis());
            case OverlayMessage.KillJob m -> w.u8(KILL_JOB).u32(m.jobId());
            case OverlayMessage.AbortRequest m -> w.u8(ABORT_REQUEST).u32(m.jobId()).u32(m.rank()).u32(m.exitCode()).string(m.message());
            case OverlayMessage.FenceEnter m -> w.u8(FENCE_ENTER).u32(m.jobId()).u32(m.daemonId()).u32(m.seq()).map(m.puts())
                    .ownerMap(m.owners());
            case OverlayMessage.FenceRelease m -> w.u8(FENCE_RELEASE).u32(m.jobId()).u32(m.seq()).map(m.puts()).ownerMap(m.owners());
            case OverlayMessage.Shutdown m -> w.u8(SHUTDOWN);
            case OverlayMessage.ForgetJob m -> w.u8(FORGET_JOB).u32(m.jobId());
            case OverlayMessage.Leave m -> w.u8(LEAVE).u32(m.from()).u32(m.to());
            case OverlayMessage.KeepWarm m -> w.u8(KEEP_WARM).u32(m.from()).u32(m.to()).u32(m.pool()).u32(m.count())
                    .string(m.program().executable()).list(m.program().args()).map(m.program().env())
                    .string(m.program().workdir());
            case OverlayMessage.DropWarm m -> w.u8(DROP_WARM).u32(m.from()).u32(m.to()).u32(m.pool());
        }
        byte[] out = w.toArray();
        ByteBuffer.wrap(out).putInt(0, out.length - 4);
        return out;
    }

    /**
     * Decodes one frame body (type and body, without the length prefix).
     *
     * @throws IllegalArgumentException when the bytes are not a valid message
     */
    public static OverlayMessage decode(byte[] frame) {
        ByteBuffer b = ByteBuffer.wrap(frame);
        try {
            int type = b.get() & 0xFF;
            OverlayMessage m = switch (type) {
                case DAEMON_HELLO -> new OverlayMessage.DaemonHello(b.getInt(), string(b), b.getLong(), string(b));
                case LAUNCH_JOB -> new OverlayMessage.LaunchJob(JobWire.read(b));
                case RANK_EXITED -> new OverlayMessage.RankExited(b.getInt(), b.getInt(), b.getInt(), string(b), b.getLong(),
                        b.getLong(), b.get() != 0);
                case OUTPUT -> new OverlayMessage.Output(b.getInt(), b.getInt(), b.get() & 0xFF, bytes(b));
                case STDIN_DATA -> new OverlayMessage.StdinData(b.getInt(), b.getInt(), bytes(b));
                case SIGNAL_RANKS -> new OverlayMessage.SignalRanks(b.getInt(), b.getInt());
                case STDIN_TAKEN -> new OverlayMessage.StdinTaken(b.getInt(), b.getInt(), b.getLong());
                case RANK_ALONE -> new OverlayMessage.RankAlone(b.getInt(), b.getInt(), string(b), string(b));
                case RANK_UNFINALIZED -> new OverlayMessage.RankUnfinalized(b.getInt(), b.getInt());
                case TERMINATE_JOB -> new OverlayMessage.TerminateJob(b.getInt(), b.getInt());
                case KILL_JOB -> new OverlayMessage.KillJob(b.getInt());
                case ABORT_REQUEST -> new OverlayMessage.AbortRequest(b.getInt(), b.getInt(), b.getInt(), string(b));
                case FENCE_ENTER -> new OverlayMessage.FenceEnter(b.getInt(), b.getInt(), b.getInt(), map(b), ownerMap(b));
                case FENCE_RELEASE -> new OverlayMessage.FenceRelease(b.getInt(), b.getInt(), map(b), ownerMap(b));
                case SHUTDOWN -> new OverlayMessage.Shutdown();
                case FORGET_JOB -> new OverlayMessage.ForgetJob(b.getInt());
                case LEAVE -> new OverlayMessage.Leave(b.getInt(), b.getInt());
                case KEEP_WARM -> {
                    int from = b.getInt();
                    int to = b.getInt();
                    int pool = b.getInt();
                    int count = b.getInt();
                    yield new OverlayMessage.KeepWarm(from, to, pool, count,
                            new org.banyan.core.daemon.WarmProgram(pool, string(b), list(b), map(b), string(b)));
                }
                case DROP_WARM -> new OverlayMessage.DropWarm(b.getInt(), b.getInt(), b.getInt());
                case ADOPT -> new OverlayMessage.Adopt(TopologySpec.parse(string(b)), b.getInt(), intMap(b),
                        TopologySpec.parse(string(b)));
                case PEER_HELLO -> new OverlayMessage.PeerHello(b.getInt());
                case KVS_FETCH -> new OverlayMessage.KvsFetch(b.getInt(), b.getInt(), b.getInt(), b.getInt(), string(b));
                case KVS_FETCHED -> new OverlayMessage.KvsFetched(b.getInt(), b.getInt(), b.getInt(), b.getInt(), string(b),
                        string(b));
                case NAME_REQUEST -> new OverlayMessage.NameRequest(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.get() & 0xFF, string(b),
                        string(b));
                case SPAWN_REQUEST -> new OverlayMessage.SpawnRequest(b.getInt(), b.getInt(), b.getInt(), b.getInt(), JobWire.apps(b),
                        list(b));
                case NAME_REPLY -> new OverlayMessage.NameReply(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.get() & 0xFF,
                        b.get() != 0,
                        string(b));
                case NAME_REPLIES -> {
                    int jobId = b.getInt();
                    int from = b.getInt();
                    int to = b.getInt();
                    int n = count(b);
                    List<Integer> requests = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        requests.add(b.getInt());
                    }
                    yield new OverlayMessage.NameReplies(jobId, from, to, requests, b.get() & 0xFF, b.get() != 0, string(b));
                }
                case CONTACTS -> new OverlayMessage.Contacts(intMap(b), intMap(b));
                case ALL_CONTACTS -> new OverlayMessage.AllContacts(intMap(b));
                case DAEMON_FAILED -> new OverlayMessage.DaemonFailed(b.getInt(), string(b), string(b));
                case COLLECT_STATS -> new OverlayMessage.CollectStats();
                case OUTPUT_BATCH -> {
                    int n = count(b);
                    List<OverlayMessage.Output> chunks = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        chunks.add(new OverlayMessage.Output(b.getInt(), b.getInt(), b.get() & 0xFF, bytes(b)));
                    }
                    yield new OverlayMessage.OutputBatch(chunks);
                }
                case RUN_TASKS -> {
                    int from = b.getInt();
                    int to = b.getInt();
                    int n = count(b);
                    List<org.banyan.core.pilot.TaskSpec> tasks = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        tasks.add(new org.banyan.core.pilot.TaskSpec(b.getInt(), string(b), list(b), map(b), string(b),
                                string(b), string(b), string(b), b.getInt()));
                    }
                    yield new OverlayMessage.RunTasks(from, to, tasks);
                }
                case SIGNAL_TASKS -> {
                    int from = b.getInt();
                    int to = b.getInt();
                    int n = count(b);
                    List<Integer> ids = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        ids.add(b.getInt());
                    }
                    yield new OverlayMessage.SignalTasks(from, to, ids, b.getInt());
                }
                case RANKS_EXITED -> {
                    int n = count(b);
                    List<OverlayMessage.RankExited> exits = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        exits.add(new OverlayMessage.RankExited(b.getInt(), b.getInt(), b.getInt(), string(b), b.getLong(),
                                b.getLong(), b.get() != 0));
                    }
                    yield new OverlayMessage.RanksExited(exits);
                }
                case STATS -> {
                    int n = count(b);
                    Map<Integer, DaemonStats> stats = new java.util.TreeMap<>();
                    for (int i = 0; i < n; i++) {
                        stats.put(b.getInt(), new DaemonStats(b.getInt(), b.getLong(), b.getLong(), b.getLong(), b.getLong(),
                                b.getLong(), b.getLong()));
                    }
                    yield new OverlayMessage.Stats(stats);
                }
                default -> throw new IllegalArgumentException("unknown overlay message type " + type);
            };
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " stray bytes after message type " + type);
            }
            return m;
        } catch (BufferUnderflowException | IllegalStateException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("truncated overlay message", e);
        } catch (NullPointerException e) {
            // a string or list the message needs came as null (-1): the records refuse it
            throw new IllegalArgumentException("an overlay message with no value where one is needed", e);
        }
    }

    static int count(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad element count " + n);
        }
        return n;
    }

    static String string(ByteBuffer b) {
        int n = b.getInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad string length " + n);
        }
        String s = RawText.decode(b.array(), b.arrayOffset() + b.position(), n);
        b.position(b.position() + n);
        return s;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[count(b)];
        b.get(out);
        return out;
    }

    static List<String> list(ByteBuffer b) {
        int n = count(b);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(string(b));
        }
        return out;
    }

    static Map<String, String> map(ByteBuffer b) {
        int n = count(b);
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(string(b), string(b));
        }
        return out;
    }

    private static Map<String, Integer> ownerMap(ByteBuffer b) {
        int n = count(b);
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(string(b), b.getInt());
        }
        return out;
    }

    private static Map<Integer, String> intMap(ByteBuffer b) {
        int n = count(b);
        Map<Integer, String> out = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            out.put(b.getInt(), string(b));
        }
        return out;
    }
}
