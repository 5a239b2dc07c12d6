package org.banyan.comm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Collectives on derived datatypes (MPI_Bcast, Gather, Scatter, Allgather, Alltoall with a
 * {@link Datatype} on each side, as MPI's): each rank's elements travel packed, as they do
 * point to point, and are unpacked into place. A gather's or scatter's whole buffer holds
 * size() blocks of {@code count} elements one after the other by the type's extent, so a
 * column type resized to one value ({@link Datatype#resized}) scatters a matrix's columns into
 * plain arrays. The two sides' type signatures must carry the same bytes (checked on each rank
 * for its own pair: MPI requires them to match). Also the reductions and scans on memory
 * segments, the caller naming the values' {@link Elem}.
 */
public abstract sealed class CommTypedCollectives extends CommVectorCollectives permits CommTypedVectors {
    CommTypedCollectives() {}

    /** MPI_Bcast of {@code count} elements of {@code type}. */
    public void bcast(MemorySegment buffer, int count, Datatype type, int root) {
        type.check(buffer, count);
        MemorySegment packed = asComm().rank == root ? type.pack(buffer, count) : bytes(type, count);
        bcast(packed, root);
        if (asComm().rank != root) {
            type.unpack(packed, buffer, count);
        }
    }

    /** MPI_Gather: each rank's {@code sendCount} elements into the root's {@code recv} (read at the root only), rank by rank. */
    public void gather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType,
                       int root) {
        boolean atRoot = asComm().rank == root;
        int n = asComm().size();
        same("gather", sendCount, sendType, recvCount, recvType);
        if (atRoot) {
            need(recv, "gather");
            recvType.check(recv, Math.multiplyExact(n, recvCount));
        }
        MemorySegment all = atRoot ? bytes(recvType, (long) n * recvCount) : null;
        gather(sendType.pack(send, sendCount), all, root);
        if (atRoot) {
            recvType.unpack(all, recv, n * recvCount);
        }
    }

    /** MPI_Scatter: the root's {@code send} (read there only), {@code sendCount} elements to each rank in turn. */
    public void scatter(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType,
                        int root) {
        boolean atRoot = asComm().rank == root;
        same("scatter", sendCount, sendType, recvCount, recvType);
        recvType.check(recv, recvCount);
        if (atRoot) {
            need(send, "scatter");
        }
        MemorySegment mine = bytes(recvType, recvCount);
        scatter(atRoot ? sendType.pack(send, Math.multiplyExact(asComm().size(), sendCount)) : null, mine, root);
        recvType.unpack(mine, recv, recvCount);
    }

    /** MPI_Allgather: every rank's {@code sendCount} elements into every rank's {@code recv}, rank by rank. */
    public void allgather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType) {
        int n = asComm().size();
        same("allgather", sendCount, sendType, recvCount, recvType);
        recvType.check(recv, Math.multiplyExact(n, recvCount));
        MemorySegment all = bytes(recvType, (long) n * recvCount);
        allgather(sendType.pack(send, sendCount), all);
        recvType.unpack(all, recv, n * recvCount);
    }

    /** MPI_Alltoall: the r-th {@code sendCount} elements of {@code send} to rank r; rank r's into the r-th place of {@code recv}. */
    public void alltoall(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType) {
        int n = asComm().size();
        same("alltoall", sendCount, sendType, recvCount, recvType);
        recvType.check(recv, Math.multiplyExact(n, recvCount));
        MemorySegment all = bytes(recvType, (long) n * recvCount);
        alltoall(sendType.pack(send, Math.multiplyExact(n, sendCount)), all);
        recvType.unpack(all, recv, n * recvCount);
    }

    public void bcast(byte[] buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofArray(buffer), count, type, root);
    }

    public void gather(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv), recvCount, recvType,
                root);
    }

    public void scatter(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount,
                recvType,
                root);
    }

    public void allgather(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void alltoall(byte[] send, int sendCount, Datatype sendType, byte[] recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void bcast(int[] buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofArray(buffer), count, type, root);
    }

    public void gather(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv), recvCount, recvType,
                root);
    }

    public void scatter(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount,
                recvType,
                root);
    }

    public void allgather(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void alltoall(int[] send, int sendCount, Datatype sendType, int[] recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void bcast(long[] buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofArray(buffer), count, type, root);
    }

    public void gather(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv), recvCount, recvType,
                root);
    }

    public void scatter(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount,
                recvType,
                root);
    }

    public void allgather(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void alltoall(long[] send, int sendCount, Datatype sendType, long[] recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void bcast(float[] buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofArray(buffer), count, type, root);
    }

    public void gather(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv), recvCount, recvType,
                root);
    }

    public void scatter(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount,
                recvType,
                root);
    }

    public void allgather(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void alltoall(float[] send, int sendCount, Datatype sendType, float[] recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void bcast(double[] buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofArray(buffer), count, type, root);
    }

    public void gather(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofArray(send), sendCount, sendType, recv == null ? null : MemorySegment.ofArray(recv), recvCount, recvType,
                root);
    }

    public void scatter(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType, int root) {
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount,
                recvType,
                root);
    }

    public void allgather(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    public void alltoall(double[] send, int sendCount, Datatype sendType, double[] recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType);
    }

    /** MPI_Reduce on memory: {@code send} holds whole {@code type} values, the root's {@code recv} (read there only) as many. */
    public void reduce(MemorySegment send, MemorySegment recv, Elem type, Op op, int root) {
        asComm().red().reduce(send, asComm().rank == root ? recv : null, type, values(send, type, "reduce"), op, root);
    }

    /** MPI_Allreduce on memory of {@code type} values. */
    public void allreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        asComm().red().allreduce(send, recv, type, values(send, type, "allreduce"), op);
    }

    /** MPI_Scan on memory of {@code type} values. */
    public void scan(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        scanned(send, recv, type, op, true, "scan");
    }

    /** MPI_Exscan on memory of {@code type} values; rank 0's {@code recv} is left as it was. */
    public void exscan(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        scanned(send, recv, type, op, false, "exscan");
    }

    public void scan(float[] send, float[] recv, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, op);
    }

    public void exscan(float[] send, float[] recv, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), Elem.FLOAT, op);
    }

    public void reduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op, int root) {
        reduce(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), type, op, root);
    }

    public void allreduce(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        allreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    public void scan(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        scan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    public void exscan(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        exscan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    /** MPI_Reduce_scatter_block on memory of {@code type} values: {@code send} holds size() blocks of {@code recv}'s length. */
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        int block = values(recv, type, "reduceScatterBlock");
        int sent = values(send, type, "reduceScatterBlock");
        BufferChecks.exactBlocks(asComm().rank, asComm().group.length, "reduceScatterBlock", -1, sent, block);
        reduceScatter(send, recv, blocks(block), type, op, type.bytes());
    }

    /** MPI_Reduce_scatter on memory of {@code type} values, {@code counts} in values. */
    public void reduceScatter(MemorySegment send, MemorySegment recv, int[] counts, Elem type, Op op) {
        reduceScatterChecks(values(send, type, "reduceScatter"), values(recv, type, "reduceScatter"), counts);
        reduceScatter(send, recv, counts, type, op, type.bytes());
    }

    public void reduceScatterBlock(ByteBuffer send, ByteBuffer recv, Elem type, Op op) {
        reduceScatterBlock(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), type, op);
    }

    public void reduceScatter(ByteBuffer send, ByteBuffer recv, int[] counts, Elem type, Op op) {
        reduceScatter(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), counts, type, op);
    }

    public void bcast(ByteBuffer buffer, int count, Datatype type, int root) {
        bcast(MemorySegment.ofBuffer(buffer), count, type, root);
    }

    public void gather(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType, int root) {
        gather(MemorySegment.ofBuffer(send), sendCount, sendType, recv == null ? null : MemorySegment.ofBuffer(recv), recvCount,
                recvType, root);
    }

    public void scatter(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType,
                        int root) {
        scatter(send == null ? null : MemorySegment.ofBuffer(send), sendCount, sendType, MemorySegment.ofBuffer(recv), recvCount,
                recvType, root);
    }

    public void allgather(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType) {
        allgather(MemorySegment.ofBuffer(send), sendCount, sendType, MemorySegment.ofBuffer(recv), recvCount, recvType);
    }

    public void alltoall(ByteBuffer send, int sendCount, Datatype sendType, ByteBuffer recv, int recvCount, Datatype recvType) {
        alltoall(MemorySegment.ofBuffer(send), sendCount, sendType, MemorySegment.ofBuffer(recv), recvCount, recvType);
    }

    /**
     * MPI_Reduce on {@code count} elements of a derived datatype whose values are all of one
     * primitive type (a matrix's column, a strided field; {@link Datatype#basicType()}): packed,
     * reduced value by value, and unpacked into place in the root's {@code recv}.
     */
    public void reduce(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op, int root) {
        Elem e = reducible(type, "reduce");
        boolean atRoot = asComm().rank == root;
        if (atRoot) {
            need(recv, "reduce");
            type.check(recv, count);
        }
        MemorySegment result = atRoot ? bytes(type, count) : null;
        asComm().red().reduce(type.pack(send, count), result, e, values(type, count, e), op, root);
        if (atRoot) {
            type.unpack(result, recv, count);
        }
    }

    /** MPI_Allreduce on {@code count} elements of a derived datatype of one primitive type, as the reduce above. */
    public void allreduce(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        Elem e = reducible(type, "allreduce");
        type.check(recv, count);
        MemorySegment result = bytes(type, count);
        asComm().red().allreduce(type.pack(send, count), result, e, values(type, count, e), op);
        type.unpack(result, recv, count);
    }

    /** MPI_Scan on {@code count} elements of a derived datatype of one primitive type. */
    public void scan(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        typedScan(send, recv, count, type, op, true);
    }

    /** MPI_Exscan on {@code count} elements of a derived datatype of one primitive type; rank 0's {@code recv} is left as it was. */
    public void exscan(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op) {
        typedScan(send, recv, count, type, op, false);
    }

    private void typedScan(MemorySegment send, MemorySegment recv, int count, Datatype type, Op op, boolean inclusive) {
        String what = inclusive ? "scan" : "exscan";
        Elem e = reducible(type, what);
        type.check(recv, count);
        MemorySegment result = bytes(type, count);
        asComm().red().scan(type.pack(send, count), result, e, values(type, count, e), op, inclusive);
        if (inclusive || asComm().rank != 0) {
            type.unpack(result, recv, count);
        }
    }

    private static Elem reducible(Datatype type, String what) {
        Elem e = type.basicType();
        if (e == null) {
            throw new IllegalArgumentException(what + ": the datatype mixes primitive types; a reduction combines values of one type");
        }
        return e;
    }

    private static int values(Datatype type, int count, Elem e) {
        return Math.toIntExact(type.size() * count / e.bytes());
    }

    public void reduce(byte[] send, byte[] recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), count, type, op, root);
    }

    public void allreduce(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void scan(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void exscan(byte[] send, byte[] recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void reduce(int[] send, int[] recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), count, type, op, root);
    }

    public void allreduce(int[] send, int[] recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void scan(int[] send, int[] recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void exscan(int[] send, int[] recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void reduce(long[] send, long[] recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), count, type, op, root);
    }

    public void allreduce(long[] send, long[] recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void scan(long[] send, long[] recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void exscan(long[] send, long[] recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void reduce(float[] send, float[] recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), count, type, op, root);
    }

    public void allreduce(float[] send, float[] recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void scan(float[] send, float[] recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void exscan(float[] send, float[] recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void reduce(double[] send, double[] recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofArray(send), recv == null ? null : MemorySegment.ofArray(recv), count, type, op, root);
    }

    public void allreduce(double[] send, double[] recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void scan(double[] send, double[] recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void exscan(double[] send, double[] recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), count, type, op);
    }

    public void reduce(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op, int root) {
        reduce(MemorySegment.ofBuffer(send), recv == null ? null : MemorySegment.ofBuffer(recv), count, type, op, root);
    }

    public void allreduce(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        allreduce(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), count, type, op);
    }

    public void scan(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        scan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), count, type, op);
    }

    public void exscan(ByteBuffer send, ByteBuffer recv, int count, Datatype type, Op op) {
        exscan(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv), count, type, op);
    }

    private void scanned(MemorySegment send, MemorySegment recv, Elem type, Op op, boolean inclusive, String what) {
        asComm().red().scan(send, recv, type, values(send, type, what), op, inclusive);
    }

    static int values(MemorySegment send, Elem type, String what) {
        if (send.byteSize() % type.bytes() != 0) {
            throw new IllegalArgumentException(what + ": " + send.byteSize() + " bytes are not whole " + type + " values");
        }
        return Math.toIntExact(send.byteSize() / type.bytes());
    }

    static MemorySegment bytes(Datatype type, long count) {
        return Segments.staging(type.size() * count, "a collective on a datatype");
    }

    /** A rank's block carries as many bytes sent as received. */
    static void same(String op, int sendCount, Datatype sendType, int recvCount, Datatype recvType) {
        if (sendCount < 0 || recvCount < 0 || sendType.size() * sendCount != recvType.size() * recvCount) {
            throw new IllegalArgumentException(op + ": " + sendCount + " elements of " + sendType.size() + " bytes sent per rank, "
                    + recvCount + " of " + recvType.size() + " received: a block must carry the same bytes both ways");
        }
    }

    static void need(MemorySegment buffer, String op) {
        if (buffer == null) {
            throw new IllegalArgumentException(op + ": no buffer at the root");
        }
    }
}
