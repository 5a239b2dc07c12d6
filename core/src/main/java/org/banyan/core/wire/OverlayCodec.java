package org.banyan.core.wire;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
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
 *  1   DaemonHello   daemonId:u32 host:string pid:u64 contact:string
 *  2   LaunchJob     jobId:u32 apps:u32 app{apps} nodes:u32 node{nodes} mapping:u8 oversubscribe:u8
 *                    stdinRank:u32 (-1: none) launchDir:string modex:u8 (0 full, 1 lazy)
 *                    app  := executable:string args:list count:u32 env:map workdir:string
 *                    node := name:string slots:u32
 *  3   RankExited    rank:u32 status:u32 note:string
 *  4   Output        rank:u32 stream:u8 data:bytes
 *  5   StdinData     rank:u32 data:bytes
 *  6   SignalRanks   signal:u32
 *  7   TerminateJob  graceMillis:u32
 *  8   KillJob       (empty)
 *  9   AbortRequest  rank:u32 exitCode:u32 message:string
 * 10   FenceEnter    daemonId:u32 seq:u32 puts:map owners:ownermap
 * 11   FenceRelease  seq:u32 puts:map owners:ownermap
 * 12   Shutdown      (empty)
 * 13   Adopt         topology:string vertices:u32 hostsBelow:intmap routing:string   (TopologySpec text forms)
 * 14   Contacts      contacts:intmap
 * 15   AllContacts   contacts:intmap
 * 16   DaemonFailed  daemonId:u32 host:string reason:string
 * 17   CollectStats  (empty)
 * 18   Stats         n:u32 (daemonId:u32 links:u32 sent:u64 received:u64 upMillis:u64 ranksMillis:u64
 *                           bytesSent:u64 bytesReceived:u64){n}
 * 19   OutputBatch   n:u32 (rank:u32 stream:u8 data:bytes){n}
 * 20   PeerHello     daemonId:u32
 * 21   KvsFetch      from:u32 to:u32 request:u32 key:string
 * 22   KvsFetched    from:u32 to:u32 request:u32 key:string value:string (null: no such key)
 * 23   NameRequest   from:u32 to:u32 request:u32 op:u8 name:string port:string
 * 24   NameReply     from:u32 to:u32 request:u32 op:u8 ok:u8 portOrReason:string
 * 25   RanksExited   n:u32 (rank:u32 status:u32 note:string){n}
 *
 * intmap   := n:u32 (key:u32 value:string){n}      daemon id -1 is the head
 * ownermap := n:u32 (key:string daemonId:u32){n}
 * </pre>
 */
public final class OverlayCodec {
    /** Largest frame accepted, so a corrupt length cannot make a reader allocate gigabytes. */
    public static final int MAX_FRAME = 64 << 20;

    private OverlayCodec() {}

    /** Encodes a whole frame, length prefix included. */
    public static byte[] encode(OverlayMessage message) {
        Writer w = new Writer();
        w.u32(0); // length, patched below
        switch (message) {
            case OverlayMessage.DaemonHello m -> w.u8(1).u32(m.daemonId()).string(m.host()).u64(m.pid())
                    .string(m.contact());
            case OverlayMessage.Adopt m -> w.u8(13).string(m.topology().toString()).u32(m.vertices())
                    .intMap(m.hostsBelow()).string(m.routing().toString());
            case OverlayMessage.PeerHello m -> w.u8(20).u32(m.daemonId());
            case OverlayMessage.KvsFetch m -> w.u8(21).u32(m.from()).u32(m.to()).u32(m.request()).string(m.key());
            case OverlayMessage.NameRequest m -> w.u8(23).u32(m.from()).u32(m.to()).u32(m.request()).u8(m.op())
                    .string(m.name()).string(m.port());
            case OverlayMessage.NameReply m -> w.u8(24).u32(m.from()).u32(m.to()).u32(m.request()).u8(m.op())
                    .u8(m.ok() ? 1 : 0).string(m.portOrReason());
            case OverlayMessage.KvsFetched m -> w.u8(22).u32(m.from()).u32(m.to()).u32(m.request()).string(m.key())
                    .string(m.value());
            case OverlayMessage.Contacts m -> w.u8(14).intMap(m.contacts());
            case OverlayMessage.AllContacts m -> w.u8(15).intMap(m.contacts());
            case OverlayMessage.DaemonFailed m -> w.u8(16).u32(m.daemonId()).string(m.host()).string(m.reason());
            case OverlayMessage.CollectStats m -> w.u8(17);
            case OverlayMessage.OutputBatch m -> {
                w.u8(19).u32(m.chunks().size());
                for (OverlayMessage.Output o : m.chunks()) {
                    w.u32(o.rank()).u8(o.stream()).bytes(o.data());
                }
            }
            case OverlayMessage.Stats m -> {
                w.u8(18).u32(m.stats().size());
                for (Map.Entry<Integer, DaemonStats> e : m.stats().entrySet()) {
                    DaemonStats s = e.getValue();
                    w.u32(e.getKey()).u32(s.links()).u64(s.framesSent()).u64(s.framesReceived()).u64(s.upMillis())
                            .u64(s.ranksMillis()).u64(s.bytesSent()).u64(s.bytesReceived());
                }
            }
            case OverlayMessage.LaunchJob m -> {
                w.u8(2);
                writeJob(w, m.job());
            }
            case OverlayMessage.RankExited m -> w.u8(3).u32(m.rank()).u32(m.status()).string(m.note());
            case OverlayMessage.RanksExited m -> {
                w.u8(25).u32(m.exits().size());
                for (OverlayMessage.RankExited e : m.exits()) {
                    w.u32(e.rank()).u32(e.status()).string(e.note());
                }
            }
            case OverlayMessage.Output m -> w.u8(4).u32(m.rank()).u8(m.stream()).bytes(m.data());
            case OverlayMessage.StdinData m -> w.u8(5).u32(m.rank()).bytes(m.data());
            case OverlayMessage.SignalRanks m -> w.u8(6).u32(m.signal());
            case OverlayMessage.TerminateJob m -> w.u8(7).u32(m.graceMillis());
            case OverlayMessage.KillJob m -> w.u8(8);
            case OverlayMessage.AbortRequest m -> w.u8(9).u32(m.rank()).u32(m.exitCode()).string(m.message());
            case OverlayMessage.FenceEnter m -> w.u8(10).u32(m.daemonId()).u32(m.seq()).map(m.puts())
                    .ownerMap(m.owners());
            case OverlayMessage.FenceRelease m -> w.u8(11).u32(m.seq()).map(m.puts()).ownerMap(m.owners());
            case OverlayMessage.Shutdown m -> w.u8(12);
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
                case 1 -> new OverlayMessage.DaemonHello(b.getInt(), string(b), b.getLong(), string(b));
                case 2 -> new OverlayMessage.LaunchJob(readJob(b));
                case 3 -> new OverlayMessage.RankExited(b.getInt(), b.getInt(), string(b));
                case 4 -> new OverlayMessage.Output(b.getInt(), b.get() & 0xFF, bytes(b));
                case 5 -> new OverlayMessage.StdinData(b.getInt(), bytes(b));
                case 6 -> new OverlayMessage.SignalRanks(b.getInt());
                case 7 -> new OverlayMessage.TerminateJob(b.getInt());
                case 8 -> new OverlayMessage.KillJob();
                case 9 -> new OverlayMessage.AbortRequest(b.getInt(), b.getInt(), string(b));
                case 10 -> new OverlayMessage.FenceEnter(b.getInt(), b.getInt(), map(b), ownerMap(b));
                case 11 -> new OverlayMessage.FenceRelease(b.getInt(), map(b), ownerMap(b));
                case 12 -> new OverlayMessage.Shutdown();
                case 13 -> new OverlayMessage.Adopt(TopologySpec.parse(string(b)), b.getInt(), intMap(b),
                        TopologySpec.parse(string(b)));
                case 20 -> new OverlayMessage.PeerHello(b.getInt());
                case 21 -> new OverlayMessage.KvsFetch(b.getInt(), b.getInt(), b.getInt(), string(b));
                case 22 -> new OverlayMessage.KvsFetched(b.getInt(), b.getInt(), b.getInt(), string(b), string(b));
                case 23 -> new OverlayMessage.NameRequest(b.getInt(), b.getInt(), b.getInt(), b.get() & 0xFF, string(b),
                        string(b));
                case 24 -> new OverlayMessage.NameReply(b.getInt(), b.getInt(), b.getInt(), b.get() & 0xFF, b.get() != 0,
                        string(b));
                case 14 -> new OverlayMessage.Contacts(intMap(b));
                case 15 -> new OverlayMessage.AllContacts(intMap(b));
                case 16 -> new OverlayMessage.DaemonFailed(b.getInt(), string(b), string(b));
                case 17 -> new OverlayMessage.CollectStats();
                case 19 -> {
                    int n = count(b);
                    List<OverlayMessage.Output> chunks = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        chunks.add(new OverlayMessage.Output(b.getInt(), b.get() & 0xFF, bytes(b)));
                    }
                    yield new OverlayMessage.OutputBatch(chunks);
                }
                case 25 -> {
                    int n = count(b);
                    List<OverlayMessage.RankExited> exits = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        exits.add(new OverlayMessage.RankExited(b.getInt(), b.getInt(), string(b)));
                    }
                    yield new OverlayMessage.RanksExited(exits);
                }
                case 18 -> {
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
        } catch (BufferUnderflowException | IllegalStateException e) {
            throw new IllegalArgumentException("truncated overlay message", e);
        }
    }

    private static void writeJob(Writer w, JobDescription job) {
        w.u32(job.jobId()).u32(job.apps().size());
        for (AppContext app : job.apps()) {
            w.string(app.executable()).list(app.args()).u32(app.count()).map(app.env()).string(app.workdir());
        }
        w.u32(job.nodes().size());
        for (Node node : job.nodes()) {
            w.string(node.name()).u32(node.slots());
        }
        w.u8(job.mapping().ordinal()).u8(job.oversubscribe() ? 1 : 0).u32(job.stdinRank()).string(job.launchDir())
                .u8(job.modex().ordinal());
    }

    private static JobDescription readJob(ByteBuffer b) {
        int jobId = b.getInt();
        int napps = count(b);
        List<AppContext> apps = new ArrayList<>(napps);
        for (int i = 0; i < napps; i++) {
            apps.add(new AppContext(string(b), list(b), b.getInt(), map(b), string(b)));
        }
        int nnodes = count(b);
        List<Node> nodes = new ArrayList<>(nnodes);
        for (int i = 0; i < nnodes; i++) {
            nodes.add(new Node(string(b), b.getInt()));
        }
        MappingPolicy mapping = MappingPolicy.values()[b.get()];
        boolean oversubscribe = b.get() != 0;
        int stdinRank = b.getInt();
        String launchDir = string(b);
        return new JobDescription(jobId, apps, nodes, mapping, oversubscribe, stdinRank, launchDir,
                Modex.values()[b.get()]);
    }

    private static int count(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad element count " + n);
        }
        return n;
    }

    private static String string(ByteBuffer b) {
        int n = b.getInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > b.remaining()) {
            throw new IllegalArgumentException("bad string length " + n);
        }
        String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
        b.position(b.position() + n);
        return s;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[count(b)];
        b.get(out);
        return out;
    }

    private static List<String> list(ByteBuffer b) {
        int n = count(b);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(string(b));
        }
        return out;
    }

    private static Map<String, String> map(ByteBuffer b) {
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

    /** Growable big-endian writer. */
    private static final class Writer {
        private byte[] buf = new byte[256];
        private int pos;

        private void ensure(int n) {
            if (pos + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
            }
        }

        Writer u8(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
            return this;
        }

        Writer u32(int v) {
            ensure(4);
            buf[pos++] = (byte) (v >>> 24);
            buf[pos++] = (byte) (v >>> 16);
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) v;
            return this;
        }

        Writer u64(long v) {
            return u32((int) (v >>> 32)).u32((int) v);
        }

        Writer bytes(byte[] data) {
            u32(data.length);
            ensure(data.length);
            System.arraycopy(data, 0, buf, pos, data.length);
            pos += data.length;
            return this;
        }

        Writer string(String s) {
            if (s == null) {
                return u32(-1);
            }
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        Writer list(List<String> items) {
            u32(items.size());
            for (String s : items) {
                string(s);
            }
            return this;
        }

        Writer map(Map<String, String> m) {
            u32(m.size());
            for (Map.Entry<String, String> e : m.entrySet()) {
                string(e.getKey());
                string(e.getValue());
            }
            return this;
        }

        Writer ownerMap(Map<String, Integer> m) {
            u32(m.size());
            for (Map.Entry<String, Integer> e : m.entrySet()) {
                string(e.getKey());
                u32(e.getValue());
            }
            return this;
        }

        Writer intMap(Map<Integer, String> m) {
            u32(m.size());
            for (Map.Entry<Integer, String> e : m.entrySet()) {
                u32(e.getKey());
                string(e.getValue());
            }
            return this;
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, pos);
        }
    }
}
