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

        /** Its GPUs' indexes on the node, as {@code CUDA_VISIBLE_DEVICES} lists them: {@code 0,2}. */
        public String gpuList() {
            StringBuilder b = new StringBuilder();
            for (long ids = gpuIds; ids != 0; ids &= ids - 1) {
                b.append(b.isEmpty() ? "" : ",").append(Long.numberOfTrailingZeros(ids));
            }
            return b.toString();
        }
    }

    public Placement {
        shares = List.copyOf(shares);
    }

    public int cores() {
        return shares.stream().mapToInt(Share::cores).sum();
    }
}
