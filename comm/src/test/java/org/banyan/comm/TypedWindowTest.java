package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One-sided operations on derived datatypes over shared memory and TCP: columns of a matrix in
 * rank 0's window written, read and accumulated from other ranks' contiguous or strided arrays,
 * with the request forms; sizes that differ, types that mix primitives and layouts past the
 * window refused before anything is sent.
 */
class TypedWindowTest {
    private static final Datatype DOUBLE = Datatype.of(Elem.DOUBLE);
    /** A column of rank 0's 4 × 4 row-major matrix of doubles. */
    private static final Datatype COLUMN = Datatype.vector(4, 1, 4, DOUBLE);

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void columnsOfATargetsMatrixAreWrittenReadAndAccumulated(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            try (Window win = Window.allocate(w, me == 0 ? 16 * 8 : 8)) {
                win.fence();
                if (me > 0) {
                    double[] column = {10 * me, 10 * me + 1, 10 * me + 2, 10 * me + 3};
                    win.put(column, 4, DOUBLE, 0, 8L * me, 1, COLUMN); // column me
                    win.accumulate(new double[] {1, 1, 1, 1}, 4, DOUBLE, Op.SUM, 0, 8 * 3, 1, COLUMN); // column 3: 2 each
                }
                win.fence();
                StringBuilder s = new StringBuilder(me + ":");
                if (me == 1) {
                    double[] column2 = new double[4];
                    win.get(column2, 4, DOUBLE, 0, 16, 1, COLUMN);
                    win.fence();
                    s.append(" column2 ").append(Arrays.toString(column2));
                } else if (me == 2) {
                    double[] strided = new double[8];
                    Arrays.fill(strided, -1);
                    // column 1 into every other place of a local array
                    Request r = win.rget(strided, 1, Datatype.vector(4, 1, 2, DOUBLE), 0, 8, 1, COLUMN);
                    r.await();
                    win.fence();
                    s.append(" strided ").append(Arrays.toString(strided));
                } else {
                    win.fence();
                    double[] m = win.memory().toArray(ValueLayout.JAVA_DOUBLE);
                    s.append(" matrix ").append(Arrays.toString(m));
                }
                win.fence(); // rank 0 has read the matrix before anyone writes again
                if (me == 1) {
                    assertThatThrownBy(() -> win.put(new double[3], 3, DOUBLE, 0, 0, 1, COLUMN))
                            .hasMessageContaining("must carry the same bytes");
                    assertThatThrownBy(() -> win.accumulate(new int[8], 4, Datatype.of(Elem.INT), Op.SUM, 0, 0, 1, COLUMN))
                            .hasMessageContaining("must both be of one primitive type");
                    // column 3 starting at row 1 ends past the matrix: refused, and nothing of it written
                    assertThatThrownBy(() -> win.put(new double[] {7, 7, 7, 7}, 4, DOUBLE, 0, 8 * 7, 1, COLUMN))
                            .hasMessageContaining("outside rank 0's window");
                    Request p = win.rput(new double[] {5, 5, 5, 5}, 4, DOUBLE, 0, 0, 1, COLUMN);
                    p.await();
                }
                win.fence();
                if (me == 0) {
                    double[] m = win.memory().toArray(ValueLayout.JAVA_DOUBLE);
                    s.append(" column0 ").append(m[0]).append(",").append(m[4]).append(",").append(m[8]).append(",").append(m[12])
                            .append(" row1 ").append(m[7]);
                }
                return s.toString();
            }
        });
        assertThat(got).containsExactly(
                "0: matrix [0.0, 10.0, 20.0, 2.0, 0.0, 11.0, 21.0, 2.0, 0.0, 12.0, 22.0, 2.0, 0.0, 13.0, 23.0, 2.0]"
                        + " column0 5.0,5.0,5.0,5.0 row1 2.0",
                "1: column2 [20.0, 21.0, 22.0, 23.0]",
                "2: strided [10.0, -1.0, 11.0, -1.0, 12.0, -1.0, 13.0, -1.0]");
    }

    /**
     * Get-accumulate on datatypes: ranks 1 and 2 each add their contiguous four values into column
     * 1 of rank 0's matrix and fetch what it held, one into a strided array; between them they
     * see the column before and after the other's sum, whichever went first. Then NO_OP fetches
     * without changing, and mismatched result types are refused.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void getAccumulateOnAColumnFetchesWhatItHeldAndAdds(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            try (Window win = Window.allocate(w, me == 0 ? 16 * 8 : 8)) {
                if (me == 0) {
                    for (int i = 0; i < 16; i++) {
                        win.memory().setAtIndex(ValueLayout.JAVA_DOUBLE, i, i);
                    }
                }
                win.fence();
                double[] before = new double[me == 2 ? 8 : 4];
                Arrays.fill(before, -1);
                if (me == 1) {
                    win.getAccumulate(new double[] {100, 100, 100, 100}, 4, DOUBLE, before, 4, DOUBLE, Op.SUM, 0, 8, 1, COLUMN);
                } else if (me == 2) {
                    win.rgetAccumulate(new double[] {1000, 1000, 1000, 1000}, 4, DOUBLE, before, 1, Datatype.vector(4, 1, 2, DOUBLE),
                            Op.SUM, 0, 8, 1, COLUMN).await();
                }
                win.fence();
                StringBuilder s = new StringBuilder(me + ":");
                if (me == 0) {
                    double[] m = win.memory().toArray(ValueLayout.JAVA_DOUBLE);
                    s.append(" column1 ").append(m[1]).append(",").append(m[5]).append(",").append(m[9]).append(",").append(m[13]);
                } else {
                    s.append(" before ").append(Arrays.toString(before));
                }
                win.fence();
                if (me == 1) {
                    double[] seen = new double[4];
                    win.getAccumulate(new double[4], 4, DOUBLE, seen, 4, DOUBLE, Window.NO_OP, 0, 8, 1, COLUMN);
                    win.fence();
                    s.append(" no-op ").append(Arrays.toString(seen));
                    assertThatThrownBy(() -> win.getAccumulate(java.lang.foreign.MemorySegment.ofArray(new double[4]), 4, DOUBLE,
                            java.lang.foreign.MemorySegment.ofArray(new long[4]), 4, Datatype.of(Elem.LONG),
                            Op.SUM, 0, 8, 1, COLUMN)).hasMessageContaining("getAccumulate: the result's 4 elements");
                    assertThatThrownBy(() -> win.getAccumulate(new double[4], 4, DOUBLE, new double[3], 3, DOUBLE,
                            Op.SUM, 0, 8, 1, COLUMN)).hasMessageContaining("must carry the origin's 32 bytes");
                } else {
                    win.fence();
                }
                return s.toString();
            }
        });
        assertThat(got.get(0)).isEqualTo("0: column1 1101.0,1105.0,1109.0,1113.0");
        String one = got.get(1);
        String two = got.get(2);
        // whichever came second saw the first's sum
        boolean oneFirst = one.startsWith("1: before [1.0, 5.0, 9.0, 13.0]");
        assertThat(one).startsWith(oneFirst ? "1: before [1.0, 5.0, 9.0, 13.0]" : "1: before [1001.0, 1005.0, 1009.0, 1013.0]")
                .endsWith(" no-op [1101.0, 1105.0, 1109.0, 1113.0]");
        assertThat(two).isEqualTo(oneFirst ? "2: before [101.0, -1.0, 105.0, -1.0, 109.0, -1.0, 113.0, -1.0]"
                : "2: before [1.0, -1.0, 5.0, -1.0, 9.0, -1.0, 13.0, -1.0]");
    }
}
