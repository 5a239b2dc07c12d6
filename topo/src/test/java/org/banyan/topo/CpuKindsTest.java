package org.banyan.topo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kinds of cores read from /sys and from hwloc's XML, and ranks bound to the fast ones first. */
class CpuKindsTest {
    /** Eight CPUs, one package, no SMT; {@code extra} the files that tell the kinds apart. */
    static Map<String, String> eightCores(Map<String, String> extra) {
        Map<String, String> files = new HashMap<>();
        files.put("online", "0-7\n");
        for (int cpu = 0; cpu < 8; cpu++) {
            files.put("cpu" + cpu + "/topology/physical_package_id", "0\n");
            files.put("cpu" + cpu + "/topology/core_id", cpu + "\n");
        }
        files.putAll(extra);
        return files;
    }

    /** An ARM big.LITTLE board as Linux shows it: the four LITTLE cores first, with a smaller capacity. */
    static Map<String, String> bigLittle() {
        Map<String, String> extra = new HashMap<>();
        for (int cpu = 0; cpu < 8; cpu++) {
            extra.put("cpu" + cpu + "/cpu_capacity", (cpu < 4 ? "446" : "1024") + "\n");
            extra.put("cpu" + cpu + "/cpufreq/cpuinfo_max_freq", (cpu < 4 ? "1800000" : "2400000") + "\n");
        }
        return eightCores(extra);
    }

    @Test
    void linuxCapacitySaysWhichCoresAreBig() {
        CpuKinds k = SysfsTopology.kinds(bigLittle()::get);
        assertThat(k.hybrid()).isTrue();
        assertThat(k.kinds()).isEqualTo(2);
        assertThat(k.rankOf(0)).isZero();
        assertThat(k.rankOf(3)).isZero();
        assertThat(k.rankOf(4)).isEqualTo(1);
        assertThat(k.rankOf(7)).isEqualTo(1);
    }

    @Test
    void intelHybridCoreTypesComeFirst() {
        Map<String, String> extra = new HashMap<>();
        extra.put("../../cpu_core/cpus", "4-7\n");
        extra.put("../../cpu_atom/cpus", "0-3\n");
        for (int cpu = 0; cpu < 8; cpu++) { // the same maximum frequency: the core type decides
            extra.put("cpu" + cpu + "/cpufreq/cpuinfo_max_freq", "4600000\n");
        }
        CpuKinds k = SysfsTopology.kinds(eightCores(extra)::get);
        assertThat(k.hybrid()).isTrue();
        assertThat(k.rankOf(5)).isGreaterThan(k.rankOf(1));
    }

    @Test
    void favouredCoresThatBoostALittleHigherAreNotAnotherKind() {
        Map<String, String> extra = new HashMap<>();
        for (int cpu = 0; cpu < 8; cpu++) {
            extra.put("cpu" + cpu + "/cpufreq/cpuinfo_max_freq", (cpu % 3 == 0 ? "5100000" : "4900000") + "\n");
        }
        assertThat(SysfsTopology.kinds(eightCores(extra)::get).hybrid()).isFalse();
        assertThat(SysfsTopology.kinds(eightCores(Map.of())::get)).as("nothing said").isEqualTo(CpuKinds.NONE);
        assertThat(SysfsTopology.kinds(Map.<String, String>of()::get)).isEqualTo(CpuKinds.NONE);
    }

    /** Odd /sys files (not numbers, not CPU lists) leave the kinds unknown: binding goes on in core order. */
    @Test
    void malformedFilesAreNotKinds() {
        Map<String, String> extra = new HashMap<>();
        extra.put("../../cpu_core/cpus", "four to seven\n");
        extra.put("../../cpu_atom/cpus", "3-0\n");
        for (int cpu = 0; cpu < 8; cpu++) {
            extra.put("cpu" + cpu + "/cpu_capacity", "big\n");
            extra.put("cpu" + cpu + "/cpufreq/cpuinfo_max_freq", "\n");
        }
        assertThat(SysfsTopology.kinds(eightCores(extra)::get)).isEqualTo(CpuKinds.NONE);
        assertThat(SysfsTopology.kinds(Map.of("online", "nonsense")::get)).isEqualTo(CpuKinds.NONE);
    }

    @Test
    void hwlocXmlKindsRankByForcedEfficiencyThenByTheirInfos() {
        String forced = """
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x0000000f"/>
                  <cpukind cpuset="0x00000003" forced_efficiency="0"><info name="FrequencyMaxMHz" value="1000"/></cpukind>
                  <cpukind cpuset="0x00000004" forced_efficiency="7"/>
                  <cpukind cpuset="0x00000008" forced_efficiency="10"/>
                </topology>
                """;
        CpuKinds k = HwlocXml.kinds(forced);
        assertThat(k.kinds()).isEqualTo(3);
        assertThat(new int[] {k.rankOf(0), k.rankOf(1), k.rankOf(2), k.rankOf(3)}).containsExactly(0, 0, 1, 2);
        String byFrequency = """
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x000000ff"/>
                  <cpukind cpuset="0x000000f0"><info name="FrequencyMaxMHz" value="3400"/></cpukind>
                  <cpukind cpuset="0x0000000f"><info name="FrequencyMaxMHz" value="2100"/></cpukind>
                </topology>
                """;
        CpuKinds f = HwlocXml.kinds(byFrequency);
        assertThat(f.rankOf(4)).isEqualTo(1);
        assertThat(f.rankOf(0)).isZero();
        String one = """
                <topology version="2.0">
                  <object type="Machine" os_index="0" cpuset="0x000000ff"/>
                  <cpukind cpuset="0x000000ff" forced_efficiency="0"><info name="LinuxCapacity" value="1024"/></cpukind>
                </topology>
                """;
        assertThat(HwlocXml.kinds(one).hybrid()).isFalse();
    }

    @Test
    void ranksTakeTheFastCoresFirstThenTheOthersInOrder() {
        Map<String, String> files = bigLittle();
        CpuBinding host = new CpuBinding(SysfsTopology.parse(files::get), Map.of(), SysfsTopology.kinds(files::get));
        assertThat(host.of(0, false, CpuBinding.Target.CORE, 1)).containsExactly(4);
        assertThat(host.of(3, false, CpuBinding.Target.CORE, 1)).containsExactly(7);
        assertThat(host.of(4, false, CpuBinding.Target.CORE, 1)).containsExactly(0);
        assertThat(host.of(0, false, CpuBinding.Target.CORE, 2)).containsExactly(4, 5);
        assertThat(host.of(1, false, CpuBinding.Target.HWTHREAD, 1)).containsExactly(5);
        CpuBinding uniform = new CpuBinding(SysfsTopology.parse(files::get));
        assertThat(uniform.of(0, false, CpuBinding.Target.CORE, 1)).as("kinds unknown: core order, as mpirun").containsExactly(0);
        // a DVM's held cores are places in the order of preference: big 4-7, then LITTLE 0-3
        assertThat(host.of(0, false, CpuBinding.Target.CORE, 1, new int[] {0, 1, 2, 3})).as("the first job held: big cores")
                .containsExactly(4);
        assertThat(host.of(3, false, CpuBinding.Target.CORE, 1, new int[] {0, 1, 2, 3})).containsExactly(7);
        assertThat(host.of(0, false, CpuBinding.Target.CORE, 1, new int[] {4, 5, 6, 7})).as("the second: LITTLE ones")
                .containsExactly(0);
        assertThat(host.of(0, false, CpuBinding.Target.CORE, 1, new int[] {2, 5, 6})).as("held places: the big one first")
                .containsExactly(6);
        assertThat(host.of(1, false, CpuBinding.Target.CORE, 1, new int[] {2, 5, 6})).containsExactly(1);
        assertThat(uniform.of(0, false, CpuBinding.Target.CORE, 1, new int[] {2, 5, 6})).as("one kind: places are cores")
                .containsExactly(2);
    }
}
