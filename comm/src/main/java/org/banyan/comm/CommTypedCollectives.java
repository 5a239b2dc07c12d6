package org.banyan.comm;

import java.lang.foreign.MemorySegment;

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
public abstract sealed class CommTypedCollectives extends CommCollectives permits CommArrayParts {
    CommTypedCollectives() {}

    /** MPI_Bcast of {@code count} elements of {@code type}. */
    public void bcast(MemorySegment buffer, int count, Datatype type, int root) {
        type.check(buffer, count);
        MemorySegment packed = self().rank == root ? type.pack(buffer, count) : bytes(type, count);
        bcast(packed, root);
        if (self().rank != root) {
            type.unpack(packed, buffer, count);
        }
    }

    /** MPI_Gather: each rank's {@code sendCount} elements into the root's {@code recv} (read at the root only), rank by rank. */
    public void gather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType,
                       int root) {
        boolean atRoot = self().rank == root;
        int n = self().size();
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
        boolean atRoot = self().rank == root;
        same("scatter", sendCount, sendType, recvCount, recvType);
        recvType.check(recv, recvCount);
        if (atRoot) {
            need(send, "scatter");
        }
        MemorySegment mine = bytes(recvType, recvCount);
        scatter(atRoot ? sendType.pack(send, Math.multiplyExact(self().size(), sendCount)) : null, mine, root);
        recvType.unpack(mine, recv, recvCount);
    }

    /** MPI_Allgather: every rank's {@code sendCount} elements into every rank's {@code recv}, rank by rank. */
    public void allgather(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType) {
        int n = self().size();
        same("allgather", sendCount, sendType, recvCount, recvType);
        recvType.check(recv, Math.multiplyExact(n, recvCount));
        MemorySegment all = bytes(recvType, (long) n * recvCount);
        allgather(sendType.pack(send, sendCount), all);
        recvType.unpack(all, recv, n * recvCount);
    }

    /** MPI_Alltoall: the r-th {@code sendCount} elements of {@code send} to rank r; rank r's into the r-th place of {@code recv}. */
    public void alltoall(MemorySegment send, int sendCount, Datatype sendType, MemorySegment recv, int recvCount, Datatype recvType) {
        int n = self().size();
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
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType,
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
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType,
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
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType,
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
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType,
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
        scatter(send == null ? null : MemorySegment.ofArray(send), sendCount, sendType, MemorySegment.ofArray(recv), recvCount, recvType,
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
        self().red().reduce(send, self().rank == root ? recv : null, type, values(send, type, "reduce"), op, root);
    }

    /** MPI_Allreduce on memory of {@code type} values. */
    public void allreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        self().red().allreduce(send, recv, type, values(send, type, "allreduce"), op);
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

    private void scanned(MemorySegment send, MemorySegment recv, Elem type, Op op, boolean inclusive, String what) {
        self().red().scan(send, recv, type, values(send, type, what), op, inclusive);
    }

    private static int values(MemorySegment send, Elem type, String what) {
        if (send.byteSize() % type.bytes() != 0) {
            throw new IllegalArgumentException(what + ": " + send.byteSize() + " bytes are not whole " + type + " values");
        }
        return Math.toIntExact(send.byteSize() / type.bytes());
    }

    private static MemorySegment bytes(Datatype type, long count) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(type.size() * count)]);
    }

    /** A rank's block carries as many bytes sent as received. */
    private static void same(String op, int sendCount, Datatype sendType, int recvCount, Datatype recvType) {
        if (sendCount < 0 || recvCount < 0 || sendType.size() * sendCount != recvType.size() * recvCount) {
            throw new IllegalArgumentException(op + ": " + sendCount + " elements of " + sendType.size() + " bytes sent per rank, "
                    + recvCount + " of " + recvType.size() + " received: a block must carry the same bytes both ways");
        }
    }

    private static void need(MemorySegment buffer, String op) {
        if (buffer == null) {
            throw new IllegalArgumentException(op + ": no buffer at the root");
        }
    }
}
