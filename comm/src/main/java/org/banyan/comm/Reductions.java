package org.banyan.comm;

import static org.banyan.comm.Collectives.ALLREDUCE;
import static org.banyan.comm.Collectives.ALLREDUCE_LONG;
import static org.banyan.comm.Collectives.REDUCE;
import static org.banyan.comm.Collectives.REDUCE_SCATTER;
import static org.banyan.comm.Collectives.SCAN;

import java.lang.foreign.MemorySegment;

/**
 * The collectives that combine (reduce, scan and exscan, allreduce, reduce_scatter) of one
 * communicator, on {@link Collectives}' messages and tags; algorithms chosen by size as there.
 */
final class Reductions {
    private final Collectives k;
    private final int me;
    private final int n;

    Reductions(Collectives k) {
        this.k = k;
        this.me = k.me;
        this.n = k.n;
    }

    // ---- reduce

    /** Refused on every rank before anything is sent: an operation's units (MINLOC's pairs) come whole. */
    private static void whole(Op op, int count, String what) {
        if (count % op.unit() != 0) {
            throw new IllegalArgumentException(what + ": " + op + " takes (value, index) pairs: an even number of elements, not "
                    + count);
        }
    }

    void reduce(MemorySegment send, MemorySegment recv, Elem type, int count, Op op, int root) {
        whole(op, count, "reduce");
        k.c.checkRank(root, "root");
        if (me == root && recv.byteSize() < send.byteSize()) {
            throw new IllegalArgumentException("reduce: the root's receive buffer is smaller than the send buffer");
        }
        if (me == root) { // Open MPI's convention: a rooted collective is recorded at its root
            k.monitor(Monitor.Shape.ALL_TO_ONE, k.others(), send.byteSize());
        }
        int treeRoot = op.commutative() ? root : 0; // rank order is kept only with the tree rooted at 0
        MemorySegment acc = reduceBinomial(send, type, count, op, treeRoot);
        if (treeRoot != root) {
            if (me == 0) {
                k.send(acc, root, REDUCE).await();
            } else if (me == root) {
                k.recvExactly(recv.asSlice(0, send.byteSize()), 0, REDUCE, "reduce");
            }
        } else if (me == root) {
            MemorySegment.copy(acc, 0, recv, 0, send.byteSize());
        }
    }

    /** Binomial tree toward {@code root}: the result at the root, null elsewhere. */
    private MemorySegment reduceBinomial(MemorySegment send, Elem type, int count, Op op, int root) {
        MemorySegment acc = Collectives.copyOf(type, send);
        MemorySegment in = Collectives.scratch(type, send.byteSize());
        int rel = (me - root + n) % n;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((rel & mask) == 0) {
                int src = rel | mask;
                if (src < n) {
                    k.recvExactly(in, (src + root) % n, REDUCE, "reduce");
                    op.combine(type, acc, in, count); // lower ranks' part first
                    MemorySegment t = acc;
                    acc = in;
                    in = t;
                }
            } else {
                k.send(acc, ((rel & ~mask) + root) % n, REDUCE).await();
                return null;
            }
        }
        return acc;
    }

    // ---- scan, exscan: a chain in rank order (the order non-commutative operations need)

    /**
     * MPI_Scan ({@code inclusive}) or MPI_Exscan: rank r gets ranks 0..r's values (0..r-1's)
     * combined in rank order. Rank 0's exscan result is left as it was, as MPI leaves it undefined.
     */
    void scan(MemorySegment send, MemorySegment recv, Elem type, int count, Op op, boolean inclusive) {
        whole(op, count, "scan");
        long bytes = (long) count * type.bytes();
        if (send.byteSize() < bytes || recv.byteSize() < bytes) {
            throw new IllegalArgumentException((inclusive ? "scan" : "exscan") + ": the buffers hold fewer than " + count
                    + " elements");
        }
        MemorySegment prefix = null; // ranks 0..me-1 combined
        if (me > 0) {
            prefix = Collectives.scratch(type, bytes);
            k.recvExactly(prefix, me - 1, SCAN, inclusive ? "scan" : "exscan");
        }
        MemorySegment through = Collectives.copyOf(type, send.asSlice(0, bytes)); // ranks 0..me combined
        if (prefix != null) {
            op.combine(type, prefix, through, count); // inout = lower op mine
        }
        if (me < n - 1) {
            k.send(through, me + 1, SCAN).await();
        }
        if (inclusive) {
            MemorySegment.copy(through, 0, recv, 0, bytes);
        } else if (prefix != null) {
            MemorySegment.copy(prefix, 0, recv, 0, bytes);
        }
    }

    // ---- allreduce

    void allreduce(MemorySegment send, MemorySegment recv, Elem type, int count, Op op) {
        whole(op, count, "allreduce");
        if (recv.byteSize() < send.byteSize()) {
            throw new IllegalArgumentException("allreduce: the receive buffer is smaller than the send buffer");
        }
        k.monitor(Monitor.Shape.ALL_TO_ALL, k.others(), send.byteSize());
        MemorySegment out = recv.asSlice(0, send.byteSize());
        if (n == 1) {
            MemorySegment.copy(send, 0, out, 0, send.byteSize());
        } else if (send.byteSize() > ALLREDUCE_LONG && op.commutative() && op.unit() == 1 && count >= n) { // the ring splits the buffer
            allreduceRing(send, out, type, count, op);
        } else {
            allreduceRecursiveDoubling(send, out, type, count, op);
        }
    }

    /** MPICH's: the first 2·rem ranks pair up so that a power of two remains, which doubles. */
    private void allreduceRecursiveDoubling(MemorySegment send, MemorySegment out, Elem type, int count, Op op) {
        MemorySegment acc = Collectives.copyOf(type, send);
        MemorySegment in = Collectives.scratch(type, send.byteSize());
        int pof2 = Integer.highestOneBit(n);
        int rem = n - pof2;
        int newRank;
        if (me < 2 * rem) {
            if (me % 2 == 0) {
                k.send(acc, me + 1, ALLREDUCE).await();
                newRank = -1;
            } else {
                k.recvExactly(in, me - 1, ALLREDUCE, "allreduce");
                op.combine(type, in, acc, count); // the even (lower) rank's part first
                newRank = me / 2;
            }
        } else {
            newRank = me - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int newPartner = newRank ^ mask;
                int partner = newPartner < rem ? newPartner * 2 + 1 : newPartner + rem;
                k.exchange(acc, partner, in, partner, ALLREDUCE, "allreduce");
                if (partner < me) {
                    op.combine(type, in, acc, count);
                } else {
                    op.combine(type, acc, in, count);
                    MemorySegment t = acc;
                    acc = in;
                    in = t;
                }
            }
        }
        if (me < 2 * rem) {
            if (me % 2 == 1) {
                k.send(acc, me - 1, ALLREDUCE).await();
            } else {
                k.recvExactly(acc, me + 1, ALLREDUCE, "allreduce");
            }
        }
        MemorySegment.copy(acc, 0, out, 0, acc.byteSize());
    }

    /** Ring: n - 1 steps of reduce-scatter, n - 1 of allgather; each rank moves 2·(n-1)/n of the data. */
    private void allreduceRing(MemorySegment send, MemorySegment out, Elem type, int count, Op op) {
        int w = type.bytes();
        int[] start = new int[n + 1];
        for (int i = 0; i <= n; i++) {
            start[i] = (int) ((long) count * i / n);
        }
        if (send.asOverlappingSlice(out).isEmpty()) {
            allreduceRingInto(send, out, w, start, type, op);
            return;
        }
        MemorySegment.copy(send, 0, out, 0, send.byteSize());
        MemorySegment tmp = Collectives.scratch(type, (long) (start[1] - start[0] + 1) * w + (long) (count / n + 1) * w);
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int o = ((me - s) % n + n) % n;
            int i = ((me - s - 1) % n + n) % n;
            MemorySegment outChunk = out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w);
            MemorySegment inChunk = out.asSlice((long) start[i] * w, (long) (start[i + 1] - start[i]) * w);
            MemorySegment t = tmp.asSlice(0, inChunk.byteSize());
            k.exchange(outChunk, right, t, left, ALLREDUCE, "allreduce");
            op.combine(type, t, inChunk, start[i + 1] - start[i]);
        }
        for (int s = 0; s < n - 1; s++) {
            int o = ((me + 1 - s) % n + n) % n;
            int i = ((me - s) % n + n) % n;
            k.exchange(out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w), right,
                    out.asSlice((long) start[i] * w, (long) (start[i + 1] - start[i]) * w), left, ALLREDUCE, "allreduce");
        }
    }

    /**
     * The ring when the result has a buffer of its own: each block's partial sum is received
     * straight into its place in {@code out} and the rank's own part combined into it there, the
     * first step sending from {@code send}; so the send buffer is never copied whole and no
     * scratch is needed (on 2 ranks, 16 MiB: a copy of the whole buffer and a fresh block of
     * scratch each call).
     */
    private void allreduceRingInto(MemorySegment send, MemorySegment out, int w, int[] start, Elem type, Op op) {
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int o = ((me - s) % n + n) % n;
            int i = ((me - s - 1) % n + n) % n;
            MemorySegment from = s == 0 ? send : out;
            MemorySegment outChunk = from.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w);
            MemorySegment inChunk = out.asSlice((long) start[i] * w, (long) (start[i + 1] - start[i]) * w);
            k.exchange(outChunk, right, inChunk, left, ALLREDUCE, "allreduce");
            op.combine(type, send.asSlice((long) start[i] * w, inChunk.byteSize()), inChunk, start[i + 1] - start[i]);
        }
        for (int s = 0; s < n - 1; s++) { // block me + 1 is whole here; block me, never received above, comes now
            int o = ((me + 1 - s) % n + n) % n;
            int i = ((me - s) % n + n) % n;
            k.exchange(out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w), right,
                    out.asSlice((long) start[i] * w, (long) (start[i + 1] - start[i]) * w), left, ALLREDUCE, "allreduce");
        }
    }

    // ---- reduce_scatter

    /**
     * Reduce-scatter by a ring, for commutative operations on single elements: n - 1 steps, each
     * rank sending one block to its right and combining the one from its left into its running
     * sums, so that rank r ends with block r reduced; each rank sends (n-1)/n of the data and
     * combines as much, all at once (a reduction to rank 0 then a scatter sent the whole buffer to
     * one rank, which combined it alone: 13-37 times MPICH's time on 2 ranks from 512 KiB).
     *
     * @param counts elements of each rank's block, in rank order
     */
    void reduceScatterRing(MemorySegment send, MemorySegment recv, Elem type, int[] counts, Op op) {
        int w = type.bytes();
        long[] start = new long[n + 1];
        long largest = 0;
        for (int r = 0; r < n; r++) {
            start[r + 1] = start[r] + counts[r];
            largest = Math.max(largest, counts[r]);
        }
        k.monitor(Monitor.Shape.ALL_TO_ALL, k.others(), send.byteSize() / n);
        // A block's partial sum travels the ring, each rank combining its own part into it: a
        // rank sends its own data at the first step, then the sum it made at the step before;
        // two scratch blocks take turns, and the last step, which brings its own block, receives
        // into recv. The send buffer is never copied (a whole copy a call, fresh memory at that,
        // made reduce_scatter slower than allreduce from 512 B on 2 ranks).
        MemorySegment[] turns = n > 2 ? new MemorySegment[] {Collectives.scratch(type, largest * w), Collectives.scratch(type, largest * w)} : null;
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        MemorySegment made = null;
        for (int s = 0; s < n - 1; s++) {
            int o = ((me - s - 1) % n + n) % n;
            int i = ((me - s - 2) % n + n) % n; // me at the last step
            long bytes = (long) counts[i] * w;
            MemorySegment in = s == n - 2 ? recv.asSlice(0, bytes) : turns[s % 2].asSlice(0, bytes);
            MemorySegment out = s == 0 ? send.asSlice(start[o] * w, (long) counts[o] * w) : made;
            k.exchange(out, right, in, left, REDUCE_SCATTER, "reduceScatter");
            op.combine(type, send.asSlice(start[i] * w, bytes), in, counts[i]);
            made = in;
        }
    }
}
