package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SUM, PROD, MAX and MIN on every element type they have loops for, over every kind of segment a
 * collective hands them (the user's array, a slice of it, a byte buffer, native memory), against
 * the element-wise definition; and the same loop kept fast and right after it has seen them all.
 */
class ArithmeticTest {
    private static final List<Op> OPS = List.of(Op.SUM, Op.PROD, Op.MAX, Op.MIN);

    /** The kinds of segment holding {@code bytes} bytes, each filled from {@code from}. */
    private static List<MemorySegment> kinds(MemorySegment from, Arena arena) {
        long bytes = from.byteSize();
        MemorySegment ofBytes = MemorySegment.ofArray(new byte[(int) bytes]);
        MemorySegment sliced = MemorySegment.ofArray(new byte[(int) bytes + 24]).asSlice(8, bytes);
        MemorySegment nat = arena.allocate(bytes, 8);
        for (MemorySegment s : List.of(ofBytes, sliced, nat)) {
            MemorySegment.copy(from, 0, s, 0, bytes);
        }
        return List.of(from, ofBytes, sliced, nat);
    }

    @Test
    void doublesLongsIntsAndFloatsCombineAsDefinedWhateverHoldsThem() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 1_003; // not a multiple of any vector width
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 3; round++) {
                for (Op op : OPS) {
                    double[] da = r.doubles(n, -10, 10).toArray();
                    double[] db = r.doubles(n, -10, 10).toArray();
                    long[] la = r.longs(n, -1000, 1000).toArray();
                    long[] lb = r.longs(n, -1000, 1000).toArray();
                    int[] ia = r.ints(n, -1000, 1000).toArray();
                    int[] ib = r.ints(n, -1000, 1000).toArray();
                    for (MemorySegment in : kinds(MemorySegment.ofArray(da), arena)) {
                        for (MemorySegment out : kinds(MemorySegment.ofArray(db.clone()), arena)) {
                            op.combine(Elem.DOUBLE, in, out, n);
                            for (int i = 0; i < n; i++) {
                                double want = switch (op.toString()) {
                                    case "SUM" -> da[i] + db[i];
                                    case "PROD" -> da[i] * db[i];
                                    case "MAX" -> Math.max(da[i], db[i]);
                                    default -> Math.min(da[i], db[i]);
                                };
                                assertThat(out.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i)).as("%s %d", op, i).isEqualTo(want);
                            }
                        }
                    }
                    for (MemorySegment in : kinds(MemorySegment.ofArray(la), arena)) {
                        for (MemorySegment out : kinds(MemorySegment.ofArray(lb.clone()), arena)) {
                            op.combine(Elem.LONG, in, out, n);
                            for (int i = 0; i < n; i++) {
                                long want = switch (op.toString()) {
                                    case "SUM" -> la[i] + lb[i];
                                    case "PROD" -> la[i] * lb[i];
                                    case "MAX" -> Math.max(la[i], lb[i]);
                                    default -> Math.min(la[i], lb[i]);
                                };
                                assertThat(out.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i)).isEqualTo(want);
                            }
                        }
                    }
                    for (MemorySegment in : kinds(MemorySegment.ofArray(ia), arena)) {
                        for (MemorySegment out : kinds(MemorySegment.ofArray(ib.clone()), arena)) {
                            op.combine(Elem.INT, in, out, n);
                            for (int i = 0; i < n; i++) {
                                int want = switch (op.toString()) {
                                    case "SUM" -> ia[i] + ib[i];
                                    case "PROD" -> ia[i] * ib[i];
                                    case "MAX" -> Math.max(ia[i], ib[i]);
                                    default -> Math.min(ia[i], ib[i]);
                                };
                                assertThat(out.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i)).isEqualTo(want);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void onlyTheCountIsCombinedAndASliceOfAnArrayKeepsItsPlace() {
        double[] whole = {1, 2, 3, 4, 5, 6};
        MemorySegment middle = MemorySegment.ofArray(whole).asSlice(16, 24); // 3, 4, 5
        float[] f = {1, 2, 3};
        Op.SUM.combine(Elem.DOUBLE, MemorySegment.ofArray(new double[] {10, 20, 30}), middle, 2);
        Op.MAX.combine(Elem.FLOAT, MemorySegment.ofArray(new float[] {0, 5, 0}), MemorySegment.ofArray(f), 3);
        assertThat(whole).containsExactly(1, 2, 13, 24, 5, 6);
        assertThat(f).containsExactly(1, 5, 3);
    }
}
