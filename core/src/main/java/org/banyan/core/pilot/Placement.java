package org.banyan.core.pilot;

import java.util.List;

/**
 * Where a task runs: for each node it uses, its ranks there and the cores and GPUs it holds.
 *
 * @param colocate the request's colocation tag, or null
 */
public record Placement(List<Share> shares, String colocate) {
    public record Share(int node, int ranks, int cores, int gpus) {}

    public Placement {
        shares = List.copyOf(shares);
    }

    public int cores() {
        return shares.stream().mapToInt(Share::cores).sum();
    }
}
