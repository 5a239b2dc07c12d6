package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * The "v" collectives and reduce-scatter of an intercommunicator (MPI's for intercommunicators):
 * gatherv and scatterv between the root and each rank of the other group, allgatherv and
 * alltoallv between every pair of ranks across the groups, counts and displacements (in bytes
 * here) indexed by the other group's ranks; reduce-scatter reduces each group's vectors within
 * it, the leaders swap the results, and each leader scatters what it got over its own group by
 * that group's counts (the leaders first swap the totals of their groups' counts and tell their
 * groups, so that groups whose totals differ all refuse, none waits). Every receive checks the size it expected, so groups that disagree on a
 * count get a {@link CommException} naming it instead of a silent shift.
 */
final class IntercommVectors {
    /** Tags on the intercommunicator's own context, after {@link IntercommCollectives}'. */
    static final int GATHERV = 49, SCATTERV = 50, ALLGATHERV = 51, ALLTOALLV = 52, REDUCE_SCATTER = 53;

    private final Intercomm ic;

    IntercommVectors(Intercomm ic) {
        this.ic = ic;
    }

    /** The root's {@code recv} gets remote rank j's block at {@code displs[j]}, {@code counts[j]} bytes. */
    void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        if (root == Intercomm.ROOT) {
            int n = ic.remoteSize();
            BufferChecks.vector("gatherv", n, counts, displs, recv == null ? -1 : recv.byteSize());
            Request[] pending = new Request[n];
            for (int j = 0; j < n; j++) {
                pending[j] = ic.internalReceive(recv.asSlice(displs[j], counts[j]), j, GATHERV);
            }
            awaitSizes(pending, counts, "gatherv");
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            ic.internalSend(send, root, GATHERV).await();
        }
    }

    /** Remote rank j's {@code recv} gets {@code counts[j]} bytes of the root's {@code send} from {@code displs[j]}. */
    void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
        if (root == Intercomm.ROOT) {
            int n = ic.remoteSize();
            BufferChecks.vector("scatterv", n, counts, displs, send == null ? -1 : send.byteSize());
            Request[] pending = new Request[n];
            for (int j = 0; j < n; j++) {
                pending[j] = ic.internalSend(send.asSlice(displs[j], counts[j]), j, SCATTERV);
            }
            Request.awaitAll(pending);
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            VectorCollectives.received(ic.internalReceive(recv, root, SCATTERV), recv.byteSize(), "the root", "scatterv");
        }
    }

    /** Every rank's {@code send} to every remote rank; remote rank j's into {@code recv} at {@code displs[j]}. */
    void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        int n = ic.remoteSize();
        BufferChecks.vector("allgatherv", n, counts, displs, recv.byteSize());
        Request[] in = new Request[n];
        Request[] out = new Request[n];
        for (int j = 0; j < n; j++) {
            in[j] = ic.internalReceive(recv.asSlice(displs[j], counts[j]), j, ALLGATHERV);
        }
        for (int j = 0; j < n; j++) {
            out[j] = ic.internalSend(send, j, ALLGATHERV);
        }
        awaitSizes(in, counts, "allgatherv");
        Request.awaitAll(out);
    }

    /** {@code sendCounts[j]} bytes from {@code sendDispls[j]} to remote rank j; its block into {@code recv} at {@code recvDispls[j]}. */
    void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv, long[] recvCounts, long[] recvDispls) {
        int n = ic.remoteSize();
        BufferChecks.vector("alltoallv (send)", n, sendCounts, sendDispls, send.byteSize());
        BufferChecks.vector("alltoallv (receive)", n, recvCounts, recvDispls, recv.byteSize());
        Request[] in = new Request[n];
        Request[] out = new Request[n];
        for (int j = 0; j < n; j++) {
            in[j] = ic.internalReceive(recv.asSlice(recvDispls[j], recvCounts[j]), j, ALLTOALLV);
        }
        for (int j = 0; j < n; j++) {
            out[j] = ic.internalSend(send.asSlice(sendDispls[j], sendCounts[j]), j, ALLTOALLV);
        }
        awaitSizes(in, recvCounts, "alltoallv");
        Request.awaitAll(out);
    }

    /**
     * The reduction of the other group's {@code send}s, rank r of this group getting the next
     * {@code counts[r]} values (counts of this group's ranks, the same on each of them); each
     * rank's {@code send} holds as many values as this group's counts add up to.
     */
    void reduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op) {
        Comm local = ic.local();
        int n = local.size();
        if (counts == null || counts.length != n) {
            throw new IllegalArgumentException("reduceScatter: " + (counts == null ? "no" : counts.length) + " counts for a group of " + n
                    + ": one per rank of this group");
        }
        long total = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("reduceScatter: a count is negative (" + c + ")");
            }
            total += c;
        }
        long bytes = total * type.bytes();
        if (send.byteSize() != bytes) {
            throw new IllegalArgumentException("reduceScatter: the counts add up to " + total + " values, the send buffer holds "
                    + send.byteSize() / type.bytes());
        }
        if (recv.byteSize() != (long) counts[local.rank()] * type.bytes()) {
            throw new IllegalArgumentException("reduceScatter: rank " + local.rank() + " receives " + recv.byteSize() / type.bytes()
                    + " values but its count is " + counts[local.rank()]);
        }
        boolean leader = local.rank() == 0;
        // the leaders swap their groups' totals first, and tell their groups, so that groups whose counts differ all refuse alike
        long[] otherTotal = {0};
        if (leader) {
            MemorySegment theirTotal = MemorySegment.ofArray(otherTotal);
            Request r = ic.internalReceive(theirTotal, 0, REDUCE_SCATTER);
            Request s = ic.internalSend(MemorySegment.ofArray(new long[] {total}), 0, REDUCE_SCATTER);
            Request.awaitAll(r, s);
        }
        local.bcast(otherTotal, 0);
        if (otherTotal[0] != total) {
            throw new CommException("reduceScatter: this group's counts add up to " + total + " values, the other group's to "
                    + otherTotal[0] + "; they must add up to the same");
        }
        MemorySegment mine = leader ? Segments.staging(bytes, "reduceScatter") : null;
        local.red().reduce(send, mine, type, Math.toIntExact(total), op, 0);
        MemorySegment theirs = leader ? Segments.staging(bytes, "reduceScatter") : null;
        if (leader) {
            Request r = ic.internalReceive(theirs, 0, REDUCE_SCATTER);
            Request s = ic.internalSend(mine, 0, REDUCE_SCATTER);
            Request.awaitAll(r, s);
        }
        long[] b = CommVectorCollectives.bytes(counts, type.bytes());
        long[] at = new long[n];
        for (int r = 1; r < n; r++) {
            at[r] = at[r - 1] + b[r - 1];
        }
        local.vcoll().scatterv(theirs, leader ? b : null, leader ? at : null, recv, 0);
    }

    private static void awaitSizes(Request[] pending, long[] expected, String op) {
        for (int j = 0; j < pending.length; j++) {
            VectorCollectives.received(pending[j], expected[j], "remote rank " + j, op);
        }
    }
}
