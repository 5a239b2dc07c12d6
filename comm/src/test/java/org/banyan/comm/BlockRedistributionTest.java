package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlockRedistributionTest {
    @Test
    void thePlanCoversEveryElementOnceFromItsOldOwnerToItsNewOne() {
        for (int from = 1; from <= 7; from++) {
            for (int to = 1; to <= 7; to++) {
                for (long length : new long[] {0, 1, 5, 17, 64}) {
                    long covered = 0;
                    for (BlockRedistribution.Piece p : BlockRedistribution.plan(length, from, to)) {
                        long global = BlockRedistribution.blockStart(length, from, p.fromRank()) + p.fromOffset();
                        assertThat(global).isEqualTo(covered);
                        assertThat(BlockRedistribution.blockStart(length, to, p.toRank()) + p.toOffset()).isEqualTo(global);
                        assertThat(p.fromOffset() + p.count()).isLessThanOrEqualTo(BlockRedistribution.blockLength(length, from, p.fromRank()));
                        assertThat(p.toOffset() + p.count()).isLessThanOrEqualTo(BlockRedistribution.blockLength(length, to, p.toRank()));
                        covered += p.count();
                    }
                    assertThat(covered).isEqualTo(length);
                }
            }
        }
        // the factor case: 2 -> 4 splits each block in two
        assertThat(BlockRedistribution.plan(8, 2, 4)).containsExactly(new BlockRedistribution.Piece(0, 0, 0, 0, 2),
                new BlockRedistribution.Piece(0, 2, 1, 0, 2), new BlockRedistribution.Piece(1, 0, 2, 0, 2),
                new BlockRedistribution.Piece(1, 2, 3, 0, 2));
    }

    @Test
    void expandingShrinkingAndArbitraryNToMOverRealTransports() throws Exception {
        int[][] cases = {{2, 4}, {4, 2}, {3, 5}, {5, 3}, {5, 5}, {1, 5}, {5, 1}};
        long length = 1_003;
        for (int[] c : cases) {
            int from = c[0];
            int to = c[1];
            List<double[]> got = LocalJob.run(Math.max(from, to), r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
                int me = world.rank();
                double[] mine = new double[me < from ? (int) BlockRedistribution.blockLength(length, from, me) : 0];
                long start = me < from ? BlockRedistribution.blockStart(length, from, me) : 0;
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = start + i;
                }
                return BlockRedistribution.redistribute(world, mine, length, from, to);
            });
            for (int r = 0; r < got.size(); r++) {
                double[] block = got.get(r);
                long expected = r < to ? BlockRedistribution.blockLength(length, to, r) : 0;
                assertThat(block.length).as(from + " -> " + to + ", rank " + r).isEqualTo((int) expected);
                for (int i = 0; i < block.length; i++) {
                    assertThat(block[i]).isEqualTo((double) BlockRedistribution.blockStart(length, to, r) + i);
                }
            }
        }
    }

    @Test
    void aBlockOfTheWrongSizeIsOneClearError() {
        assertThatThrownBy(() -> BlockRedistribution.plan(4, 0, 2)).hasMessage("a redistribution of 4 elements from 0 to 2 ranks");
    }
}
