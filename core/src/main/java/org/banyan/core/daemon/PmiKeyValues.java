package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.wire.OverlayMessage;

/**
 * A job's PMI key-value space as one daemon knows it: what its local ranks put, what fences
 * brought (every daemon's puts, or with the lazy modex only which daemon holds each key), and
 * values fetched from their owners and kept. {@link PmiServer} answers the ranks from it.
 */
final class PmiKeyValues {
    static final int KEYLEN_MAX = 64;
    static final int VALLEN_MAX = 1024;

    /** Values put by local ranks, and values fetched and kept (lazy modex). */
    private final Map<String, String> kvs = new HashMap<>();
    /**
     * What fences brought, newest last, kept as received rather than copied into one table: a
     * release may hold millions of keys, and the simulator's daemons all share one.
     */
    private final List<Map<String, String>> fencedValues = new ArrayList<>();
    /** Lazy modex: which daemon holds each key put before a fence, per fence. */
    private final List<Map<String, Integer>> fencedOwners = new ArrayList<>();
    /** Local puts since the last fence, in the order they came. */
    private Map<String, String> unfenced = new LinkedHashMap<>();

    PmiKeyValues(String processMapping) {
        kvs.put("PMI_process_mapping", processMapping);
    }

    /** Stores a local put; returns why it was refused, or null. */
    String put(String key, String value) {
        if (key == null || value == null) {
            return "put_needs_key_and_value";
        }
        if (key.length() > KEYLEN_MAX || value.length() > VALLEN_MAX) {
            return "key_or_value_too_long";
        }
        kvs.put(key, value);
        unfenced.put(key, value);
        return null;
    }

    /** A value fetched from its owner (lazy modex), kept for the next get. */
    void fetched(String key, String value) {
        kvs.put(key, value);
    }

    /** The value of {@code key} as known here, or null. */
    String valueOf(String key) {
        String v = kvs.get(key);
        for (int i = fencedValues.size() - 1; v == null && i >= 0; i--) {
            v = fencedValues.get(i).get(key);
        }
        return v;
    }

    /** Lazy modex: the daemon the last fences say holds {@code key}, or null. */
    Integer ownerOf(String key) {
        for (int i = fencedOwners.size() - 1; i >= 0; i--) {
            Integer o = fencedOwners.get(i).get(key);
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    /** The local puts since the last fence, handed to the fence (and forgotten here as unfenced). */
    Map<String, String> takeUnfenced() {
        Map<String, String> puts = unfenced;
        unfenced = new LinkedHashMap<>();
        return puts;
    }

    /** A fence completed: what it brought. */
    void fenced(OverlayMessage.FenceRelease release) {
        if (!release.puts().isEmpty()) {
            fencedValues.add(release.puts());
        }
        if (!release.owners().isEmpty()) {
            fencedOwners.add(release.owners());
        }
    }
}
