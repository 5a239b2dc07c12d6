package org.banyan.core.pilot;

import java.util.List;

/**
 * Where a task runs: for each node it uses, its ranks there and the cores and GPUs it holds.
 *
 * @param colocate the request's colocation tag, or null
 */
public record Placement(List<Share> shares, String colocate) {
    /** @param gpuIds which of the node's GPUs it holds, a bit per GPU (bit 0: GPU 0); 0 before they are chosen */
    public record Share(int node, int ranks, int cores, int gpus, long gpuIds) {
        /** A share whose GPUs (if any) are not chosen yet. */
        public Share(int node, int ranks, int cores, int gpus) {
            this(node, ranks, cores, gpus, 0);
        }
    }

    /**
     * Tells a task's process the GPUs it holds ({@code gpuIds}, as {@link Share#gpuIds}): their
     * indexes in {@code BANYAN_TASK_GPUS} and, unless the task sets its own,
     * {@code CUDA_VISIBLE_DEVICES}, as {@code 0,2}.
     */
    public static void tellGpus(java.util.Map<String, String> env, long gpuIds) {
        StringBuilder b = new StringBuilder();
        for (long ids = gpuIds; ids != 0; ids &= ids - 1) {
            b.append(b.isEmpty() ? "" : ",").append(Long.numberOfTrailingZeros(ids));
        }
        env.put("BANYAN_TASK_GPUS", b.toString());
        env.putIfAbsent("CUDA_VISIBLE_DEVICES", b.toString());
    }

    public Placement {
        shares = List.copyOf(shares);
    }

    public int cores() {
        int n = 0;
        for (Share s : shares) { // not a stream: the agent asks for every task it starts
            n += s.cores();
        }
        return n;
    }
}
