package org.banyan.core.pmi;

import java.util.Map;

/** One parsed PMI-1 request line: {@code cmd=NAME k=v ...}. */
public record PmiCommand(String name, Map<String, String> attributes) {
    public PmiCommand {
        attributes = Map.copyOf(attributes);
    }

    public String get(String key) {
        return attributes.get(key);
    }

    public int getInt(String key, int fallback) {
        String v = attributes.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
