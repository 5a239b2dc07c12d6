package org.banyan.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.banyan.topo.Topology;
import org.banyan.topo.TopologyFormats;
import org.junit.jupiter.api.Test;

class RankfileTest {
    @Test
    void readsOpenMpisSyntaxInAnyOrder() {
        List<Rankfile.Entry> e = Rankfile.parse("""
                # placed by hand
                rank 1=b slot=0:1
                rank 0=a slot=2   # trailing comment

                rank 2=a slot=1:0-3
                """, "rf");
        assertThat(e).containsExactly(new Rankfile.Entry(0, "a", "2"), new Rankfile.Entry(1, "b", "0:1"),
                new Rankfile.Entry(2, "a", "1:0-3"));
        assertThat(Rankfile.hosts(e)).containsExactly("a", "b");
    }

    @Test
    void badLinesAndGapsAreOneClearError() {
        assertThatThrownBy(() -> Rankfile.parse("rank 0=a\n", "rf")).hasMessage("rf line 1: expected 'rank N=HOST slot=SLOT', got 'rank 0=a'");
        assertThatThrownBy(() -> Rankfile.parse("rank x=a slot=1\n", "rf")).hasMessage("rf line 1: 'x' is not a rank number");
        assertThatThrownBy(() -> Rankfile.parse("rank 0=a slot=1\nrank 2=a slot=0\n", "rf")).hasMessage("rf: rank 1 is missing");
        assertThatThrownBy(() -> Rankfile.parse("rank 0=a slot=1\nrank 0=a slot=0\n", "rf")).hasMessage("rf: rank 0 appears twice");
        assertThatThrownBy(() -> Rankfile.parse("# nothing\n", "rf")).hasMessage("rf places no rank");
    }

    @Test
    void placementsBecomeHostsAndPackageCoreSlotsAndReadBack() {
        Topology cluster = TopologyFormats.synthetic("socket:2 core:4").cluster(List.of(), 2);
        List<Rankfile.Entry> e = Rankfile.of(new int[] {9, 0, 15}, cluster, List.of("n1", "n2"));
        assertThat(e).containsExactly(new Rankfile.Entry(0, "n2", "0:1"), new Rankfile.Entry(1, "n1", "0:0"),
                new Rankfile.Entry(2, "n2", "1:3"));
        assertThat(Rankfile.parse(Rankfile.format(e, "a header\nof two lines"), "back")).isEqualTo(e);
        Topology flat = TopologyFormats.synthetic("core:4").cluster(List.of(), 1);
        assertThat(Rankfile.of(new int[] {3}, flat, List.of("h")).getFirst().slot()).isEqualTo("3");
    }

    @Test
    void slotsCountTheCoresThatExistOnAMachineWithHoles() throws Exception {
        // hwloc's 16em64t-4s2c2t-offlines: four packages of 2, 1, 1 and 2 cores with usable PUs
        Topology host = org.banyan.topo.HwlocXml.parse(RealMachinesTest.resource("hwloc/16em64t-4s2c2t-offlines.xml"))
                .leavesAt("Core").compact();
        assertThat(host).hasToString("Package:4 L2Cache:2");
        Topology cluster = host.cluster(List.of(), 2);
        int[] leafOf = ReferencePlacements.roundRobin(12, cluster);
        List<Rankfile.Entry> entries = Rankfile.of(leafOf, cluster, List.of("a", "b"));
        assertThat(entries.stream().map(e -> e.host() + " " + e.slot()).toList()).containsExactly("a 0:0", "a 0:1", "a 1:0",
                "a 2:0", "a 3:0", "a 3:1", "b 0:0", "b 0:1", "b 1:0", "b 2:0", "b 3:0", "b 3:1");
        assertThatThrownBy(() -> ReferencePlacements.roundRobin(13, cluster))
                .hasMessage("13 processes for the 12 usable places of host:2 Package:4 L2Cache:2");
    }

    @Test
    void matricesFromCsvAndMat() {
        CommMatrix csv = MatrixFormats.parse("from\\to,0,1,2\n0,0,5,0\n1,1,0,0\n2,0,0,0\n", "m.csv");
        assertThat(csv.size()).isEqualTo(3);
        assertThat(csv.between(0, 1)).isEqualTo(6);
        assertThat(csv.between(1, 0)).isEqualTo(6);
        assertThat(csv.between(0, 2)).isZero();
        CommMatrix mat = MatrixFormats.parse("0 3 \n3 0 \n", "m.mat");
        assertThat(mat.between(0, 1)).isEqualTo(6);
        assertThat(mat.pairs()).isEqualTo(1);
        assertThatThrownBy(() -> MatrixFormats.parse("0 1\n1\n", "m.mat")).hasMessage("m.mat: row 1 has 1 values; a matrix of 2 rows needs 2");
        assertThatThrownBy(() -> MatrixFormats.parse("0 x\n1 0\n", "m.mat")).hasMessage("m.mat line 1: 'x' is not a number");
        for (String notANumber : java.util.List.of("NaN", "Infinity", "1e400")) { // they parse as doubles: every cost would be NaN or infinite
            assertThatThrownBy(() -> MatrixFormats.parse("0," + notANumber + "\n" + notANumber + ",0\n", "m.csv"))
                    .hasMessage("m.csv line 1: '" + notANumber + "' is not a number");
        }
        assertThatThrownBy(() -> new CommMatrix.Builder(2).add(0, 1, Double.NaN))
                .hasMessage("an amount that is not a number, NaN, between 0 and 1");
    }
}
