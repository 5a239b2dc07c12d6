package org.banyan.topo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The GPUs a process on this host may hand to its tasks, by the names a task's
 * {@code CUDA_VISIBLE_DEVICES} takes. What the process was given wins over what the host has: a
 * daemon started with {@code CUDA_VISIBLE_DEVICES} set (by Slurm for a job's GPUs, or by a user
 * keeping some GPUs for other work) offers exactly those, under those names, so that a task's
 * first GPU is the first of them and not the host's GPU 0. Otherwise the GPUs the drivers list:
 * NVIDIA's in {@code /proc/driver/nvidia/gpus} (a directory each), AMD's as the KFD topology
 * nodes with a non-zero {@code gpu_id} (HIP reads {@code CUDA_VISIBLE_DEVICES} too), named by
 * their index from 0; but not inside a Slurm job, which sets {@code CUDA_VISIBLE_DEVICES} for
 * the GPUs it was allocated: one that did not set it has none, and the drivers' list would name
 * other jobs' GPUs. No GPU is an empty list.
 */
public final class GpuDevices {
    private GpuDevices() {}

    /** This process's GPUs. */
    public static List<String> detect() {
        return detect(System.getenv(), Path.of("/"));
    }

    /**
     * @param env  the process's environment
     * @param root where {@code /proc} and {@code /sys} are (tests give a directory of their own)
     */
    public static List<String> detect(Map<String, String> env, Path root) {
        String visible = env.get("CUDA_VISIBLE_DEVICES");
        if (visible != null) {
            return visible(visible);
        }
        if (env.containsKey("SLURM_JOB_ID")) {
            return List.of();
        }
        int nvidia = count(root.resolve("proc/driver/nvidia/gpus"), Files::isDirectory);
        if (nvidia > 0) {
            return numbered(nvidia);
        }
        return numbered(count(root.resolve("sys/class/kfd/kfd/topology/nodes"), GpuDevices::amdGpu));
    }

    /**
     * A {@code CUDA_VISIBLE_DEVICES} list as CUDA reads it: its entries in order, up to the first
     * negative one (CUDA stops there; {@code -1} is the usual way to hide every GPU).
     */
    public static List<String> visible(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            String name = s.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (name.startsWith("-")) {
                break;
            }
            out.add(name);
        }
        return List.copyOf(out);
    }

    private static List<String> numbered(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Integer.toString(i));
        }
        return List.copyOf(out);
    }

    private static int count(Path dir, java.util.function.Predicate<Path> what) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(what).count();
        } catch (IOException | RuntimeException e) {
            return 0; // unreadable: as if the driver listed none
        }
    }

    /** A KFD topology node is a GPU when its {@code gpu_id} is not 0 (CPUs have 0). */
    private static boolean amdGpu(Path node) {
        try {
            String id = Files.readString(node.resolve("gpu_id")).strip();
            return !id.isEmpty() && !id.equals("0");
        } catch (IOException e) {
            return false;
        }
    }
}
