package org.banyan.core.pilot;

/** What one node of a pilot offers its tasks. */
public record NodeResources(String name, int cores, int gpus) {
    public NodeResources {
        if (cores < 0 || gpus < 0) {
            throw new IllegalArgumentException("a node cannot offer negative resources");
        }
    }
}
