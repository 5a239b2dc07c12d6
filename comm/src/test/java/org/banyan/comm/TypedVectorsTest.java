package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The "v" collectives on derived datatypes and MPI_Alltoallw, over shared memory and TCP:
 * columns of a row-major matrix gathered, scattered and exchanged in place, a type per peer, and
 * the refusals a rank can see before sending.
 */
class TypedVectorsTest {
    /** One column of a 3-column matrix of doubles, resized so that the next element starts at the next column. */
    private static final Datatype COLUMN = Datatype.resized(Datatype.vector(3, 1, 3, Datatype.of(Elem.DOUBLE)), 0, Double.BYTES);

    /**
     * Rank r holds r + 1 rows of its own (values 10r + i); the root gathers them as whole
     * columns of a 3×3 matrix, rank r's rows at column r, then scatters them back by columns;
     * every rank allgathers with a column type and exchanges columns with every other rank.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void columnsMoveWhereTheTypesPutThem(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            StringBuilder s = new StringBuilder();
            double[] mine = {10 * me, 10 * me + 1, 10 * me + 2};
            double[] matrix = new double[9];
            Arrays.fill(matrix, -1);
            // each rank sends 3 doubles; the root takes them as one column each, column r for rank r
            w.gatherv(mine, 3, Datatype.of(Elem.DOUBLE), me == 0 ? matrix : null, new int[] {1, 1, 1}, new int[] {0, 1, 2}, COLUMN, 0);
            if (me == 0) {
                s.append("gathered ").append(Arrays.toString(matrix));
            }
            double[] back = new double[3];
            w.scatterv(me == 0 ? matrix : null, new int[] {1, 1, 1}, new int[] {2, 1, 0}, COLUMN, back, 3, Datatype.of(Elem.DOUBLE), 0);
            s.append(" column ").append(Arrays.toString(back));
            double[] everyone = new double[9];
            w.allgatherv(mine, 3, Datatype.of(Elem.DOUBLE), everyone, new int[] {1, 1, 1}, new int[] {0, 1, 2}, COLUMN);
            s.append(" all ").append(Arrays.equals(everyone, new double[] {0, 10, 20, 1, 11, 21, 2, 12, 22}));
            // alltoallv by columns: column p of my matrix to rank p, rank p's into my column p
            double[] rows = new double[9];
            for (int i = 0; i < 9; i++) {
                rows[i] = 100 * me + i;
            }
            double[] cols = new double[9];
            int[] ones = {1, 1, 1};
            int[] at = {0, 1, 2};
            w.alltoallv(rows, ones, at, COLUMN, cols, ones, at, COLUMN);
            s.append(" a2av ").append(Arrays.toString(cols));
            return s.toString();
        });
        // rank r's cols: column p holds rank p's column r: 100p + r, 100p + 3 + r, 100p + 6 + r
        assertThat(got).containsExactly(
                "gathered [0.0, 10.0, 20.0, 1.0, 11.0, 21.0, 2.0, 12.0, 22.0] column [20.0, 21.0, 22.0] all true"
                        + " a2av [0.0, 100.0, 200.0, 3.0, 103.0, 203.0, 6.0, 106.0, 206.0]",
                " column [10.0, 11.0, 12.0] all true a2av [1.0, 101.0, 201.0, 4.0, 104.0, 204.0, 7.0, 107.0, 207.0]",
                " column [0.0, 1.0, 2.0] all true a2av [2.0, 102.0, 202.0, 5.0, 105.0, 205.0, 8.0, 108.0, 208.0]");
    }

    /**
     * Alltoallw with a type per peer: each rank sends rank p p + 1 ints starting at a byte
     * displacement of its own, and receives them as longs' low halves (an int at every other
     * place, a vector type); then counts that do not match between a pair fail naming the rank.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void alltoallwTakesATypePerPeer(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            int n = w.size();
            int[] send = new int[6];
            Arrays.setAll(send, i -> 10 * me + i);
            int[] sendCounts = {1, 2, 3};
            long[] sendDispls = {0, 4, 12};
            Datatype anInt = Datatype.of(Elem.INT);
            Datatype[] sendTypes = {anInt, anInt, anInt};
            // from each peer me + 1 ints, spread out one int apart (every other int of recv)
            Datatype spread = Datatype.vector(me + 1, 1, 2, anInt);
            int[] recv = new int[3 * 2 * (me + 1)];
            Arrays.fill(recv, -1);
            int[] recvCounts = {1, 1, 1};
            long[] recvDispls = new long[n];
            for (int p = 0; p < n; p++) {
                recvDispls[p] = (long) p * 2 * (me + 1) * Integer.BYTES;
            }
            w.alltoallw(send, sendCounts, sendDispls, sendTypes, recv, recvCounts, recvDispls, new Datatype[] {spread, spread, spread});
            String said = Arrays.toString(recv);
            try {
                // rank 0 says it sends rank 1 three ints; rank 1 expects two
                int[] wrong = me == 0 ? new int[] {1, 3, 3} : sendCounts;
                w.alltoallw(send, wrong, sendDispls, sendTypes, recv, recvCounts, recvDispls, new Datatype[] {spread, spread, spread});
                return said + " accepted";
            } catch (CommException e) {
                return said + " refused: " + e.getMessage();
            }
        });
        assertThat(got.get(0)).startsWith("[0, -1, 10, -1, 20, -1] accepted");
        assertThat(got.get(1)).isEqualTo("[1, -1, 2, -1, 11, -1, 12, -1, 21, -1, 22, -1] refused: alltoallv: rank 0 sent 12 bytes"
                + " where 8 were expected; the ranks called it with different counts");
        assertThat(got.get(2)).startsWith("[3, -1, 4, -1, 5, -1, 13, -1, 14, -1, 15, -1, 23, -1, 24, -1, 25, -1] accepted");
    }

    /**
     * Reductions on a derived datatype of one primitive type: a matrix's middle column summed
     * into the middle column of each rank's result (the other columns untouched), scanned and
     * exscanned (rank 0's left as it was); a type mixing ints and doubles refused.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void reductionsCombineATypesValuesInPlace(boolean shm) throws Exception {
        Datatype middle = Datatype.vector(3, 1, 3, Datatype.of(Elem.DOUBLE));
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            double[] matrix = new double[9];
            Arrays.setAll(matrix, i -> 100 * me + i);
            java.lang.foreign.MemorySegment from = java.lang.foreign.MemorySegment.ofArray(matrix).asSlice(Double.BYTES);
            double[] sum = new double[9];
            Arrays.fill(sum, -1);
            w.allreduce(from, java.lang.foreign.MemorySegment.ofArray(sum).asSlice(Double.BYTES), 1, middle, Op.SUM);
            double[] prefix = new double[9];
            Arrays.fill(prefix, -1);
            w.scan(matrix, prefix, 1, middle, Op.MAX);
            double[] before = new double[9];
            Arrays.fill(before, -1);
            w.exscan(matrix, before, 1, middle, Op.SUM);
            double[] atRoot = new double[9];
            w.reduce(matrix, me == 2 ? atRoot : null, 1, middle, Op.MIN, 2);
            String refused;
            try {
                Datatype mixed = Datatype.struct(new int[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.of(Elem.DOUBLE),
                        Datatype.of(Elem.INT)});
                w.allreduce(new byte[16], new byte[16], 1, mixed, Op.SUM);
                refused = "accepted";
            } catch (IllegalArgumentException e) {
                refused = e.getMessage();
            }
            return Arrays.toString(sum) + " " + Arrays.toString(prefix) + " " + Arrays.toString(before)
                    + (me == 2 ? " " + Arrays.toString(atRoot) : "") + " | " + refused;
        });
        String sum = "[-1.0, 303.0, -1.0, -1.0, 312.0, -1.0, -1.0, 321.0, -1.0]";
        String refused = " | allreduce: the datatype mixes primitive types; a reduction combines values of one type";
        assertThat(got).containsExactly(
                sum + " [0.0, -1.0, -1.0, 3.0, -1.0, -1.0, 6.0, -1.0, -1.0] [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0]"
                        + refused,
                sum + " [100.0, -1.0, -1.0, 103.0, -1.0, -1.0, 106.0, -1.0, -1.0] [0.0, -1.0, -1.0, 3.0, -1.0, -1.0, 6.0, -1.0, -1.0]"
                        + refused,
                sum + " [200.0, -1.0, -1.0, 203.0, -1.0, -1.0, 206.0, -1.0, -1.0] [100.0, -1.0, -1.0, 106.0, -1.0, -1.0, 112.0, -1.0,"
                        + " -1.0] [0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 6.0, 0.0, 0.0]" + refused);
    }

    /** Counts whose packed total passes what one Java array holds are refused with the limit named, before anything is sent. */
    @org.junit.jupiter.api.Test
    void aPackedTotalPastTwoGibIsRefused() throws Exception {
        List<String> got = VectorCollectivesTest.run(2, true, w -> {
            Datatype huge = Datatype.resized(Datatype.of(Elem.BYTE), 0, 0); // every element on the same byte: spans 1 byte
            try {
                w.alltoallw(new byte[1], new int[] {Integer.MAX_VALUE, 1}, new long[] {0, 0}, new Datatype[] {huge, huge},
                        new byte[1], new int[] {1, 1}, new long[] {0, 0}, new Datatype[] {huge, huge});
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(got).containsOnly("alltoallw: 2147483648 bytes to stage packed; packed data is limited to 2 GiB (a Java array)");
    }

    /**
     * The non-blocking forms of the datatype and (offset, count) collectives: started together,
     * awaited in another order, each with the blocking form's result; a part past its array
     * refused through the request on every rank.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void nonBlockingFormsOfTypedAndPartCollectives(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            double[] matrix = new double[9];
            Arrays.setAll(matrix, i -> 100 * me + i);
            double[] column = new double[9];
            Request a = w.iallreduce(matrix, column, 1, Datatype.vector(3, 1, 3, Datatype.of(Elem.DOUBLE)), Op.SUM);
            double[] gathered = new double[9];
            Request b = w.igatherv(new double[] {me, me, me}, 3, Datatype.of(Elem.DOUBLE), me == 0 ? gathered : null,
                    new int[] {1, 1, 1}, new int[] {0, 1, 2}, COLUMN, 0);
            float[] part = {-1, -1, -1};
            if (me == 1) {
                part[1] = 7.5f;
            }
            Request c = w.ibcast(part, 1, 1, 1);
            long[] prefix = new long[4];
            Request d = w.iscan(new long[] {9, me + 1}, 1, prefix, 2, 1, Op.SUM);
            Request.awaitAll(d, c, b, a);
            Request bad = w.iallreduce(new int[2], 1, new int[2], 0, 2, Op.SUM);
            String refused;
            try {
                bad.await();
                refused = "accepted";
            } catch (IllegalArgumentException e) {
                refused = e.getMessage();
            }
            return column[0] + "," + column[3] + "," + column[6] + " " + (me == 0 ? Arrays.toString(gathered) + " " : "")
                    + part[1] + " " + prefix[2] + " | " + refused;
        });
        assertThat(got).containsExactly(
                "300.0,309.0,318.0 [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0] 7.5 1 | elements 1 to 3 are outside an array of 2",
                "300.0,309.0,318.0 7.5 3 | elements 1 to 3 are outside an array of 2",
                "300.0,309.0,318.0 7.5 6 | elements 1 to 3 are outside an array of 2");
    }
}
