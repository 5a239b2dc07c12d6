package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * MPI_MINLOC and MPI_MAXLOC: the buffer holds (value, index) pairs of one element type (MPI's
 * MPI_2INT, MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION); each pair keeps the smaller (larger)
 * value with its index, and of equal values the smaller index, so the result says which rank
 * (or element) held the extreme first.
 */
final class LocatedOp implements Op {
    private final boolean max;

    LocatedOp(boolean max) {
        this.max = max;
    }

    @Override
    public void combine(Elem type, MemorySegment in, MemorySegment inout, int count) {
        if (count % 2 != 0) {
            throw new IllegalArgumentException(this + " takes (value, index) pairs: an even number of elements, not " + count);
        }
        int w = type.bytes();
        for (long o = 0; o < (long) w * count; o += 2L * w) {
            int c = compare(type, in, inout, o);
            boolean takeIn = max ? c > 0 : c < 0;
            if (c == 0) {
                takeIn = compare(type, in, inout, o + w) < 0; // equal values: the smaller index
            }
            if (takeIn) {
                MemorySegment.copy(in, o, inout, o, 2L * w);
            }
        }
    }

    /** Sign of in[o] - inout[o], read as {@code type}. */
    private static int compare(Elem type, MemorySegment in, MemorySegment inout, long o) {
        return switch (type) {
            case BYTE -> Byte.compare(in.get(ValueLayout.JAVA_BYTE, o), inout.get(ValueLayout.JAVA_BYTE, o));
            case INT -> Integer.compare(in.get(ValueLayout.JAVA_INT_UNALIGNED, o), inout.get(ValueLayout.JAVA_INT_UNALIGNED, o));
            case LONG -> Long.compare(in.get(ValueLayout.JAVA_LONG_UNALIGNED, o), inout.get(ValueLayout.JAVA_LONG_UNALIGNED, o));
            case FLOAT -> Float.compare(in.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o), inout.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o));
            case DOUBLE -> Double.compare(in.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o), inout.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o));
        };
    }

    @Override
    public int unit() {
        return 2;
    }

    @Override
    public String toString() {
        return max ? "MAXLOC" : "MINLOC";
    }
}
