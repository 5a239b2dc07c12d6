package org.banyan.topo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuBindingTest {
    /** Two packages of two cores of two hardware threads, numbered as Linux numbers them on Intel: threads last. */
    static Map<String, String> twoPackages() {
        Map<String, String> files = new HashMap<>();
        files.put("online", "0-7\n");
        for (int cpu = 0; cpu < 8; cpu++) {
            int core = cpu % 4; // cpus 0-3 first threads, 4-7 their siblings
            files.put("cpu" + cpu + "/topology/physical_package_id", (core / 2) + "\n");
            files.put("cpu" + cpu + "/topology/core_id", (core % 2) + "\n");
        }
        return files;
    }

    @Test
    void sysfsGivesPackagesCoresAndThreads() {
        Topology t = SysfsTopology.parse(twoPackages()::get);
        assertThat(t).hasToString("Package:2 Core:2 PU:2");
        assertThat(t.leafOsIndex()).containsExactly(0, 4, 1, 5, 2, 6, 3, 7);
        assertThat(SysfsTopology.parse(Map.of("online", "0-1")::get)).as("no topology files: one package, a core per CPU")
                .hasToString("Package:1 Core:2 PU:1");
        assertThat(SysfsTopology.local().leaves()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    /** Each core's L1d and L2 its own (shared by its two threads), an L3 per package; instruction caches are not counted. */
    static Map<String, String> twoPackagesWithCaches() {
        Map<String, String> files = twoPackages();
        for (int cpu = 0; cpu < 8; cpu++) {
            int core = cpu % 4;
            String threads = core + "," + (core + 4);
            String pkg = core < 2 ? "0-1,4-5" : "2-3,6-7";
            String[][] caches = {{"1", "Data", threads}, {"1", "Instruction", threads}, {"2", "Unified", threads},
                {"3", "Unified", pkg}};
            for (int k = 0; k < caches.length; k++) {
                files.put("cpu" + cpu + "/cache/index" + k + "/level", caches[k][0] + "\n");
                files.put("cpu" + cpu + "/cache/index" + k + "/type", caches[k][1] + "\n");
                files.put("cpu" + cpu + "/cache/index" + k + "/shared_cpu_list", caches[k][2] + "\n");
            }
        }
        return files;
    }

    @Test
    void aBoundRanksLocalityIsWhatPmixGivesOpenMpi() {
        Map<String, String> files = twoPackagesWithCaches();
        Map<Integer, List<int[]>> caches = SysfsTopology.caches(files::get);
        assertThat(caches.keySet()).containsExactly(1, 2, 3);
        assertThat(caches.get(3)).hasSize(2);
        assertThat(caches.get(1)).as("data caches only").hasSize(4);
        CpuBinding host = new CpuBinding(SysfsTopology.parse(files::get), caches);
        // cpu 5 is package 0, core 1's second thread: logical PU 3 (threads numbered under their cores)
        assertThat(host.locality(new int[] {5})).isEqualTo("SK0:L30:L21:L11:CR1:HT3:NM0");
        assertThat(host.locality(new int[] {2, 6})).as("a core of package 1").isEqualTo("SK1:L31:L22:L12:CR2:HT4-5:NM1");
        assertThat(host.locality(new int[0])).isNull();
        assertThat(new CpuBinding(SysfsTopology.parse(files::get)).locality(new int[] {5})).as("caches unknown")
                .isEqualTo("SK0:CR1:HT3:NM0");
    }

    @Test
    void onlyTheCpusThisProcessMayUseAreKept() {
        Topology half = SysfsTopology.parse(twoPackages()::get, new int[] {2, 3, 6, 7});
        assertThat(half).as("package 1 only (as under a Slurm step's cpuset)").hasToString("Package:1 Core:2 PU:2");
        assertThat(half.leafOsIndex()).containsExactly(2, 6, 3, 7);
        assertThat(new CpuBinding(half).of(0, false, CpuBinding.Target.CORE, 1)).containsExactly(2, 6);
        assertThatThrownBy(() -> SysfsTopology.parse(twoPackages()::get, new int[] {9}))
                .hasMessage("none of this host's online CPUs is allowed to this process");
    }

    /**
     * A cpuset that does not make a balanced tree (a core with both threads beside one with
     * one; three cores of which two are in one package): padded with holes, counted as hwloc
     * counts (logical indexes of what exists), and no rank is bound to a hole.
     */
    @Test
    void anUnevenCpusetIsPaddedAndBindsOnlyToAllowedCpus() {
        Topology threads = SysfsTopology.parse(twoPackages()::get, new int[] {0, 1, 4});
        assertThat(threads).hasToString("Package:1 Core:2 PU:2");
        assertThat(threads.leafOsIndex()).containsExactly(0, 4, 1, Topology.HOLE);
        CpuBinding one = new CpuBinding(threads);
        assertThat(one.cores()).isEqualTo(2);
        assertThat(one.of(0, false, CpuBinding.Target.CORE, 1)).containsExactly(0, 4);
        assertThat(one.of(1, false, CpuBinding.Target.CORE, 1)).containsExactly(1);
        assertThat(one.of(1, false, CpuBinding.Target.HWTHREAD, 1)).containsExactly(1);
        assertThat(one.of(2, false, CpuBinding.Target.HWTHREAD, 1)).as("the only second thread").containsExactly(4);
        assertThat(one.of(3, false, CpuBinding.Target.HWTHREAD, 1)).as("wraps").containsExactly(0);

        Topology packages = SysfsTopology.parse(twoPackages()::get, new int[] {0, 1, 2});
        assertThat(packages).hasToString("Package:2 Core:2 PU:1");
        assertThat(packages.leafOsIndex()).containsExactly(0, 1, 2, Topology.HOLE);
        CpuBinding two = new CpuBinding(packages);
        assertThat(two.cores()).isEqualTo(3);
        assertThat(two.packages()).isEqualTo(2);
        assertThat(two.of(0, false, CpuBinding.Target.SOCKET, 1)).containsExactly(0, 1);
        assertThat(two.of(1, true, CpuBinding.Target.CORE, 1)).as("--map-by socket: package 1").containsExactly(2);
        assertThat(two.of(2, true, CpuBinding.Target.CORE, 1)).containsExactly(1);
        assertThat(two.of(2, false, CpuBinding.Target.SOCKET, 1)).containsExactly(2);
        assertThat(two.ofSlot("1:0")).containsExactly(2);
        assertThat(two.ofSlot("0:*")).containsExactly(0, 1);
        assertThatThrownBy(() -> two.ofSlot("1:1")).hasMessage("slot 1:1: package 1 has 1 core");
        assertThat(two.locality(new int[] {2})).isEqualTo("SK1:CR2:HT2:NM1");
        assertThat(two.describe(new int[] {2})).isEqualTo("cpus 2 (package 1 core 0)");
    }

    /** mpirun's slots on a host: cores, not hardware threads; only those this process may use, even unbalanced. */
    @Test
    void coresCountEachCoreOnceWhateverItsThreads() {
        assertThat(SysfsTopology.cores(twoPackages()::get, null)).isEqualTo(4);
        assertThat(SysfsTopology.cores(twoPackages()::get, new int[] {0, 1, 4})).isEqualTo(2);
        assertThat(SysfsTopology.cores(twoPackages()::get, new int[] {9})).isZero();
        assertThat(SysfsTopology.cores(Map.of("online", "0-2")::get, null)).as("no topology files: a core per CPU").isEqualTo(3);
        assertThat(SysfsTopology.cores(Map.<String, String>of()::get, null)).isZero();
        assertThat(SysfsTopology.localCores()).isEqualTo(new CpuBinding(SysfsTopology.local()).cores());
    }

    /** {@code --rank-by}: a host's ranks keep their cores, numbered the other way than they are spread. */
    @Test
    void rankingTheOtherWayKeepsTheCoresAndRenumbersThem() {
        CpuBinding b = new CpuBinding(SysfsTopology.parse(twoPackages()::get));
        // --map-by socket --rank-by core, 3 ranks: spread over cores 0, 2 and 1, numbered 0, 1, 2 in core order
        assertThat(List.of(b.reranked(0, 3, true, 1, null), b.reranked(1, 3, true, 1, null), b.reranked(2, 3, true, 1, null)))
                .containsExactly(0, 2, 1);
        assertThat(b.of(b.reranked(1, 3, true, 1, null), true, CpuBinding.Target.CORE, 1)).as("rank 1 on core 1").containsExactly(1, 5);
        // --map-by core --rank-by socket, 3 ranks: packed on cores 0, 1 and 2, numbered over the packages
        assertThat(List.of(b.reranked(0, 3, false, 1, null), b.reranked(1, 3, false, 1, null), b.reranked(2, 3, false, 1, null)))
                .containsExactly(0, 2, 1);
        assertThat(b.of(b.reranked(1, 3, false, 1, null), false, CpuBinding.Target.CORE, 1)).as("rank 1 on core 2").containsExactly(2, 6);
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + random.nextInt(9);
            boolean spread = random.nextBoolean();
            int per = 1 + random.nextInt(2);
            int[] held = random.nextBoolean() ? null : new int[] {0, 2, 3};
            java.util.Set<Integer> dealt = new java.util.TreeSet<>();
            java.util.List<Integer> cores = new java.util.ArrayList<>();
            java.util.List<Integer> same = new java.util.ArrayList<>();
            for (int r = 0; r < n; r++) {
                dealt.add(b.reranked(r, n, spread, per, held));
                cores.add(b.of(b.reranked(r, n, spread, per, held), spread, CpuBinding.Target.CORE, per, held)[0]);
                same.add(b.of(r, spread, CpuBinding.Target.CORE, per, held)[0]);
            }
            assertThat(dealt).as("a permutation of the host's ranks").hasSize(n).allMatch(r -> r >= 0 && r < n);
            cores.sort(null);
            same.sort(null);
            assertThat(cores).as("the same cores, other numbers").isEqualTo(same);
        }
    }

    @Test
    void policiesGiveCoresPackagesAndWrap() {
        CpuBinding b = new CpuBinding(SysfsTopology.parse(twoPackages()::get));
        assertThat(b.cores()).isEqualTo(4);
        assertThat(b.of(0, false, CpuBinding.Target.CORE, 1)).containsExactly(0, 4);
        assertThat(b.of(1, false, CpuBinding.Target.CORE, 1)).containsExactly(1, 5);
        assertThat(b.of(1, true, CpuBinding.Target.CORE, 1)).as("by socket: rank 1 on package 1").containsExactly(2, 6);
        assertThat(b.of(1, false, CpuBinding.Target.SOCKET, 1)).containsExactly(0, 1, 4, 5);
        assertThat(b.of(0, false, CpuBinding.Target.CORE, 2)).containsExactly(0, 1, 4, 5);
        assertThat(b.of(5, false, CpuBinding.Target.CORE, 1)).as("wraps").containsExactly(1, 5);
        assertThat(b.of(0, false, CpuBinding.Target.NONE, 1)).isEmpty();
        assertThat(b.describe(b.of(3, false, CpuBinding.Target.CORE, 1))).isEqualTo("cpus 3,7 (package 1 core 1)");
    }

    /**
     * --bind-to hwthread on 2 packages x 2 cores x 2 threads (core c has CPUs c and c+4): a rank
     * per core gets its core's first thread; more ranks take the second threads; by socket, in
     * dealing order; within held cores only.
     */
    @Test
    void hwthreadBindsEachRankToOneThreadFirstThreadsFirst() {
        CpuBinding b = new CpuBinding(SysfsTopology.parse(twoPackages()::get));
        CpuBinding.Target hw = CpuBinding.Target.HWTHREAD;
        assertThat(CpuBinding.Target.parse("hwthread")).isEqualTo(hw);
        assertThat(java.util.stream.IntStream.range(0, 8).mapToObj(r -> b.of(r, false, hw, 1)[0]).toList())
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(b.of(1, true, hw, 1)).as("by socket: rank 1 on package 1's first core").containsExactly(2);
        assertThat(b.of(4, true, hw, 1)).as("second threads in the same order").containsExactly(4);
        assertThat(b.of(0, false, hw, 2)).containsExactly(0, 1);
        assertThat(b.of(2, false, hw, 2)).containsExactly(4, 5);
        assertThat(b.of(8, false, hw, 1)).as("wraps").containsExactly(0);
        assertThat(b.of(1, false, hw, 1, new int[] {2, 3})).as("among held cores").containsExactly(3);
        assertThat(b.of(2, false, hw, 1, new int[] {2, 3})).containsExactly(6);
        assertThat(b.describe(b.of(5, false, hw, 1))).isEqualTo("cpus 5 (package 0 core 1)");
    }

    /** One package of four cores in two NUMA nodes (sub-NUMA clustering), numbered across them: node 0 has cpus 0 and 2. */
    static Map<String, String> oneSplitPackage() {
        Map<String, String> files = new HashMap<>();
        files.put("online", "0-3\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            files.put("cpu" + cpu + "/topology/physical_package_id", "0\n");
            files.put("cpu" + cpu + "/topology/core_id", cpu + "\n");
        }
        files.put("../node/online", "0-1\n");
        files.put("../node/node0/cpulist", "0,2\n");
        files.put("../node/node1/cpulist", "1,3\n");
        return files;
    }

    @Test
    void numaNodesThatSplitPackagesAreALevelAndBindToNumaUsesThem() {
        Topology t = SysfsTopology.parse(oneSplitPackage()::get);
        assertThat(t).hasToString("Package:1 NUMANode:2 Core:2 PU:1");
        assertThat(t.leafOsIndex()).as("cores numbered node by node, as hwloc's logical indexes").containsExactly(0, 2, 1, 3);
        CpuBinding b = new CpuBinding(t);
        assertThat(b.of(1, false, CpuBinding.Target.CORE, 1)).containsExactly(2);
        assertThat(b.of(0, false, CpuBinding.Target.NUMA, 1)).containsExactly(0, 2);
        assertThat(b.of(2, false, CpuBinding.Target.NUMA, 1)).containsExactly(1, 3);
        assertThat(b.of(0, false, CpuBinding.Target.SOCKET, 1)).containsExactly(0, 1, 2, 3);

        Map<String, String> onePerPackage = twoPackages();
        onePerPackage.put("../node/online", "0-1\n");
        onePerPackage.put("../node/node0/cpulist", "0-1,4-5\n");
        onePerPackage.put("../node/node1/cpulist", "2-3,6-7\n");
        Topology same = SysfsTopology.parse(onePerPackage::get);
        assertThat(same).as("a node per package adds no level").hasToString("Package:2 Core:2 PU:2");
        assertThat(new CpuBinding(same).of(0, false, CpuBinding.Target.NUMA, 1)).as("NUMA is then the package")
                .containsExactly(0, 1, 4, 5);

        Map<String, String> uneven = oneSplitPackage();
        uneven.put("../node/node0/cpulist", "0\n");
        uneven.put("../node/node1/cpulist", "1-3\n");
        assertThat(SysfsTopology.parse(uneven::get)).as("an uneven split adds no level").hasToString("Package:1 Core:4 PU:1");
        Topology allowed = SysfsTopology.parse(oneSplitPackage()::get, new int[] {0, 1});
        assertThat(allowed).as("a core of each node allowed").hasToString("Package:1 NUMANode:2 Core:1 PU:1");
    }

    @Test
    void aJobConfinedToTheCoresItHoldsCountsAmongThem() {
        CpuBinding b = new CpuBinding(SysfsTopology.parse(twoPackages()::get));
        int[] held = {1, 2, 3};
        assertThat(b.of(0, false, CpuBinding.Target.CORE, 1, held)).containsExactly(1, 5);
        assertThat(b.of(1, false, CpuBinding.Target.CORE, 1, held)).containsExactly(2, 6);
        assertThat(b.of(3, false, CpuBinding.Target.CORE, 1, held)).as("wraps within the held cores").containsExactly(1, 5);
        assertThat(b.of(0, false, CpuBinding.Target.CORE, 2, held)).containsExactly(1, 2, 5, 6);
        assertThat(b.of(0, true, CpuBinding.Target.CORE, 1, held)).as("by socket: package 0's held core").containsExactly(1, 5);
        assertThat(b.of(1, true, CpuBinding.Target.CORE, 1, held)).as("then package 1's first").containsExactly(2, 6);
        assertThat(b.of(3, true, CpuBinding.Target.CORE, 1, held)).as("package 1's second").containsExactly(3, 7);
        assertThat(b.of(0, false, CpuBinding.Target.SOCKET, 1, held)).as("widened to the package").containsExactly(0, 1, 4, 5);
        assertThat(b.of(0, false, CpuBinding.Target.CORE, 1, new int[] {6})).as("more slots than cores wrap")
                .containsExactly(2, 6);
        assertThat(b.of(0, false, CpuBinding.Target.NONE, 1, held)).isEmpty();
    }

    @Test
    void rankfileSlots() {
        CpuBinding b = new CpuBinding(SysfsTopology.parse(twoPackages()::get));
        assertThat(b.ofSlot("3")).containsExactly(3, 7);
        assertThat(b.ofSlot("1:0")).containsExactly(2, 6);
        assertThat(b.ofSlot("0:0-1")).containsExactly(0, 1, 4, 5);
        assertThat(b.ofSlot("1:0,1")).as("a package prefix holds for the items after it").containsExactly(2, 3, 6, 7);
        assertThat(b.ofSlot("1:*")).containsExactly(2, 3, 6, 7);
        assertThatThrownBy(() -> b.ofSlot("4")).hasMessage("slot 4: this host has 4 cores");
        assertThatThrownBy(() -> b.ofSlot("2:0")).hasMessage("slot 2:0: this host has 2 packages");
        assertThatThrownBy(() -> b.ofSlot("x")).hasMessage("slot x is not CORE, SOCKET:CORE or ranges and lists of them");
    }

    @Test
    void cpuLists() {
        assertThat(CpuList.parse("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(CpuList.format(new int[] {11, 0, 1, 2, 8, 10})).isEqualTo("0-2,8,10-11");
        assertThatThrownBy(() -> CpuList.parse("a-b")).hasMessage("'a-b' is not a CPU list (e.g. 0-3,8)");
    }

    @Test
    void clustersAndCuts() {
        Topology host = TopologyFormats.synthetic("socket:2 core:4 pu:2");
        Topology cores = host.leavesAt("core");
        assertThat(cores).hasToString("socket:2 core:4");
        assertThat(cores.leafOsIndex()).containsExactly(0, 2, 4, 6, 8, 10, 12, 14);
        Topology cluster = cores.cluster(List.of(new Topology.Level("switch", 2, 0)), 6);
        assertThat(cluster).hasToString("switch:2 host:3 socket:2 core:4");
        assertThat(cluster.leaves()).isEqualTo(48);
        assertThat(cluster.hops(0, 8)).as("two hosts of a switch").isEqualTo(6);
        assertThat(cluster.hops(0, 24)).isEqualTo(8);
        assertThat(cluster.leafOsIndex()[8]).as("OS indexes repeat per host").isZero();
        assertThatThrownBy(() -> cores.cluster(List.of(new Topology.Level("switch", 4, 0)), 6))
                .hasMessage("6 hosts cannot be spread evenly under a network of 4 groups");
    }
}
