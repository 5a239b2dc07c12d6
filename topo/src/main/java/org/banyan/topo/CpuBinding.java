package org.banyan.topo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which CPUs of a host a rank is bound to, from its host's topology (levels named as hwloc and
 * {@link SysfsTopology} name them: Package, Core, PU; a synthetic {@code socket} level counts as
 * a package, and a tree with no Core level has cores for leaves). Two ways in: mpirun's policies
 * ({@link #of}) or a rankfile's slot ({@link #ofSlot}). CPUs are returned as OS indexes.
 *
 * <p>Cores, packages, NUMA nodes and hardware threads are counted as hwloc counts them (logical
 * indexes): on a host whose tree has holes ({@link Topology#HOLE}: a hybrid processor, PUs this
 * process may not use) only the objects with a usable PU exist, and no rank is ever bound to a hole.
 */
public final class CpuBinding {
    /**
     * mpirun's {@code --bind-to} targets. NUMA is the package on hosts whose topology has no NUMA
     * level below it. HWTHREAD is one hardware thread (PU) per rank (last: the wire carries the ordinal).
     */
    public enum Target {
        NONE, CORE, SOCKET, NUMA, HWTHREAD;

        public static Target parse(String text) {
            return switch (text) {
                case "none" -> NONE;
                case "core" -> CORE;
                case "socket", "package" -> SOCKET;
                case "numa" -> NUMA;
                case "hwthread" -> HWTHREAD;
                default -> null;
            };
        }
    }

    private final Topology host;
    private final int coreLevel;
    private final int packageLevel;
    /**
     * By cache level (3, 2, 1), each CPU's (OS index) cache's logical index: its place among its
     * level's caches in the order of their first CPU in this topology, as hwloc numbers objects
     * along its tree. Made once: a bound job asks for every rank's locality.
     */
    private final java.util.NavigableMap<Integer, java.util.Map<Integer, Integer>> cacheOfCpu = new java.util.TreeMap<>(
            java.util.Comparator.reverseOrder());
    private final int numaLevel;
    private final int cores;
    private final int packages;
    /** Per logical core: its object at the core level (padded tree), and its logical package. */
    private final int[] coreObject;
    private final int[] packageOfCore;
    /** Per logical package: its first logical core, and how many it has. */
    private final int[] firstCoreOf;
    private final int[] coresOf;
    /** Per logical core, its kind's rank (0 unless the host is hybrid); the fastest kind has the highest. */
    private final int[] kindOfCore;
    private final boolean hybrid;
    /**
     * The logical cores in the order ranks take them: the most performant kind's first, core
     * order within a kind (null on a host of one kind, where it is the identity). A DVM's held core {@code k} is
     * {@code preferred[k]}: the DVM counts a host's cores without knowing their kinds, and the
     * first job it binds there gets the fast ones.
     */
    private final int[] preferred;

    public CpuBinding(Topology host) {
        this(host, java.util.Map.of());
    }

    /** @param caches the host's caches by level, each as the CPUs (OS indexes) that share it ({@link SysfsTopology#caches}) */
    public CpuBinding(Topology host, java.util.Map<Integer, List<int[]>> caches) {
        this(host, caches, CpuKinds.NONE);
    }

    /**
     * @param kinds the host's kinds of cores ({@link SysfsTopology#kinds}): on a hybrid processor
     *              ranks take the most performant cores first, each kind in core order
     */
    public CpuBinding(Topology host, java.util.Map<Integer, List<int[]>> caches, CpuKinds kinds) {
        this.host = host;
        Map<Integer, Integer> leafOf = new java.util.HashMap<>();
        for (int leaf = 0; leaf < host.leaves(); leaf++) {
            if (host.usable(leaf)) {
                leafOf.put(host.leafOsIndex()[leaf], leaf);
            }
        }
        caches.forEach((level, sets) -> {
            List<int[]> ordered = new java.util.ArrayList<>(sets);
            // OS indexes this topology does not have (offline, not ours) sort last
            ordered.sort(java.util.Comparator.comparingInt(set -> java.util.Arrays.stream(set)
                    .map(cpu -> leafOf.getOrDefault(cpu, Integer.MAX_VALUE)).min().orElse(Integer.MAX_VALUE)));
            Map<Integer, Integer> index = new java.util.HashMap<>();
            for (int i = 0; i < ordered.size(); i++) {
                for (int cpu : ordered.get(i)) {
                    index.put(cpu, i);
                }
            }
            if (!index.isEmpty()) {
                cacheOfCpu.put(level, index);
            }
        });
        int c = host.levelNamed("Core");
        this.coreLevel = c >= 0 ? c : host.depth() - 1;
        int p = host.levelNamed("Package");
        this.packageLevel = p >= 0 ? p : host.levelNamed("socket");
        int numa = host.levelNamed("NUMANode");
        this.numaLevel = numa > packageLevel && numa < coreLevel ? numa : -1;
        int[] coreLogical = host.logicalIndexes(coreLevel);
        int[] packageLogical = packageLevel < 0 ? new int[] {0} : host.logicalIndexes(packageLevel);
        int coresPerPackageObject = packageLevel < 0 ? coreLogical.length : host.leavesUnder(packageLevel) / host.leavesUnder(coreLevel);
        this.cores = (int) java.util.Arrays.stream(coreLogical).filter(i -> i >= 0).count();
        this.packages = (int) java.util.Arrays.stream(packageLogical).filter(i -> i >= 0).count();
        this.coreObject = new int[cores];
        this.packageOfCore = new int[cores];
        this.firstCoreOf = new int[packages];
        this.coresOf = new int[packages];
        java.util.Arrays.fill(firstCoreOf, -1);
        for (int object = 0; object < coreLogical.length; object++) {
            int core = coreLogical[object];
            if (core >= 0) {
                int pkg = packageLogical[object / coresPerPackageObject];
                coreObject[core] = object;
                packageOfCore[core] = pkg;
                firstCoreOf[pkg] = firstCoreOf[pkg] < 0 ? core : firstCoreOf[pkg];
                coresOf[pkg]++;
            }
        }
        this.kindOfCore = new int[cores];
        for (int core = 0; core < cores && kinds.hybrid(); core++) {
            for (int leaf : leavesOf(core)) {
                kindOfCore[core] = Math.max(kindOfCore[core], kinds.rankOf(host.leafOsIndex()[leaf]));
            }
        }
        this.hybrid = kinds.hybrid() && java.util.Arrays.stream(kindOfCore).distinct().count() > 1;
        this.preferred = !hybrid ? null : java.util.stream.IntStream.range(0, cores).boxed()
                .sorted(java.util.Comparator.comparingInt(core -> -kindOfCore[core])).mapToInt(Integer::intValue).toArray();
    }

    /** The usable PUs (leaves) of logical core {@code core}, in order. */
    private List<Integer> leavesOf(int core) {
        int per = host.leavesUnder(coreLevel);
        List<Integer> out = new ArrayList<>(per);
        for (int leaf = coreObject[core] * per; leaf < (coreObject[core] + 1) * per; leaf++) {
            if (host.usable(leaf)) {
                out.add(leaf);
            }
        }
        return out;
    }

    public int cores() {
        return cores;
    }

    public int packages() {
        return packages;
    }

    /**
     * The CPUs of local rank {@code localRank} under mpirun's policies: ranks take
     * {@code cpusPerRank} cores each, in core order ({@code bySocket} false, {@code --map-by
     * core|slot}) or dealt over the packages in turn ({@code --map-by socket}), wrapping when
     * the host has fewer; then the binding widens the cores to their package or NUMA node.
     * Empty for {@link Target#NONE}.
     */
    public int[] of(int localRank, boolean bySocket, Target target, int cpusPerRank) {
        return of(localRank, bySocket, target, cpusPerRank, null);
    }

    /**
     * As {@link #of(int, boolean, Target, int)}, with the job's ranks on this host confined to
     * {@code heldCores} (ascending; null: the whole host): a DVM gives each bound job cores no
     * other bound job holds, and the job's ranks count cores among those. A held core is a place
     * in the host's order of preference (see {@link #preferred}), which on a host of one kind is
     * the logical core index.
     */
    public int[] of(int localRank, boolean bySocket, Target target, int cpusPerRank, int[] heldCores) {
        if (target == Target.NONE) {
            return new int[0];
        }
        int[] among = heldOrAll(heldCores);
        if (target == Target.HWTHREAD) {
            return threads(among, localRank, bySocket, cpusPerRank);
        }
        return widen(within(among, localRank, bySocket, cpusPerRank), target);
    }

    /**
     * {@code --bind-to hwthread}: {@code cpusPerRank} hardware threads for a local rank, taken in
     * the order of the cores a rank would get one at a time ({@code bySocket} or not), the first
     * thread of every core before any core's second. So one rank per core (mpirun's default
     * slots) binds each to the first thread of its own core, as mpirun does, and with a slot per
     * thread ({@code --use-hwthread-cpus}) ranks fill every core's first thread before sharing a
     * core: a half-full host runs a rank per core, where mpirun would pair them on half the cores.
     */
    private int[] threads(int[] held, int localRank, boolean bySocket, int cpusPerRank) {
        List<List<Integer>> groups = groups(held, bySocket);
        int[] coreOrder = new int[held.length]; // the core of the i-th rank of one core each, as within() deals them
        for (int i = 0; i < held.length; i++) {
            List<Integer> group = groups.get(i % groups.size());
            coreOrder[i] = group.get(i / groups.size() % group.size());
        }
        // every core's first thread in that order, then every second thread (cores with fewer skipped)
        List<Integer> units = new ArrayList<>();
        for (int thread = 0; ; thread++) {
            int before = units.size();
            for (int core : coreOrder) {
                List<Integer> leaves = leavesOf(core);
                if (thread < leaves.size()) {
                    units.add(leaves.get(thread));
                }
            }
            if (units.size() == before) {
                break;
            }
        }
        Set<Integer> cpus = new LinkedHashSet<>();
        for (int k = 0; k < cpusPerRank; k++) {
            cpus.add(host.leafOsIndex()[units.get((localRank * cpusPerRank + k) % units.size())]);
        }
        return cpus.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /**
     * The local rank to give {@link #of} for the {@code localRank}-th of a host's {@code hostRanks}
     * ranks when they are numbered the other way than they are spread ({@code --rank-by}): in
     * core order over ranks dealt over the packages ({@code bySocket}; {@code --map-by socket
     * --rank-by core}), or dealt over the packages over ranks packed in core order
     * ({@code --map-by core --rank-by socket}). The ranks take the same cores either way.
     */
    public int reranked(int localRank, int hostRanks, boolean bySocket, int cpusPerRank, int[] heldCores) {
        if (localRank >= hostRanks) {
            return localRank;
        }
        int[] among = heldOrAll(heldCores);
        if (bySocket) { // dealt rank i went to group i % g: number group 0's first, then group 1's...
            int g = groups(among, true).size();
            int r = localRank;
            for (int group = 0; ; group++) {
                int inGroup = hostRanks / g + (group < hostRanks % g ? 1 : 0);
                if (r < inGroup) {
                    return r * g + group;
                }
                r -= inGroup;
            }
        }
        List<List<Integer>> onPackage = new ArrayList<>();
        for (int p = 0; p < packages; p++) {
            onPackage.add(new ArrayList<>());
        }
        for (int i = 0; i < hostRanks; i++) { // packed rank i starts at core among[i * cpusPerRank]
            onPackage.get(packageOf(among[i * cpusPerRank % among.length])).add(i);
        }
        int[] next = new int[packages];
        for (int k = 0; ; ) {
            for (int p = 0; p < packages; p++) {
                if (next[p] < onPackage.get(p).size()) {
                    if (k++ == localRank) {
                        return onPackage.get(p).get(next[p]);
                    }
                    next[p]++;
                }
            }
        }
    }

    /**
     * The cores a job's ranks on this host count among, in the order they are dealt: those the
     * DVM gave it, or all; on a hybrid processor the most performant
     * kind's first (so that a job smaller than the host runs on its fast cores; mpirun and Slurm
     * take cores in logical order whatever their kind), in core order within a kind.
     */
    private int[] heldOrAll(int[] heldCores) {
        int[] among = heldCores != null && heldCores.length > 0 ? heldCores : java.util.stream.IntStream.range(0, cores).toArray();
        if (!hybrid) {
            return among;
        }
        // a held place past the host's cores (more slots than cores) wraps, as packageOf's do
        return java.util.Arrays.stream(among).map(k -> preferred[k % cores] + k / cores * cores).boxed()
                .sorted(java.util.Comparator.comparingInt(c -> -kindOfCore[c % cores])).mapToInt(Integer::intValue).toArray();
    }

    /** The package of a core (a DVM host may be given more slots than it has cores: they wrap). */
    private int packageOf(int core) {
        return packageOfCore[core % cores];
    }

    /** The cores of {@code held} ranks are dealt over: by package ({@code bySocket}), or all in one group. */
    private List<List<Integer>> groups(int[] held, boolean bySocket) {
        List<List<Integer>> groups = new ArrayList<>();
        if (bySocket) {
            java.util.Map<Integer, List<Integer>> byPackage = new java.util.TreeMap<>();
            for (int c : held) {
                byPackage.computeIfAbsent(packageOf(c), k -> new ArrayList<>()).add(c % cores);
            }
            groups.addAll(byPackage.values());
        } else {
            List<Integer> all = new ArrayList<>();
            for (int c : held) {
                all.add(c % cores); // a DVM host may be given more slots than it has cores
            }
            groups.add(all);
        }
        return groups;
    }

    /**
     * Cores of {@code held} for a local rank: {@code cpusPerRank} in order, or dealt over the
     * packages they lie in ({@code bySocket}), wrapping when there are fewer.
     */
    private List<Integer> within(int[] held, int localRank, boolean bySocket, int cpusPerRank) {
        List<List<Integer>> groups = groups(held, bySocket);
        List<Integer> group = groups.get(localRank % groups.size());
        List<Integer> chosen = new ArrayList<>();
        for (int k = 0; k < cpusPerRank; k++) {
            chosen.add(group.get((localRank / groups.size() * cpusPerRank + k) % group.size()));
        }
        return chosen;
    }

    /**
     * The CPUs of a rankfile slot: {@code C}, {@code C-D} and lists of them are logical cores of
     * the host; {@code S:C} is core C of package S (a package prefix holds for the items after
     * it, as in {@code 1:0,2}); {@code S:*} is all of package S.
     *
     * @throws IllegalArgumentException naming the slot when it is not one of this host
     */
    public int[] ofSlot(String slot) {
        List<Integer> chosen = new ArrayList<>();
        int pkg = -1;
        for (String item : slot.split(",")) {
            String range = item.strip();
            int colon = range.indexOf(':');
            if (colon >= 0) {
                pkg = number(range.substring(0, colon), slot);
                if (pkg >= packages) {
                    throw new IllegalArgumentException("slot " + slot + ": this host has " + packages + " package"
                            + (packages == 1 ? "" : "s"));
                }
                range = range.substring(colon + 1);
            }
            int from;
            int to;
            if (range.equals("*")) {
                from = 0;
                to = (pkg >= 0 ? coresOf[pkg] : cores) - 1;
            } else {
                int dash = range.indexOf('-');
                from = number(dash < 0 ? range : range.substring(0, dash), slot);
                to = dash < 0 ? from : number(range.substring(dash + 1), slot);
            }
            int limit = pkg >= 0 ? coresOf[pkg] : cores;
            if (to < from || to >= limit) {
                throw new IllegalArgumentException("slot " + slot + ": " + (pkg >= 0 ? "package " + pkg + " has " : "this host has ")
                        + limit + " core" + (limit == 1 ? "" : "s"));
            }
            for (int c = from; c <= to; c++) {
                chosen.add(pkg >= 0 ? firstCoreOf[pkg] + c : c);
            }
        }
        return widen(chosen, Target.CORE);
    }

    private static int number(String text, String slot) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("slot " + slot + " is not CORE, SOCKET:CORE or ranges and lists of them");
        }
    }

    /**
     * The OS indexes of the PUs under the chosen cores, or under their packages, or under their
     * NUMA nodes (their packages where the topology has no NUMA level below the packages).
     */
    private int[] widen(List<Integer> coreIndexes, Target target) {
        int unitLevel = switch (target) {
            case CORE, NONE, HWTHREAD -> coreLevel;
            case SOCKET -> packageLevel < 0 ? coreLevel : packageLevel;
            case NUMA -> numaLevel >= 0 ? numaLevel : packageLevel < 0 ? coreLevel : packageLevel;
        };
        int perCore = host.leavesUnder(coreLevel);
        int perUnit = host.leavesUnder(unitLevel);
        Set<Integer> cpus = new LinkedHashSet<>();
        for (int core : coreIndexes) {
            int firstLeaf = coreObject[core] * perCore / perUnit * perUnit;
            for (int leaf = firstLeaf; leaf < firstLeaf + perUnit; leaf++) {
                if (host.usable(leaf)) {
                    cpus.add(host.leafOsIndex()[leaf]);
                }
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /**
     * The locality string PMIx gives a rank bound to {@code cpus} ({@code PMIX_LOCALITY_STRING},
     * as mpirun's server makes it with hwloc: {@code SK0:CR1:HT1:NM0}), from which Open MPI tells
     * how close two local ranks are: the logical indexes of the packages, caches (L3, L2, L1),
     * cores, hardware threads and NUMA nodes the CPUs cover, in hwloc's list form. A cache's
     * logical index is its place among its level's caches in the order of their first CPU, as
     * hwloc numbers objects along its tree. Null when not bound.
     */
    public String locality(int[] cpus) {
        if (cpus.length == 0) {
            return null;
        }
        java.util.TreeSet<Integer> sk = new java.util.TreeSet<>();
        java.util.TreeSet<Integer> nm = new java.util.TreeSet<>();
        java.util.TreeSet<Integer> cr = new java.util.TreeSet<>();
        java.util.TreeSet<Integer> ht = new java.util.TreeSet<>();
        Set<Integer> wanted = new java.util.HashSet<>();
        for (int c : cpus) {
            wanted.add(c);
        }
        int perCore = host.leavesUnder(coreLevel);
        int perPackage = packageLevel < 0 ? host.leaves() : host.leavesUnder(packageLevel);
        int perNuma = numaLevel < 0 ? perPackage : host.leavesUnder(numaLevel);
        int[] packageLogical = packageLevel < 0 ? new int[] {0} : host.logicalIndexes(packageLevel);
        int[] numaLogical = numaLevel < 0 ? packageLogical : host.logicalIndexes(numaLevel);
        int[] coreLogical = host.logicalIndexes(coreLevel);
        for (int leaf = 0, thread = 0; leaf < host.leaves(); leaf++) {
            if (!host.usable(leaf)) {
                continue;
            }
            if (wanted.contains(host.leafOsIndex()[leaf])) {
                sk.add(packageLogical[leaf / perPackage]);
                nm.add(numaLogical[leaf / perNuma]);
                cr.add(coreLogical[leaf / perCore]);
                ht.add(thread);
            }
            thread++;
        }
        StringBuilder where = new StringBuilder("SK" + list(sk));
        cacheOfCpu.forEach((level, index) -> { // L3, L2, L1, as hwloc writes them
            java.util.TreeSet<Integer> hit = new java.util.TreeSet<>();
            for (int cpu : cpus) {
                Integer i = index.get(cpu);
                if (i != null) {
                    hit.add(i);
                }
            }
            if (!hit.isEmpty()) {
                where.append(":L").append(level).append(list(hit));
            }
        });
        return where + ":CR" + list(cr) + ":HT" + list(ht) + ":NM" + list(nm);
    }

    private static String list(java.util.SortedSet<Integer> s) {
        return CpuList.format(s.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Where a CPU sits, for reports: {@code package P core C}. */
    public String describe(int[] cpus) {
        if (cpus.length == 0) {
            return "not bound";
        }
        Set<String> where = new LinkedHashSet<>();
        int perCore = host.leavesUnder(coreLevel);
        int[] coreLogical = host.logicalIndexes(coreLevel);
        for (int cpu : cpus) {
            for (int leaf = 0; leaf < host.leaves(); leaf++) {
                if (host.usable(leaf) && host.leafOsIndex()[leaf] == cpu) {
                    int core = coreLogical[leaf / perCore];
                    int pkg = packageOfCore[core];
                    where.add("package " + pkg + " core " + (core - firstCoreOf[pkg]));
                }
            }
        }
        return "cpus " + CpuList.format(cpus) + " (" + String.join(", ", where) + ")";
    }
}
