package org.banyan.runtime.dvm;

import java.util.List;
import org.banyan.core.dvm.DvmSnapshot;
import org.banyan.core.wire.ClientMessage;

/**
 * A {@link DvmSnapshot} as the dashboard's page reads it (JSON; the field names are the page's
 * contract, listed in docs/dashboard.md). Written by hand: one fixed shape, no reflection.
 */
final class SnapshotJson {
    private final StringBuilder b = new StringBuilder(4096);

    private SnapshotJson() {}

    static String of(DvmSnapshot s) {
        SnapshotJson j = new SnapshotJson();
        j.write(s);
        return j.b.toString();
    }

    private void write(DvmSnapshot s) {
        b.append("{\"time\":").append(s.timeMicros() / 1000);
        b.append(",\"hosts\":[");
        for (int i = 0; i < s.hosts().size(); i++) {
            ClientMessage.HostStatus h = s.hosts().get(i);
            b.append(i == 0 ? "" : ",").append("{\"name\":");
            string(h.name());
            b.append(",\"slots\":").append(h.slots()).append(",\"inUse\":").append(h.slotsInUse()).append(",\"state\":");
            string(h.state().name().toLowerCase(java.util.Locale.ROOT));
            b.append(",\"gpus\":").append(h.gpus()).append(",\"gpusInUse\":").append(h.gpusInUse()).append(",\"heldBy\":[");
            List<String> holders = s.holders().get(i);
            for (int k = 0; k < holders.size(); k++) {
                b.append(k == 0 ? "" : ",");
                string(holders.get(k));
            }
            b.append("]}");
        }
        b.append("],\"jobs\":[");
        for (int i = 0; i < s.jobs().size(); i++) {
            ClientMessage.JobStatus j = s.jobs().get(i);
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(j.jobId()).append(",\"ranks\":").append(j.ranks()).append(",\"command\":");
            string(j.command());
            b.append('}');
        }
        b.append("],\"queued\":[");
        for (int i = 0; i < s.queued().size(); i++) {
            ClientMessage.QueuedStatus q = s.queued().get(i).job();
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(q.queueId()).append(",\"minNodes\":").append(q.minNodes())
                    .append(",\"maxNodes\":").append(q.maxNodes()).append(",\"command\":");
            string(q.command());
            b.append(",\"reason\":");
            string(s.queued().get(i).reason());
            b.append('}');
        }
        DvmSnapshot.Tasks t = s.tasks();
        b.append("],\"tasks\":{\"waiting\":").append(t.waiting()).append(",\"running\":").append(t.running())
                .append(",\"done\":").append(t.done()).append(",\"failed\":").append(t.failed()).append(",\"canceled\":")
                .append(t.canceled()).append(",\"firstSecond\":").append(t.firstSecond()).append(",\"started\":");
        longs(t.startedPerSecond());
        b.append(",\"ended\":");
        longs(t.endedPerSecond());
        b.append(",\"slowest\":[");
        List<DvmSnapshot.Running> slowest = t.slowest();
        for (int i = 0; i < slowest.size(); i++) {
            DvmSnapshot.Running r = slowest.get(i);
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(r.taskId()).append(",\"name\":");
            string(r.name());
            b.append(",\"tag\":");
            string(r.tag());
            b.append(",\"since\":").append(r.sinceMicros() / 1000).append('}');
        }
        b.append("],\"failures\":[");
        List<DvmSnapshot.Failed> failures = t.failures();
        for (int i = 0; i < failures.size(); i++) {
            DvmSnapshot.Failed f = failures.get(i);
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(f.taskId()).append(",\"name\":");
            string(f.name());
            b.append(",\"tag\":");
            string(f.tag());
            b.append(",\"time\":").append(f.timeMicros() / 1000).append(",\"exitCode\":").append(f.exitCode()).append(",\"detail\":");
            string(f.detail());
            b.append('}');
        }
        b.append("]},\"sizes\":[");
        for (int i = 0; i < s.sizes().size(); i++) {
            DvmSnapshot.Size z = s.sizes().get(i);
            b.append(i == 0 ? "" : ",").append("{\"time\":").append(z.timeMicros() / 1000).append(",\"id\":").append(z.queueId())
                    .append(",\"ranks\":").append(z.ranks()).append('}');
        }
        b.append("],\"decisions\":[");
        for (int i = 0; i < s.decisions().size(); i++) {
            DvmSnapshot.Decision d = s.decisions().get(i);
            b.append(i == 0 ? "" : ",").append("{\"time\":").append(d.timeMicros() / 1000).append(",\"line\":");
            string(d.line());
            b.append('}');
        }
        b.append("],\"traffic\":[");
        boolean first = true;
        for (DvmSnapshot.Monitored m : s.monitored()) {
            long[][] bytes = LiveTrafficFiles.read(java.nio.file.Path.of(m.dir()), m.ranks());
            b.append(first ? "" : ",").append("{\"job\":").append(m.jobId()).append(",\"size\":").append(m.ranks()).append(",\"bytes\":");
            first = false;
            if (bytes == null) {
                b.append("null");
            } else {
                b.append('[');
                for (int r = 0; r < bytes.length; r++) {
                    b.append(r == 0 ? "" : ",");
                    longs(bytes[r]);
                }
                b.append(']');
            }
            b.append('}');
        }
        b.append("]}");
    }

    private void longs(long[] v) {
        b.append('[');
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(v[i]);
        }
        b.append(']');
    }

    /** A JSON string; null as null. Lone surrogates (bytes that were not UTF-8) become U+FFFD. */
    private void string(String s) {
        if (s == null) {
            b.append("null");
            return;
        }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1)))) {
                        if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1))) {
                            b.append(c);
                        } else {
                            b.append('\ufffd');
                        }
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
