package org.banyan.core.job;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The node-local process table: what every process of a job is, written by each daemon to a
 * shared-memory file on its host (named by {@code BANYAN_PROCTABLE} in every rank's
 * environment), so local clients learn any rank's host, local rank and node without asking the
 * daemon. This class is the format's one writer; the client library reads the layout below.
 *
 * <pre>
 * All integers little-endian (readable in place by C and by Java's MemorySegment).
 *
 * offset  size  field
 *      0     4  magic     0x5459_4E42 ("BNYT" in memory)
 *      4     4  version   1
 *      8     4  jobId
 *     12     4  size      ranks in the job
 *     16     4  nodes     hosts in the job
 *     20     4  filled    records written so far; the table is complete when filled == size
 *     24     4  namesAt   offset of the host-name table
 *     28    36  reserved  (zero)
 *     64  32*size  records, by rank:
 *                 rank u32, node u32 (index of its host, = BANYAN_NODE_RANK of its ranks),
 *                 localRank u32, localSize u32 (ranks on its host), appnum u32,
 *                 binding i32 (first CPU it is bound to, -1 for none or not known here),
 *                 bindCount u32 (CPUs it is bound to; written for the ranks of this host), reserved u32
 * namesAt  nodes x (length u16, UTF-8 bytes)
 * </pre>
 *
 * <p>Each daemon maps the whole job from its description, so it knows every record before its
 * first rank starts; {@code filled} is written last, after every record.
 */
public final class ProcessTable {
    public static final int MAGIC = 0x5459_4E42;
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 64;
    public static final int RECORD_BYTES = 32;
    /** The header's fields, by offset (the client library names the same ones: it shares no code with this). */
    public static final int AT_MAGIC = 0, AT_VERSION = 4, AT_JOB = 8, AT_SIZE = 12, AT_NODES = 16, AT_FILLED = 20,
            AT_NAMES = 24;
    /** A record's fields, by offset in the record. */
    public static final int REC_RANK = 0, REC_NODE = 4, REC_LOCAL_RANK = 8, REC_LOCAL_SIZE = 12, REC_APPNUM = 16,
            REC_BINDING = 20, REC_BIND_COUNT = 24;

    private ProcessTable() {}

    /** The table of {@code map}'s whole job, complete, no rank bound. */
    public static byte[] encode(RankMap map) {
        return encode(map, r -> null);
    }

    /**
     * The table of {@code map}'s whole job, complete, with the CPUs of each rank bound on this
     * host ({@code cpusOf} gives null for the others and for ranks not bound).
     */
    public static byte[] encode(RankMap map, java.util.function.IntFunction<int[]> cpusOf) {
        JobDescription job = map.job();
        byte[][] names = new byte[job.nodes().size()][];
        int namesBytes = 0;
        for (int i = 0; i < names.length; i++) {
            names[i] = job.nodes().get(i).name().getBytes(StandardCharsets.UTF_8);
            namesBytes += 2 + names[i].length;
        }
        int namesAt = HEADER_BYTES + RECORD_BYTES * map.size();
        ByteBuffer b = ByteBuffer.allocate(namesAt + namesBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(job.jobId()).putInt(map.size()).putInt(names.length).putInt(0)
                .putInt(namesAt);
        b.position(HEADER_BYTES);
        for (int r = 0; r < map.size(); r++) {
            int node = map.nodeOf(r);
            int[] cpus = cpusOf.apply(r);
            boolean bound = cpus != null && cpus.length > 0;
            b.putInt(r).putInt(node).putInt(map.localRankOf(r)).putInt(map.ranksOn(node)).putInt(map.appOf(r))
                    .putInt(bound ? cpus[0] : -1).putInt(bound ? cpus.length : 0).putInt(0);
        }
        for (byte[] n : names) {
            b.putShort((short) n.length).put(n);
        }
        b.putInt(AT_FILLED, map.size());
        return b.array();
    }

    /** One record, as read back (tests, tools). */
    public record Entry(int rank, int node, String host, int localRank, int localSize, int appnum, int binding,
                        int bindCount) {}

    /** Reads record {@code rank} of a table; throws IllegalArgumentException when it is not one. */
    public static Entry read(byte[] table, int rank) {
        ByteBuffer b = ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN);
        if (table.length < HEADER_BYTES || b.getInt(AT_MAGIC) != MAGIC || b.getInt(AT_VERSION) != VERSION) {
            throw new IllegalArgumentException("not a Banyan process table");
        }
        int size = b.getInt(AT_SIZE);
        if (rank < 0 || rank >= size || rank >= b.getInt(AT_FILLED)) {
            throw new IllegalArgumentException("rank " + rank + " is not in the table");
        }
        int at = HEADER_BYTES + RECORD_BYTES * rank;
        int node = b.getInt(at + REC_NODE);
        int p = b.getInt(AT_NAMES);
        for (int i = 0; i < node; i++) {
            p += 2 + (b.getShort(p) & 0xFFFF);
        }
        String host = new String(table, p + 2, b.getShort(p) & 0xFFFF, StandardCharsets.UTF_8);
        return new Entry(b.getInt(at + REC_RANK), node, host, b.getInt(at + REC_LOCAL_RANK), b.getInt(at + REC_LOCAL_SIZE),
                b.getInt(at + REC_APPNUM), b.getInt(at + REC_BINDING), b.getInt(at + REC_BIND_COUNT));
    }
}
