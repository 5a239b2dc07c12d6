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
     * Tells a task's process the GPUs it holds on {@code node} ({@code gpuIds}, as
     * {@link Share#gpuIds}): their indexes in {@code BANYAN_TASK_GPUS}, as {@code 0,2}, and, unless
     * the task sets its own, their names in {@code CUDA_VISIBLE_DEVICES} (the indexes too, unless
     * the node's daemon was given GPUs of its own: see {@link GpuNames}).
     */
    public static void tellGpus(java.util.Map<String, String> env, int node, long gpuIds, GpuNames names) {
        env.put("BANYAN_TASK_GPUS", GpuNames.indexes(gpuIds));
        env.putIfAbsent("CUDA_VISIBLE_DEVICES", names.of(node, gpuIds));
    }

    /**
     * Tells a process of a task that holds no GPU on a node that has some that it has none: an
     * empty {@code BANYAN_TASK_GPUS} and, unless the task sets its own, {@code
     * CUDA_VISIBLE_DEVICES=-1}, as Flux's shell tells a job without GPUs; it saw the daemon's
     * whole list, and a CUDA program would take the GPUs of the tasks that hold them.
     */
    public static void tellNoGpus(java.util.Map<String, String> env) {
        env.put("BANYAN_TASK_GPUS", "");
        env.putIfAbsent("CUDA_VISIBLE_DEVICES", "-1");
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
