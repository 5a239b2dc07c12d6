package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A window's operations on derived datatypes (MPI_Put, Get, Accumulate and their request forms
 * with an origin and a target datatype): {@code count} elements of the origin type, at this
 * rank, to or from {@code targetCount} elements of the target type laid out from byte
 * {@code offset} of the target's window (a column of the target's matrix, its ghost cells). Both
 * sides must carry the same bytes. The origin's data is packed, and the target's layout is sent
 * as one operation per contiguous run of the target type (adjacent runs merged: a contiguous
 * target type is one message, a column of n values n of them), each checked against the target's
 * window before anything is sent; a get's runs land in a staging buffer and are unpacked into
 * place when the last of them is answered. An accumulate's types must be of one primitive type
 * ({@link Datatype#basicType()}), the same both sides; a get-accumulate's result type too, and
 * each of its runs is fetched and combined at the target in one step, as MPI's element-wise
 * atomicity asks.
 */
public abstract sealed class WindowTypedAccess extends WindowAccess permits Window {
    WindowTypedAccess() {}

    abstract Engine engine();

    abstract void put(MemorySegment data, int target, long offset, Operation.OneSided request);

    abstract void accumulate(MemorySegment data, Elem type, Op op, int target, long offset, Operation.OneSided request);

    abstract void get(MemorySegment into, int target, long offset, Operation.OneSided request);

    abstract void getAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset,
                                Operation.OneSided request);

    /** That {@code bytes} at {@code offset} lie within {@code target}'s window (as far as this rank knows it). */
    abstract void check(int target, long offset, long bytes, String what);

    /** MPI_Put on datatypes: {@code count} elements of {@code originType} into {@code targetCount} of {@code targetType} at {@code offset}. */
    public void put(MemorySegment data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        runs(data, count, originType, target, offset, targetCount, targetType, null, null, "put");
    }

    /** MPI_Rput on datatypes: the request is done once every run is written at the target. */
    public Request rput(MemorySegment data, int count, Datatype originType, int target, long offset, int targetCount,
                        Datatype targetType) {
        return runs(data, count, originType, target, offset, targetCount, targetType, null, null, "rput").whole;
    }

    /** MPI_Accumulate on datatypes of one primitive type: each value combined into the target's as {@code op} says. */
    public void accumulate(MemorySegment data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        runs(data, count, originType, target, offset, targetCount, targetType, op, accumulable(originType, targetType),
                "accumulate");
    }

    /** MPI_Raccumulate on datatypes of one primitive type. */
    public Request raccumulate(MemorySegment data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return runs(data, count, originType, target, offset, targetCount, targetType, op, accumulable(originType, targetType),
                "raccumulate").whole;
    }

    /** MPI_Get on datatypes: {@code into}'s {@code count} elements of {@code originType} filled from the target's layout by the epoch's end. */
    public void get(MemorySegment into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        rget(into, count, originType, target, offset, targetCount, targetType);
    }

    /** MPI_Rget on datatypes: the request is done once every run is in and unpacked into {@code into}. */
    public Request rget(MemorySegment into, int count, Datatype originType, int target, long offset, int targetCount,
                        Datatype targetType) {
        originType.check(into, count);
        List<long[]> runs = layout(count, originType, offset, targetCount, targetType, "get");
        checkAll(runs, target, "get");
        MemorySegment staging = Segments.staging(originType.size() * count, "get");
        Operation.OneSided whole = new Operation.OneSided(engine());
        Parts parts = new Parts(runs.size(), whole, () -> originType.unpack(staging, into, count));
        long at = 0;
        for (long[] run : runs) {
            get(staging.asSlice(at, run[1]), target, run[0], new Operation.OneSided(engine(), parts::done));
            at += run[1];
        }
        return whole;
    }

    /**
     * MPI_Get_accumulate on datatypes of one primitive type: the target's values under
     * {@code targetCount} elements of {@code targetType} at {@code offset} are combined with
     * {@code count} elements of {@code originType} as {@code op} says ({@link Window#NO_OP}: left
     * as they are), and what they held before fills {@code resultCount} elements of
     * {@code resultType} in {@code result}, by the epoch's end. All three carry the same bytes.
     */
    public void getAccumulate(MemorySegment data, int count, Datatype originType, MemorySegment result, int resultCount,
                              Datatype resultType, Op op, int target, long offset, int targetCount, Datatype targetType) {
        rgetAccumulate(data, count, originType, result, resultCount, resultType, op, target, offset, targetCount, targetType);
    }

    /** MPI_Rget_accumulate on datatypes: the request is done once every run is answered and unpacked into {@code result}. */
    public Request rgetAccumulate(MemorySegment data, int count, Datatype originType, MemorySegment result, int resultCount,
                                  Datatype resultType, Op op, int target, long offset, int targetCount, Datatype targetType) {
        Elem elem = accumulable(originType, targetType);
        if (resultType.basicType() != elem || resultType.size() * resultCount != originType.size() * count || resultCount < 0) {
            throw new IllegalArgumentException("getAccumulate: the result's " + resultCount + " elements of " + resultType.size()
                    + " bytes of " + resultType.basicType() + " must carry the origin's " + originType.size() * count + " bytes of "
                    + elem);
        }
        resultType.check(result, resultCount);
        List<long[]> runs = layout(count, originType, offset, targetCount, targetType, "getAccumulate");
        checkAll(runs, target, "getAccumulate");
        MemorySegment packed = originType.pack(data, count);
        MemorySegment staging = Segments.staging(packed.byteSize(), "getAccumulate");
        Operation.OneSided whole = new Operation.OneSided(engine());
        Parts parts = new Parts(runs.size(), whole, () -> resultType.unpack(staging, result, resultCount));
        long at = 0;
        for (long[] run : runs) {
            getAccumulate(packed.asSlice(at, run[1]), staging.asSlice(at, run[1]), elem, op, target, run[0],
                    new Operation.OneSided(engine(), parts::done));
            at += run[1];
        }
        return whole;
    }

    private static Elem accumulable(Datatype originType, Datatype targetType) {
        Elem e = originType.basicType();
        if (e == null || e != targetType.basicType()) {
            throw new IllegalArgumentException("accumulate: the datatypes must both be of one primitive type, the same (here "
                    + originType.basicType() + " and " + targetType.basicType() + ")");
        }
        return e;
    }

    /** Sends the packed origin data as one put or accumulate per run of the target's layout. */
    private Parts runs(MemorySegment data, int count, Datatype originType, int target, long offset, int targetCount,
                       Datatype targetType, Op op, Elem elem, String what) {
        List<long[]> runs = layout(count, originType, offset, targetCount, targetType, what);
        checkAll(runs, target, what);
        MemorySegment packed = originType.pack(data, count);
        Operation.OneSided whole = new Operation.OneSided(engine());
        Parts parts = new Parts(runs.size(), whole, null);
        long at = 0;
        for (long[] run : runs) {
            MemorySegment piece = packed.asSlice(at, run[1]);
            Operation.OneSided part = new Operation.OneSided(engine(), parts::done);
            if (op == null) {
                put(piece, target, run[0], part);
            } else {
                accumulate(piece, elem, op, target, run[0], part);
            }
            at += run[1];
        }
        return parts;
    }

    /** Every run checked before the first is sent: from the lowest start to the highest end. */
    private void checkAll(List<long[]> runs, int target, String what) {
        if (!runs.isEmpty()) {
            long low = runs.stream().mapToLong(r -> r[0]).min().getAsLong();
            long high = runs.stream().mapToLong(r -> r[0] + r[1]).max().getAsLong();
            check(target, low, high - low, what);
        }
    }

    /** The target's byte ranges, (window offset, length), in the order the packed data fills them; adjacent ones merged. */
    private static List<long[]> layout(int count, Datatype originType, long offset, int targetCount, Datatype targetType,
                                       String what) {
        if (count < 0 || targetCount < 0 || originType.size() * count != targetType.size() * targetCount) {
            throw new IllegalArgumentException(what + ": " + count + " origin elements of " + originType.size() + " bytes and "
                    + targetCount + " target elements of " + targetType.size() + " must carry the same bytes");
        }
        List<long[]> runs = new ArrayList<>();
        long[] offsets = targetType.runOffsets();
        long[] lengths = targetType.runLengths();
        for (int e = 0; e < targetCount; e++) {
            for (int k = 0; k < offsets.length; k++) {
                long start = offset + e * targetType.extent() + offsets[k];
                long[] last = runs.isEmpty() ? null : runs.getLast();
                if (last != null && last[0] + last[1] == start) {
                    last[1] += lengths[k];
                } else {
                    runs.add(new long[] {start, lengths[k]});
                }
            }
        }
        return runs;
    }

    /** The parts of one operation on datatypes: the whole is done when the last part is (then {@code last} runs), failed when one fails. */
    private static final class Parts {
        final Operation.OneSided whole;
        private final AtomicInteger left;
        private final Runnable last;

        Parts(int n, Operation.OneSided whole, Runnable last) {
            this.whole = whole;
            this.left = new AtomicInteger(n);
            this.last = last;
            if (n == 0) {
                whole.complete();
            }
        }

        void done(RuntimeException failure) {
            if (failure != null) {
                whole.fail(failure);
            } else if (left.decrementAndGet() == 0 && !whole.done) {
                if (last != null) {
                    last.run();
                }
                whole.complete();
            }
        }
    }


    public void put(byte[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(byte[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(byte[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(byte[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(byte[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(byte[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void put(int[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(int[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(int[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(int[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(int[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(int[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void put(long[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(long[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(long[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(long[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(long[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(long[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void put(float[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(float[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(float[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(float[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(float[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(float[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void put(double[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(double[] data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofArray(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(double[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(double[] into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofArray(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(double[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(double[] data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofArray(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void put(ByteBuffer data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        put(MemorySegment.ofBuffer(data), count, originType, target, offset, targetCount, targetType);
    }

    public Request rput(ByteBuffer data, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rput(MemorySegment.ofBuffer(data), count, originType, target, offset, targetCount, targetType);
    }

    public void get(ByteBuffer into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        get(MemorySegment.ofBuffer(into), count, originType, target, offset, targetCount, targetType);
    }

    public Request rget(ByteBuffer into, int count, Datatype originType, int target, long offset, int targetCount, Datatype targetType) {
        return rget(MemorySegment.ofBuffer(into), count, originType, target, offset, targetCount, targetType);
    }

    public void accumulate(ByteBuffer data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                           Datatype targetType) {
        accumulate(MemorySegment.ofBuffer(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public Request raccumulate(ByteBuffer data, int count, Datatype originType, Op op, int target, long offset, int targetCount,
                               Datatype targetType) {
        return raccumulate(MemorySegment.ofBuffer(data), count, originType, op, target, offset, targetCount, targetType);
    }

    public void getAccumulate(byte[] data, int count, Datatype originType, byte[] result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(byte[] data, int count, Datatype originType, byte[] result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }

    public void getAccumulate(int[] data, int count, Datatype originType, int[] result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(int[] data, int count, Datatype originType, int[] result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }

    public void getAccumulate(long[] data, int count, Datatype originType, long[] result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(long[] data, int count, Datatype originType, long[] result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }

    public void getAccumulate(float[] data, int count, Datatype originType, float[] result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(float[] data, int count, Datatype originType, float[] result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }

    public void getAccumulate(double[] data, int count, Datatype originType, double[] result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(double[] data, int count, Datatype originType, double[] result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofArray(data), count, originType, MemorySegment.ofArray(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }

    public void getAccumulate(ByteBuffer data, int count, Datatype originType, ByteBuffer result, int resultCount, Datatype resultType, Op op,
                              int target, long offset, int targetCount, Datatype targetType) {
        getAccumulate(MemorySegment.ofBuffer(data), count, originType, MemorySegment.ofBuffer(result), resultCount, resultType, op, target, offset, targetCount,
                targetType);
    }

    public Request rgetAccumulate(ByteBuffer data, int count, Datatype originType, ByteBuffer result, int resultCount, Datatype resultType,
                                  Op op, int target, long offset, int targetCount, Datatype targetType) {
        return rgetAccumulate(MemorySegment.ofBuffer(data), count, originType, MemorySegment.ofBuffer(result), resultCount, resultType, op, target, offset,
                targetCount, targetType);
    }
}
