package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.banyan.core.job.FenceData;
import org.banyan.core.wire.OverlayMessage;

/**
 * A PMIx fence over the same tree gather as PMI's: each daemon's contribution (the blob its PMIx
 * server packed for its local ranks) travels as one value keyed by the daemon, so the head's
 * gather and release carry it unchanged; at the release every daemon hands its server all the
 * blobs, which it unpacks itself. Base64 keeps the blob a string on the wire.
 */
final class PmixFences {
    private static final String PREFIX = "pmix.fence.";

    private PmixFences() {}

    static FenceData contribution(int daemonId, byte[] blob) {
        return new FenceData(Map.of(PREFIX + daemonId, Base64.getEncoder().encodeToString(blob)), Map.of());
    }

    /** The non-empty contributions of a release, in daemon order. */
    static List<byte[]> blobs(OverlayMessage.FenceRelease release) {
        TreeMap<Integer, byte[]> byDaemon = new TreeMap<>();
        release.puts().forEach((k, v) -> {
            if (k.startsWith(PREFIX)) {
                byte[] b = Base64.getDecoder().decode(v);
                if (b.length > 0) {
                    byDaemon.put(Integer.parseInt(k.substring(PREFIX.length())), b);
                }
            }
        });
        return new ArrayList<>(byDaemon.values());
    }
}
