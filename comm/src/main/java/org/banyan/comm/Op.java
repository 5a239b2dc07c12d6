package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * A reduction: {@code inout[i] = in[i] op inout[i]} over {@code count} elements, where {@code in}
 * holds the lower ranks' part (MPI's MPI_User_function order). Non-commutative operations are
 * reduced in rank order by an algorithm that keeps it.
 */
public interface Op {
    void combine(Elem type, MemorySegment in, MemorySegment inout, int count);

    default boolean commutative() {
        return true;
    }

    /**
     * How many consecutive elements it combines as one (2 for {@link #MINLOC} and
     * {@link #MAXLOC}'s pairs): no collective splits them between ranks.
     */
    default int unit() {
        return 1;
    }

    /** MPI_Reduce_local: {@code inout[i] = in[i] op inout[i]} here, with no communication; arrays of one length. */
    default void reduceLocal(double[] in, double[] inout) {
        local(Elem.DOUBLE, MemorySegment.ofArray(in), in.length, MemorySegment.ofArray(inout), inout.length);
    }

    /** As {@link #reduceLocal(double[], double[])}. */
    default void reduceLocal(float[] in, float[] inout) {
        local(Elem.FLOAT, MemorySegment.ofArray(in), in.length, MemorySegment.ofArray(inout), inout.length);
    }

    /** As {@link #reduceLocal(double[], double[])}. */
    default void reduceLocal(long[] in, long[] inout) {
        local(Elem.LONG, MemorySegment.ofArray(in), in.length, MemorySegment.ofArray(inout), inout.length);
    }

    /** As {@link #reduceLocal(double[], double[])}. */
    default void reduceLocal(int[] in, int[] inout) {
        local(Elem.INT, MemorySegment.ofArray(in), in.length, MemorySegment.ofArray(inout), inout.length);
    }

    /** As {@link #reduceLocal(double[], double[])}. */
    default void reduceLocal(byte[] in, byte[] inout) {
        local(Elem.BYTE, MemorySegment.ofArray(in), in.length, MemorySegment.ofArray(inout), inout.length);
    }

    /** MPI_Reduce_local on {@code count} elements of {@code type} in two segments. */
    default void reduceLocal(MemorySegment in, MemorySegment inout, Elem type, int count) {
        long bytes = (long) count * type.bytes();
        if (count < 0 || in.byteSize() < bytes || inout.byteSize() < bytes) {
            throw new IllegalArgumentException("reduceLocal: " + count + " elements of " + type + " do not fit the buffers ("
                    + in.byteSize() + " and " + inout.byteSize() + " bytes)");
        }
        local(type, in, count, inout, count);
    }

    private void local(Elem type, MemorySegment in, int inCount, MemorySegment inout, int inoutCount) {
        if (inCount != inoutCount) {
            throw new IllegalArgumentException("reduceLocal: " + inCount + " elements in, " + inoutCount + " in and out");
        }
        if (inCount % unit() != 0) {
            throw new IllegalArgumentException("reduceLocal: " + this + " takes (value, index) pairs: an even number of elements, not "
                    + inCount);
        }
        combine(type, in, inout, inCount);
    }

    Op SUM = numeric("SUM", Arithmetic.SUM, Long::sum, Double::sum);
    Op PROD = numeric("PROD", Arithmetic.PROD, (a, b) -> a * b, (a, b) -> a * b);
    Op MAX = numeric("MAX", Arithmetic.MAX, Math::max, Math::max);
    Op MIN = numeric("MIN", Arithmetic.MIN, Math::min, Math::min);
    /** Logical and, or, exclusive or (MPI_LAND, LOR, LXOR): 0 is false, anything else true; integral types only. */
    Op LAND = integral("LAND", (a, b) -> (a != 0 && b != 0) ? 1 : 0);
    Op LOR = integral("LOR", (a, b) -> (a != 0 || b != 0) ? 1 : 0);
    Op LXOR = integral("LXOR", (a, b) -> ((a != 0) ^ (b != 0)) ? 1 : 0);
    /** Bitwise and, or, exclusive or (MPI_BAND, BOR, BXOR); integral types only. */
    Op BAND = integral("BAND", (a, b) -> a & b);
    Op BOR = integral("BOR", (a, b) -> a | b);
    Op BXOR = integral("BXOR", (a, b) -> a ^ b);
    /**
     * MPI_MINLOC and MPI_MAXLOC on (value, index) pairs laid out one after the other in the
     * buffer (value, index, value, index...; both of the buffer's type): the smaller (larger) value
     * with its index, of equal values the smaller index.
     */
    Op MINLOC = new LocatedOp(false);
    Op MAXLOC = new LocatedOp(true);

    /** The incoming value replaces the other (MPI_REPLACE, for accumulate). */
    Op REPLACE = new Op() {
        @Override
        public void combine(Elem type, MemorySegment in, MemorySegment inout, int count) {
            MemorySegment.copy(in, 0, inout, 0, (long) count * type.bytes());
        }

        @Override
        public boolean commutative() {
            return false;
        }

        @Override
        public String toString() {
            return "REPLACE";
        }
    };

    /** A user-defined operation on doubles. */
    static Op ofDoubles(DoubleBinaryOperator f, boolean commutative) {
        return new Typed(Elem.DOUBLE, commutative) {
            @Override
            void element(MemorySegment in, MemorySegment inout, long off) {
                inout.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, off,
                        f.applyAsDouble(in.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, off), inout.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, off)));
            }
        };
    }

    /** A user-defined operation on longs. */
    static Op ofLongs(LongBinaryOperator f, boolean commutative) {
        return new Typed(Elem.LONG, commutative) {
            @Override
            void element(MemorySegment in, MemorySegment inout, long off) {
                inout.set(ValueLayout.JAVA_LONG_UNALIGNED, off,
                        f.applyAsLong(in.get(ValueLayout.JAVA_LONG_UNALIGNED, off), inout.get(ValueLayout.JAVA_LONG_UNALIGNED, off)));
            }
        };
    }

    /** A user-defined operation on ints. */
    static Op ofInts(IntBinaryOperator f, boolean commutative) {
        return new Typed(Elem.INT, commutative) {
            @Override
            void element(MemorySegment in, MemorySegment inout, long off) {
                inout.set(ValueLayout.JAVA_INT_UNALIGNED, off,
                        f.applyAsInt(in.get(ValueLayout.JAVA_INT_UNALIGNED, off), inout.get(ValueLayout.JAVA_INT_UNALIGNED, off)));
            }
        };
    }

    /** An operation MPI defines on integers only: on FLOAT or DOUBLE it is refused, as MPI refuses MPI_BAND on MPI_DOUBLE. */
    private static Op integral(String name, LongBinaryOperator f) {
        return numeric(name, -1, f, (a, b) -> {
            throw new CommException(name + " is defined on integral values (BYTE, INT, LONG), not on floating ones");
        });
    }

    /** @param loops the {@link Arithmetic} loops of the operation, or -1 for the element-wise ones below */
    private static Op numeric(String name, int loops, LongBinaryOperator integral, DoubleBinaryOperator floating) {
        return new Op() {
            @Override
            public void combine(Elem type, MemorySegment in, MemorySegment inout, int count) {
                if (loops >= 0 && Arithmetic.combine(loops, type, in, inout, count)) {
                    return;
                }
                switch (type) {
                    case BYTE -> {
                        for (long i = 0; i < count; i++) {
                            inout.set(ValueLayout.JAVA_BYTE, i, (byte) integral.applyAsLong(in.get(ValueLayout.JAVA_BYTE, i),
                                    inout.get(ValueLayout.JAVA_BYTE, i)));
                        }
                    }
                    case INT -> {
                        for (long o = 0; o < 4L * count; o += 4) {
                            inout.set(ValueLayout.JAVA_INT_UNALIGNED, o, (int) integral.applyAsLong(
                                    in.get(ValueLayout.JAVA_INT_UNALIGNED, o), inout.get(ValueLayout.JAVA_INT_UNALIGNED, o)));
                        }
                    }
                    case LONG -> {
                        for (long o = 0; o < 8L * count; o += 8) {
                            inout.set(ValueLayout.JAVA_LONG_UNALIGNED, o, integral.applyAsLong(
                                    in.get(ValueLayout.JAVA_LONG_UNALIGNED, o), inout.get(ValueLayout.JAVA_LONG_UNALIGNED, o)));
                        }
                    }
                    case FLOAT -> {
                        for (long o = 0; o < 4L * count; o += 4) {
                            inout.set(ValueLayout.JAVA_FLOAT_UNALIGNED, o, (float) floating.applyAsDouble(
                                    in.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o), inout.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o)));
                        }
                    }
                    case DOUBLE -> {
                        for (long o = 0; o < 8L * count; o += 8) {
                            inout.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, o, floating.applyAsDouble(
                                    in.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o), inout.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o)));
                        }
                    }
                }
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    /** A user operation on one element type. */
    abstract class Typed implements Op {
        private final Elem type;
        private final boolean commutative;

        Typed(Elem type, boolean commutative) {
            this.type = type;
            this.commutative = commutative;
        }

        abstract void element(MemorySegment in, MemorySegment inout, long offset);

        @Override
        public void combine(Elem t, MemorySegment in, MemorySegment inout, int count) {
            if (t != type) {
                throw new CommException("this operation combines " + type + " values, not " + t);
            }
            int w = type.bytes();
            for (long o = 0; o < (long) w * count; o += w) {
                element(in, inout, o);
            }
        }

        @Override
        public boolean commutative() {
            return commutative;
        }
    }
}
