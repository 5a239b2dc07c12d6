package org.banyan.topo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * This host's topology from Linux's {@code /sys/devices/system/cpu} when hwloc is absent (and on
 * the daemons' start-up path, where running {@code lstopo} would cost a process): the online PUs,
 * grouped into cores by {@code core_id}, cores into packages by {@code physical_package_id}, and,
 * where NUMA nodes ({@code /sys/devices/system/node}) split packages, into those nodes. Levels are
 * named as hwloc names them (Package, NUMANode, Core, PU).
 */
public final class SysfsTopology {
    private static final Path CPU_DIR = Path.of("/sys/devices/system/cpu");

    private SysfsTopology() {}

    /**
     * Reads this host's {@code /sys}, keeping only the CPUs this process may run on
     * ({@code Cpus_allowed_list} of {@code /proc/self/status}): inside a Slurm job step or under
     * {@code taskset}, ranks can only be bound within what the daemon was given.
     */
    public static Topology local() {
        return parse(SysfsTopology::read, allowedCpus());
    }

    /**
     * This host's whole tree, every online CPU whatever this process may run on: for a decision
     * about other processes too (a bound rank's own allowed CPUs are its core alone).
     */
    public static Topology host() {
        return parse(SysfsTopology::read);
    }

    /** A file under this host's {@code /sys/devices/system/cpu}, or null when it is absent. */
    private static String read(String relative) {
        try {
            return Files.readString(CPU_DIR.resolve(relative));
        } catch (IOException e) {
            return null;
        }
    }

    /** This host's kinds of cores ({@link #kinds(Function)}). */
    public static CpuKinds kinds() {
        return kinds(SysfsTopology::read);
    }

    /**
     * The kinds of cores of the online CPUs, read through {@code files} as hwloc's Linux backend
     * reads them: Intel's hybrid core types (the CPUs of {@code /sys/devices/cpu_core} and
     * {@code cpu_atom}), the capacity the scheduler gives each CPU ({@code cpuN/cpu_capacity}),
     * and its base and maximum frequencies ({@code cpuN/cpufreq/base_frequency},
     * {@code cpuinfo_max_freq}). Values within 10 % of each other are one (a processor's favoured
     * cores boost a little higher than the others: not another kind).
     */
    public static CpuKinds kinds(Function<String, String> files) {
        int[] cpus = listOrEmpty(files.apply("online"));
        if (cpus.length == 0) {
            return CpuKinds.NONE;
        }
        java.util.Set<Integer> big = setOf(listOrEmpty(files.apply("../../cpu_core/cpus")));
        java.util.Set<Integer> small = setOf(listOrEmpty(files.apply("../../cpu_atom/cpus")));
        double[] capacity = new double[cpus.length];
        double[] base = new double[cpus.length];
        double[] max = new double[cpus.length];
        for (int i = 0; i < cpus.length; i++) {
            capacity[i] = decimal(files.apply("cpu" + cpus[i] + "/cpu_capacity"));
            base[i] = decimal(files.apply("cpu" + cpus[i] + "/cpufreq/base_frequency")) / 1000;
            max[i] = decimal(files.apply("cpu" + cpus[i] + "/cpufreq/cpuinfo_max_freq")) / 1000;
        }
        capacity = withinTenPercent(capacity);
        base = withinTenPercent(base);
        max = withinTenPercent(max);
        java.util.Map<List<Object>, List<Integer>> byKind = new java.util.LinkedHashMap<>();
        for (int i = 0; i < cpus.length; i++) {
            String type = big.contains(cpus[i]) ? "IntelCore" : small.contains(cpus[i]) ? "IntelAtom" : null;
            byKind.computeIfAbsent(java.util.Arrays.asList(type, capacity[i], base[i], max[i]), k -> new java.util.ArrayList<>())
                    .add(cpus[i]);
        }
        List<CpuKinds.Kind> kinds = new java.util.ArrayList<>();
        byKind.forEach((k, members) -> kinds.add(new CpuKinds.Kind(members.stream().mapToInt(Integer::intValue).toArray(),
                Double.NaN, (String) k.get(0), (Double) k.get(1), (Double) k.get(2), (Double) k.get(3))));
        return CpuKinds.ranked(kinds);
    }

    /** A CPU list of /sys, or none when absent or malformed: kinds are a preference, never a reason to fail a job. */
    private static int[] listOrEmpty(String text) {
        try {
            return text == null || text.isBlank() ? new int[0] : CpuList.parse(text.strip());
        } catch (IllegalArgumentException e) {
            return new int[0];
        }
    }

    /** A number of a /sys file, NaN when absent or not a number. */
    private static double decimal(String text) {
        if (text == null || text.isBlank()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Each value replaced by the smallest of its cluster: sorted values within 10 % of the cluster's first. */
    private static double[] withinTenPercent(double[] values) {
        java.util.Map<Double, Double> first = new java.util.HashMap<>();
        double start = Double.NaN;
        for (double v : java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().distinct().toArray()) {
            start = Double.isNaN(start) || v > start * 1.1 ? v : start;
            first.put(v, start);
        }
        return java.util.Arrays.stream(values).map(v -> Double.isNaN(v) ? v : first.get(v)).toArray();
    }

    /** This host's data and unified caches, by level: the CPUs that share each ({@link #caches(Function)}). */
    public static java.util.Map<Integer, List<int[]>> caches() {
        return caches(SysfsTopology::read);
    }

    /**
     * The data and unified caches (not instruction caches, as hwloc's L1 in a locality string is
     * the data cache) of the online CPUs, read through {@code files} ({@code cpuN/cache/indexK/level},
     * {@code type}, {@code shared_cpu_list}): by level, each cache once, as the set of CPUs that share it.
     */
    public static java.util.Map<Integer, List<int[]>> caches(Function<String, String> files) {
        java.util.Map<Integer, java.util.Map<String, int[]>> byLevel = new TreeMap<>();
        String online = files.apply("online");
        if (online == null) {
            return java.util.Map.of();
        }
        for (int cpu : CpuList.parse(online.strip())) {
            for (int k = 0; ; k++) {
                String dir = "cpu" + cpu + "/cache/index" + k + "/";
                String level = files.apply(dir + "level");
                if (level == null) {
                    break;
                }
                String type = files.apply(dir + "type");
                String shared = files.apply(dir + "shared_cpu_list");
                if (type == null || shared == null || type.strip().equals("Instruction")) {
                    continue;
                }
                try {
                    byLevel.computeIfAbsent(Integer.parseInt(level.strip()), l -> new java.util.LinkedHashMap<>())
                            .putIfAbsent(shared.strip(), CpuList.parse(shared.strip()));
                } catch (IllegalArgumentException e) {
                    // a file this kernel writes otherwise: the cache is left out
                }
            }
        }
        java.util.Map<Integer, List<int[]>> out = new TreeMap<>();
        byLevel.forEach((l, m) -> out.put(l, List.copyOf(m.values())));
        return out;
    }

    /** Whether this host runs more than one hardware thread a core: false only when Linux says SMT is off or absent. */
    public static boolean smtActive() {
        String smt = read("smt/active");
        return smt == null || !smt.strip().equals("0");
    }

    /**
     * The cores this process may run on: mpirun's slots on a host, which count cores and not
     * their hardware threads; 0 when /sys does not say. Two files per CPU: where
     * {@link #smtActive} is false every allowed CPU is a core, and asking that is cheaper.
     */
    public static int localCores() {
        return cores(SysfsTopology::read, allowedCpus());
    }

    /**
     * The distinct cores (package id, core id) among the online CPUs in {@code allowed} (all
     * when null), read through {@code files} as {@link #parse(Function, int[])} reads them; 0
     * when there is no {@code online} file.
     */
    static int cores(Function<String, String> files, int[] allowed) {
        String online = files.apply("online");
        if (online == null) {
            return 0;
        }
        java.util.Set<Integer> keep = setOf(allowed);
        java.util.Set<Long> cores = new java.util.HashSet<>();
        for (int cpu : CpuList.parse(online.strip())) {
            if (keep == null || keep.contains(cpu)) {
                long pkg = number(files.apply("cpu" + cpu + "/topology/physical_package_id"), 0);
                cores.add(pkg << 32 | number(files.apply("cpu" + cpu + "/topology/core_id"), cpu));
            }
        }
        return cores.size();
    }

    /** {@code cpus} as a set, or null (every CPU) for null. */
    private static java.util.Set<Integer> setOf(int[] cpus) {
        if (cpus == null) {
            return null;
        }
        java.util.Set<Integer> set = new java.util.HashSet<>();
        for (int c : cpus) {
            set.add(c);
        }
        return set;
    }

    /** This process's allowed CPUs, or null when /proc does not say. */
    static int[] allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return CpuList.parse(line.substring("Cpus_allowed_list:".length()).strip());
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // no /proc: every online CPU
        }
        return null;
    }

    /**
     * Builds the tree from files under {@code /sys/devices/system/cpu}, read through
     * {@code files} (a path relative to that directory to the file's text, or null when absent).
     */
    public static Topology parse(Function<String, String> files) {
        return parse(files, null);
    }

    /**
     * As {@link #parse(Function)}, keeping only the CPUs in {@code allowed} (all when null); a
     * host whose allowed CPUs do not make a balanced tree (two cores of one package and one of
     * another, cores of two threads beside cores of one) is padded with {@link Topology#HOLE holes}.
     */
    public static Topology parse(Function<String, String> files, int[] allowed) {
        java.util.Set<Integer> keep = setOf(allowed);
        String online = files.apply("online");
        if (online == null) {
            throw new IllegalArgumentException("no /sys/devices/system/cpu/online: cannot tell this host's CPUs");
        }
        // package id -> core id -> PUs
        TreeMap<Integer, TreeMap<Integer, List<Integer>>> tree = new TreeMap<>();
        for (int cpu : CpuList.parse(online.strip())) {
            if (keep != null && !keep.contains(cpu)) {
                continue;
            }
            int pkg = number(files.apply("cpu" + cpu + "/topology/physical_package_id"), 0);
            int core = number(files.apply("cpu" + cpu + "/topology/core_id"), cpu);
            tree.computeIfAbsent(pkg, k -> new TreeMap<>()).computeIfAbsent(core, k -> new ArrayList<>()).add(cpu);
        }
        if (tree.isEmpty()) {
            throw new IllegalArgumentException("none of this host's online CPUs is allowed to this process");
        }
        Topology withNuma = withNumaNodes(tree, files);
        if (withNuma != null) {
            return withNuma;
        }
        // a hybrid processor (cores of two threads beside cores of one) or an uneven cpuset (three
        // cores of one package and one of another) is padded with holes, as hwloc's XML is
        int cores = 0;
        int pus = 0;
        for (var pkg : tree.values()) {
            cores = Math.max(cores, pkg.size());
            for (List<Integer> core : pkg.values()) {
                pus = Math.max(pus, core.size());
            }
        }
        List<Integer> os = new ArrayList<>();
        for (var pkg : tree.values()) {
            for (List<Integer> core : pkg.values()) {
                os.addAll(core);
                for (int i = core.size(); i < pus; i++) {
                    os.add(Topology.HOLE);
                }
            }
            for (int i = pkg.size(); i < cores; i++) {
                for (int k = 0; k < pus; k++) {
                    os.add(Topology.HOLE);
                }
            }
        }
        return new Topology(List.of(new Topology.Level("Package", tree.size(), 0), new Topology.Level("Core", cores, 0),
                new Topology.Level("PU", pus, 0)), os.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The tree with a NUMANode level between Package and Core when Linux's NUMA nodes split the
     * packages evenly (AMD's NPS2/NPS4, Intel's sub-NUMA clustering): each package holds the same
     * number (two or more) of nodes, each node the same number of whole cores. Cores are then
     * numbered node by node, as hwloc's logical indexes are. Null when there is no such split (one
     * node per package, nodes across packages, no node files, or an uneven split): binding to
     * NUMA then binds to the package.
     */
    private static Topology withNumaNodes(TreeMap<Integer, TreeMap<Integer, List<Integer>>> tree,
                                          Function<String, String> files) {
        String online = files.apply("../node/online");
        if (online == null || online.isBlank()) {
            return null;
        }
        java.util.Map<Integer, Integer> nodeOfCpu = new java.util.HashMap<>();
        for (int node : CpuList.parse(online.strip())) {
            String cpus = files.apply("../node/node" + node + "/cpulist");
            if (cpus != null && !cpus.isBlank()) {
                for (int cpu : CpuList.parse(cpus.strip())) {
                    nodeOfCpu.put(cpu, node);
                }
            }
        }
        int perPackage = -1;
        int coresPerNode = -1;
        int pus = -1;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        List<Integer> os = new ArrayList<>();
        for (TreeMap<Integer, List<Integer>> pkg : tree.values()) {
            TreeMap<Integer, List<List<Integer>>> byNode = new TreeMap<>();
            for (List<Integer> core : pkg.values()) {
                Integer node = nodeOfCpu.get(core.getFirst());
                for (int cpu : core) {
                    if (node == null || !node.equals(nodeOfCpu.get(cpu))) {
                        return null; // a core across nodes, or a CPU of no node
                    }
                }
                byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(core);
            }
            for (var node : byNode.entrySet()) {
                if (!seen.add(node.getKey())) {
                    return null; // a node across packages
                }
                if (coresPerNode >= 0 && node.getValue().size() != coresPerNode) {
                    return null;
                }
                coresPerNode = node.getValue().size();
                for (List<Integer> core : node.getValue()) {
                    if (pus >= 0 && core.size() != pus) {
                        return null; // unbalanced: the caller's check names it
                    }
                    pus = core.size();
                    os.addAll(core);
                }
            }
            if (perPackage >= 0 && byNode.size() != perPackage) {
                return null;
            }
            perPackage = byNode.size();
        }
        if (perPackage < 2) {
            return null;
        }
        return new Topology(List.of(new Topology.Level("Package", tree.size(), 0),
                new Topology.Level("NUMANode", perPackage, 0), new Topology.Level("Core", coresPerNode, 0),
                new Topology.Level("PU", pus, 0)), os.stream().mapToInt(Integer::intValue).toArray());
    }

    private static int number(String text, int otherwise) {
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        int v = Integer.parseInt(text.strip());
        return v < 0 ? otherwise : v; // s390 and some VMs report -1
    }
}
