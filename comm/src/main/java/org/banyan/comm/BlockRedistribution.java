package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * <p>The plan ({@link #plan}) is pure arithmetic and tested alone; {@link #redistribute} runs it.
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
        int me = comm.rank();
        if (Math.max(from, to) > comm.size()) {
            throw new IllegalArgumentException("a redistribution from " + from + " to " + to + " ranks over a communicator of "
                    + comm.size());
        }
        if (me < from && mine.length != blockLength(length, from, me)) {
            throw new IllegalArgumentException("rank " + me + " holds " + mine.length + " elements; its block of " + length
                    + " over " + from + " ranks is " + blockLength(length, from, me));
        }
        double[] result = new double[me < to ? Math.toIntExact(blockLength(length, to, me)) : 0];
        MemorySegment out = MemorySegment.ofArray(result);
        MemorySegment in = me < from ? MemorySegment.ofArray(mine) : MemorySegment.NULL;
        long bytes = ValueLayout.JAVA_DOUBLE.byteSize();
        List<Request> pending = new ArrayList<>();
        for (Piece p : plan(length, from, to)) {
            if (p.toRank() == me && p.fromRank() == me) {
                MemorySegment.copy(in, p.fromOffset() * bytes, out, p.toOffset() * bytes, p.count() * bytes);
            } else if (p.toRank() == me) {
                pending.add(comm.irecv(out.asSlice(p.toOffset() * bytes, p.count() * bytes), p.fromRank(), TAG));
            } else if (p.fromRank() == me) {
                pending.add(comm.isend(in.asSlice(p.fromOffset() * bytes, p.count() * bytes), p.toRank(), TAG));
            }
        }
        Request.awaitAll(pending);
        return result;
    }
}
