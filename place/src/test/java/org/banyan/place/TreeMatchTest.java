package org.banyan.place;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.banyan.topo.Topology;
import org.banyan.topo.TopologyFormats;
import org.junit.jupiter.api.Test;

class TreeMatchTest {
    private static double hopBytes(CommMatrix m, Topology t, int[] leafOf) {
        return PlacementCost.of(m, t, leafOf).hopBytes();
    }

    private static void isPlacement(int[] leafOf, Topology t) {
        assertThat(Arrays.stream(leafOf).distinct().count()).as("distinct leaves").isEqualTo(leafOf.length);
        assertThat(Arrays.stream(leafOf).allMatch(l -> l >= 0 && l < t.leaves())).isTrue();
    }

    @Test
    void pairsThatTalkShareACore() {
        // 0-3, 1-2 talk: round robin puts them on different sockets
        long[][] m = new long[4][4];
        m[0][3] = m[3][0] = 100;
        m[1][2] = m[2][1] = 100;
        m[0][1] = 1;
        Topology t = TopologyFormats.synthetic("socket:2 core:2");
        int[] leafOf = TreeMatch.map(CommMatrix.of(m), t).leafOf();
        isPlacement(leafOf, t);
        assertThat(t.meetingLevel(leafOf[0], leafOf[3])).isEqualTo(1);
        assertThat(t.meetingLevel(leafOf[1], leafOf[2])).isEqualTo(1);
        assertThat(hopBytes(CommMatrix.of(m), t, leafOf)).as("w(0,3) = w(1,2) = 200 over 2 links, w(0,1) = 1 over 4").isEqualTo(2 * 200 * 2 + 4 * 1);
    }

    @Test
    void sameInputSamePlacement() {
        CommMatrix m = Patterns.stencil2d(16, 16, 1000);
        Topology t = TopologyFormats.synthetic("host:4 socket:2 core:32");
        assertThat(TreeMatch.map(m, t).leafOf()).containsExactly(TreeMatch.map(m, t).leafOf());
    }

    @Test
    void fewerProcessesThanLeavesArePackedAndPadded() {
        CommMatrix m = Patterns.binomialReduce(6, 10);
        Topology t = TopologyFormats.synthetic("socket:2 core:4");
        int[] leafOf = TreeMatch.map(m, t).leafOf();
        isPlacement(leafOf, t);
        assertThat(leafOf).hasSize(6);
        assertThatThrownBy(() -> TreeMatch.map(Patterns.binomialReduce(9, 1), t))
                .hasMessage("9 processes for the 8 places of socket:2 core:4");
    }

    @Test
    void smallLevelsAreSearchedToTheEndAndBeatEveryOtherGrouping() {
        // 8 processes, pairs: the exhaustive search must find the best matching of random weights
        SplittableRandom r = new SplittableRandom(7);
        for (int round = 0; round < 20; round++) {
            double[][] w = new double[8][8];
            for (int i = 0; i < 8; i++) {
                for (int j = i + 1; j < 8; j++) {
                    w[i][j] = r.nextInt(100);
                }
            }
            CommMatrix m = CommMatrix.of(w);
            Topology t = TopologyFormats.synthetic("pair:4 core:2");
            TreeMatch.Result res = TreeMatch.map(m, t);
            assertThat(res.exactLevels()).isEqualTo(res.levels());
            double best = bestPairing(w, new boolean[8], 0);
            double inside = 0;
            for (int i = 0; i < 8; i++) {
                for (int j = i + 1; j < 8; j++) {
                    if (res.leafOf()[i] / 2 == res.leafOf()[j] / 2) {
                        inside += w[i][j];
                    }
                }
            }
            assertThat(inside).isEqualTo(best);
        }
    }

    private static double bestPairing(double[][] w, boolean[] used, int from) {
        int i = from;
        while (i < used.length && used[i]) {
            i++;
        }
        if (i == used.length) {
            return 0;
        }
        used[i] = true;
        double best = 0;
        for (int j = i + 1; j < used.length; j++) {
            if (!used[j]) {
                used[j] = true;
                best = Math.max(best, w[i][j] + bestPairing(w, used, i + 1));
                used[j] = false;
            }
        }
        used[i] = false;
        return best;
    }

    @Test
    void referencePatternsCostLessThanRoundRobinAndRandom() {
        Topology t = TopologyFormats.synthetic("switch:4 host:4 socket:2 core:8");
        CommMatrix[] patterns = {Patterns.stencil2d(16, 16, 1000), Patterns.stencil3d(8, 8, 4, 1000),
            Patterns.binomialReduce(256, 1000), Patterns.stridedBlocks(256, 16, 1000)};
        for (CommMatrix m : patterns) {
            int[] tm = TreeMatch.map(m, t).leafOf();
            isPlacement(tm, t);
            double treeMatch = hopBytes(m, t, tm);
            assertThat(treeMatch).isLessThanOrEqualTo(hopBytes(m, t, ReferencePlacements.roundRobin(m.size(), t)));
            assertThat(treeMatch).isLessThan(hopBytes(m, t, ReferencePlacements.random(m.size(), t, 1)));
        }
        // the strided blocks defeat rank order; TreeMatch puts every block on one host
        CommMatrix blocks = Patterns.stridedBlocks(256, 16, 1000);
        double rr = hopBytes(blocks, t, ReferencePlacements.roundRobin(256, t));
        double tm = hopBytes(blocks, t, TreeMatch.map(blocks, t).leafOf());
        assertThat(tm).isLessThan(0.7 * rr);
    }

    @Test
    void shuffledRanksAreFoundAgain() {
        // a stencil whose ranks were renumbered at random: TreeMatch does not rely on rank order
        Topology t = TopologyFormats.synthetic("host:4 socket:2 core:8");
        CommMatrix grid = Patterns.stencil2d(8, 8, 1000);
        int[] perm = ReferencePlacements.random(64, t, 3);
        CommMatrix shuffled = Patterns.renumbered(grid, perm);
        double tm = hopBytes(shuffled, t, TreeMatch.map(shuffled, t).leafOf());
        double rr = hopBytes(shuffled, t, ReferencePlacements.roundRobin(64, t));
        double ordered = hopBytes(grid, t, ReferencePlacements.roundRobin(64, t));
        assertThat(tm).isLessThan(0.6 * rr);
        assertThat(tm).isLessThanOrEqualTo(ordered * 1.05);
    }

    @Test
    void costMeasures() {
        Topology t = TopologyFormats.synthetic("host:2@10 core:2@1");
        long[][] m = new long[4][4];
        m[0][1] = 5;
        m[0][2] = 3;
        m[2][0] = 1;
        PlacementCost c = PlacementCost.of(CommMatrix.of(m), t, new int[] {0, 1, 2, 3});
        assertThat(c.sumCom()).isEqualTo(5 * 1 + 4 * 10);
        assertThat(c.maxCom()).isEqualTo(40);
        assertThat(c.hopBytes()).isEqualTo(5 * 2 + 4 * 4);
    }

    @Test
    void byNodeDealsRanksOverHosts() {
        Topology t = TopologyFormats.synthetic("core:2").cluster(java.util.List.of(), 3);
        assertThat(ReferencePlacements.byNode(5, t)).containsExactly(0, 2, 4, 1, 3);
    }
}
