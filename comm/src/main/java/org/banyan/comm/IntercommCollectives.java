package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * The collectives of an intercommunicator (MPI-2's): a rooted one goes from the root's group to
 * the other (the root gives {@link Intercomm#ROOT}, the rest of its group
 * {@link Comm#PROC_NULL}, the other group the root's rank there); an all-to-all one gives each
 * group what the other group had. Each group reduces or gathers within itself first (its
 * {@link Intercomm}'s local communicator), the two leaders (rank 0 of each group) swap the
 * results on the intercommunicator's own context, and each leader spreads what it got.
 */
final class IntercommCollectives {
    static final int BARRIER = 41, BCAST = 42, ALLREDUCE = 43, ALLGATHER = 44, ALLTOALL = 45, GATHER = 46, SCATTER = 47, REDUCE = 48;

    private final Intercomm ic;

    IntercommCollectives(Intercomm ic) {
        this.ic = ic;
    }

    void barrier() {
        Comm local = ic.local();
        local.barrier();
        if (local.rank() == 0) {
            swapWithLeader(MemorySegment.NULL, MemorySegment.NULL, BARRIER);
        }
        local.barrier();
    }

    void bcast(MemorySegment buffer, int root) {
        if (root == Intercomm.ROOT) {
            ic.internalSend(buffer, 0, BCAST).await();
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            Comm local = ic.local();
            if (local.rank() == 0) {
                ic.internalReceive(buffer, root, BCAST).await();
            }
            local.bcast(buffer, 0);
        }
    }

    /** Each group's {@code recv} gets the reduction of the other group's {@code send}s. */
    void allreduce(MemorySegment send, MemorySegment recv, Elem type, Op op) {
        int count = CommTypedCollectives.values(send, type, "allreduce");
        need(recv, send.byteSize(), "allreduce");
        Comm local = ic.local();
        MemorySegment mine = local.rank() == 0 ? MemorySegment.ofArray(new byte[(int) send.byteSize()]) : null;
        local.red().reduce(send, mine, type, count, op, 0);
        if (local.rank() == 0) {
            swapWithLeader(mine, recv.asSlice(0, send.byteSize()), ALLREDUCE);
        }
        local.bcast(recv.asSlice(0, send.byteSize()), 0);
    }

    /** Each group's {@code recv} gets the other group's blocks, rank by rank. */
    void allgather(MemorySegment send, MemorySegment recv) {
        long block = send.byteSize();
        need(recv, block * ic.remoteSize(), "allgather");
        Comm local = ic.local();
        MemorySegment mine = local.rank() == 0 ? MemorySegment.ofArray(new byte[Math.toIntExact(block * local.size())]) : null;
        local.gather(send, mine, 0);
        MemorySegment theirs = recv.asSlice(0, block * ic.remoteSize());
        if (local.rank() == 0) {
            swapWithLeader(mine, theirs, ALLGATHER);
        }
        local.bcast(theirs, 0);
    }

    /** Block j of {@code send} to remote rank j, remote rank j's block into block j of {@code recv}. */
    void alltoall(MemorySegment send, MemorySegment recv) {
        int n = ic.remoteSize();
        if (send.byteSize() % n != 0) {
            throw new IllegalArgumentException("alltoall: " + send.byteSize() + " bytes do not make " + n + " equal blocks for the remote group");
        }
        long block = send.byteSize() / n;
        need(recv, send.byteSize(), "alltoall");
        Request[] pending = new Request[2 * n];
        for (int j = 0; j < n; j++) {
            pending[2 * j] = ic.internalReceive(recv.asSlice(j * block, block), j, ALLTOALL);
        }
        for (int j = 0; j < n; j++) {
            pending[2 * j + 1] = ic.internalSend(send.asSlice(j * block, block), j, ALLTOALL);
        }
        Request.awaitAll(pending);
    }

    /** The root's {@code recv} gets every remote rank's block, rank by rank. */
    void gather(MemorySegment send, MemorySegment recv, int root) {
        if (root == Intercomm.ROOT) {
            int n = ic.remoteSize();
            if (recv == null || recv.byteSize() % n != 0) {
                throw new IllegalArgumentException("gather: the root's buffer must hold " + n + " equal blocks, one per remote rank");
            }
            long block = recv.byteSize() / n;
            Request[] pending = new Request[n];
            for (int j = 0; j < n; j++) {
                pending[j] = ic.internalReceive(recv.asSlice(j * block, block), j, GATHER);
            }
            Request.awaitAll(pending);
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            ic.internalSend(send, root, GATHER).await();
        }
    }

    /** Remote rank j's {@code recv} gets block j of the root's {@code send}. */
    void scatter(MemorySegment send, MemorySegment recv, int root) {
        if (root == Intercomm.ROOT) {
            int n = ic.remoteSize();
            if (send == null || send.byteSize() % n != 0) {
                throw new IllegalArgumentException("scatter: the root's buffer must hold " + n + " equal blocks, one per remote rank");
            }
            long block = send.byteSize() / n;
            Request[] pending = new Request[n];
            for (int j = 0; j < n; j++) {
                pending[j] = ic.internalSend(send.asSlice(j * block, block), j, SCATTER);
            }
            Request.awaitAll(pending);
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            ic.internalReceive(recv, root, SCATTER).await();
        }
    }

    /** The root's {@code recv} gets the reduction of the other group's {@code send}s. */
    void reduce(MemorySegment send, MemorySegment recv, Elem type, Op op, int root) {
        if (root == Intercomm.ROOT) {
            ic.internalReceive(recv, 0, REDUCE).await();
        } else if (root != Comm.PROC_NULL) {
            ic.checkRemote(root, "root");
            int count = CommTypedCollectives.values(send, type, "reduce");
            Comm local = ic.local();
            MemorySegment mine = local.rank() == 0 ? MemorySegment.ofArray(new byte[(int) send.byteSize()]) : null;
            local.red().reduce(send, mine, type, count, op, 0);
            if (local.rank() == 0) {
                ic.internalSend(mine, root, REDUCE).await();
            }
        }
    }

    /** The leaders swap {@code out} for what the other sends into {@code in}. */
    private void swapWithLeader(MemorySegment out, MemorySegment in, int tag) {
        Request r = ic.internalReceive(in, 0, tag);
        Request s = ic.internalSend(out, 0, tag);
        Request.awaitAll(r, s);
    }

    private static void need(MemorySegment buffer, long bytes, String op) {
        if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException(op + ": the receive buffer holds " + buffer.byteSize() + " bytes, not the " + bytes
                    + " it needs");
        }
    }
}
