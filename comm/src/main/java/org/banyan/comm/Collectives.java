package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The collectives of one communicator, built from point-to-point messages on its second context
 * with one internal tag per operation (members call collectives in the same order, and one
 * sender's messages arrive in order, so the tags need not be unique per call). The algorithm is
 * chosen by size as MPICH chooses: latency-bound trees and recursive doubling for small
 * messages, bandwidth-bound rings and pairwise exchanges for large ones. See docs/comm.md.
 */
final class Collectives {
    static final int BARRIER = 1, BCAST = 2, REDUCE = 3, ALLREDUCE = 4, GATHER = 5, SCATTER = 6, ALLGATHER = 7,
            ALLTOALL = 8, SCAN = 9, REDUCE_SCATTER = 10;
    /** Broadcasts of at least this many bytes to at least 8 ranks scatter then ring-allgather (MPICH's bcast_short_msg_size). */
    static final int BCAST_LONG = 12_288;
    /** Allreduces above this many bytes use the ring (reduce-scatter + allgather) when commutative. */
    static final int ALLREDUCE_LONG = 2_048;
    /** Allgathers of a power-of-two group below this total use recursive doubling, others the ring. */
    static final int ALLGATHER_LONG = 512 * 1024;
    /** Alltoalls with blocks above this size go pairwise, one peer at a time; smaller ones all at once. */
    static final int ALLTOALL_LONG = 32 * 1024;

    private final Comm c;
    private final int ctx;
    private final int me;
    private final int n;
    private int[] others;

    Collectives(Comm c) {
        this.c = c;
        this.ctx = c.context + 1;
        this.me = c.rank;
        this.n = c.group.length;
    }

    // ---- plumbing

    private Request send(MemorySegment data, int to, int tag) {
        return c.sendInternal(data, to, tag, ctx, Engine.Traffic.INTERNAL);
    }

    private Request recv(MemorySegment buffer, int from, int tag) {
        c.checkOpen();
        return c.engine.receive(ctx, from, tag, buffer);
    }

    /** Receives exactly {@code buffer}'s size: a shorter message means the ranks disagree on sizes. */
    private void recvExactly(MemorySegment buffer, int from, int tag, String op) {
        checkSize(recv(buffer, from, tag).await(), buffer.byteSize(), from, op);
    }

    private void exchange(MemorySegment out, int to, MemorySegment in, int from, int tag, String op) {
        Request r = recv(in, from, tag);
        Request s = send(out, to, tag);
        Status st = r.await();
        s.await();
        checkSize(st, in.byteSize(), from, op);
    }

    private static void checkSize(Status s, long expected, int from, String op) {
        if (s.bytes() != expected) {
            throw new CommException(op + ": rank " + from + " sent " + s.bytes() + " bytes where " + expected
                    + " were expected; the ranks called it with different sizes");
        }
    }

    private int[] others() {
        if (others == null) {
            others = new int[n - 1];
            for (int i = 0, j = 0; i < n; i++) {
                if (i != me) {
                    others[j++] = c.group[i];
                }
            }
        }
        return others;
    }

    private void monitor(Monitor.Shape shape, int[] worldPeers, long bytesEach) {
        c.engine.monitor.collective(c.name, c.group, shape, worldPeers, bytesEach);
    }

    /**
     * A zeroed buffer of {@code bytes} held in an array of the element type: {@link Arithmetic}
     * combines into and out of such arrays in place, where a byte array had to be copied to one
     * and back at every combine.
     */
    private static MemorySegment scratch(Elem type, long bytes) {
        int w = type.bytes();
        int len = (int) ((bytes + w - 1) / w);
        MemorySegment s = switch (type) {
            case DOUBLE -> MemorySegment.ofArray(new double[len]);
            case LONG -> MemorySegment.ofArray(new long[len]);
            case INT -> MemorySegment.ofArray(new int[len]);
            case FLOAT -> MemorySegment.ofArray(new float[len]);
            default -> MemorySegment.ofArray(new byte[(int) bytes]);
        };
        return s.asSlice(0, bytes);
    }

    private static MemorySegment copyOf(Elem type, MemorySegment s) {
        MemorySegment t = scratch(type, s.byteSize());
        MemorySegment.copy(s, 0, t, 0, s.byteSize());
        return t;
    }

    private static int lowBit(int x) {
        return x & -x;
    }

    private static int pof2AtLeast(int x) {
        int p = 1;
        while (p < x) {
            p <<= 1;
        }
        return p;
    }

    // ---- barrier: dissemination, ceil(log2 n) rounds

    void barrier() {
        monitor(Monitor.Shape.ALL_TO_ALL, others(), 0);
        MemorySegment none = MemorySegment.NULL; // native and empty: a heap segment here made the
        // library's hot paths bimorphic in programs that send native segments (ping-pong: 0.35 -> 1 µs)
        for (int k = 1; k < n; k <<= 1) {
            exchange(none, (me + k) % n, none, (me - k + n) % n, BARRIER, "barrier");
        }
    }

    // ---- broadcast

    void bcast(MemorySegment buf, int root) {
        c.checkRank(root, "root");
        if (me == root) {
            monitor(Monitor.Shape.ONE_TO_ALL, others(), buf.byteSize());
        }
        if (n == 1) {
            return;
        }
        if (buf.byteSize() >= BCAST_LONG && n >= 8) {
            bcastScatterRing(buf, root);
        } else {
            bcastBinomial(buf, root);
        }
    }

    private void bcastBinomial(MemorySegment buf, int root) {
        int rel = (me - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((rel & mask) != 0) {
                recvExactly(buf, (rel - mask + root) % n, BCAST, "bcast");
                break;
            }
            mask <<= 1;
        }
        List<Request> sends = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (rel + mask < n) {
                sends.add(send(buf, (rel + mask + root) % n, BCAST));
            }
        }
        Request.awaitAll(sends);
    }

    /** Van de Geijn: a binomial scatter of n chunks, then a ring allgather of them. */
    private void bcastScatterRing(MemorySegment buf, int root) {
        int rel = (me - root + n) % n;
        long chunk = (buf.byteSize() + n - 1) / n;
        scatterChunks(buf, rel, root, chunk);
        ringAllgatherChunks(buf, rel, root, chunk, BCAST);
    }

    private static MemorySegment chunks(MemorySegment buf, long chunk, int from, int to) {
        long start = Math.min(buf.byteSize(), from * chunk);
        long end = Math.min(buf.byteSize(), to * chunk);
        return buf.asSlice(start, end - start);
    }

    /** Relative rank r ends with chunk r (and its subtree's chunks on the way down). */
    private void scatterChunks(MemorySegment buf, int rel, int root, long chunk) {
        int mask = rel == 0 ? pof2AtLeast(n) : lowBit(rel);
        if (rel != 0) {
            recvExactly(chunks(buf, chunk, rel, Math.min(rel + mask, n)), (rel - mask + root) % n, BCAST, "bcast");
        }
        List<Request> sends = new ArrayList<>();
        for (int m = mask >> 1; m > 0; m >>= 1) {
            int child = rel + m;
            if (child < n) {
                sends.add(send(chunks(buf, chunk, child, Math.min(child + m, n)), (child + root) % n, BCAST));
            }
        }
        Request.awaitAll(sends);
    }

    /** Everyone holds chunk rel; n - 1 steps around the ring give everyone every chunk. */
    private void ringAllgatherChunks(MemorySegment buf, int rel, int root, long chunk, int tag) {
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int out = ((rel - s) % n + n) % n;
            int in = ((rel - s - 1) % n + n) % n;
            exchange(chunks(buf, chunk, out, out + 1), right, chunks(buf, chunk, in, in + 1), left, tag, "ring");
        }
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
        c.checkRank(root, "root");
        if (me == root && recv.byteSize() < send.byteSize()) {
            throw new IllegalArgumentException("reduce: the root's receive buffer is smaller than the send buffer");
        }
        if (me == root) { // Open MPI's convention: a rooted collective is recorded at its root
            monitor(Monitor.Shape.ALL_TO_ONE, others(), send.byteSize());
        }
        int treeRoot = op.commutative() ? root : 0; // rank order is kept only with the tree rooted at 0
        MemorySegment acc = reduceBinomial(send, type, count, op, treeRoot);
        if (treeRoot != root) {
            if (me == 0) {
                send(acc, root, REDUCE).await();
            } else if (me == root) {
                recvExactly(recv.asSlice(0, send.byteSize()), 0, REDUCE, "reduce");
            }
        } else if (me == root) {
            MemorySegment.copy(acc, 0, recv, 0, send.byteSize());
        }
    }

    /** Binomial tree toward {@code root}: the result at the root, null elsewhere. */
    private MemorySegment reduceBinomial(MemorySegment send, Elem type, int count, Op op, int root) {
        MemorySegment acc = copyOf(type, send);
        MemorySegment in = scratch(type, send.byteSize());
        int rel = (me - root + n) % n;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((rel & mask) == 0) {
                int src = rel | mask;
                if (src < n) {
                    recvExactly(in, (src + root) % n, REDUCE, "reduce");
                    op.combine(type, acc, in, count); // lower ranks' part first
                    MemorySegment t = acc;
                    acc = in;
                    in = t;
                }
            } else {
                send(acc, ((rel & ~mask) + root) % n, REDUCE).await();
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
            prefix = scratch(type, bytes);
            recvExactly(prefix, me - 1, SCAN, inclusive ? "scan" : "exscan");
        }
        MemorySegment through = copyOf(type, send.asSlice(0, bytes)); // ranks 0..me combined
        if (prefix != null) {
            op.combine(type, prefix, through, count); // inout = lower op mine
        }
        if (me < n - 1) {
            send(through, me + 1, SCAN).await();
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
        monitor(Monitor.Shape.ALL_TO_ALL, others(), send.byteSize());
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
        MemorySegment acc = copyOf(type, send);
        MemorySegment in = scratch(type, send.byteSize());
        int pof2 = Integer.highestOneBit(n);
        int rem = n - pof2;
        int newRank;
        if (me < 2 * rem) {
            if (me % 2 == 0) {
                send(acc, me + 1, ALLREDUCE).await();
                newRank = -1;
            } else {
                recvExactly(in, me - 1, ALLREDUCE, "allreduce");
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
                exchange(acc, partner, in, partner, ALLREDUCE, "allreduce");
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
                send(acc, me - 1, ALLREDUCE).await();
            } else {
                recvExactly(acc, me + 1, ALLREDUCE, "allreduce");
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
        MemorySegment tmp = scratch(type, (long) (start[1] - start[0] + 1) * w + (long) (count / n + 1) * w);
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int o = ((me - s) % n + n) % n;
            int i = ((me - s - 1) % n + n) % n;
            MemorySegment outChunk = out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w);
            MemorySegment inChunk = out.asSlice((long) start[i] * w, (long) (start[i + 1] - start[i]) * w);
            MemorySegment t = tmp.asSlice(0, inChunk.byteSize());
            exchange(outChunk, right, t, left, ALLREDUCE, "allreduce");
            op.combine(type, t, inChunk, start[i + 1] - start[i]);
        }
        for (int s = 0; s < n - 1; s++) {
            int o = ((me + 1 - s) % n + n) % n;
            int i = ((me - s) % n + n) % n;
            exchange(out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w), right,
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
            exchange(outChunk, right, inChunk, left, ALLREDUCE, "allreduce");
            op.combine(type, send.asSlice((long) start[i] * w, inChunk.byteSize()), inChunk, start[i + 1] - start[i]);
        }
        for (int s = 0; s < n - 1; s++) { // block me + 1 is whole here; block me, never received above, comes now
            int o = ((me + 1 - s) % n + n) % n;
            int i = ((me - s) % n + n) % n;
            exchange(out.asSlice((long) start[o] * w, (long) (start[o + 1] - start[o]) * w), right,
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
        monitor(Monitor.Shape.ALL_TO_ALL, others(), send.byteSize() / n);
        // A block's partial sum travels the ring, each rank combining its own part into it: a
        // rank sends its own data at the first step, then the sum it made at the step before;
        // two scratch blocks take turns, and the last step, which brings its own block, receives
        // into recv. The send buffer is never copied (a whole copy a call, fresh memory at that,
        // made reduce_scatter slower than allreduce from 512 B on 2 ranks).
        MemorySegment[] turns = n > 2 ? new MemorySegment[] {scratch(type, largest * w), scratch(type, largest * w)} : null;
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        MemorySegment made = null;
        for (int s = 0; s < n - 1; s++) {
            int o = ((me - s - 1) % n + n) % n;
            int i = ((me - s - 2) % n + n) % n; // me at the last step
            long bytes = (long) counts[i] * w;
            MemorySegment in = s == n - 2 ? recv.asSlice(0, bytes) : turns[s % 2].asSlice(0, bytes);
            MemorySegment out = s == 0 ? send.asSlice(start[o] * w, (long) counts[o] * w) : made;
            exchange(out, right, in, left, REDUCE_SCATTER, "reduceScatter");
            op.combine(type, send.asSlice(start[i] * w, bytes), in, counts[i]);
            made = in;
        }
    }

    // ---- gather / scatter: binomial trees over relative ranks

    void gather(MemorySegment send, MemorySegment recv, int root) {
        c.checkRank(root, "root");
        long block = send.byteSize();
        if (me == root && recv.byteSize() < block * n) {
            throw new IllegalArgumentException("gather: the root's receive buffer holds " + recv.byteSize()
                    + " bytes, " + block * n + " are needed (" + n + " ranks × " + block + ")");
        }
        if (me == root) {
            monitor(Monitor.Shape.ALL_TO_ONE, others(), block);
        }
        int rel = (me - root + n) % n;
        int mask = rel == 0 ? pof2AtLeast(n) : lowBit(rel);
        int mine = Math.min(mask, n - rel); // blocks of my subtree, relative order from rel
        MemorySegment tmp = MemorySegment.ofArray(new byte[(int) (block * mine)]);
        MemorySegment.copy(send, 0, tmp, 0, block);
        for (int m = 1; m < mask; m <<= 1) {
            int child = rel + m;
            if (child < n) {
                int blocks = Math.min(m, n - child);
                recvExactly(tmp.asSlice(m * block, blocks * block), (child + root) % n, GATHER, "gather");
            }
        }
        if (rel != 0) {
            send(tmp, (rel - mask + root) % n, GATHER).await();
            return;
        }
        for (int r = 0; r < n; r++) {
            MemorySegment.copy(tmp, r * block, recv, ((r + root) % n) * block, block);
        }
    }

    void scatter(MemorySegment send, MemorySegment recv, int root) {
        c.checkRank(root, "root");
        long block = recv.byteSize();
        if (me == root && send.byteSize() < block * n) {
            throw new IllegalArgumentException("scatter: the root's send buffer holds " + send.byteSize()
                    + " bytes, " + block * n + " are needed (" + n + " ranks × " + block + ")");
        }
        if (me == root) {
            monitor(Monitor.Shape.ONE_TO_ALL, others(), block);
        }
        int rel = (me - root + n) % n;
        int mask = rel == 0 ? pof2AtLeast(n) : lowBit(rel);
        int mine = Math.min(mask, n - rel);
        MemorySegment tmp = MemorySegment.ofArray(new byte[(int) (block * mine)]);
        if (rel == 0) {
            for (int r = 0; r < n; r++) {
                MemorySegment.copy(send, ((r + root) % n) * block, tmp, r * block, block);
            }
        } else {
            recvExactly(tmp, (rel - mask + root) % n, SCATTER, "scatter");
        }
        List<Request> sends = new ArrayList<>();
        for (int m = mask >> 1; m > 0; m >>= 1) {
            int child = rel + m;
            if (child < n) {
                int blocks = Math.min(m, n - child);
                sends.add(send(tmp.asSlice(m * block, blocks * block), (child + root) % n, SCATTER));
            }
        }
        Request.awaitAll(sends);
        MemorySegment.copy(tmp, 0, recv, 0, block);
    }

    // ---- allgather

    void allgather(MemorySegment send, MemorySegment recv) {
        long block = send.byteSize();
        if (recv.byteSize() < block * n) {
            throw new IllegalArgumentException("allgather: the receive buffer holds " + recv.byteSize() + " bytes, "
                    + block * n + " are needed (" + n + " ranks × " + block + ")");
        }
        monitor(Monitor.Shape.ALL_TO_ALL, others(), block);
        MemorySegment.copy(send, 0, recv, me * block, block);
        if (n == 1) {
            return;
        }
        if (Integer.bitCount(n) == 1 && block * n < ALLGATHER_LONG) {
            for (int mask = 1; mask < n; mask <<= 1) {
                int partner = me ^ mask;
                int mineFrom = me & ~(mask - 1);
                int theirsFrom = partner & ~(mask - 1);
                exchange(recv.asSlice(mineFrom * block, mask * block), partner,
                        recv.asSlice(theirsFrom * block, mask * block), partner, ALLGATHER, "allgather");
            }
        } else {
            ringAllgatherChunks(recv.asSlice(0, block * n), me, 0, block, ALLGATHER);
        }
    }

    // ---- alltoall

    void alltoall(MemorySegment send, MemorySegment recv) {
        if (send.byteSize() % n != 0 || recv.byteSize() < send.byteSize()) {
            throw new IllegalArgumentException("alltoall: the send buffer (" + send.byteSize() + " bytes) must be " + n
                    + " equal blocks, and the receive buffer at least as large (" + recv.byteSize() + ")");
        }
        long block = send.byteSize() / n;
        monitor(Monitor.Shape.ALL_TO_ALL, others(), block);
        MemorySegment.copy(send, me * block, recv, me * block, block);
        if (block > ALLTOALL_LONG) {
            for (int i = 1; i < n; i++) {
                int to = (me + i) % n;
                int from = (me - i + n) % n;
                exchange(send.asSlice(to * block, block), to, recv.asSlice(from * block, block), from, ALLTOALL, "alltoall");
            }
            return;
        }
        List<Request> reqs = new ArrayList<>();
        List<Integer> froms = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            int from = (me - i + n) % n;
            reqs.add(recv(recv.asSlice(from * block, block), from, ALLTOALL));
            froms.add(from);
        }
        for (int i = 1; i < n; i++) {
            int to = (me + i) % n;
            reqs.add(send(send.asSlice(to * block, block), to, ALLTOALL));
        }
        for (int i = 0; i < reqs.size(); i++) {
            Status s = reqs.get(i).await();
            if (s != null) { // receives first, then sends (null status)
                checkSize(s, block, froms.get(i), "alltoall");
            }
        }
    }
}
