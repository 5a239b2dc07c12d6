package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The "v" collectives: gatherv, scatterv, allgatherv and alltoallv, each rank's block of its own
 * size at its own displacement (in bytes here; {@link CommCollectives} converts elements). As
 * MPICH's for these: linear at the root for gatherv and scatterv, a ring for allgatherv (n - 1
 * steps, each passing one rank's block on), every pair at once for alltoallv. Every block is
 * sent, empty ones too, so that the ranks' calls stay paired whatever the counts, and every
 * receive checks the size it expected: ranks that disagree on a count get a
 * {@link CommException} naming it instead of a silent shift.
 */
final class VectorCollectives {
    /** Tags on the collective context, after {@link Collectives}'. */
    static final int GATHERV = 20, SCATTERV = 21, ALLGATHERV = 22, ALLTOALLV = 23;

    private final Comm c;
    private final int ctx;
    private final int me;
    private final int n;

    VectorCollectives(Comm c) {
        this.c = c;
        this.ctx = c.context + 1;
        this.me = c.rank;
        this.n = c.group.length;
    }

    private Request send(MemorySegment data, int to, int tag) {
        return c.sendInternal(data, to, tag, ctx, Engine.Traffic.INTERNAL);
    }

    private Request recv(MemorySegment buffer, int from, int tag) {
        c.checkOpen();
        return c.engine.receive(ctx, from, tag, buffer);
    }

    /**
     * Awaits a block's receive and checks it had the size expected: a shorter message and a
     * longer one (which the transport truncates) are both said as the collective's error, naming
     * the sender ({@code who}), not the transport's.
     */
    static Status received(Request r, long expected, String who, String op) {
        Status s;
        long got;
        try {
            s = r.await();
            got = s.bytes();
        } catch (TruncatedException e) {
            s = null;
            got = e.messageBytes();
        }
        if (got != expected) {
            throw new CommException(op + ": " + who + " sent " + got + " bytes where " + expected
                    + " were expected; the ranks called it with different counts");
        }
        return s;
    }

    private int[] others() {
        int[] out = new int[n - 1];
        for (int i = 0, j = 0; i < n; i++) {
            if (i != me) {
                out[j++] = c.group[i];
            }
        }
        return out;
    }

    /** The logical traffic of one operation: {@code bytes[r]} with each other rank r. */
    private void monitor(Monitor.Shape shape, long[] bytes) {
        long[] each = new long[n - 1];
        for (int i = 0, j = 0; i < n; i++) {
            if (i != me) {
                each[j++] = bytes[i];
            }
        }
        c.engine.monitor.collective(c.name, c.group, shape, others(), each);
    }

    private static MemorySegment block(MemorySegment buf, long[] counts, long[] displs, int r) {
        return buf.asSlice(displs[r], counts[r]);
    }

    /** Each rank's {@code send} into the root's {@code recv} at {@code displs[r]}, {@code counts[r]} bytes. */
    void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        c.checkRank(root, "root");
        if (me != root) {
            send(send, root, GATHERV).await();
            return;
        }
        if (send.byteSize() != counts[me]) {
            throw new IllegalArgumentException("gatherv: the root sends " + send.byteSize() + " bytes but its count for itself is "
                    + counts[me]);
        }
        monitor(Monitor.Shape.ALL_TO_ONE, counts);
        List<Request> in = new ArrayList<>();
        List<Integer> from = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (r != me) {
                in.add(recv(block(recv, counts, displs, r), r, GATHERV));
                from.add(r);
            }
        }
        MemorySegment.copy(send, 0, recv, displs[me], counts[me]);
        for (int i = 0; i < in.size(); i++) {
            received(in.get(i), counts[from.get(i)], "rank " + from.get(i), "gatherv");
        }
    }

    /** The root's {@code send} at {@code displs[r]}, {@code counts[r]} bytes, to rank r's {@code recv}. */
    void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        c.checkRank(root, "root");
        if (me != root) {
            received(recv(recv, root, SCATTERV), recv.byteSize(), "rank " + root, "scatterv");
            return;
        }
        if (recv.byteSize() != counts[me]) {
            throw new IllegalArgumentException("scatterv: the root receives " + recv.byteSize() + " bytes but its count for itself is "
                    + counts[me]);
        }
        monitor(Monitor.Shape.ONE_TO_ALL, counts);
        List<Request> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (r != me) {
                out.add(send(block(send, counts, displs, r), r, SCATTERV));
            }
        }
        MemorySegment.copy(send, displs[me], recv, 0, counts[me]);
        Request.awaitAll(out);
    }

    /** Every rank's {@code send} into every rank's {@code recv} at {@code displs[r]}: a ring of n - 1 steps. */
    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        if (send.byteSize() != counts[me]) {
            throw new IllegalArgumentException("allgatherv: rank " + me + " sends " + send.byteSize()
                    + " bytes but its count is " + counts[me]);
        }
        long[] mine = new long[n];
        java.util.Arrays.fill(mine, counts[me]);
        monitor(Monitor.Shape.ALL_TO_ALL, mine);
        MemorySegment.copy(send, 0, recv, displs[me], counts[me]);
        int right = (me + 1) % n;
        int left = (me - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int out = ((me - s) % n + n) % n;
            int in = ((me - s - 1) % n + n) % n;
            Request r = recv(block(recv, counts, displs, in), left, ALLGATHERV);
            Request w = send(block(recv, counts, displs, out), right, ALLGATHERV);
            received(r, counts[in], "rank " + left, "allgatherv");
            w.await();
        }
    }

    /** Block p of {@code send} (sendCounts[p] bytes at sendDispls[p]) to rank p, and rank p's into recv's block p. */
    void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts,
                   long[] recvDispls) {
        monitor(Monitor.Shape.ALL_TO_ALL, sendCounts);
        List<Request> in = new ArrayList<>();
        List<Integer> from = new ArrayList<>();
        List<Request> out = new ArrayList<>();
        for (int k = 1; k < n; k++) { // a different peer first for each rank: no rank is everyone's first
            int p = (me + k) % n;
            in.add(recv(block(recv, recvCounts, recvDispls, p), p, ALLTOALLV));
            from.add(p);
        }
        for (int k = 1; k < n; k++) {
            int p = (me - k + n) % n;
            out.add(send(block(send, sendCounts, sendDispls, p), p, ALLTOALLV));
        }
        if (sendCounts[me] != recvCounts[me]) {
            throw new IllegalArgumentException("alltoallv: rank " + me + " sends itself " + sendCounts[me] + " bytes but expects "
                    + recvCounts[me]);
        }
        MemorySegment.copy(send, sendDispls[me], recv, recvDispls[me], sendCounts[me]);
        for (int i = 0; i < in.size(); i++) {
            received(in.get(i), recvCounts[from.get(i)], "rank " + from.get(i), "alltoallv");
        }
        Request.awaitAll(out);
    }
}
