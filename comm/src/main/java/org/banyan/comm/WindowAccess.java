package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A window's one-sided operations on every buffer type ({@link Window} extends it): put, get,
 * accumulate and get-accumulate with their request forms, on byte, int, long, float and double
 * arrays, {@link ByteBuffer}s (position to limit, their values' {@link Elem} named where an
 * array's type says it) and memory segments; fetch-and-op and compare-and-swap of one value of
 * each primitive type. Offsets are in bytes of the target's window, whatever the buffer.
 */
public abstract sealed class WindowAccess permits WindowTypedAccess {
    WindowAccess() {}

    /** Writes {@code data} at byte {@code offset} of {@code target}'s window. */
    public abstract void put(MemorySegment data, int target, long offset);

    /** MPI_Rput: as {@link #put}, and the request is done once the target has written the data. */
    public abstract Request rput(MemorySegment data, int target, long offset);

    /** Reads {@code into.byteSize()} bytes at {@code offset} of {@code target}'s window; {@code into} is filled by the epoch's end. */
    public abstract void get(MemorySegment into, int target, long offset);

    /** MPI_Rget: as {@link #get}, and the request is done once {@code into} is filled. */
    public abstract Request rget(MemorySegment into, int target, long offset);

    /** Combines {@code data} into {@code target}'s window at {@code offset}: window = data op window. */
    public abstract void accumulate(MemorySegment data, Elem type, Op op, int target, long offset);

    /** MPI_Raccumulate: as {@link #accumulate}, and the request is done once the target has combined the data. */
    public abstract Request raccumulate(MemorySegment data, Elem type, Op op, int target, long offset);

    /**
     * MPI_Get_accumulate: {@code result} gets the target's values at {@code offset}, and
     * {@code data} is then combined into them, atomically with respect to other accumulates;
     * {@link Window#NO_OP} only fetches, {@link Op#REPLACE} swaps. {@code result} is filled by the
     * epoch's end (flush, unlock, fence, complete).
     */
    public abstract void getAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset);

    /** MPI_Rget_accumulate: as {@link #getAccumulate}, and the request is done once {@code result} is filled. */
    public abstract Request rgetAccumulate(MemorySegment data, MemorySegment result, Elem type, Op op, int target, long offset);

    /**
     * MPI_Compare_and_swap on one value of {@code type}: where the target holds {@code compare},
     * it now holds {@code swap}; {@code result} gets the value before either way (by the epoch's end).
     */
    public abstract void compareAndSwap(MemorySegment swap, MemorySegment compare, MemorySegment result, Elem type, int target,
                                        long offset);

    /** MPI_Win_attach on a dynamic window ({@link Window#createDynamic}): {@code part} exposed; the address others reach it at. */
    public abstract long attach(MemorySegment part);

    /** MPI_Win_attach of a byte buffer's position to limit. */
    public long attach(ByteBuffer part) {
        return attach(MemorySegment.ofBuffer(part));
    }

    /** MPI_Fetch_and_op on one value of {@code type}: {@code result} gets the value before (by the epoch's end). */
    public void fetchAndOp(MemorySegment value, MemorySegment result, Elem type, Op op, int target, long offset) {
        if (value.byteSize() != type.bytes()) {
            throw new IllegalArgumentException("fetchAndOp works on one " + type + " value (" + type.bytes() + " bytes)");
        }
        getAccumulate(value, result, type, op, target, offset);
    }

    public void fetchAndOp(ByteBuffer value, ByteBuffer result, Elem type, Op op, int target, long offset) {
        fetchAndOp(MemorySegment.ofBuffer(value), MemorySegment.ofBuffer(result), type, op, target, offset);
    }

    public void compareAndSwap(ByteBuffer swap, ByteBuffer compare, ByteBuffer result, Elem type, int target, long offset) {
        compareAndSwap(MemorySegment.ofBuffer(swap), MemorySegment.ofBuffer(compare), MemorySegment.ofBuffer(result), type, target,
                offset);
    }


    public void put(byte[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    public Request rput(byte[] data, int target, long offset) {
        return rput(MemorySegment.ofArray(data), target, offset);
    }

    public void get(byte[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    public Request rget(byte[] into, int target, long offset) {
        return rget(MemorySegment.ofArray(into), target, offset);
    }

    public void accumulate(byte[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.BYTE, op, target, offset);
    }

    public Request raccumulate(byte[] data, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofArray(data), Elem.BYTE, op, target, offset);
    }

    public void getAccumulate(byte[] data, byte[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.BYTE, op, target, offset);
    }

    public Request rgetAccumulate(byte[] data, byte[] result, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.BYTE, op, target, offset);
    }

    /** MPI_Fetch_and_op on one byte: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(byte value, byte[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new byte[] {value}), MemorySegment.ofArray(result), Elem.BYTE, op, target,
                offset);
    }

    /** Compare-and-swap of one byte: {@code result[0]} gets the value before. */
    public void compareAndSwap(byte swap, byte compare, byte[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new byte[] {swap}), MemorySegment.ofArray(new byte[] {compare}),
                MemorySegment.ofArray(result), Elem.BYTE, target, offset);
    }

    public void put(int[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    public Request rput(int[] data, int target, long offset) {
        return rput(MemorySegment.ofArray(data), target, offset);
    }

    public void get(int[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    public Request rget(int[] into, int target, long offset) {
        return rget(MemorySegment.ofArray(into), target, offset);
    }

    public void accumulate(int[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.INT, op, target, offset);
    }

    public Request raccumulate(int[] data, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofArray(data), Elem.INT, op, target, offset);
    }

    public void getAccumulate(int[] data, int[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.INT, op, target, offset);
    }

    public Request rgetAccumulate(int[] data, int[] result, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.INT, op, target, offset);
    }

    /** MPI_Fetch_and_op on one int: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(int value, int[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new int[] {value}), MemorySegment.ofArray(result), Elem.INT, op, target,
                offset);
    }

    /** Compare-and-swap of one int: {@code result[0]} gets the value before. */
    public void compareAndSwap(int swap, int compare, int[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new int[] {swap}), MemorySegment.ofArray(new int[] {compare}),
                MemorySegment.ofArray(result), Elem.INT, target, offset);
    }

    public void put(long[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    public Request rput(long[] data, int target, long offset) {
        return rput(MemorySegment.ofArray(data), target, offset);
    }

    public void get(long[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    public Request rget(long[] into, int target, long offset) {
        return rget(MemorySegment.ofArray(into), target, offset);
    }

    public void accumulate(long[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.LONG, op, target, offset);
    }

    public Request raccumulate(long[] data, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofArray(data), Elem.LONG, op, target, offset);
    }

    public void getAccumulate(long[] data, long[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.LONG, op, target, offset);
    }

    public Request rgetAccumulate(long[] data, long[] result, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.LONG, op, target, offset);
    }

    /** MPI_Fetch_and_op on one long: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(long value, long[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new long[] {value}), MemorySegment.ofArray(result), Elem.LONG, op, target,
                offset);
    }

    /** Compare-and-swap of one long: {@code result[0]} gets the value before. */
    public void compareAndSwap(long swap, long compare, long[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new long[] {swap}), MemorySegment.ofArray(new long[] {compare}),
                MemorySegment.ofArray(result), Elem.LONG, target, offset);
    }

    public void put(float[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    public Request rput(float[] data, int target, long offset) {
        return rput(MemorySegment.ofArray(data), target, offset);
    }

    public void get(float[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    public Request rget(float[] into, int target, long offset) {
        return rget(MemorySegment.ofArray(into), target, offset);
    }

    public void accumulate(float[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.FLOAT, op, target, offset);
    }

    public Request raccumulate(float[] data, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofArray(data), Elem.FLOAT, op, target, offset);
    }

    public void getAccumulate(float[] data, float[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.FLOAT, op, target, offset);
    }

    public Request rgetAccumulate(float[] data, float[] result, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.FLOAT, op, target, offset);
    }

    /** MPI_Fetch_and_op on one float: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(float value, float[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new float[] {value}), MemorySegment.ofArray(result), Elem.FLOAT, op, target,
                offset);
    }

    /** Compare-and-swap of one float: {@code result[0]} gets the value before. */
    public void compareAndSwap(float swap, float compare, float[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new float[] {swap}), MemorySegment.ofArray(new float[] {compare}),
                MemorySegment.ofArray(result), Elem.FLOAT, target, offset);
    }

    public void put(double[] data, int target, long offset) {
        put(MemorySegment.ofArray(data), target, offset);
    }

    public Request rput(double[] data, int target, long offset) {
        return rput(MemorySegment.ofArray(data), target, offset);
    }

    public void get(double[] into, int target, long offset) {
        get(MemorySegment.ofArray(into), target, offset);
    }

    public Request rget(double[] into, int target, long offset) {
        return rget(MemorySegment.ofArray(into), target, offset);
    }

    public void accumulate(double[] data, Op op, int target, long offset) {
        accumulate(MemorySegment.ofArray(data), Elem.DOUBLE, op, target, offset);
    }

    public Request raccumulate(double[] data, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofArray(data), Elem.DOUBLE, op, target, offset);
    }

    public void getAccumulate(double[] data, double[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.DOUBLE, op, target, offset);
    }

    public Request rgetAccumulate(double[] data, double[] result, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofArray(data), MemorySegment.ofArray(result), Elem.DOUBLE, op, target, offset);
    }

    /** MPI_Fetch_and_op on one double: {@code result[0]} gets the value before (by the epoch's end). */
    public void fetchAndOp(double value, double[] result, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofArray(new double[] {value}), MemorySegment.ofArray(result), Elem.DOUBLE, op, target,
                offset);
    }

    /** Compare-and-swap of one double: {@code result[0]} gets the value before. */
    public void compareAndSwap(double swap, double compare, double[] result, int target, long offset) {
        compareAndSwap(MemorySegment.ofArray(new double[] {swap}), MemorySegment.ofArray(new double[] {compare}),
                MemorySegment.ofArray(result), Elem.DOUBLE, target, offset);
    }

    public void put(ByteBuffer data, int target, long offset) {
        put(MemorySegment.ofBuffer(data), target, offset);
    }

    public Request rput(ByteBuffer data, int target, long offset) {
        return rput(MemorySegment.ofBuffer(data), target, offset);
    }

    public void get(ByteBuffer into, int target, long offset) {
        get(MemorySegment.ofBuffer(into), target, offset);
    }

    public Request rget(ByteBuffer into, int target, long offset) {
        return rget(MemorySegment.ofBuffer(into), target, offset);
    }

    public void accumulate(ByteBuffer data, Elem type, Op op, int target, long offset) {
        accumulate(MemorySegment.ofBuffer(data), type, op, target, offset);
    }

    public Request raccumulate(ByteBuffer data, Elem type, Op op, int target, long offset) {
        return raccumulate(MemorySegment.ofBuffer(data), type, op, target, offset);
    }

    public void getAccumulate(ByteBuffer data, ByteBuffer result, Elem type, Op op, int target, long offset) {
        getAccumulate(MemorySegment.ofBuffer(data), MemorySegment.ofBuffer(result), type, op, target, offset);
    }

    public Request rgetAccumulate(ByteBuffer data, ByteBuffer result, Elem type, Op op, int target, long offset) {
        return rgetAccumulate(MemorySegment.ofBuffer(data), MemorySegment.ofBuffer(result), type, op, target, offset);
    }
}
