package org.banyan.core.pilot;

/** What one node of a pilot offers its tasks: cores, and GPUs numbered from 0 (at most 64). */
public record NodeResources(String name, int cores, int gpus) {
    public static final int MAX_GPUS = 64;

    public NodeResources {
        if (cores < 0 || gpus < 0) {
            throw new IllegalArgumentException("a node cannot offer negative resources");
        }
        if (gpus > MAX_GPUS) {
            throw new IllegalArgumentException("a node of " + gpus + " GPUs: at most " + MAX_GPUS + " are told apart");
        }
    }
}
