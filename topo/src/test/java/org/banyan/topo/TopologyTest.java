package org.banyan.topo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TopologyTest {
    static String resource(String name) throws IOException {
        try (InputStream in = TopologyTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aSyntheticClusterHasItsLevelsLeavesAndHops() {
        Topology t = TopologyFormats.synthetic("switch:4 host:8 socket:2 core:8");
        assertThat(t.leaves()).isEqualTo(512);
        assertThat(t).hasToString("switch:4 host:8 socket:2 core:8");
        assertThat(t.hops(0, 1)).as("two cores of a socket").isEqualTo(2);
        assertThat(t.hops(0, 8)).as("the two sockets of a host").isEqualTo(4);
        assertThat(t.hops(0, 16)).as("two hosts of a switch").isEqualTo(6);
        assertThat(t.hops(0, 128)).as("two switches").isEqualTo(8);
        assertThat(t.cost(0, 128)).isEqualTo(4);
        assertThat(t.cost(3, 3)).isZero();
        assertThat(TopologyFormats.synthetic("host:2@100 core:4@1").cost(0, 4)).isEqualTo(100);
    }

    @Test
    void tleafLinesGiveArityAndCostPerLevel() {
        Topology t = TopologyFormats.tleaf("tleaf 4 4 10 8 5 2 2 8 1\n");
        assertThat(t.leaves()).isEqualTo(4 * 8 * 2 * 8);
        assertThat(t.cost(0, 1)).isEqualTo(1);
        assertThat(t.cost(0, 8)).isEqualTo(2);
        assertThat(t.cost(0, 16)).isEqualTo(5);
        assertThat(t.cost(0, 128)).isEqualTo(10);
        assertThatThrownBy(() -> TopologyFormats.tleaf("tleaf 2 4 10 8")).hasMessage(
                "tleaf 2 needs 4 numbers (arity and cost per level), got 3");
        // they parse as doubles, and made every placement's cost NaN, infinite or negative
        assertThatThrownBy(() -> TopologyFormats.tleaf("tleaf 2 2 NaN 1 1")).hasMessage("level level1's cost is NaN: a cost is a number of at least 0");
        assertThatThrownBy(() -> TopologyFormats.synthetic("core:2@Infinity")).hasMessage("level core's cost is Infinity: a cost is a number of at least 0");
        assertThatThrownBy(() -> TopologyFormats.synthetic("core:2@-5")).hasMessage("level core's cost is -5.0: a cost is a number of at least 0");
        assertThatThrownBy(() -> TopologyFormats.synthetic("core8")).hasMessage("'core8' is not NAME:ARITY (e.g. core:8)");
    }

    @Test
    void thisMachinesLstopoOutput() throws IOException {
        Topology t = HwlocXml.parse(resource("this-machine.xml"));
        assertThat(t.leaves()).isEqualTo(2);
        assertThat(t.leafOsIndex()).containsExactly(0, 1);
        assertThat(t.compact()).hasToString("L2Cache:2");
    }

    @Test
    void biggerMachinesInBothXmlVersionsGiveTheSameTree() throws IOException {
        Topology v2 = HwlocXml.parse(resource("two-sockets-32pu.xml")).compact();
        Topology v1 = HwlocXml.parse(resource("two-sockets-32pu-v1.xml")).compact();
        assertThat(v2).hasToString("Package:2 Core:8 PU:2");
        // v1 exports put the NUMA node above the package (one each): the same tree, named by the upper one
        assertThat(v1.levels().stream().map(Topology.Level::arity)).containsExactly(2, 8, 2);
        assertThat(v1.leafOsIndex()).containsExactly(v2.leafOsIndex());
        assertThat(v2.leaves()).isEqualTo(32);
        assertThat(v2.hops(0, 1)).as("hyperthreads of a core").isEqualTo(2);
        assertThat(v2.hops(0, 16)).as("two packages").isEqualTo(6);
        Topology four = HwlocXml.parse(resource("four-sockets-48core.xml")).compact();
        assertThat(four).hasToString("Package:4 L3Cache:2 Core:6");
        assertThat(four.leaves()).isEqualTo(48);
    }

    @Test
    void notHwlocOrNoPuIsOneClearError() {
        assertThatThrownBy(() -> HwlocXml.parse("<x/>")).hasMessage("not hwloc XML: the root element is <x>, not <topology>");
        assertThatThrownBy(() -> HwlocXml.parse("""
                <topology><object type="Machine">
                  <object type="Package"><object type="Core"/><object type="Core"/></object>
                </object></topology>""")).hasMessage("hwloc XML: the machine has no PU");
    }

    @Test
    void anUnbalancedMachineIsPaddedWithHolesAndDisallowedPusAreHoles() {
        // package 0: a core of two PUs and a core of one (a hybrid pair); package 1: one core of
        // two PUs, of which the cgroup allows one; the other levels are as deep as each other
        Topology t = HwlocXml.parse("""
                <topology><object type="Machine" allowed_cpuset="0x0000003f">
                  <object type="Package">
                    <object type="Core"><object type="PU" os_index="0"/><object type="PU" os_index="4"/></object>
                    <object type="Core"><object type="PU" os_index="1"/></object>
                  </object>
                  <object type="Package">
                    <object type="Core"><object type="PU" os_index="2"/><object type="PU" os_index="6"/></object>
                  </object>
                </object></topology>""");
        assertThat(t).hasToString("Package:2 Core:2 PU:2");
        assertThat(t.leafOsIndex()).containsExactly(0, 4, 1, Topology.HOLE, 2, Topology.HOLE, Topology.HOLE, Topology.HOLE);
        assertThat(t.usableLeaves()).isEqualTo(4);
        assertThat(t.cost(0, 2)).as("two cores of a package meet as before").isEqualTo(2);
        assertThat(t.leavesAt("Core").leafOsIndex()).containsExactly(0, 1, 2, Topology.HOLE);
        assertThat(t.usableUnder(0)).containsExactly(3, 1);
    }

    @Test
    void aShallowerBranchMeetsItsSiblingsAtTheSameLevels() {
        // two packages under a group beside a package directly under the machine (irregular groups)
        Topology t = HwlocXml.parse("""
                <topology><object type="Machine">
                  <object type="Group">
                    <object type="Package"><object type="PU" os_index="0"/><object type="PU" os_index="1"/></object>
                    <object type="Package"><object type="PU" os_index="2"/><object type="PU" os_index="3"/></object>
                  </object>
                  <object type="Package"><object type="PU" os_index="4"/><object type="PU" os_index="5"/></object>
                </object></topology>""");
        assertThat(t).hasToString("Group:2 Package:2 PU:2");
        assertThat(t.leafOsIndex()).containsExactly(0, 1, 2, 3, 4, 5, Topology.HOLE, Topology.HOLE);
        assertThat(t.cost(4, 5)).as("the lone package's PUs meet in their package").isEqualTo(1);
    }

    @Test
    void cpusetsAreHwlocsBitmaps() {
        assertThat(HwlocXml.cpuset("0x00000001,,0x80000000").stream().toArray()).containsExactly(31, 64);
        assertThat(HwlocXml.cpuset("0xf...f,0x00000000").get(40)).isTrue();
        assertThat(HwlocXml.cpuset("")).isNull();
        assertThatThrownBy(() -> HwlocXml.cpuset("0xzz")).hasMessageContaining("not hexadecimal");
    }
}
