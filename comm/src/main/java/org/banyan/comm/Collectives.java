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
 * The reductions (reduce, scan, allreduce, reduce_scatter) are {@link Reductions}, on this
 * class's plumbing.
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

    final Comm c;
    private final int ctx;
    final int me;
    final int n;
    private int[] others;

    Collectives(Comm c) {
        this.c = c;
        this.ctx = c.context + 1;
        this.me = c.rank;
        this.n = c.group.length;
    }

    // ---- plumbing

    Request send(MemorySegment data, int to, int tag) {
        return c.sendInternal(data, to, tag, ctx, Engine.Traffic.INTERNAL);
    }

    Request recv(MemorySegment buffer, int from, int tag) {
        c.checkOpen();
        return c.engine.receive(ctx, from, tag, buffer);
    }

    /** Receives exactly {@code buffer}'s size: a shorter message means the ranks disagree on sizes. */
    void recvExactly(MemorySegment buffer, int from, int tag, String op) {
        checkSize(recv(buffer, from, tag).await(), buffer.byteSize(), from, op);
    }

    void exchange(MemorySegment out, int to, MemorySegment in, int from, int tag, String op) {
        Request s = send(out, to, tag);
        Request r = recv(in, from, tag);
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

    int[] others() {
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

    void monitor(Monitor.Shape shape, int[] worldPeers, long bytesEach) {
        c.engine.monitor.collective(c.name, c.group, shape, worldPeers, bytesEach);
    }

    /**
     * A zeroed buffer of {@code bytes} held in an array of the element type: {@link Arithmetic}
     * combines into and out of such arrays in place, where a byte array had to be copied to one
     * and back at every combine.
     */
    static MemorySegment scratch(Elem type, long bytes) {
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

    static MemorySegment copyOf(Elem type, MemorySegment s) {
        MemorySegment t = scratch(type, s.byteSize());
        MemorySegment.copy(s, 0, t, 0, s.byteSize());
        return t;
    }

    static int lowBit(int x) {
        return x & -x;
    }

    static int pof2AtLeast(int x) {
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
