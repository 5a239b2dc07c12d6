package org.banyan.core.daemon;

import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;

/**
 * PMIx's direct modex over the routing overlay: a rank's data fetched from its daemon on first
 * use, as the lazy modex fetches PMI keys (and with the same messages, the key naming the rank).
 * The requesting daemon's PMIx server asks for a peer's data ({@link #request}); the fetch goes to
 * the peer's daemon, whose PMIx server packs the rank's data when it has it ({@link #fetchArrived},
 * then {@link #dataReady}); the answer comes back the same way ({@link #fetched}).
 */
final class PmixModex {
    static final String PREFIX = "pmix.dmodex.";

    private final DaemonRouting routing;
    private final DaemonOutbox out;
    /** Fetches this daemon's server is answering, by token. */
    private final Map<Integer, OverlayMessage.KvsFetch> answering = new HashMap<>();
    private int nextToken;

    PmixModex(DaemonRouting routing, DaemonOutbox out) {
        this.routing = routing;
        this.out = out;
    }

    /** This host's server wants {@code rank}'s data: fetched from the rank's daemon. */
    void request(int jobId, int rank, RankMap map) {
        if (rank < 0 || rank >= map.size()) {
            out.emit(new DaemonAction.PmixModexDone(jobId, rank, null));
            return;
        }
        routing.fetch(jobId, map.nodeOf(rank), PREFIX + rank);
    }

    /** Another daemon wants the data of {@code f}'s rank, on this host: this server is asked for it. */
    boolean fetchArrived(OverlayMessage.KvsFetch f) {
        if (!f.key().startsWith(PREFIX)) {
            return false;
        }
        int token = nextToken++;
        answering.put(token, f);
        out.emit(new DaemonAction.PmixModexFetch(f.jobId(), Integer.parseInt(f.key().substring(PREFIX.length())), token));
        return true;
    }

    /** This server packed the rank's data for fetch {@code token} (null: it has none). */
    void dataReady(int token, byte[] blob) {
        OverlayMessage.KvsFetch f = answering.remove(token);
        if (f != null) {
            routing.answer(f, blob == null ? null : Base64.getEncoder().encodeToString(blob));
        }
    }

    /** The answer to this daemon's fetch: its server gets the data. */
    void fetched(int jobId, String key, String value) {
        if (key.startsWith(PREFIX)) {
            out.emit(new DaemonAction.PmixModexDone(jobId, Integer.parseInt(key.substring(PREFIX.length())),
                    value == null ? null : Base64.getDecoder().decode(value)));
        }
    }
}
