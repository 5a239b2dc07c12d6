package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Derived datatypes: what they pack, where they unpack, and messages of them between ranks. */
class DatatypeTest {
    static final Datatype DOUBLE = Datatype.of(Elem.DOUBLE);

    /** Column 1 of a 4 × 5 row-major matrix. */
    @Test
    void aVectorIsAMatrixColumn() {
        double[] m = new double[20];
        for (int i = 0; i < 20; i++) {
            m[i] = i;
        }
        Datatype column = Datatype.vector(4, 1, 5, DOUBLE);
        assertThat(column.size()).isEqualTo(32);
        assertThat(column.extent()).as("MPI's: from the first block's start to the last's end").isEqualTo(8 * 16);
        MemorySegment packed = column.pack(MemorySegment.ofArray(m).asSlice(8), 1);
        assertThat(packed.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED)).containsExactly(1, 6, 11, 16);
        double[] back = new double[20];
        column.unpack(packed, MemorySegment.ofArray(back).asSlice(8), 1);
        assertThat(back[1]).isEqualTo(1);
        assertThat(back[16]).isEqualTo(16);
        assertThat(back[2]).isZero();
    }

    /** A record of an int and a double (with a gap), several in an array, and an indexed pick of them. */
    @Test
    void structsAndIndexedTypesNest() {
        Datatype record = Datatype.struct(new int[] {1, 1}, new long[] {0, 8}, new Datatype[] {Datatype.of(Elem.INT), DOUBLE});
        assertThat(record.size()).isEqualTo(12);
        assertThat(record.extent()).isEqualTo(16);
        MemorySegment three = MemorySegment.ofArray(new byte[48]);
        for (int i = 0; i < 3; i++) {
            three.set(ValueLayout.JAVA_INT_UNALIGNED, 16L * i, 10 + i);
            three.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 16L * i + 8, 0.5 + i);
        }
        Datatype firstAndLast = Datatype.indexed(new int[] {1, 1}, new int[] {0, 2}, record);
        MemorySegment packed = firstAndLast.pack(three, 1);
        assertThat(packed.byteSize()).isEqualTo(24);
        assertThat(packed.get(ValueLayout.JAVA_INT_UNALIGNED, 0)).isEqualTo(10);
        assertThat(packed.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 4)).isEqualTo(0.5);
        assertThat(packed.get(ValueLayout.JAVA_INT_UNALIGNED, 12)).isEqualTo(12);
        assertThat(packed.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 16)).isEqualTo(2.5);
        assertThat(Datatype.contiguous(3, record).size()).isEqualTo(36);
        assertThatThrownBy(() -> record.pack(three, 4)).hasMessage("4 elements of this type span 64 bytes; the buffer has 48");
    }

    /** Rank 0 sends a column of its matrix, rank 1 receives it as a row; then they swap columns with sendrecv. */
    @Test
    void columnsTravelBetweenRanks() throws Exception {
        Datatype column = Datatype.vector(4, 1, 5, DOUBLE);
        List<String> got = LocalJob.run(2, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            double[] m = new double[20];
            for (int i = 0; i < 20; i++) {
                m[i] = w.rank() * 100 + i;
            }
            double[] row = new double[4];
            if (w.rank() == 0) {
                w.send(MemorySegment.ofArray(m).asSlice(2 * 8), 1, column, 1, 0);
            } else {
                w.recv(row, 4, DOUBLE, 0, 0);
            }
            int other = 1 - w.rank();
            // my last column goes to the other's first column, and theirs comes into mine
            w.sendrecv(MemorySegment.ofArray(m).asSlice(4 * 8), 1, column, other, 1, MemorySegment.ofArray(m), 1, column, other, 1);
            return Arrays.toString(row) + " " + m[0] + " " + m[5] + " " + m[15] + " " + m[1];
        });
        assertThat(got).containsExactly("[0.0, 0.0, 0.0, 0.0] 104.0 109.0 119.0 1.0", "[2.0, 7.0, 12.0, 17.0] 4.0 9.0 19.0 101.0");
    }

    /**
     * A field of an array of records by byte stride (hvector), records picked by byte offset
     * (hindexed), and a column resized to one value so that consecutive columns interleave.
     */
    @Test
    void byteStridedAndResizedTypes() {
        MemorySegment records = MemorySegment.ofArray(new byte[5 * 12]); // 5 records of int + double, packed
        for (int i = 0; i < 5; i++) {
            records.set(ValueLayout.JAVA_INT_UNALIGNED, 12L * i, i);
            records.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 12L * i + 4, i + 0.5);
        }
        Datatype doubles = Datatype.hvector(5, 1, 12, DOUBLE);
        MemorySegment packed = doubles.pack(records.asSlice(4), 1);
        assertThat(packed.toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED)).containsExactly(0.5, 1.5, 2.5, 3.5, 4.5);
        assertThat(doubles.extent()).isEqualTo(4 * 12 + 8);
        Datatype picked = Datatype.hindexed(new int[] {1, 1}, new long[] {36, 12}, Datatype.of(Elem.INT));
        assertThat(picked.pack(records, 1).toArray(ValueLayout.JAVA_INT_UNALIGNED)).containsExactly(3, 1);
        double[] m = new double[12]; // 3 × 4, row-major
        for (int i = 0; i < 12; i++) {
            m[i] = i;
        }
        Datatype column = Datatype.resized(Datatype.vector(3, 1, 4, DOUBLE), 0, 8);
        assertThat(column.extent()).isEqualTo(8);
        assertThat(column.lowerBound()).isZero();
        assertThat(column.pack(MemorySegment.ofArray(m), 2).toArray(ValueLayout.JAVA_DOUBLE_UNALIGNED))
                .as("columns 0 and 1, one after the other").containsExactly(0, 4, 8, 1, 5, 9);
        assertThat(Datatype.resized(DOUBLE, -8, 24).lowerBound()).isEqualTo(-8);
        assertThatThrownBy(() -> Datatype.resized(DOUBLE, 0, -8)).hasMessageContaining("negative extent");
        assertThatThrownBy(() -> Datatype.hvector(2, -1, 8, DOUBLE)).hasMessageContaining("hvector of 2 blocks of -1");
    }

    /**
     * Collectives with a datatype on each side: rank 0's 3 × 4 matrix scattered by columns (a
     * column type resized to one value) into plain arrays, scaled, gathered back into columns,
     * allgathered into every rank's matrix, a column broadcast into place, an alltoall into every
     * other slot; a block that does not carry the same bytes both ways is refused. Over shared
     * memory and TCP.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void collectivesMoveDerivedTypesIntoPlace(boolean shm) throws Exception {
        Datatype column = Datatype.resized(Datatype.vector(3, 1, 4, DOUBLE), 0, 8);
        List<String> got = LocalJob.run(4, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            double[] m = new double[12];
            if (w.rank() == 0) {
                for (int i = 0; i < 12; i++) {
                    m[i] = i;
                }
            }
            double[] mine = new double[3];
            w.scatter(m, 1, column, mine, 3, DOUBLE, 0);
            String scattered = Arrays.toString(mine);
            for (int i = 0; i < 3; i++) {
                mine[i] *= 10;
            }
            double[] back = w.rank() == 0 ? new double[12] : null;
            w.gather(mine, 3, DOUBLE, back, 1, column, 0);
            double[] everyone = new double[12];
            w.allgather(mine, 3, DOUBLE, everyone, 1, column);
            double[] bcastInto = w.rank() == 0 ? m.clone() : new double[12];
            w.bcast(MemorySegment.ofArray(bcastInto).asSlice(2 * 8), 1, Datatype.vector(3, 1, 4, DOUBLE), 0);
            double[] send = {w.rank() * 10, w.rank() * 10 + 1, w.rank() * 10 + 2, w.rank() * 10 + 3};
            double[] slots = new double[8];
            w.alltoall(send, 1, DOUBLE, slots, 1, Datatype.resized(DOUBLE, 0, 16));
            assertThatThrownBy(() -> w.scatter(m, 1, column, new double[2], 2, DOUBLE, 0))
                    .hasMessageContaining("a block must carry the same bytes both ways");
            return scattered + " " + (back == null ? "-" : Arrays.toString(back)) + " " + Arrays.toString(everyone) + " "
                    + Arrays.toString(bcastInto) + " " + Arrays.toString(slots);
        });
        String scaled = "[0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 110.0]";
        assertThat(got.get(0)).isEqualTo("[0.0, 4.0, 8.0] " + scaled + " " + scaled
                + " [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0] [0.0, 0.0, 10.0, 0.0, 20.0, 0.0, 30.0, 0.0]");
        assertThat(got.get(2)).isEqualTo("[2.0, 6.0, 10.0] - " + scaled
                + " [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 6.0, 0.0, 0.0, 0.0, 10.0, 0.0] [2.0, 0.0, 12.0, 0.0, 22.0, 0.0, 32.0, 0.0]");
    }

    /** Reductions and scans on memory segments of a named element type, and on float arrays. */
    @Test
    void reductionsOnSegmentsNameTheirElementType() throws Exception {
        List<String> got = LocalJob.run(3, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            MemorySegment mine = java.lang.foreign.Arena.ofAuto().allocate(8); // native memory, two ints
            mine.set(ValueLayout.JAVA_INT, 0, w.rank() + 1);
            mine.set(ValueLayout.JAVA_INT, 4, 10);
            MemorySegment all = MemorySegment.ofArray(new int[2]);
            w.allreduce(mine, all, Elem.INT, Op.SUM);
            MemorySegment max = MemorySegment.ofArray(new int[2]);
            w.reduce(mine, w.rank() == 1 ? max : null, Elem.INT, Op.MAX, 1);
            float[] prefix = new float[1];
            w.scan(new float[] {w.rank() + 0.5f}, prefix, Op.SUM);
            float[] before = {-1};
            w.exscan(new float[] {w.rank() + 0.5f}, before, Op.SUM);
            assertThatThrownBy(() -> w.allreduce(MemorySegment.ofArray(new byte[3]), MemorySegment.ofArray(new byte[4]), Elem.INT, Op.SUM))
                    .hasMessage("allreduce: 3 bytes are not whole INT values");
            return Arrays.toString(all.toArray(ValueLayout.JAVA_INT)) + " " + Arrays.toString(max.toArray(ValueLayout.JAVA_INT)) + " "
                    + prefix[0] + " " + before[0];
        });
        assertThat(got).containsExactly("[6, 30] [0, 0] 0.5 -1.0", "[6, 30] [3, 10] 2.0 0.5", "[6, 30] [0, 0] 4.5 2.0");
    }
}
