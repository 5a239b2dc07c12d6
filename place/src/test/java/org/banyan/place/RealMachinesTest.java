package org.banyan.place;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.banyan.topo.HwlocXml;
import org.banyan.topo.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * hwloc's own test machines (resources/hwloc, with its README): hybrid and heterogeneous cores,
 * offline PUs, PUs a cgroup does not allow, groups of unequal size and depth. Each must read,
 * with exactly the usable PUs hwloc itself lists ({@code hwloc-calc}, expected.tsv), in hwloc's
 * logical order; and TreeMatch must place on each, whole and cut at its cores as {@code banyan
 * place} does, never on a hole and never worse than the reference placements.
 */
class RealMachinesTest {
    record Machine(String file, int[] usablePus, int cores) {
        @Override
        public String toString() {
            return file;
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = RealMachinesTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Stream<Machine> machines() throws IOException {
        List<Machine> out = new ArrayList<>();
        for (String line : resource("hwloc/expected.tsv").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            out.add(new Machine(f[0], Arrays.stream(f[1].split(",")).mapToInt(Integer::parseInt).toArray(),
                    Integer.parseInt(f[2].strip())));
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(20);
        return out.stream();
    }

    static Topology read(Machine m) throws IOException {
        return HwlocXml.parse(resource("hwloc/" + m.file()));
    }

    @ParameterizedTest
    @MethodSource("machines")
    void usableLeavesAreHwlocsUsablePusInItsOrder(Machine m) throws IOException {
        Topology t = read(m);
        int[] usable = Arrays.stream(t.leafOsIndex()).filter(os -> os != Topology.HOLE).toArray();
        assertThat(usable).containsExactly(m.usablePus());
        assertThat(t.leaves()).as("padding stays small").isLessThanOrEqualTo(16 * Math.max(8, m.usablePus().length));
        assertThat(t.leavesAt("Core").usableLeaves()).as("cores with a usable PU").isEqualTo(m.cores());
    }

    /**
     * fakecpukinds.xml and fakeheterocpunuma.xml have cores of several kinds (the others one, or
     * none said): rank 0 goes to the fastest kind, and ranks still take every core once.
     */
    @ParameterizedTest
    @MethodSource("machines")
    void kindsAreReadAndRanksStillTakeEveryCoreOnce(Machine m) throws IOException {
        String xml = resource("hwloc/" + m.file());
        org.banyan.topo.CpuKinds kinds = HwlocXml.kinds(xml);
        assertThat(kinds.hybrid()).as("several kinds")
                .isEqualTo(m.file().equals("fakecpukinds.xml") || m.file().equals("fakeheterocpunuma.xml"));
        org.banyan.topo.CpuBinding host = new org.banyan.topo.CpuBinding(HwlocXml.parse(xml), java.util.Map.of(), kinds);
        java.util.Set<String> cores = new java.util.HashSet<>();
        for (int rank = 0; rank < m.cores(); rank++) {
            cores.add(Arrays.toString(host.of(rank, false, org.banyan.topo.CpuBinding.Target.CORE, 1)));
        }
        assertThat(cores).as("a core each").hasSize(m.cores());
        if (kinds.hybrid()) {
            int fastest = kinds.kinds() - 1;
            assertThat(Arrays.stream(host.of(0, false, org.banyan.topo.CpuBinding.Target.CORE, 1)).map(kinds::rankOf).max()
                    .orElseThrow()).as("rank 0 on the fastest kind").isEqualTo(fastest);
        }
        if (m.file().equals("fakecpukinds.xml")) { // its second core holds the fastest PU (3)
            assertThat(host.of(0, false, org.banyan.topo.CpuBinding.Target.CORE, 1)).containsExactly(1, 3);
        }
    }

    @ParameterizedTest
    @MethodSource("machines")
    void bindingCountsHwlocsCoresAndUsesEveryUsablePuAndNoOther(Machine m) throws IOException {
        org.banyan.topo.CpuBinding host = new org.banyan.topo.CpuBinding(read(m));
        assertThat(host.cores()).isEqualTo(m.cores());
        java.util.Set<Integer> bound = new java.util.TreeSet<>();
        java.util.Set<Integer> threads = new java.util.TreeSet<>();
        for (int rank = 0; rank < m.cores(); rank++) {
            int[] cpus = host.of(rank, false, org.banyan.topo.CpuBinding.Target.CORE, 1);
            assertThat(cpus).as("rank %d", rank).isNotEmpty();
            Arrays.stream(cpus).forEach(bound::add);
        }
        for (int rank = 0; rank < m.usablePus().length; rank++) {
            int[] cpu = host.of(rank, false, org.banyan.topo.CpuBinding.Target.HWTHREAD, 1);
            assertThat(cpu).hasSize(1);
            threads.add(cpu[0]);
        }
        java.util.Set<Integer> usable = new java.util.TreeSet<>(Arrays.stream(m.usablePus()).boxed().toList());
        assertThat(bound).isEqualTo(usable);
        assertThat(threads).as("one rank per usable PU").isEqualTo(usable);
    }

    @ParameterizedTest
    @MethodSource("machines")
    void treeMatchPlacesOnUsableLeavesOnlyAndBeatsTheReferences(Machine m) throws IOException {
        Topology pus = read(m).compact();
        Topology cores = read(m).leavesAt("Core").compact();
        for (Topology t : List.of(pus, cores)) {
            int usable = t.usableLeaves();
            for (int n : new int[] {usable, Math.max(1, usable / 2), Math.max(1, usable - 1)}) {
                for (CommMatrix matrix : matrices(n)) {
                    TreeMatch.Result r = TreeMatch.map(matrix, t);
                    int[] leafOf = r.leafOf();
                    assertThat(leafOf).hasSize(n);
                    assertThat(Arrays.stream(leafOf).distinct().count()).as("distinct leaves").isEqualTo(n);
                    assertThat(Arrays.stream(leafOf).allMatch(t::usable)).as("no process on a hole: %s", t).isTrue();
                    double cost = PlacementCost.of(matrix, t, leafOf).sumCom();
                    for (int[] ref : List.of(ReferencePlacements.roundRobin(n, t), ReferencePlacements.byNode(n, t))) {
                        assertThat(Arrays.stream(ref).allMatch(t::usable)).isTrue();
                        assertThat(cost).as("against a reference on %s", t)
                                .isLessThanOrEqualTo(PlacementCost.of(matrix, t, ref).sumCom() * (1 + 1e-9));
                    }
                    assertThat(TreeMatch.map(matrix, t).leafOf()).as("deterministic").containsExactly(leafOf);
                }
            }
        }
    }

    /** A ring, a 2-D stencil (or a line), a binomial reduction and a shuffled block pattern of n processes. */
    private static List<CommMatrix> matrices(int n) {
        List<CommMatrix> out = new ArrayList<>();
        CommMatrix.Builder ring = new CommMatrix.Builder(n);
        for (int i = 0; n > 1 && i < n; i++) {
            ring.add(i, (i + 1) % n, 1000 + i);
        }
        out.add(ring.build());
        int x = (int) Math.sqrt(n);
        while (n % x != 0) {
            x--;
        }
        out.add(Patterns.stencil2d(x, n / x, 4096));
        out.add(Patterns.binomialReduce(n, 8192));
        if (n >= 4 && n % 4 == 0) {
            int[] perm = new int[n];
            Arrays.setAll(perm, i -> i);
            SplittableRandom r = new SplittableRandom(n);
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int s = perm[i];
                perm[i] = perm[j];
                perm[j] = s;
            }
            out.add(Patterns.renumbered(Patterns.stridedBlocks(n, 4, 65536), perm));
        }
        return out;
    }
}
