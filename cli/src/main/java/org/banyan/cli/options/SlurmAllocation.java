package org.banyan.cli.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The hosts and slots of the Slurm allocation banyan runs in, from the environment srun and
 * salloc set: {@code SLURM_JOB_NODELIST} in Slurm's hostlist syntax ({@code node[1-4,7],login}),
 * and per host either the job's tasks ({@code SLURM_TASKS_PER_NODE}, {@code 2(x3),1}: what
 * {@code banyan run} places ranks in, as Open MPI's mpirun and srun do, so that
 * {@code salloc -n 2 -c 2} runs two ranks of two CPUs each and not four) or its CPUs
 * ({@code SLURM_JOB_CPUS_PER_NODE}: what a DVM hands out to tasks, as a pilot holds every core
 * it was given).
 */
public final class SlurmAllocation {
    private SlurmAllocation() {}

    /** What a host's slots are. */
    public enum Slots { TASKS, CPUS }

    /** The allocation's hosts as host entries, or an empty list outside an allocation. */
    public static List<HostEntry> hosts(Map<String, String> env, Slots per) throws UsageException {
        String list = env.getOrDefault("SLURM_JOB_NODELIST", env.get("SLURM_NODELIST"));
        if (list == null || list.isBlank()) {
            return List.of();
        }
        List<String> names = expand(list);
        String variable = per == Slots.TASKS && env.get("SLURM_TASKS_PER_NODE") != null ? "SLURM_TASKS_PER_NODE"
                : "SLURM_JOB_CPUS_PER_NODE";
        String counts = env.get(variable);
        List<Integer> slots = counts == null ? List.of() : counts(variable, counts);
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
    static List<Integer> counts(String variable, String spec) throws UsageException {
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
                throw new UsageException(variable + " '" + spec + "': cannot read '" + p + "'");
            }
        }
        return out;
    }
}
