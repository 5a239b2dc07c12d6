package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The loops of {@link Op#SUM}, {@link Op#PROD}, {@link Op#MAX} and {@link Op#MIN}, one per
 * operation and element type, on Java arrays. Two things made combining slow before, measured
 * (one JVM, 1 MiB of doubles): the operation was a lambda called per element at a call site
 * that had seen all four, never inlined; and a loop over {@code MemorySegment} accesses that has
 * seen heap segments of two array types and native ones (the user's arrays, byte buffers, shared
 * memory) is recompiled without inlining the accesses: 1,500 µs against 70 µs while it had seen
 * one kind, and 40 µs for the same loop on arrays. So each side is taken as an array of the
 * element type: the user's own when the segment is one (no copy), else a bulk copy, which costs
 * a {@code memcpy} per call instead of a slow access per element.
 */
final class Arithmetic {
    static final int SUM = 0;
    static final int PROD = 1;
    static final int MAX = 2;
    static final int MIN = 3;

    private Arithmetic() {}

    /** Combines {@code count} elements of {@code in} into {@code inout}; false when {@code type} is not one of these loops'. */
    static boolean combine(int op, Elem type, MemorySegment in, MemorySegment inout, int count) {
        switch (type) {
            case DOUBLE -> doubles(op, in, inout, count);
            case LONG -> longs(op, in, inout, count);
            case INT -> ints(op, in, inout, count);
            case FLOAT -> floats(op, in, inout, count);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** The array a segment views and the index it starts at, or -1 when it views no array of that type (aligned). */
    private static int start(MemorySegment s, Class<?> arrayType, int bytes) {
        Object base = s.heapBase().orElse(null);
        return base != null && base.getClass() == arrayType && s.address() % bytes == 0 ? (int) (s.address() / bytes) : -1;
    }

    private static void doubles(int op, MemorySegment in, MemorySegment io, int n) {
        ValueLayout.OfDouble d = ValueLayout.JAVA_DOUBLE_UNALIGNED;
        int ai = start(in, double[].class, 8);
        int bi = start(io, double[].class, 8);
        double[] a = ai >= 0 ? (double[]) in.heapBase().orElseThrow() : new double[n];
        double[] b = bi >= 0 ? (double[]) io.heapBase().orElseThrow() : new double[n];
        if (ai < 0) {
            MemorySegment.copy(in, d, 0, a, 0, n);
            ai = 0;
        }
        if (bi < 0) {
            MemorySegment.copy(io, d, 0, b, 0, n);
        }
        int bo = Math.max(bi, 0);
        switch (op) {
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] += a[ai + i];
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] *= a[ai + i];
                }
            }
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.max(a[ai + i], b[bo + i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.min(a[ai + i], b[bo + i]);
                }
            }
        }
        if (bi < 0) {
            MemorySegment.copy(b, 0, io, d, 0, n);
        }
    }

    private static void longs(int op, MemorySegment in, MemorySegment io, int n) {
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG_UNALIGNED;
        int ai = start(in, long[].class, 8);
        int bi = start(io, long[].class, 8);
        long[] a = ai >= 0 ? (long[]) in.heapBase().orElseThrow() : new long[n];
        long[] b = bi >= 0 ? (long[]) io.heapBase().orElseThrow() : new long[n];
        if (ai < 0) {
            MemorySegment.copy(in, l, 0, a, 0, n);
            ai = 0;
        }
        if (bi < 0) {
            MemorySegment.copy(io, l, 0, b, 0, n);
        }
        int bo = Math.max(bi, 0);
        switch (op) {
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] += a[ai + i];
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] *= a[ai + i];
                }
            }
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.max(a[ai + i], b[bo + i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.min(a[ai + i], b[bo + i]);
                }
            }
        }
        if (bi < 0) {
            MemorySegment.copy(b, 0, io, l, 0, n);
        }
    }

    private static void ints(int op, MemorySegment in, MemorySegment io, int n) {
        ValueLayout.OfInt v = ValueLayout.JAVA_INT_UNALIGNED;
        int ai = start(in, int[].class, 4);
        int bi = start(io, int[].class, 4);
        int[] a = ai >= 0 ? (int[]) in.heapBase().orElseThrow() : new int[n];
        int[] b = bi >= 0 ? (int[]) io.heapBase().orElseThrow() : new int[n];
        if (ai < 0) {
            MemorySegment.copy(in, v, 0, a, 0, n);
            ai = 0;
        }
        if (bi < 0) {
            MemorySegment.copy(io, v, 0, b, 0, n);
        }
        int bo = Math.max(bi, 0);
        switch (op) {
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] += a[ai + i];
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] *= a[ai + i];
                }
            }
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.max(a[ai + i], b[bo + i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.min(a[ai + i], b[bo + i]);
                }
            }
        }
        if (bi < 0) {
            MemorySegment.copy(b, 0, io, v, 0, n);
        }
    }

    private static void floats(int op, MemorySegment in, MemorySegment io, int n) {
        ValueLayout.OfFloat f = ValueLayout.JAVA_FLOAT_UNALIGNED;
        int ai = start(in, float[].class, 4);
        int bi = start(io, float[].class, 4);
        float[] a = ai >= 0 ? (float[]) in.heapBase().orElseThrow() : new float[n];
        float[] b = bi >= 0 ? (float[]) io.heapBase().orElseThrow() : new float[n];
        if (ai < 0) {
            MemorySegment.copy(in, f, 0, a, 0, n);
            ai = 0;
        }
        if (bi < 0) {
            MemorySegment.copy(io, f, 0, b, 0, n);
        }
        int bo = Math.max(bi, 0);
        switch (op) {
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] += a[ai + i];
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] *= a[ai + i];
                }
            }
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.max(a[ai + i], b[bo + i]);
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    b[bo + i] = Math.min(a[ai + i], b[bo + i]);
                }
            }
        }
        if (bi < 0) {
            MemorySegment.copy(b, 0, io, f, 0, n);
        }
    }
}
