package org.banyan.comm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A rank's monitoring profile in Open MPI's {@code .prof} layout (common_monitoring's output, as
 * Open MPI 4.1 writes it with {@code --mca pml_monitoring_enable 2}), so its tools read ours.
 * Tab-separated, one file per rank, {@code PREFIX.RANK.prof}:
 *
 * <pre>
 * # POINT TO POINT
 * E  me  peer  N bytes  M msgs sent  h0,h1,...,h65      user messages sent, and the size histogram
 * I  me  peer  N bytes  M msgs sent                     internal (collectives') messages sent
 * # OSC
 * S  me  peer  N bytes  M msgs sent                     one-sided, sent
 * R  me  peer  N bytes  M msgs sent                     one-sided, received
 * # COLLECTIVES
 * C  me  peer  N bytes  M msgs sent                     collectives' logical traffic
 * D  NAME  procs: r0,r1,...                             per communicator, then its shapes:
 * O2A  me  N bytes  M msgs sent
 * A2O  me  N bytes  M msgs sent
 * A2A  me  N bytes  M msgs sent
 * </pre>
 *
 * The histogram counts every message to the peer, external and internal (Open MPI keeps one per
 * peer); it follows the E line, or the I line when there is no E line. Rooted collectives
 * (bcast, scatter, reduce, gather) are recorded at the root only, the others at every rank,
 * as Open MPI's coll monitoring does; checked against Debian's Open MPI 4.1.4 (docs/comm.md).
 * Only peers with traffic have lines.
 */
final class ProfileFile {
    static final String PREFIX = "banyan";

    private ProfileFile() {}

    static Path write(Monitor.Snapshot s, int me, Path dir) {
        Path file = dir.resolve(PREFIX + "." + me + ".prof");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, format(s, me), StandardCharsets.US_ASCII);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the monitoring profile " + file + ": " + e.getMessage(), e);
        }
    }

    static String format(Monitor.Snapshot s, int me) {
        StringBuilder b = new StringBuilder();
        b.append("# POINT TO POINT\n");
        for (int p = 0; p < s.size(); p++) {
            PeerTraffic e = s.traffic(Monitor.Kind.EXTERNAL, p);
            if (e != null && e.messages > 0) {
                line(b, "E", me, p, e).append('\t');
                histogram(b, e.histogram, s.traffic(Monitor.Kind.INTERNAL, p));
            }
        }
        for (int p = 0; p < s.size(); p++) {
            PeerTraffic i = s.traffic(Monitor.Kind.INTERNAL, p);
            if (i != null && i.messages > 0) {
                line(b, "I", me, p, i);
                if (s.messages(Monitor.Kind.EXTERNAL, p) == 0) {
                    b.append('\t');
                    histogram(b, i.histogram, null);
                } else {
                    b.append('\n');
                }
            }
        }
        b.append("# OSC\n");
        for (int p = 0; p < s.size(); p++) {
            PeerTraffic sent = s.traffic(Monitor.Kind.OSC_SENT, p);
            if (sent != null && sent.messages > 0) {
                line(b, "S", me, p, sent).append('\n');
            }
            PeerTraffic got = s.traffic(Monitor.Kind.OSC_RECEIVED, p);
            if (got != null && got.messages > 0) {
                line(b, "R", me, p, got).append('\n');
            }
        }
        b.append("# COLLECTIVES\n");
        for (int p = 0; p < s.size(); p++) {
            PeerTraffic c = s.traffic(Monitor.Kind.COLLECTIVE, p);
            if (c != null && c.messages > 0) {
                line(b, "C", me, p, c).append('\n');
            }
        }
        for (Map.Entry<String, Monitor.CollectiveTraffic> e : s.collectives().entrySet()) {
            Monitor.CollectiveTraffic c = e.getValue();
            b.append("D\t").append(e.getKey()).append("\tprocs: ");
            for (int i = 0; i < c.members.length; i++) {
                b.append(i == 0 ? "" : ",").append(c.members[i]);
            }
            b.append('\n');
            shape(b, "O2A", me, c, Monitor.Shape.ONE_TO_ALL);
            shape(b, "A2O", me, c, Monitor.Shape.ALL_TO_ONE);
            shape(b, "A2A", me, c, Monitor.Shape.ALL_TO_ALL);
        }
        return b.toString();
    }

    private static StringBuilder line(StringBuilder b, String kind, int me, int peer, PeerTraffic t) {
        return b.append(kind).append('\t').append(me).append('\t').append(peer).append('\t').append(t.bytes)
                .append(" bytes\t").append(t.messages).append(" msgs sent");
    }

    /** One histogram per peer for every message sent to it, external and internal, as Open MPI keeps it. */
    private static void histogram(StringBuilder b, long[] h, PeerTraffic more) {
        for (int i = 0; i < h.length; i++) {
            b.append(h[i] + (more == null ? 0 : more.histogram[i])).append(i < h.length - 1 ? "," : "\n");
        }
    }

    private static void shape(StringBuilder b, String name, int me, Monitor.CollectiveTraffic c, Monitor.Shape s) {
        b.append(name).append('\t').append(me).append('\t').append(c.bytes(s)).append(" bytes\t")
                .append(c.operations(s)).append(" msgs sent\n");
    }
}
