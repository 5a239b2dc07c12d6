package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves a block-distributed array from N ranks to M ranks, as a malleable job does around a
 * resize: after an expansion the first N ranks of the new communicator hold the data and all M
 * must; before a shrink all N hold it and the first M must. Block distribution as usual: the
 * first {@code length mod parts} ranks hold one element more. Each element moves once, straight
 * from its old owner to its new one (point-to-point, all at once, then waited for); what a rank
 * keeps is copied, not sent. The seed's factor case (M = N × f or N / f) is one instance.
 *
 * <p>Doubles, longs, ints and floats, rows of a row-major matrix ({@link #redistributeRows}),
 * and any fixed-size element over memory segments, heap or native. The plan ({@link #plan}) is
 * pure arithmetic and tested alone; the {@code redistribute} methods run it.
 */
public final class BlockRedistribution {
    /** The tag the transfers use on the communicator given. */
    public static final int TAG = 24_301;

    /** One piece: {@code count} elements from {@code fromRank}'s old block at {@code fromOffset} to {@code toRank}'s new block at {@code toOffset}. */
    public record Piece(int fromRank, long fromOffset, int toRank, long toOffset, long count) {}

    private BlockRedistribution() {}

    /** The first element of block {@code index} of {@code parts} over {@code length} elements. */
    public static long blockStart(long length, int parts, int index) {
        long q = length / parts;
        long r = length % parts;
        return index * q + Math.min(index, r);
    }

    public static long blockLength(long length, int parts, int index) {
        return blockStart(length, parts, index + 1) - blockStart(length, parts, index);
    }

    /** Every piece that moves (or stays) from the N-block layout to the M-block layout, in order of the array. */
    public static List<Piece> plan(long length, int from, int to) {
        if (from < 1 || to < 1 || length < 0) {
            throw new IllegalArgumentException("a redistribution of " + length + " elements from " + from + " to " + to
                    + " ranks");
        }
        List<Piece> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        long at = 0;
        while (at < length) {
            while (blockStart(length, from, i + 1) <= at) {
                i++;
            }
            while (blockStart(length, to, j + 1) <= at) {
                j++;
            }
            long end = Math.min(blockStart(length, from, i + 1), blockStart(length, to, j + 1));
            out.add(new Piece(i, at - blockStart(length, from, i), j, at - blockStart(length, to, j), end - at));
            at = end;
        }
        return out;
    }

    /**
     * Redistributes {@code length} doubles from the first {@code from} ranks of {@code comm} to
     * its first {@code to} ranks; every rank of {@code comm} calls it. {@code mine} is this
     * rank's old block (ignored on ranks at or above {@code from}); returns its new block (empty
     * on ranks at or above {@code to}).
     */
    public static double[] redistribute(Comm comm, double[] mine, long length, int from, int to) {
        check(comm, mine.length, length, from, to);
        double[] result = new double[newBlock(comm, length, to)];
        redistribute(comm, segment(comm, mine, from), MemorySegment.ofArray(result), length, Double.BYTES, from, to);
        return result;
    }

    /**
     * As {@link #redistribute(Comm, double[], long, int, int)}, into {@code out}, this rank's new
     * block (its length the block's; ignored on ranks at or above {@code to}): memory the caller
     * allocated ahead, whose first touch is then not part of the redistribution.
     */
    public static void redistribute(Comm comm, double[] mine, double[] out, long length, int from, int to) {
        check(comm, mine.length, length, from, to);
        MemorySegment into = comm.rank() < to ? MemorySegment.ofArray(out) : MemorySegment.NULL;
        redistribute(comm, segment(comm, mine, from), into, length, Double.BYTES, from, to);
    }

    /** As {@link #redistribute(Comm, double[], long, int, int)}, for longs. */
    public static long[] redistribute(Comm comm, long[] mine, long length, int from, int to) {
        check(comm, mine.length, length, from, to);
        long[] result = new long[newBlock(comm, length, to)];
        redistribute(comm, segment(comm, mine, from), MemorySegment.ofArray(result), length, Long.BYTES, from, to);
        return result;
    }

    /** As {@link #redistribute(Comm, double[], long, int, int)}, for ints. */
    public static int[] redistribute(Comm comm, int[] mine, long length, int from, int to) {
        check(comm, mine.length, length, from, to);
        int[] result = new int[newBlock(comm, length, to)];
        redistribute(comm, segment(comm, mine, from), MemorySegment.ofArray(result), length, Integer.BYTES, from, to);
        return result;
    }

    /** As {@link #redistribute(Comm, double[], long, int, int)}, for floats. */
    public static float[] redistribute(Comm comm, float[] mine, long length, int from, int to) {
        check(comm, mine.length, length, from, to);
        float[] result = new float[newBlock(comm, length, to)];
        redistribute(comm, segment(comm, mine, from), MemorySegment.ofArray(result), length, Float.BYTES, from, to);
        return result;
    }

    /**
     * A row-major matrix of {@code rows} × {@code columns} doubles distributed by blocks of rows
     * (the 2-D layout of stencils and Jacobi): {@code mine} holds this rank's rows whole; returns
     * its new rows. The rows are the elements of {@link #redistribute(Comm, double[], long, int, int)}.
     */
    public static double[] redistributeRows(Comm comm, double[] mine, long rows, int columns, int from, int to) {
        if (columns < 1) {
            throw new IllegalArgumentException("a matrix of " + columns + " columns");
        }
        fits(comm, from, to);
        double[] result = new double[Math.multiplyExact(newBlock(comm, rows, to), columns)];
        redistribute(comm, segment(comm, mine, from), MemorySegment.ofArray(result), rows, (long) columns * Double.BYTES,
                from, to);
        return result;
    }

    /**
     * A row-major matrix of {@code rows} × {@code columns} doubles distributed by blocks of
     * columns: {@code mine} holds this rank's columns of every row, row-major
     * ({@code rows} × its column count); returns its new columns the same way. A piece of columns
     * is strided on both sides, so it is packed into one message (several when larger than
     * {@link #MESSAGE_BYTES}, cut at rows) and unpacked on arrival.
     */
    public static double[] redistributeColumns(Comm comm, double[] mine, int rows, long columns, int from, int to) {
        if (rows < 1) {
            throw new IllegalArgumentException("a matrix of " + rows + " rows");
        }
        return redistributeBlocks(comm, mine, rows, Math.toIntExact(columns), new int[] {1, from}, new int[] {1, to});
    }

    /**
     * A row-major matrix of {@code rows} × {@code columns} doubles distributed in 2-D blocks over
     * a grid of ranks, from a {@code fromGrid[0]} × {@code fromGrid[1]} grid to a
     * {@code toGrid[0]} × {@code toGrid[1]} one (rank {@code i * gridColumns + j} holds row block
     * i and column block j, each block row-major); every rank of {@code comm} calls it with its
     * block (ignored outside the old grid) and gets its new one (empty outside the new grid).
     * A piece is a rectangle where an old block meets a new one: rows cross the row layouts,
     * columns the column layouts. Pieces are packed into one message (cut at rows past
     * {@link #MESSAGE_BYTES}) and unpacked on arrival.
     */
    public static double[] redistributeBlocks(Comm comm, double[] mine, int rows, int columns, int[] fromGrid, int[] toGrid) {
        if (rows < 1 || columns < 1) {
            throw new IllegalArgumentException("a matrix of " + rows + " × " + columns);
        }
        if (fromGrid.length != 2 || toGrid.length != 2 || fromGrid[0] < 1 || fromGrid[1] < 1 || toGrid[0] < 1
                || toGrid[1] < 1) {
            throw new IllegalArgumentException("grids of ranks are rows × columns, at least 1 × 1: "
                    + java.util.Arrays.toString(fromGrid) + " to " + java.util.Arrays.toString(toGrid));
        }
        int from = Math.multiplyExact(fromGrid[0], fromGrid[1]);
        int to = Math.multiplyExact(toGrid[0], toGrid[1]);
        fits(comm, from, to);
        int me = comm.rank();
        int oldWidth = me < from ? Math.toIntExact(blockLength(columns, fromGrid[1], me % fromGrid[1])) : 0;
        int oldHeight = me < from ? Math.toIntExact(blockLength(rows, fromGrid[0], me / fromGrid[1])) : 0;
        if (me < from && mine.length != (long) oldHeight * oldWidth) {
            throw new IllegalArgumentException("rank " + me + " holds " + mine.length + " elements; its block of " + oldHeight
                    + " × " + oldWidth + " is " + (long) oldHeight * oldWidth);
        }
        int newWidth = me < to ? Math.toIntExact(blockLength(columns, toGrid[1], me % toGrid[1])) : 0;
        int newHeight = me < to ? Math.toIntExact(blockLength(rows, toGrid[0], me / toGrid[1])) : 0;
        double[] result = new double[Math.multiplyExact(newHeight, newWidth)];
        record Incoming(double[] packed, int toRow, int rowCount, int toColumn, int width) {}
        Exchange exchange = new Exchange(comm);
        List<Incoming> incoming = new ArrayList<>();
        List<Piece> columnPieces = plan(columns, fromGrid[1], toGrid[1]);
        for (Piece rp : plan(rows, fromGrid[0], toGrid[0])) {
            for (Piece cp : columnPieces) {
                int source = rp.fromRank() * fromGrid[1] + cp.fromRank();
                int dest = rp.toRank() * toGrid[1] + cp.toRank();
                if (source != me && dest != me) {
                    continue;
                }
                int width = Math.toIntExact(cp.count());
                int height = Math.toIntExact(rp.count());
                int atRow = Math.toIntExact(rp.fromOffset());
                int atColumn = Math.toIntExact(cp.fromOffset());
                int intoRow = Math.toIntExact(rp.toOffset());
                int intoColumn = Math.toIntExact(cp.toOffset());
                if (source == me && dest == me) {
                    for (int r = 0; r < height; r++) {
                        System.arraycopy(mine, (atRow + r) * oldWidth + atColumn, result, (intoRow + r) * newWidth + intoColumn,
                                width);
                    }
                    continue;
                }
                // both sides enumerate pieces alike, and one sender's messages of one tag keep their order
                int rowsPerMessage = (int) Math.max(1, Math.min(height, MESSAGE_BYTES / ((long) width * Double.BYTES)));
                for (int first = 0; first < height; first += rowsPerMessage) {
                    int n = Math.min(rowsPerMessage, height - first);
                    double[] packed = new double[n * width];
                    if (dest == me) {
                        incoming.add(new Incoming(packed, intoRow + first, n, intoColumn, width));
                        exchange.receive(MemorySegment.ofArray(packed), source);
                    } else {
                        for (int r = 0; r < n; r++) {
                            System.arraycopy(mine, (atRow + first + r) * oldWidth + atColumn, packed, r * width, width);
                        }
                        exchange.send(MemorySegment.ofArray(packed), dest);
                    }
                }
            }
        }
        exchange.finish();
        for (Incoming in : incoming) {
            for (int r = 0; r < in.rowCount(); r++) {
                System.arraycopy(in.packed(), r * in.width(), result, (in.toRow() + r) * newWidth + in.toColumn(), in.width());
            }
        }
        return result;
    }

    /**
     * The general form, over memory segments (heap or native): {@code length} elements of
     * {@code elementBytes} bytes each, {@code mine} this rank's old block, {@code out} its new
     * one, both sized by the block layout (ignored on ranks outside {@code from}, respectively
     * {@code to}). Pieces larger than {@link #MESSAGE_BYTES} go as several messages.
     */
    public static void redistribute(Comm comm, MemorySegment mine, MemorySegment out, long length, long elementBytes,
                                    int from, int to) {
        int me = comm.rank();
        if (elementBytes < 1) {
            throw new IllegalArgumentException("elements of " + elementBytes + " bytes");
        }
        if (me < from && mine.byteSize() != blockLength(length, from, me) * elementBytes) {
            throw new IllegalArgumentException("rank " + me + " holds " + mine.byteSize() + " bytes; its block is "
                    + blockLength(length, from, me) * elementBytes);
        }
        if (me < to && out.byteSize() != blockLength(length, to, me) * elementBytes) {
            throw new IllegalArgumentException("rank " + me + " has " + out.byteSize() + " bytes for its new block of "
                    + blockLength(length, to, me) * elementBytes);
        }
        Exchange exchange = new Exchange(comm);
        for (Piece p : plan(length, from, to)) {
            long at = p.fromOffset() * elementBytes;
            long into = p.toOffset() * elementBytes;
            long bytes = p.count() * elementBytes;
            if (p.toRank() == me && p.fromRank() == me) {
                MemorySegment.copy(mine, at, out, into, bytes);
                continue;
            }
            // both sides cut a piece the same way, and one sender's messages of one tag keep their order
            for (long done = 0; done < bytes; done += MESSAGE_BYTES) {
                long n = Math.min(MESSAGE_BYTES, bytes - done);
                if (p.toRank() == me) {
                    exchange.receive(out.asSlice(into + done, n), p.fromRank());
                } else if (p.fromRank() == me) {
                    exchange.send(mine.asSlice(at + done, n), p.toRank());
                }
            }
        }
        exchange.finish();
    }

    /**
     * A redistribution's messages, posted in the order both sides enumerate them, all before any
     * rank waits in {@link #finish}, so none waits for ever. A large piece whose receive is not
     * posted yet waits at its sender (the engine's rendezvous, {@link Rendezvous}) rather than in
     * a buffer of its size at the receiver: fresh memory whose first touch costs more than the
     * copy itself (docs/malleability.md), copied again once the receive comes. (Until the engine
     * had it, this class sent a go-ahead of its own for pieces of a MiB and more.)
     */
    private static final class Exchange {
        private final Comm comm;
        private final List<Request> pending = new ArrayList<>();

        Exchange(Comm comm) {
            this.comm = comm;
        }

        void receive(MemorySegment into, int from) {
            pending.add(comm.irecv(into, from, TAG));
        }

        void send(MemorySegment data, int to) {
            pending.add(comm.isend(data, to, TAG));
        }

        void finish() {
            Request.awaitAll(pending);
        }
    }

    /** The largest message a redistribution sends (an envelope's length is an int). */
    static final long MESSAGE_BYTES = 1L << 30;

    private static void fits(Comm comm, int from, int to) {
        if (Math.max(from, to) > comm.size()) {
            throw new IllegalArgumentException("a redistribution from " + from + " to " + to + " ranks over a communicator of "
                    + comm.size());
        }
    }

    private static void check(Comm comm, int mineLength, long length, int from, int to) {
        fits(comm, from, to);
        int me = comm.rank();
        if (me < from && mineLength != blockLength(length, from, me)) {
            throw new IllegalArgumentException("rank " + me + " holds " + mineLength + " elements; its block of " + length
                    + " over " + from + " ranks is " + blockLength(length, from, me));
        }
    }

    private static int newBlock(Comm comm, long length, int to) {
        return comm.rank() < to ? Math.toIntExact(blockLength(length, to, comm.rank())) : 0;
    }

    private static MemorySegment segment(Comm comm, Object array, int from) {
        if (comm.rank() >= from) {
            return MemorySegment.NULL;
        }
        return switch (array) {
            case double[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not an array of numbers: " + array.getClass());
        };
    }
}
