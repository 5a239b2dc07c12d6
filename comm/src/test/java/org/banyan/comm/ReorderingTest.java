package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.banyan.place.CommMatrix;
import org.banyan.topo.Topology;
import org.junit.jupiter.api.Test;

/** The choice behind a topology's reorder, without processes: patterns, machines and where processes are bound. */
class ReorderingTest {
    /** Two packages of two cores. */
    static final Topology TWO_BY_TWO = new Topology(List.of(new Topology.Level("Package", 2, 0), new Topology.Level("Core", 2, 0)),
            new int[] {0, 1, 2, 3});
    static final CommMatrix CHAIN_OF_FOUR = Reordering.grid(new int[] {4}, new boolean[] {false});

    @Test
    void aChainDealtRoundRobinOverPackagesIsRegroupedByPackage() {
        // processes bound round-robin over the packages: 0 and 2 on package 0, 1 and 3 on package 1
        Reordering.Outcome o = Reordering.of(CHAIN_OF_FOUR, TWO_BY_TWO, new int[4], new int[] {0, 2, 1, 3});
        assertThat(o.newRank()).isNotNull();
        assertThat(o.costAfter()).isLessThan(o.costBefore());
        int[] r = o.newRank();
        assertThat(r).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(Math.abs(r[0] - r[2])).as("the two processes of package 0 hold neighbouring ranks").isEqualTo(1);
        assertThat(Math.min(r[0], r[2]) % 2).as("ranks 0-1 or 2-3").isZero();
    }

    @Test
    void ranksAlreadyWellPlacedKeepTheirOrder() {
        Reordering.Outcome o = Reordering.of(CHAIN_OF_FOUR, TWO_BY_TWO, new int[4], new int[] {0, 1, 2, 3});
        assertThat(o.newRank()).isNull();
        assertThat(o.kept()).isEqualTo("the ranks' order is already as good as TreeMatch's");
    }

    @Test
    void unboundOrSharedCpusOrUnknownCpusKeepTheOrderAndSayWhy() {
        assertThat(Reordering.of(CHAIN_OF_FOUR, TWO_BY_TWO, new int[4], new int[] {0, 1, -1, 3}).kept())
                .startsWith("rank 2 is not bound to CPUs");
        assertThat(Reordering.of(CHAIN_OF_FOUR, TWO_BY_TWO, new int[4], new int[] {0, 1, 1, 3}).kept())
                .isEqualTo("two ranks share CPU 1 of a host: there is no order to choose between them");
        assertThat(Reordering.of(CHAIN_OF_FOUR, TWO_BY_TWO, new int[4], new int[] {0, 1, 9, 3}).kept())
                .isEqualTo("rank 2 is bound to CPU 9, which the machine's topology does not show");
    }

    /** Two hosts of two cores, ranks dealt by node (0 and 2 on the first host): a chain's neighbours are put on one host. */
    @Test
    void acrossHostsTheHeavyPairsShareAHost() {
        Topology host = new Topology(List.of(new Topology.Level("Core", 2, 0)), new int[] {0, 1});
        Reordering.Outcome o = Reordering.of(CHAIN_OF_FOUR, host, new int[] {7, 9, 7, 9}, new int[] {0, 0, 1, 1});
        int[] r = o.newRank();
        assertThat(r).isNotNull();
        assertThat(Math.abs(r[0] - r[2])).isEqualTo(1);
        assertThat(Math.abs(r[1] - r[3])).isEqualTo(1);
    }

    @Test
    void aGridsPatternLinksEachRankToItsNeighbours() {
        CommMatrix torus = Reordering.grid(new int[] {3, 3}, new boolean[] {true, true});
        for (int r = 0; r < 9; r++) {
            assertThat(torus.degree(r)).as("rank " + r + " on a 3 × 3 torus").isEqualTo(4);
        }
        CommMatrix open = Reordering.grid(new int[] {2, 3}, new boolean[] {false, false});
        assertThat(open.degree(0)).isEqualTo(2);
        assertThat(open.degree(1)).isEqualTo(3);
        CommMatrix pair = Reordering.grid(new int[] {2}, new boolean[] {true});
        assertThat(pair.degree(0)).as("a periodic dimension of 2 links the pair once").isEqualTo(1);
    }
}
