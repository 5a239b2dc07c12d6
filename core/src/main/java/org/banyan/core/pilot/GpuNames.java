package org.banyan.core.pilot;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What tasks call each node's GPUs in {@code CUDA_VISIBLE_DEVICES}. The agent numbers a node's
 * GPUs from 0; a node whose daemon was given a list of its own (Slurm's {@code 2,3}, a user's
 * UUIDs) has its GPU {@code i} named by the list's entry {@code i}, so that a task's GPU is one the
 * pilot may use. Nodes without a list use the numbers.
 */
public final class GpuNames {
    private final Map<Integer, List<String>> byNode = new HashMap<>();

    /** Node {@code node}'s GPU {@code i} is {@code names.get(i)}. */
    public void set(int node, List<String> names) {
        byNode.put(node, List.copyOf(names));
    }

    /** The names of GPUs {@code gpuIds} (a bit each, as {@link Placement.Share#gpuIds}) on {@code node}: {@code 5,7}. */
    public String of(int node, long gpuIds) {
        return format(gpuIds, byNode.get(node));
    }

    /** GPUs {@code gpuIds} by their indexes: {@code 0,2}. */
    public static String indexes(long gpuIds) {
        return format(gpuIds, null);
    }

    private static String format(long gpuIds, List<String> names) {
        StringBuilder b = new StringBuilder();
        for (long ids = gpuIds; ids != 0; ids &= ids - 1) {
            int i = Long.numberOfTrailingZeros(ids);
            b.append(b.isEmpty() ? "" : ",").append(names != null && i < names.size() ? names.get(i) : Integer.toString(i));
        }
        return b.toString();
    }
}
