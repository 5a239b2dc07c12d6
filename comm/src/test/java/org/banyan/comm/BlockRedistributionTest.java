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
        moves(1_003, new int[][] {{2, 4}, {4, 2}, {3, 5}, {5, 3}, {5, 5}, {1, 5}, {5, 1}});
    }

    /** Pieces far above the eager limit wait for their receives (the engine's rendezvous). */
    @Test
    void largePiecesMoveAfterTheirReceiverIsReady() throws Exception {
        long length = 3 * (1L << 20) / Double.BYTES + 5; // 3 MiB and a bit
        moves(length, new int[][] {{4, 2}, {2, 3}, {1, 2}});
    }

    private static void moves(long length, int[][] cases) throws Exception {
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
                long start = BlockRedistribution.blockStart(length, to, r);
                int wrong = -1;
                for (int i = 0; i < block.length && wrong < 0; i++) {
                    wrong = block[i] == start + i ? -1 : i;
                }
                assertThat(wrong).as("%d -> %d, rank %d: first misplaced element", from, to, r).isEqualTo(-1);
            }
        }
    }

    @Test
    void otherElementTypesRowsOfAMatrixAndNativeSegments() throws Exception {
        long length = 101;
        int columns = 3;
        List<Object[]> got = LocalJob.run(4, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
            int me = world.rank();
            int n = me < 3 ? (int) BlockRedistribution.blockLength(length, 3, me) : 0;
            long start = me < 3 ? BlockRedistribution.blockStart(length, 3, me) : 0;
            long[] longs = new long[n];
            int[] ints = new int[n];
            float[] floats = new float[n];
            double[] rows = new double[n * columns];
            for (int i = 0; i < n; i++) {
                longs[i] = (start + i) << 33;
                ints[i] = (int) (start + i);
                floats[i] = start + i + 0.5f;
                for (int c = 0; c < columns; c++) {
                    rows[i * columns + c] = (start + i) * 10 + c;
                }
            }
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment in = arena.allocate(n * 2L);
                for (int i = 0; i < n; i++) {
                    in.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i, (short) (start + i));
                }
                int m = (int) BlockRedistribution.blockLength(length, 4, me);
                java.lang.foreign.MemorySegment out = arena.allocate(m * 2L);
                BlockRedistribution.redistribute(world, in, out, length, 2, 3, 4);
                short[] shorts = out.toArray(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED);
                return new Object[] {BlockRedistribution.redistribute(world, longs, length, 3, 4),
                        BlockRedistribution.redistribute(world, ints, length, 3, 4),
                        BlockRedistribution.redistribute(world, floats, length, 3, 4),
                        BlockRedistribution.redistributeRows(world, rows, length, columns, 3, 4), shorts};
            }
        });
        for (int r = 0; r < 4; r++) {
            long start = BlockRedistribution.blockStart(length, 4, r);
            int n = (int) BlockRedistribution.blockLength(length, 4, r);
            long[] longs = (long[]) got.get(r)[0];
            int[] ints = (int[]) got.get(r)[1];
            float[] floats = (float[]) got.get(r)[2];
            double[] rows = (double[]) got.get(r)[3];
            short[] shorts = (short[]) got.get(r)[4];
            assertThat(longs).hasSize(n);
            assertThat(rows).hasSize(n * columns);
            assertThat(shorts).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(longs[i]).isEqualTo((start + i) << 33);
                assertThat(ints[i]).isEqualTo((int) (start + i));
                assertThat(floats[i]).isEqualTo(start + i + 0.5f);
                assertThat(shorts[i]).isEqualTo((short) (start + i));
                for (int c = 0; c < columns; c++) {
                    assertThat(rows[i * columns + c]).as("rank %d row %d column %d", r, i, c).isEqualTo((start + i) * 10.0 + c);
                }
            }
        }
    }

    @Test
    void aMatrixByBlocksOfColumns() throws Exception {
        int rows = 7;
        long columns = 23;
        int[][] cases = {{3, 4}, {4, 2}, {1, 3}};
        for (int[] c : cases) {
            int from = c[0];
            int to = c[1];
            List<double[]> got = LocalJob.run(Math.max(from, to), r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
                int me = world.rank();
                int width = me < from ? (int) BlockRedistribution.blockLength(columns, from, me) : 0;
                long first = me < from ? BlockRedistribution.blockStart(columns, from, me) : 0;
                double[] mine = new double[rows * width];
                for (int r = 0; r < rows; r++) {
                    for (int k = 0; k < width; k++) {
                        mine[r * width + k] = r * 1000 + first + k;
                    }
                }
                return BlockRedistribution.redistributeColumns(world, mine, rows, columns, from, to);
            });
            for (int rank = 0; rank < got.size(); rank++) {
                int width = rank < to ? (int) BlockRedistribution.blockLength(columns, to, rank) : 0;
                long first = rank < to ? BlockRedistribution.blockStart(columns, to, rank) : 0;
                double[] block = got.get(rank);
                assertThat(block).as(from + " -> " + to + ", rank " + rank).hasSize(rows * width);
                for (int r = 0; r < rows; r++) {
                    for (int k = 0; k < width; k++) {
                        assertThat(block[r * width + k]).as("%d -> %d, rank %d row %d column %d", from, to, rank, r, first + k)
                                .isEqualTo(r * 1000.0 + first + k);
                    }
                }
            }
        }
    }

    @Test
    void aMatrixIn2DBlocksFromOneGridOfRanksToAnother() throws Exception {
        int rows = 7;
        int columns = 9;
        int[][][] cases = {{{2, 2}, {3, 1}}, {{2, 2}, {1, 3}}, {{1, 4}, {2, 2}}, {{2, 3}, {2, 2}}, {{3, 1}, {1, 1}}};
        for (int[][] c : cases) {
            int[] from = c[0];
            int[] to = c[1];
            int ranks = Math.max(from[0] * from[1], to[0] * to[1]);
            List<double[]> got = LocalJob.run(ranks, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
                int me = world.rank();
                double[] mine = new double[0];
                if (me < from[0] * from[1]) {
                    int i = me / from[1];
                    int j = me % from[1];
                    int h = (int) BlockRedistribution.blockLength(rows, from[0], i);
                    int w = (int) BlockRedistribution.blockLength(columns, from[1], j);
                    long r0 = BlockRedistribution.blockStart(rows, from[0], i);
                    long c0 = BlockRedistribution.blockStart(columns, from[1], j);
                    mine = new double[h * w];
                    for (int r = 0; r < h; r++) {
                        for (int k = 0; k < w; k++) {
                            mine[r * w + k] = (r0 + r) * 1000 + c0 + k;
                        }
                    }
                }
                return BlockRedistribution.redistributeBlocks(world, mine, rows, columns, from, to);
            });
            String grids = java.util.Arrays.toString(from) + " -> " + java.util.Arrays.toString(to);
            for (int rank = 0; rank < ranks; rank++) {
                double[] block = got.get(rank);
                if (rank >= to[0] * to[1]) {
                    assertThat(block).as(grids + ", rank " + rank).isEmpty();
                    continue;
                }
                int i = rank / to[1];
                int j = rank % to[1];
                int h = (int) BlockRedistribution.blockLength(rows, to[0], i);
                int w = (int) BlockRedistribution.blockLength(columns, to[1], j);
                long r0 = BlockRedistribution.blockStart(rows, to[0], i);
                long c0 = BlockRedistribution.blockStart(columns, to[1], j);
                assertThat(block).as(grids + ", rank " + rank).hasSize(h * w);
                for (int r = 0; r < h; r++) {
                    for (int k = 0; k < w; k++) {
                        assertThat(block[r * w + k]).as("%s, rank %d, row %d column %d", grids, rank, r0 + r, c0 + k)
                                .isEqualTo((r0 + r) * 1000.0 + c0 + k);
                    }
                }
            }
        }
    }

    /** Blocks of a MiB and more go through the go-ahead as 1-D pieces do. */
    @Test
    void largeBlocksOfAGridMoveAfterTheirReceiverIsReady() throws Exception {
        int rows = 1_000;
        int columns = 600;
        int[] from = {2, 2};
        int[] to = {1, 1};
        List<double[]> got = LocalJob.run(4, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
            int me = world.rank();
            int h = (int) BlockRedistribution.blockLength(rows, 2, me / 2);
            int w = (int) BlockRedistribution.blockLength(columns, 2, me % 2);
            long r0 = BlockRedistribution.blockStart(rows, 2, me / 2);
            long c0 = BlockRedistribution.blockStart(columns, 2, me % 2);
            double[] mine = new double[h * w];
            for (int r = 0; r < h; r++) {
                for (int k = 0; k < w; k++) {
                    mine[r * w + k] = (r0 + r) * columns + c0 + k;
                }
            }
            return BlockRedistribution.redistributeBlocks(world, mine, rows, columns, from, to);
        });
        double[] whole = got.getFirst();
        assertThat(whole).hasSize(rows * columns);
        int wrong = -1;
        for (int i = 0; i < whole.length && wrong < 0; i++) {
            wrong = whole[i] == i ? -1 : i;
        }
        assertThat(wrong).as("first misplaced element").isEqualTo(-1);
        assertThat(got.subList(1, 4)).allSatisfy(b -> assertThat(b).isEmpty());
    }

    @Test
    void aBlockOfTheWrongSizeIsOneClearError() {
        assertThatThrownBy(() -> BlockRedistribution.plan(4, 0, 2)).hasMessage("a redistribution of 4 elements from 0 to 2 ranks");
        assertThatThrownBy(() -> BlockRedistribution.redistributeRows(null, new double[0], 4, 0, 1, 1))
                .hasMessage("a matrix of 0 columns");
        assertThatThrownBy(() -> BlockRedistribution.redistributeColumns(null, new double[0], 0, 4, 1, 1))
                .hasMessage("a matrix of 0 rows");
        assertThatThrownBy(() -> BlockRedistribution.redistributeBlocks(null, new double[0], 4, 4, new int[] {2, 0},
                new int[] {1, 1})).hasMessage("grids of ranks are rows × columns, at least 1 × 1: [2, 0] to [1, 1]");
    }
}
