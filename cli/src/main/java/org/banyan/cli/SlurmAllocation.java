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
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String item = list.substring(start, i).strip();
                if (!item.isEmpty()) {
                    expandOne(item, out, list);
                }
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new UsageException("SLURM_JOB_NODELIST '" + list + "': unbalanced brackets");
        }
        return out;
    }

    private static void expandOne(String item, List<String> out, String whole) throws UsageException {
        int open = item.indexOf('[');
        if (open < 0) {
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] ends = range.split("-", 2);
            try {
                int lo = Integer.parseInt(ends[0]);
                int hi = ends.length == 2 ? Integer.parseInt(ends[1]) : lo;
                int width = ends[0].length();
                for (int n = lo; n <= hi; n++) {
                    String num = Integer.toString(n);
                    out.add(prefix + "0".repeat(Math.max(0, width - num.length())) + num + suffix);
                }
            } catch (NumberFormatException e) {
                throw new UsageException("SLURM_JOB_NODELIST '" + whole + "': cannot read range '" + range + "'");
            }
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
