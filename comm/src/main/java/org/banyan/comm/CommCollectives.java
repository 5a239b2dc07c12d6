package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The collective half of a communicator's API ({@link Comm} extends it): barrier, broadcast,
 * reductions and scans, gather, scatter, allgather, all-to-all, reduce-scatter (their "v" forms
 * are {@link CommVectorCollectives}'). Every member calls the same operation in the same order;
 * array forms check their buffers in elements before anything is sent. The algorithms are
 * {@link Collectives}'.
 */
public abstract sealed class CommCollectives extends CommPointToPointParts permits CommVectorCollectives {
    CommCollectives() {}

    /** The communicator these calls run on. */
    abstract Comm asComm();

    public void barrier() {
        asComm().coll().barrier();
    }

    public void bcast(byte[] buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(int[] buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(long[] buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(double[] buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(float[] buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofArray(buffer), root);
    }

    public void bcast(MemorySegment buffer, int root) {
        asComm().coll().bcast(buffer, root);
    }

    public void reduce(double[] send, double[] recv, Op op, int root) {
        asComm().red().reduce(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, Elem.DOUBLE,
                send.length, op, root);
    }

    public void reduce(long[] send, long[] recv, Op op, int root) {
        asComm().red().reduce(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, Elem.LONG,
                send.length, op, root);
    }

    public void reduce(float[] send, float[] recv, Op op, int root) {
        asComm().red().reduce(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, Elem.FLOAT,
                send.length, op, root);
    }

    public void reduce(int[] send, int[] recv, Op op, int root) {
        asComm().red().reduce(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, Elem.INT,
                send.length, op, root);
    }

    /** MPI_Scan: ranks 0..rank()'s values combined in rank order. */
    public void scan(double[] send, double[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op, true);
    }

    public void scan(long[] send, long[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op, true);
    }

    public void scan(int[] send, int[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op, true);
    }

    /** MPI_Exscan: ranks 0..rank()-1's values combined in rank order; rank 0's {@code recv} is left as it was. */
    public void exscan(double[] send, double[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op, false);
    }

    public void exscan(long[] send, long[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op, false);
    }

    public void exscan(int[] send, int[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op, false);
    }

    public void allreduce(double[] send, double[] recv, Op op) {
        asComm().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.DOUBLE, send.length, op);
    }

    public void allreduce(long[] send, long[] recv, Op op) {
        asComm().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.LONG, send.length, op);
    }

    public void allreduce(int[] send, int[] recv, Op op) {
        asComm().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.INT, send.length, op);
    }

    public void allreduce(float[] send, float[] recv, Op op) {
        asComm().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, send.length, op);
    }

    /** Every rank's {@code send} to the root's {@code recv}, in rank order (recv is ignored elsewhere). */
    public void gather(double[] send, double[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        asComm().coll().gather(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(int[] send, int[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        asComm().coll().gather(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(float[] send, float[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        asComm().coll().gather(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(long[] send, long[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        asComm().coll().gather(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void gather(MemorySegment send, MemorySegment recv, int root) {
        asComm().coll().gather(send, recv, root);
    }

    /** The root's {@code send}, cut in size() equal blocks, one to each rank's {@code recv}. */
    public void scatter(double[] send, double[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        asComm().coll().scatter(asComm().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(long[] send, long[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        asComm().coll().scatter(asComm().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(int[] send, int[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        asComm().coll().scatter(asComm().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(float[] send, float[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        asComm().coll().scatter(asComm().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        asComm().coll().scatter(send, recv, root);
    }

    public void allgather(double[] send, double[] recv) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "allgather", -1, recv.length, send.length);
        asComm().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(long[] send, long[] recv) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "allgather", -1, recv.length, send.length);
        asComm().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(float[] send, float[] recv) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "allgather", -1, recv.length, send.length);
        asComm().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(int[] send, int[] recv) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "allgather", -1, recv.length, send.length);
        asComm().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void allgather(MemorySegment send, MemorySegment recv) {
        asComm().coll().allgather(send, recv);
    }

    /** Block i of {@code send} to rank i; block j of {@code recv} from rank j (equal blocks). */
    public void alltoall(double[] send, double[] recv) {
        BufferChecks.equalBlocks(asComm().group.length, send.length, recv.length);
        asComm().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(long[] send, long[] recv) {
        BufferChecks.equalBlocks(asComm().group.length, send.length, recv.length);
        asComm().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(float[] send, float[] recv) {
        BufferChecks.equalBlocks(asComm().group.length, send.length, recv.length);
        asComm().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(int[] send, int[] recv) {
        BufferChecks.equalBlocks(asComm().group.length, send.length, recv.length);
        asComm().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(MemorySegment send, MemorySegment recv) {
        asComm().coll().alltoall(send, recv);
    }


    // ---- reduce-scatter

    /**
     * MPI_Reduce_scatter_block: the element-wise reduction of every rank's {@code send}, cut in
     * size() blocks of {@code recv.length}, block r to rank r ({@code send} must be exactly
     * size() such blocks).
     */
    public void reduceScatterBlock(double[] send, double[] recv, Op op) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.DOUBLE, op, Double.BYTES);
    }

    public void reduceScatterBlock(long[] send, long[] recv, Op op) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.LONG, op, Long.BYTES);
    }

    public void reduceScatterBlock(int[] send, int[] recv, Op op) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, send.length, recv.length);
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

    int[] blocks(int each) {
        int[] counts = new int[asComm().group.length];
        java.util.Arrays.fill(counts, each);
        return counts;
    }

    void reduceScatterChecks(long send, long recv, int[] counts) {
        int n = asComm().group.length;
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
        if (recv != counts[asComm().rank]) {
            throw new IllegalArgumentException("reduceScatter: rank " + asComm().rank + " receives " + recv + " elements but its count is "
                    + counts[asComm().rank]);
        }
    }

    /**
     * A ring for commutative operations on single elements ({@link Collectives#reduceScatterRing});
     * else the reduction at rank 0 (its tree keeps rank order for non-commutative ops), then
     * scattered by the counts.
     */
    void reduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op, int elem) {
        int n = asComm().group.length;
        if (n > 1 && op.commutative() && op.unit() == 1) {
            asComm().red().reduceScatterRing(send, recv, type, counts, op);
            return;
        }
        boolean first = asComm().rank == 0;
        MemorySegment whole = first ? MemorySegment.ofArray(new byte[(int) send.byteSize()]) : null;
        asComm().red().reduce(send, whole, type, (int) (send.byteSize() / elem), op, 0);
        long[] bytes = new long[n];
        long[] displs = new long[n];
        for (int r = 0; r < n; r++) {
            bytes[r] = (long) counts[r] * elem;
            displs[r] = r == 0 ? 0 : displs[r - 1] + bytes[r - 1];
        }
        asComm().vcoll().scatterv(whole, first ? bytes : null, first ? displs : null, recv, 0);
    }

    // ---- the same on the buffer types the calls above leave out

    public void bcast(ByteBuffer buffer, int root) {
        asComm().coll().bcast(MemorySegment.ofBuffer(buffer), root);
    }

    public void reduce(byte[] send, byte[] recv, Op op, int root) {
        asComm().red().reduce(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, Elem.BYTE,
                send.length,
                op, root);
    }

    public void allreduce(byte[] send, byte[] recv, Op op) {
        asComm().red().allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.BYTE, send.length, op);
    }

    public void scan(byte[] send, byte[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.BYTE, send.length, op, true);
    }

    public void exscan(byte[] send, byte[] recv, Op op) {
        asComm().red().scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.BYTE, send.length, op, false);
    }

    public void gather(byte[] send, byte[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "gather", root, recv == null ? -1 : recv.length, send.length);
        asComm().coll().gather(MemorySegment.ofArray(send), asComm().rank == root ? MemorySegment.ofArray(recv) : null, root);
    }

    public void scatter(byte[] send, byte[] recv, int root) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "scatter", root, send == null ? -1 : send.length, recv.length);
        asComm().coll().scatter(asComm().rank == root ? MemorySegment.ofArray(send) : null, MemorySegment.ofArray(recv), root);
    }

    public void allgather(byte[] send, byte[] recv) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "allgather", -1, recv.length, send.length);
        asComm().coll().allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void alltoall(byte[] send, byte[] recv) {
        BufferChecks.equalBlocks(asComm().group.length, send.length, recv.length);
        asComm().coll().alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
    }

    public void gather(ByteBuffer send, ByteBuffer recv, int root) {
        gather(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), root);
    }

    public void scatter(ByteBuffer send, ByteBuffer recv, int root) {
        scatter(send == null ? null : MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), root);
    }

    public void allgather(ByteBuffer send, ByteBuffer recv) {
        allgather(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
    }

    public void alltoall(ByteBuffer send, ByteBuffer recv) {
        alltoall(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
    }

    public void reduceScatterBlock(byte[] send, byte[] recv, Op op) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.BYTE, op, Byte.BYTES);
    }

    public void reduceScatter(byte[] send, byte[] recv, int[] counts, Op op) {
        reduceScatterChecks(send.length, recv.length, counts);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.BYTE, op, Byte.BYTES);
    }

    public void reduceScatterBlock(float[] send, float[] recv, Op op) {
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, send.length, recv.length);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), blocks(recv.length), Elem.FLOAT, op, Float.BYTES);
    }

    public void reduceScatter(float[] send, float[] recv, int[] counts, Op op) {
        reduceScatterChecks(send.length, recv.length, counts);
        reduceScatter(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, Elem.FLOAT, op, Float.BYTES);
    }
}
