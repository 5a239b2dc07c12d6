package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * The collective half of a communicator's API ({@link Comm} extends it): barrier, broadcast,
 * reductions and scans, gather, scatter, allgather, all-to-all, and their "v" forms with a count
 * and displacement per rank. Every member calls the same operation in the same order; array
 * forms check their buffers in elements before anything is sent. The algorithms are
 * {@link Collectives}' and {@link VectorCollectives}'.
 */
public abstract sealed class CommCollectives extends CommPointToPoint permits CommTypedCollectives {
    CommCollectives() {}

    /** The communicator these calls run on. */
    abstract Comm self();

    public void barrier() {
        self().coll().barrier();
    }

    public void bcast(byte[] buffer, int root) {
        self().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(int[] buffer, int root) {
        self().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(long[] buffer, int root) {
        self().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(double[] buffer, int root) {
        self().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(float[] buffer, int root) {
        self().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(MemorySegment buffer, int root) {
        self().coll().bcast(buffer, root);
    }

    public void reduce(double[] send, double[] recv, Op op, int root) {
        self().red().reduce(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, Elem.DOUBLE, send.length, op, root);
    }

    public void reduce(long[] send, long[] recv, Op op, int root) {
        self().red().reduce(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, Elem.LONG, send.length, op, root);
    }

    public void reduce(float[] send, float[] recv, Op op, int root) {
        self().red().reduce(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, Elem.FLOAT, send.length,
                op, root);
    }

    public void reduce(int[] send, int[] recv, Op op, int root) {
        self().red().reduce(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, Elem.INT, send.length, op, root);
    }

    /** MPI_Scan: ranks 0..rank()'s values combined in self().rank order. */
    public void scan(double[] send, double[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op, true);
    }

    public void scan(long[] send, long[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op, true);
    }

    public void scan(int[] send, int[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op, true);
    }

    /** MPI_Exscan: ranks 0..rank()-1's values combined in self().rank order; self().rank 0's {@code recv} is left as it was. */
    public void exscan(double[] send, double[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op, false);
    }

    public void exscan(long[] send, long[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op, false);
    }

    public void exscan(int[] send, int[] recv, Op op) {
        self().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op, false);
    }

    public void allreduce(double[] send, double[] recv, Op op) {
        self().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op);
    }

    public void allreduce(long[] send, long[] recv, Op op) {
        self().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op);
    }

    public void allreduce(int[] send, int[] recv, Op op) {
        self().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op);
    }

    public void allreduce(float[] send, float[] recv, Op op) {
        self().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, send.length, op);
    }

    /** Every self().rank's {@code send} to the root's {@code recv}, in self().rank order (recv is ignored elsewhere). */
    public void gather(double[] send, double[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        self().coll().gather(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(int[] send, int[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        self().coll().gather(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(float[] send, float[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        self().coll().gather(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(long[] send, long[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        self().coll().gather(MemorySegment.ofArray(send), self().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(MemorySegment send, MemorySegment recv, int root) {
        self().coll().gather(send, recv, root);
    }

    /** The root's {@code send}, cut in size() equal blocks, one to each self().rank's {@code recv}. */
    public void scatter(double[] send, double[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        self().coll().scatter(self().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(long[] send, long[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        self().coll().scatter(self().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(int[] send, int[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        self().coll().scatter(self().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(float[] send, float[] recv, int root) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        self().coll().scatter(self().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        self().coll().scatter(send, recv, root);
    }

    public void allgather(double[] send, double[] recv) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "allgather", -1, recv.length, send.length);
        self().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(long[] send, long[] recv) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "allgather", -1, recv.length, send.length);
        self().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(float[] send, float[] recv) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "allgather", -1, recv.length, send.length);
        self().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(int[] send, int[] recv) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "allgather", -1, recv.length, send.length);
        self().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(MemorySegment send, MemorySegment recv) {
        self().coll().allgather(send, recv);
    }

    /** Block i of {@code send} to self().rank i; block j of {@code recv} from self().rank j (equal blocks). */
    public void alltoall(double[] send, double[] recv) {
        BufferChecks.equalBlocks(self().group.length, send.length, recv.length);
        self().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(long[] send, long[] recv) {
        BufferChecks.equalBlocks(self().group.length, send.length, recv.length);
        self().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(float[] send, float[] recv) {
        BufferChecks.equalBlocks(self().group.length, send.length, recv.length);
        self().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(int[] send, int[] recv) {
        BufferChecks.equalBlocks(self().group.length, send.length, recv.length);
        self().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(MemorySegment send, MemorySegment recv) {
        self().coll().alltoall(send, recv);
    }


    // ---- reduce-scatter

    /**
     * MPI_Reduce_scatter_block: the element-wise reduction of every rank's {@code send}, cut in
     * size() blocks of {@code recv.length}, block r to rank r ({@code send} must be exactly
     * size() such blocks).
     */
    public void reduceScatterBlock(double[] send, double[] recv, Op op) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.DOUBLE, op, Double.BYTES);
    }

    public void reduceScatterBlock(long[] send, long[] recv, Op op) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.LONG, op, Long.BYTES);
    }

    public void reduceScatterBlock(int[] send, int[] recv, Op op) {
        BufferChecks.exactBlocks(self().rank, self().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.INT, op, Integer.BYTES);
    }

    /**
     * MPI_Reduce_scatter: the element-wise reduction of every rank's {@code send}, rank r
     * getting the next {@code counts[r]} elements in rank order ({@code send} holds their sum,
     * {@code recv} this rank's count).
     */
    public void reduceScatter(double[] send, double[] recv, int[] counts, Op op) {
        reduceScatterChecks(send.length, recv.length, counts);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.DOUBLE, op, Double.BYTES);
    }

    public void reduceScatter(long[] send, long[] recv, int[] counts, Op op) {
        reduceScatterChecks(send.length, recv.length, counts);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.LONG, op, Long.BYTES);
    }

    public void reduceScatter(int[] send, int[] recv, int[] counts, Op op) {
        reduceScatterChecks(send.length, recv.length, counts);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.INT, op, Integer.BYTES);
    }

    private int[] blocks(int each) {
        int[] counts = new int[self().group.length];
        java.util.Arrays.fill(counts, each);
        return counts;
    }

    private void reduceScatterChecks(int send, int recv, int[] counts) {
        int n = self().group.length;
        if (counts == null || counts.length != n) {
            throw new IllegalArgumentException("reduceScatter: " + (counts == null ? "no" : counts.length) + " counts for " + n
                    + " ranks: one per rank");
        }
        long sum = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("reduceScatter: a count is negative (" + c + ")");
            }
            sum += c;
        }
        if (sum != send) {
            throw new IllegalArgumentException("reduceScatter: the counts add up to " + sum + " elements, the send buffer holds " + send);
        }
        if (recv != counts[self().rank]) {
            throw new IllegalArgumentException("reduceScatter: rank " + self().rank + " receives " + recv + " elements but its count is "
                    + counts[self().rank]);
        }
    }

    /**
     * A ring for commutative operations on single elements ({@link Collectives#reduceScatterRing});
     * else the reduction at rank 0 (its tree keeps rank order for non-commutative ops), then
     * scattered by the counts.
     */
    private void reduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op, int elem) {
        int n = self().group.length;
        if (n > 1 && op.commutative() && op.unit() == 1) {
            self().red().reduceScatterRing(send, recv, type, counts, op);
            return;
        }
        boolean first = self().rank == 0;
        MemorySegment whole = first ? MemorySegment.ofArray(new byte[(int) send.byteSize()]) : null;
        self().red().reduce(send, whole, type, (int) (send.byteSize() / elem), op, 0);
        long[] bytes = new long[n];
        long[] displs = new long[n];
        for (int r = 0; r < n; r++) {
            bytes[r] = (long) counts[r] * elem;
            displs[r] = r == 0 ? 0 : displs[r - 1] + bytes[r - 1];
        }
        self().vcoll().scatterv(whole, first ? bytes : null, first ? displs : null, recv, 0);
    }

    // ---- the "v" collectives: a count and a displacement per rank, in elements (bytes for segments)

    /**
     * MPI_Gatherv: each rank's {@code send} into the root's {@code recv}, rank r's
     * {@code counts[r]} elements at {@code displs[r]}; {@code recv}, {@code counts} and
     * {@code displs} are read at the root only (null elsewhere is fine).
     */
    public void gatherv(double[] send, double[] recv, int[] counts, int[] displs, int root) {
        gatherv(MemorySegment.ofArray(send), send.length, recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Double.BYTES);
    }

    public void gatherv(long[] send, long[] recv, int[] counts, int[] displs, int root) {
        gatherv(MemorySegment.ofArray(send), send.length, recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Long.BYTES);
    }

    public void gatherv(int[] send, int[] recv, int[] counts, int[] displs, int root) {
        gatherv(MemorySegment.ofArray(send), send.length, recv == null ? null : MemorySegment.ofArray(recv),
                recv == null ? -1 : recv.length, counts, displs, root, Integer.BYTES);
    }

    /** As the array forms, in bytes. */
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
        if (self().rank == root) {
            BufferChecks.vector("gatherv", self().group.length, counts, displs, recv == null ? -1 : recv.byteSize());
        }
        self().vcoll().gatherv(send, recv, counts, displs, root);
    }

    private void gatherv(MemorySegment send, int sendLength, MemorySegment recv, int recvLength, int[] counts, int[] displs,
                         int root, int elem) {
        boolean atRoot = self().rank == root;
        if (atRoot) {
            BufferChecks.vector("gatherv", self().group.length, counts, displs, recvLength);
        }
        self().vcoll().gatherv(send, atRoot ? recv : null, atRoot ? bytes(counts, elem) : null, atRoot ? bytes(displs, elem) : null,
                root);
    }

    /**
     * MPI_Scatterv: the root's {@code send}, rank r's {@code counts[r]} elements from
     * {@code displs[r]}, into each rank's {@code recv} (read at the root only: {@code send},
     * {@code counts}, {@code displs}).
     */
    public void scatterv(double[] send, int[] counts, int[] displs, double[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Double.BYTES);
    }

    public void scatterv(long[] send, int[] counts, int[] displs, long[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Long.BYTES);
    }

    public void scatterv(int[] send, int[] counts, int[] displs, int[] recv, int root) {
        scatterv(send == null ? null : MemorySegment.ofArray(send), send == null ? -1 : send.length, counts, displs,
                MemorySegment.ofArray(recv), root, Integer.BYTES);
    }

    private void scatterv(MemorySegment send, int sendLength, int[] counts, int[] displs, MemorySegment recv, int root, int elem) {
        boolean atRoot = self().rank == root;
        if (atRoot) {
            BufferChecks.vector("scatterv", self().group.length, counts, displs, sendLength);
        }
        self().vcoll().scatterv(atRoot ? send : null, atRoot ? bytes(counts, elem) : null, atRoot ? bytes(displs, elem) : null, recv,
                root);
    }

    /** MPI_Allgatherv: every rank's {@code send} into every rank's {@code recv}, rank r's {@code counts[r]} elements at {@code displs[r]}. */
    public void allgatherv(double[] send, double[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("allgatherv", self().group.length, counts, displs, recv.length);
        self().vcoll().allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytes(counts, Double.BYTES),
                bytes(displs, Double.BYTES));
    }

    public void allgatherv(long[] send, long[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("allgatherv", self().group.length, counts, displs, recv.length);
        self().vcoll().allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytes(counts, Long.BYTES),
                bytes(displs, Long.BYTES));
    }

    public void allgatherv(int[] send, int[] recv, int[] counts, int[] displs) {
        BufferChecks.vector("allgatherv", self().group.length, counts, displs, recv.length);
        self().vcoll().allgatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), bytes(counts, Integer.BYTES),
                bytes(displs, Integer.BYTES));
    }

    /**
     * MPI_Alltoallv: {@code sendCounts[p]} elements of {@code send} from {@code sendDispls[p]} to
     * rank p; rank p's into {@code recv} at {@code recvDispls[p]}, {@code recvCounts[p]} of them.
     */
    public void alltoallv(double[] send, int[] sendCounts, int[] sendDispls, double[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Double.BYTES);
    }

    public void alltoallv(long[] send, int[] sendCounts, int[] sendDispls, long[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Long.BYTES);
    }

    public void alltoallv(int[] send, int[] sendCounts, int[] sendDispls, int[] recv, int[] recvCounts, int[] recvDispls) {
        alltoallv(MemorySegment.ofArray(send), send.length, sendCounts, sendDispls, MemorySegment.ofArray(recv), recv.length,
                recvCounts, recvDispls, Integer.BYTES);
    }

    private void alltoallv(MemorySegment send, int sendLength, int[] sendCounts, int[] sendDispls, MemorySegment recv,
                           int recvLength, int[] recvCounts, int[] recvDispls, int elem) {
        int n = self().group.length;
        BufferChecks.vector("alltoallv (send)", n, sendCounts, sendDispls, sendLength);
        BufferChecks.vector("alltoallv (receive)", n, recvCounts, recvDispls, recvLength);
        self().vcoll().alltoallv(send, bytes(sendCounts, elem), bytes(sendDispls, elem), recv, bytes(recvCounts, elem),
                bytes(recvDispls, elem));
    }

    private static long[] bytes(int[] elements, int size) {
        long[] b = new long[elements.length];
        for (int i = 0; i < elements.length; i++) {
            b[i] = (long) elements[i] * size;
        }
        return b;
    }
}
