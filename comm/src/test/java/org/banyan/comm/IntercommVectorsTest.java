package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The "v" collectives and reduce-scatter across an intercommunicator's two groups (world ranks
 * 0-1 and 2-4), on floats, ints and byte buffers, over shared memory and TCP; groups that
 * disagree on a count get a CommException, not shifted data.
 */
class IntercommVectorsTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void vectorsGoBetweenTheGroups(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(5, shm, w -> {
            boolean left = w.rank() < 2;
            Comm mine = w.split(left ? 0 : 1, w.rank());
            try (Intercomm ic = Intercomm.create(mine, 0, w, left ? 2 : 0, 11)) {
                int me = ic.rank();
                int remote = ic.remoteSize();
                StringBuilder s = new StringBuilder(w.rank() + ":");
                // gatherv to left rank 0 from the right group: right rank j sends j + 1 floats
                float[] at0 = left && me == 0 ? new float[6] : null;
                float[] part = new float[left ? 0 : me + 1];
                Arrays.fill(part, 10 * me + 1);
                ic.gatherv(part, at0, left && me == 0 ? new int[] {1, 2, 3} : null, left && me == 0 ? new int[] {0, 1, 3} : null,
                        left ? (me == 0 ? Intercomm.ROOT : Comm.PROC_NULL) : 0);
                if (at0 != null) {
                    s.append(" gv ").append(Arrays.toString(at0));
                }
                // scatterv from right rank 2 to the left group: left rank j gets j + 2 ints
                int[] dealt = new int[left ? me + 2 : 0];
                ic.scatterv(!left && me == 2 ? new int[] {1, 2, 3, 4, 5} : null, !left && me == 2 ? new int[] {2, 3} : null,
                        !left && me == 2 ? new int[] {0, 2} : null, dealt, left ? 2 : (me == 2 ? Intercomm.ROOT : Comm.PROC_NULL));
                if (left) {
                    s.append(" sv ").append(Arrays.toString(dealt));
                }
                // allgatherv: every rank sends world-rank + 1 copies of its world rank; counts of the other group
                int[] mineOut = new int[w.rank() + 1];
                Arrays.fill(mineOut, w.rank());
                int[] counts = left ? new int[] {3, 4, 5} : new int[] {1, 2};
                int[] displs = left ? new int[] {0, 3, 7} : new int[] {0, 1};
                int[] theirs = new int[left ? 12 : 3];
                ic.allgatherv(mineOut, theirs, counts, displs);
                s.append(" agv ").append(Arrays.toString(theirs));
                // alltoallv: one long to each remote rank, its value 10 * world rank + j
                long[] out = new long[remote];
                Arrays.setAll(out, j -> 10L * w.rank() + j);
                long[] in = new long[remote];
                int[] ones = new int[remote];
                Arrays.fill(ones, 1);
                int[] step = new int[remote];
                Arrays.setAll(step, j -> j);
                ic.alltoallv(out, ones, step, in, ones, step);
                s.append(" a2av ").append(Arrays.toString(in));
                // reduce_scatter: each group's 6 values summed and dealt over the other group by its counts
                double[] values = {w.rank(), w.rank(), w.rank(), w.rank(), w.rank(), w.rank()};
                int[] rsCounts = left ? new int[] {2, 4} : new int[] {1, 2, 3};
                double[] reduced = new double[rsCounts[me]];
                ic.reduceScatter(values, reduced, rsCounts, Op.SUM);
                s.append(" rs ").append(Arrays.toString(reduced));
                // reduce_scatter_block on byte buffers: 6 ints per rank in both groups, dealt 3 a rank on the left, 2 on the right
                int block = left ? 3 : 2;
                java.nio.ByteBuffer sendBlock = java.nio.ByteBuffer.allocate(4 * 6).order(java.nio.ByteOrder.nativeOrder());
                for (int i = 0; i < 6; i++) {
                    sendBlock.putInt(4 * i, 1 << w.rank());
                }
                java.nio.ByteBuffer dealtBlock = java.nio.ByteBuffer.allocate(4 * block).order(java.nio.ByteOrder.nativeOrder());
                ic.reduceScatterBlock(sendBlock, dealtBlock, Elem.INT, Op.BOR);
                int[] ints = new int[block];
                dealtBlock.asIntBuffer().get(ints);
                s.append(" rsb ").append(Arrays.toString(ints));
                // counts that do not add up alike in both groups are said, not shifted
                try {
                    ic.reduceScatter(new double[left ? 3 : 4], new double[left ? (me == 0 ? 1 : 2) : (me < 2 ? 1 : 2)],
                            left ? new int[] {1, 2} : new int[] {1, 1, 2}, Op.SUM);
                    s.append(" accepted");
                } catch (CommException e) {
                    s.append(" refused");
                }
                return s.toString();
            }
        });
        assertThat(got).containsExactly(
                "0: gv [1.0, 11.0, 11.0, 21.0, 21.0, 21.0] sv [1, 2] agv [2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4] a2av [20, 30, 40]"
                        + " rs [9.0, 9.0] rsb [28, 28, 28] refused",
                "1: sv [3, 4, 5] agv [2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4] a2av [21, 31, 41] rs [9.0, 9.0, 9.0, 9.0]"
                        + " rsb [28, 28, 28] refused",
                "2: agv [0, 1, 1] a2av [0, 10] rs [1.0] rsb [3, 3] refused",
                "3: agv [0, 1, 1] a2av [1, 11] rs [1.0, 1.0] rsb [3, 3] refused",
                "4: agv [0, 1, 1] a2av [2, 12] rs [1.0, 1.0, 1.0] rsb [3, 3] refused");
    }
}
