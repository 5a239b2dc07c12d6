package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gatherv, scatterv, allgatherv and alltoallv with a different count per rank (empty blocks
 * among them), over shared memory and TCP; their refusals; PROC_NULL and sendrecvReplace.
 */
class VectorCollectivesTest {
    static <T> List<T> run(int n, boolean shm, LocalJob.Body<T> body) throws Exception {
        return LocalJob.run(n, shm ? r -> "h" : r -> "h" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), body);
    }

    /** Rank r contributes r % 3 elements (0, 1, 2, 0, ...); blocks laid out with a gap of one after each. */
    static int[] counts(int n) {
        int[] c = new int[n];
        Arrays.setAll(c, r -> r % 3);
        return c;
    }

    static int[] displs(int[] counts) {
        int[] d = new int[counts.length];
        for (int r = 1; r < counts.length; r++) {
            d[r] = d[r - 1] + counts[r - 1] + 1;
        }
        return d;
    }

    static int end(int[] counts, int[] displs) {
        return displs[displs.length - 1] + counts[counts.length - 1];
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void everyRankGetsExactlyItsBlocks(int n) throws Exception {
        for (boolean shm : new boolean[] {true, false}) {
            List<String> failures = run(n, shm, w -> {
                int me = w.rank();
                int size = w.size();
                int root = size - 1;
                int[] counts = counts(size);
                int[] displs = displs(counts);
                // gatherv: rank r sends r*100 + i
                double[] mine = new double[counts[me]];
                Arrays.setAll(mine, i -> me * 100 + i);
                double[] all = me == root ? new double[end(counts, displs)] : null;
                if (me == root) {
                    Arrays.fill(all, -1);
                }
                w.gatherv(mine, all, me == root ? counts : null, me == root ? displs : null, root);
                if (me == root) {
                    for (int r = 0; r < size; r++) {
                        for (int i = 0; i < counts[r]; i++) {
                            if (all[displs[r] + i] != r * 100 + i) {
                                return "gatherv: rank " + r + " element " + i + " is " + all[displs[r] + i];
                            }
                        }
                        if (r < size - 1 && all[displs[r] + counts[r]] != -1) {
                            return "gatherv wrote into the gap after rank " + r;
                        }
                    }
                }
                // scatterv: the root's all back out
                double[] back = new double[counts[me]];
                w.scatterv(all, me == root ? counts : null, me == root ? displs : null, back, root);
                if (!Arrays.equals(back, mine)) {
                    return "scatterv gave rank " + me + " " + Arrays.toString(back);
                }
                // allgatherv: ints, everyone gets everyone's
                int[] mineInt = new int[counts[me]];
                Arrays.setAll(mineInt, i -> me * 100 + i);
                int[] everyone = new int[end(counts, displs)];
                w.allgatherv(mineInt, everyone, counts, displs);
                for (int r = 0; r < size; r++) {
                    for (int i = 0; i < counts[r]; i++) {
                        if (everyone[displs[r] + i] != r * 100 + i) {
                            return "allgatherv at rank " + me + ": rank " + r + " element " + i + " is " + everyone[displs[r] + i];
                        }
                    }
                }
                // alltoallv: rank me sends p (me + p) % 3 longs of value me*1000 + p*10 + i
                int[] sc = new int[size];
                int[] rc = new int[size];
                for (int p = 0; p < size; p++) {
                    sc[p] = (me + p) % 3;
                    rc[p] = (p + me) % 3;
                }
                int[] sd = displs(sc);
                int[] rd = displs(rc);
                long[] out = new long[end(sc, sd)];
                for (int p = 0; p < size; p++) {
                    for (int i = 0; i < sc[p]; i++) {
                        out[sd[p] + i] = me * 1000L + p * 10L + i;
                    }
                }
                long[] in = new long[end(rc, rd)];
                w.alltoallv(out, sc, sd, in, rc, rd);
                for (int p = 0; p < size; p++) {
                    for (int i = 0; i < rc[p]; i++) {
                        if (in[rd[p] + i] != p * 1000L + me * 10L + i) {
                            return "alltoallv at rank " + me + ": from " + p + " element " + i + " is " + in[rd[p] + i];
                        }
                    }
                }
                return "";
            });
            assertThat(failures).as("shm " + shm).containsOnly("");
        }
    }

    @Test
    void countsThatDoNotFitAreRefusedBeforeAnythingIsSent() throws Exception {
        run(1, true, w -> {
            assertThatThrownBy(() -> w.gatherv(new double[1], new double[4], new int[] {1, 1}, new int[] {0, 1}, 0))
                    .hasMessage("gatherv: 2 counts and 2 displacements for 1 ranks: one each per rank");
            assertThatThrownBy(() -> w.allgatherv(new int[1], new int[4], new int[] {-1}, new int[] {0}))
                    .hasMessage("allgatherv: rank 0's count -1 or displacement 0 is negative");
            assertThatThrownBy(() -> w.scatterv(new double[4], new int[] {3}, new int[] {2}, new double[3], 0))
                    .hasMessage("scatterv: rank 0's block (3 at 2) ends past the buffer's 4");
            assertThatThrownBy(() -> w.gatherv(new double[2], new double[4], new int[] {1}, new int[] {0}, 0))
                    .hasMessage("gatherv: the root sends 16 bytes but its count for itself is 8");
            assertThatThrownBy(() -> w.gatherv(new double[1], null, null, null, 0))
                    .hasMessage("gatherv: no counts where they are read");
            return null;
        });
    }

    /** A rank that sends more than the root's count for it: the root is told which rank, not handed shifted data. */
    @Test
    void ranksThatDisagreeOnACountGetAnError() throws Exception {
        List<String> said = run(2, true, w -> {
            try {
                w.gatherv(new double[w.rank() == 1 ? 3 : 1], new double[3], new int[] {1, 2}, new int[] {0, 1}, 0);
                return "no error";
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        });
        assertThat(said.get(0)).contains("rank 1").contains("24 bytes");
    }

    @Test
    void procNullMovesNothingAndSendrecvReplaceShifts() throws Exception {
        List<String> said = run(3, true, w -> {
            int me = w.rank();
            int left = me == 0 ? Comm.PROC_NULL : me - 1;
            int right = me == w.size() - 1 ? Comm.PROC_NULL : me + 1;
            double[] halo = {-1};
            Status s = w.sendrecv(new double[] {me}, right, 7, halo, left, 7);
            double[] ring = {me};
            w.sendrecvReplace(ring, (me + 1) % w.size(), 3, (me - 1 + w.size()) % w.size(), 3);
            return s.source() + " " + s.bytes() + " " + halo[0] + " " + ring[0];
        });
        assertThat(said).containsExactly(Comm.PROC_NULL + " 0 -1.0 2.0", "0 8 0.0 0.0", "1 8 1.0 1.0");
    }

    /** The overloads that were missing: every element type where MPI programs reach for it. */
    @Test
    void floatIntLongAndByteBufferOverloads() throws Exception {
        List<String> said = run(3, true, w -> {
            int me = w.rank();
            int n = w.size();
            float[] f = {me + 0.5f};
            w.bcast(f, 1);
            float[] fsum = new float[1];
            w.reduce(new float[] {me}, fsum, Op.SUM, 0);
            int[] ints = new int[n];
            w.gather(new int[] {me * 2}, me == 0 ? ints : null, 0);
            long[] part = new long[1];
            w.scatter(me == 2 ? new long[] {10, 11, 12} : null, part, 2);
            int[] ipart = new int[1];
            w.scatter(me == 0 ? new int[] {5, 6, 7} : null, ipart, 0);
            float[] fall = new float[n];
            w.allgather(new float[] {me}, fall);
            long[] lt = new long[n];
            long[] lo = new long[n];
            Arrays.setAll(lo, p -> me * 10L + p);
            w.alltoall(lo, lt);
            java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(4).putInt(0, me);
            java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(4);
            Request r = w.irecv(in, (me - 1 + n) % n, 5);
            Request s = w.isend(out, (me + 1) % n, 5);
            r.await();
            s.await();
            int[] got = new int[1];
            w.sendrecv(new int[] {me}, (me + 1) % n, 6, got, (me - 1 + n) % n, 6);
            return f[0] + " " + (me == 0 ? fsum[0] + " " + Arrays.toString(ints) : "-") + " " + part[0] + " " + ipart[0] + " "
                    + Arrays.toString(fall) + " " + Arrays.toString(lt) + " " + in.getInt(0) + " " + got[0];
        });
        assertThat(said).containsExactly(
                "1.5 3.0 [0, 2, 4] 10 5 [0.0, 1.0, 2.0] [0, 10, 20] 2 2",
                "1.5 - 11 6 [0.0, 1.0, 2.0] [1, 11, 21] 0 0",
                "1.5 - 12 7 [0.0, 1.0, 2.0] [2, 12, 22] 1 1");
    }

    /** A halo exchange set up once and started every iteration, as stencil codes do with MPI_Send_init. */
    @Test
    void persistentRequestsRestartWithTheBufferAsItIsThen() throws Exception {
        List<String> said = run(2, false, w -> {
            int other = 1 - w.rank();
            double[] out = new double[1];
            double[] in = new double[1];
            List<PersistentRequest> both = List.of(w.recvInit(in, other, 4), w.sendInit(out, other, 4));
            StringBuilder seen = new StringBuilder();
            for (int it = 0; it < 3; it++) {
                out[0] = w.rank() * 10 + it;
                PersistentRequest.startAll(both);
                PersistentRequest.awaitAll(both);
                seen.append(in[0]).append(' ');
            }
            PersistentRequest once = w.sendInit(out, other, 5);
            once.start();
            try {
                once.start();
                return "started twice";
            } catch (IllegalStateException e) {
                once.await();
            }
            w.recv(new double[1], other, 5);
            return seen.toString().strip();
        });
        assertThat(said).containsExactly("10.0 11.0 12.0", "0.0 1.0 2.0");
    }

    /** reduce_scatter: the sum of every rank's vector, rank r its block; uneven blocks; the refusals. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void reduceScatterGivesEachRankItsBlockOfTheReduction(int n) throws Exception {
        List<String> said = run(n, true, w -> {
            int me = w.rank();
            int size = w.size();
            double[] send = new double[2 * size];
            Arrays.setAll(send, i -> me + i * 0.5);
            double[] mine = new double[2];
            w.reduceScatterBlock(send, mine, Op.SUM);
            for (int i = 0; i < send.length; i++) {
                if (send[i] != me + i * 0.5) {
                    return "the send buffer changed at " + i;
                }
            }
            int[] counts = new int[size];
            Arrays.setAll(counts, r -> r % 2 == 0 ? 1 : 2);
            long[] lsend = new long[Arrays.stream(counts).sum()];
            Arrays.setAll(lsend, i -> me * 100L + i);
            long[] lmine = new long[counts[me]];
            w.reduceScatter(lsend, lmine, counts, Op.MAX);
            try {
                w.reduceScatter(new int[3], new int[1], new int[size], Op.SUM);
                return "no refusal";
            } catch (IllegalArgumentException e) {
                return Arrays.toString(mine) + " " + Arrays.toString(lmine) + " " + e.getMessage();
            }
        });
        for (int r = 0; r < n; r++) {
            int rank = r;
            double sumOfRanks = n * (n - 1) / 2.0;
            String block = "[" + (sumOfRanks + n * (2 * rank) * 0.5) + ", " + (sumOfRanks + n * (2 * rank + 1) * 0.5) + "]";
            int offset = 0;
            for (int q = 0; q < rank; q++) {
                offset += q % 2 == 0 ? 1 : 2;
            }
            StringBuilder max = new StringBuilder("[");
            for (int i = 0; i < (rank % 2 == 0 ? 1 : 2); i++) {
                max.append(i == 0 ? "" : ", ").append((n - 1) * 100L + offset + i);
            }
            assertThat(said.get(r)).startsWith(block + " " + max + "]")
                    .endsWith("reduceScatter: the counts add up to 0 elements, the send buffer holds 3");
        }
    }
}
