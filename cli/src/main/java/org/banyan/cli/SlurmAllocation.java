package org.banyan.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The hosts and slots of the Slurm allocation banyan runs in, from the environment srun and
 * salloc set: {@code SLURM_JOB_NODELIST} in Slurm's hostlist syntax ({@code node[1-4,7],login})
 * and {@code SLURM_JOB_CPUS_PER_NODE} ({@code 2(x3),1}).
 */
final class SlurmAllocation {
    private SlurmAllocation() {}

    /** The allocation's hosts as host entries, or an empty list outside an allocation. */
    static List<HostEntry> hosts(Map<String, String> env) throws UsageException {
        String list = env.getOrDefault("SLURM_JOB_NODELIST", env.get("SLURM_NODELIST"));
        if (list == null || list.isBlank()) {
            return List.of();
        }
        List<String> names = expand(list);
        String cpus = env.get("SLURM_JOB_CPUS_PER_NODE");
        List<Integer> slots = cpus == null ? List.of() : counts(cpus);
        List<HostEntry> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            out.add(new HostEntry(names.get(i), i < slots.size() ? slots.get(i) : 1, "SLURM_JOB_NODELIST"));
        }
        return out;
    }

    /** Expands Slurm's hostlist syntax: {@code a[1-3,07],b} is a1 a2 a3 a07 b. */
    static List<String> expand(String list) throws UsageException {
        try {
            return org.banyan.runtime.launch.SlurmHostlist.expand(list);
        } catch (IllegalArgumentException e) {
            throw new UsageException("SLURM_JOB_NODELIST " + e.getMessage());
        }
    }

    /** {@code 2(x3),1} is 2, 2, 2, 1. */
    static List<Integer> counts(String spec) throws UsageException {
        List<Integer> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            int x = p.indexOf("(x");
            try {
                int n = Integer.parseInt(x < 0 ? p : p.substring(0, x));
                int times = x < 0 ? 1 : Integer.parseInt(p.substring(x + 2, p.length() - 1));
                for (int i = 0; i < times; i++) {
                    out.add(n);
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new UsageException("SLURM_JOB_CPUS_PER_NODE '" + spec + "': cannot read '" + p + "'");
            }
        }
        return out;
    }
}
