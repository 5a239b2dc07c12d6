package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * The name service (MPI_Publish_name, MPI_Lookup_name), kept at the head: service name to port.
 * One per head, so that jobs of one DVM find each other's names (MPI_Comm_connect between jobs).
 * A lookup may wait for the name ({@link OverlayMessage.NameRequest#LOOKUP_WAIT}: PMIx's
 * {@code PMIX_WAIT}, which Open MPI's connect/accept and spawn rely on): it is answered by the
 * publish that brings the name, refused when its job ends ({@link #forget}), or when the seconds
 * it gave are up ({@link #expire}: the caller arms a timer for each wait {@link #serve} reports).
 */
final class NameService {
    /** Operations of {@link OverlayMessage.NameRequest}. */
    static final int PUBLISH = 0;
    static final int UNPUBLISH = 1;

    private final Map<String, String> names = new HashMap<>();
    private final Map<String, List<OverlayMessage.NameRequest>> waiting = new HashMap<>();
    /** Waits with a time limit, by the id their timer carries. */
    private final Map<Integer, OverlayMessage.NameRequest> limited = new HashMap<>();
    private int nextWait;

    /** A lookup that started waiting: {@code id} expires after {@code millis}. */
    record Wait(int id, long millis) {}

    /** The answers a request brings, each routed back to the daemon that asked: none for a lookup that waits. */
    List<OverlayMessage.NameReply> serve(OverlayMessage.NameRequest r) {
        return serve(r, w -> { });
    }

    /** As {@link #serve(OverlayMessage.NameRequest)}; a lookup that starts waiting with a time limit is told to {@code timed}. */
    List<OverlayMessage.NameReply> serve(OverlayMessage.NameRequest r, java.util.function.Consumer<Wait> timed) {
        switch (r.op()) {
            case PUBLISH -> {
                boolean ok = names.putIfAbsent(r.name(), r.port()) == null;
                List<OverlayMessage.NameReply> out = new ArrayList<>();
                out.add(reply(r, ok, ok ? "" : "name_in_use"));
                if (ok) {
                    for (OverlayMessage.NameRequest w : waiting.getOrDefault(r.name(), List.of())) {
                        out.add(reply(w, true, r.port()));
                        limited.values().remove(w);
                    }
                    waiting.remove(r.name());
                }
                return out;
            }
            case UNPUBLISH -> {
                boolean ok = names.remove(r.name()) != null;
                return List.of(reply(r, ok, ok ? "" : "name_not_found"));
            }
            default -> {
                String port = names.get(r.name());
                if (port == null && r.op() == OverlayMessage.NameRequest.LOOKUP_WAIT) {
                    waiting.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r);
                    long seconds = seconds(r.port());
                    if (seconds > 0) {
                        int id = nextWait++;
                        limited.put(id, r);
                        timed.accept(new Wait(id, seconds * 1000));
                    }
                    return List.of();
                }
                return List.of(reply(r, port != null, port != null ? port : "name_not_found"));
            }
        }
    }

    /** The time limit of wait {@code id} is up: refused, if it still waits. */
    List<OverlayMessage.NameReply> expire(int id) {
        OverlayMessage.NameRequest r = limited.remove(id);
        if (r == null || !waiting.getOrDefault(r.name(), List.of()).remove(r)) {
            return List.of();
        }
        waiting.values().removeIf(List::isEmpty);
        return List.of(reply(r, false, "timeout"));
    }

    private static long seconds(String text) {
        try {
            return text.isEmpty() ? 0 : Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Job {@code jobId} is over: its waiting lookups are refused (their ranks are gone). */
    List<OverlayMessage.NameReply> forget(int jobId) {
        List<OverlayMessage.NameReply> out = new ArrayList<>();
        waiting.values().forEach(list -> list.removeIf(w -> {
            if (w.jobId() == jobId) {
                out.add(reply(w, false, "job_ended"));
                limited.values().remove(w);
                return true;
            }
            return false;
        }));
        waiting.values().removeIf(List::isEmpty);
        return out;
    }

    private static OverlayMessage.NameReply reply(OverlayMessage.NameRequest r, boolean ok, String answer) {
        return new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(), r.request(), r.op(), ok, answer);
    }
}
