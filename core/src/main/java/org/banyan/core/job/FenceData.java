package org.banyan.core.job;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a fence gathers up the tree: the values put since the last fence (full modex) and the
 * daemon that holds each key (lazy modex, where values stay put until asked for).
 */
public record FenceData(Map<String, String> puts, Map<String, Integer> owners) {
    public static final FenceData EMPTY = new FenceData(Map.of(), Map.of());

    /** Both parts together, later keys winning; neither argument is changed. */
    public FenceData merge(FenceData other) {
        Map<String, String> p = new LinkedHashMap<>(puts);
        p.putAll(other.puts);
        Map<String, Integer> o = new LinkedHashMap<>(owners);
        o.putAll(other.owners);
        return new FenceData(p, o);
    }
}
