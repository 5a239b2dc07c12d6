package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The collectives on parts of arrays (C's {@code &a[offset]} and a count), over shared memory and TCP. */
class ArrayPartsTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void eachCollectiveReadsAndWritesOnlyItsPart(boolean shm) throws Exception {
        List<String> got = LocalJob.run(3, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            int r = w.rank();
            double[] b = new double[6];
            if (r == 0) {
                for (int i = 0; i < 6; i++) {
                    b[i] = i;
                }
            }
            w.bcast(b, 2, 3, 0);
            long[] sum = {-1, -1, -1};
            w.allreduce(new long[] {99, r, 10L * r, 99}, 1, sum, 0, 2, Op.SUM);
            int[] max = {-1, -1};
            w.reduce(new int[] {r}, 0, max, 1, 1, Op.MAX, 2);
            double[] gathered = new double[5];
            w.gather(new double[] {-1, r + 0.5}, 1, 1, gathered, 2, 0);
            int[] dealt = new int[3];
            w.scatter(r == 1 ? new int[] {-1, 10, 11, 12, 13, 14, 15} : null, 1, dealt, 1, 2, 1);
            float[] all = new float[4];
            w.allgather(new float[] {r}, 0, 1, all, 1);
            long[] swapped = new long[6];
            w.alltoall(new long[] {10L * r, 10L * r + 1, 10L * r + 2}, 0, swapped, 3, 1);
            assertThatThrownBy(() -> w.bcast(new double[3], 2, 2, 0)).hasMessage("elements 2 to 4 are outside an array of 3");
            return Arrays.toString(b) + " " + Arrays.toString(sum) + " " + Arrays.toString(max) + " " + Arrays.toString(gathered) + " "
                    + Arrays.toString(dealt) + " " + Arrays.toString(all) + " " + Arrays.toString(swapped);
        });
        assertThat(got.get(0)).isEqualTo("[0.0, 1.0, 2.0, 3.0, 4.0, 5.0] [3, 30, -1] [-1, -1] [0.0, 0.0, 0.5, 1.5, 2.5] [0, 10, 11] "
                + "[0.0, 0.0, 1.0, 2.0] [0, 0, 0, 0, 10, 20]");
        assertThat(got.get(2)).isEqualTo("[0.0, 0.0, 2.0, 3.0, 4.0, 0.0] [3, 30, -1] [-1, 2] [0.0, 0.0, 0.0, 0.0, 0.0] [0, 14, 15] "
                + "[0.0, 0.0, 1.0, 2.0] [0, 0, 0, 2, 12, 22]");
    }

    /** A halo exchange within one array: each rank sends its interior's first two cells and receives the other's into its halo. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sendrecvMovesPartsOfOneArray(boolean shm) throws Exception {
        List<String> got = LocalJob.run(2, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            int other = 1 - w.rank();
            double[] cells = {-1, w.rank() * 10 + 1, w.rank() * 10 + 2, w.rank() * 10 + 3, -1, -1};
            Status st = w.sendrecv(cells, 1, 2, other, 5, cells, 4, 2, other, 5);
            assertThatThrownBy(() -> w.sendrecv(cells, 5, 2, other, 5, cells, 0, 1, other, 5))
                    .hasMessage("elements 5 to 7 are outside an array of 6");
            return Arrays.toString(cells) + " " + st.bytes();
        });
        assertThat(got).containsExactly("[-1.0, 1.0, 2.0, 3.0, 11.0, 12.0] 16", "[-1.0, 11.0, 12.0, 13.0, 1.0, 2.0] 16");
    }
}
