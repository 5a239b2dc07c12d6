package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Every collective at sizes that take each algorithm (small and large messages, power-of-two and
 * not, root 0 and not), ranks on one host (shared memory).
 */
class CollectivesTest {
    static <T> List<T> run(int n, LocalJob.Body<T> body) throws Exception {
        return LocalJob.run(n, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), body);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 8})
    void barrierBcastAndScatterGather(int n) throws Exception {
        List<Boolean> ok = run(n, w -> {
            w.barrier();
            int root = w.size() - 1;
            for (int len : new int[] {1, 1000, 20_000}) { // 20,000 doubles: scatter + ring at 8 ranks
                double[] b = new double[len];
                if (w.rank() == root) {
                    Arrays.setAll(b, i -> i * 0.5);
                }
                w.bcast(b, root);
                for (int i = 0; i < len; i++) {
                    if (b[i] != i * 0.5) {
                        return false;
                    }
                }
            }
            double[] mine = {w.rank(), w.rank() * 2.0};
            double[] all = new double[2 * w.size()];
            w.gather(mine, all, root);
            if (w.rank() == root) {
                for (int r = 0; r < w.size(); r++) {
                    if (all[2 * r] != r || all[2 * r + 1] != 2.0 * r) {
                        return false;
                    }
                }
            }
            double[] back = new double[2];
            w.scatter(all, back, root);
            return back[0] == w.rank() && back[1] == 2.0 * w.rank();
        });
        assertThat(ok).containsOnly(true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 6, 8})
    void reduceAndAllreduceShortAndLong(int n) throws Exception {
        List<Boolean> ok = run(n, w -> {
            for (int len : new int[] {1, 7, 5_000}) { // 5,000 longs: the ring
                long[] mine = new long[len];
                Arrays.setAll(mine, i -> (w.rank() + 1) * (long) (i + 1));
                long[] sum = new long[len];
                w.allreduce(mine, sum, Op.SUM);
                long total = (long) w.size() * (w.size() + 1) / 2;
                for (int i = 0; i < len; i++) {
                    if (sum[i] != total * (i + 1) || mine[i] != (w.rank() + 1) * (long) (i + 1)) {
                        return false; // a wrong sum, or the send buffer touched
                    }
                }
                long[] inPlace = mine.clone(); // one buffer for both: the ring's other path
                w.allreduce(inPlace, inPlace, Op.SUM);
                if (!Arrays.equals(inPlace, sum)) {
                    return false;
                }
                long[] max = new long[len];
                w.reduce(mine, max, Op.MAX, 1 % w.size());
                if (w.rank() == 1 % w.size() && max[len - 1] != (long) w.size() * len) {
                    return false;
                }
            }
            return true;
        });
        assertThat(ok).containsOnly(true);
    }

    /** A non-commutative operation shows whether rank order is kept: x ∘ y = 10·x + y folds digits. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 7})
    void nonCommutativeReductionsKeepRankOrder(int n) throws Exception {
        Op digits = Op.ofLongs((in, inout) -> in * pow10(digitsOf(inout)) + inout, false);
        List<long[]> got = run(n, w -> {
            long[] mine = {w.rank() + 1};
            long[] all = new long[1];
            w.allreduce(mine, all, digits);
            long[] at2 = new long[1];
            w.reduce(mine, at2, digits, 1);
            return new long[] {all[0], at2[0]};
        });
        long expected = Long.parseLong(IntStream.rangeClosed(1, n).mapToObj(Integer::toString).reduce("", String::concat));
        for (int r = 0; r < n; r++) {
            assertThat(got.get(r)[0]).as("allreduce at %d", r).isEqualTo(expected);
        }
        assertThat(got.get(1)[1]).isEqualTo(expected);
    }

    static int digitsOf(long v) {
        return Long.toString(v).length();
    }

    static long pow10(int d) {
        long p = 1;
        for (int i = 0; i < d; i++) {
            p *= 10;
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void allgatherAndAlltoallSmallAndLarge(int n) throws Exception {
        List<Boolean> ok = run(n, w -> {
            for (int block : new int[] {1, 10_000}) { // 10,000 ints = 40 KB blocks: ring / pairwise
                int[] mine = new int[block];
                Arrays.fill(mine, w.rank());
                int[] all = new int[block * w.size()];
                w.allgather(mine, all);
                for (int i = 0; i < all.length; i++) {
                    if (all[i] != i / block) {
                        return false;
                    }
                }
                int[] out = new int[block * w.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = w.rank() * 1000 + i / block; // block j goes to rank j
                }
                int[] in = new int[out.length];
                w.alltoall(out, in);
                for (int i = 0; i < in.length; i++) {
                    if (in[i] != (i / block) * 1000 + w.rank()) {
                        return false;
                    }
                }
            }
            return true;
        });
        assertThat(ok).containsOnly(true);
    }

    @Test
    void splitMakesGroupsByColorOrderedByKey() throws Exception {
        List<int[]> got = run(6, w -> {
            Comm half = w.split(w.rank() % 2, -w.rank()); // reverse order within each color
            long[] sum = new long[1];
            half.allreduce(new long[] {w.rank()}, sum, Op.SUM);
            Comm none = w.split(w.rank() == 0 ? 0 : -1, 0);
            Comm copy = half.dup();
            copy.barrier();
            return new int[] {half.size(), half.rank(), (int) sum[0], none == null ? -1 : none.size()};
        });
        assertThat(got.get(0)).containsExactly(3, 2, 0 + 2 + 4, 1);
        assertThat(got.get(4)).containsExactly(3, 0, 6, -1);
        assertThat(got.get(5)).containsExactly(3, 0, 1 + 3 + 5, -1);
    }

    @Test
    void mismatchedSizesAreReported() throws Exception {
        List<String> got = run(2, w -> {
            double[] b = new double[w.rank() == 0 ? 4 : 8];
            try {
                w.bcast(b, 0);
                return "no error";
            } catch (CommException e) {
                return e.getMessage();
            }
        });
        assertThat(got.get(1)).isEqualTo("bcast: rank 0 sent 32 bytes where 64 were expected; the ranks called it with different sizes");
    }

    /**
     * Array collectives whose buffers do not make whole, equal blocks are refused where they are
     * given: a scatter of 1,002 doubles into 4 × 250 dropped two without a word, an alltoall of 10
     * doubles on 4 ranks made blocks of two and a half. Every rank checks an alltoall; the root a
     * scatter or a gather (one rank here, so no other waits for it).
     */
    @Test
    void buffersThatDoNotMakeWholeBlocksAreRefused() throws Exception {
        List<String> all = run(4, w -> {
            try {
                w.alltoall(new double[10], new double[10]);
                return "no error";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(all).containsOnly("alltoall: 10 elements do not make 4 equal blocks (or the receive buffer, 10, is smaller)");
        List<String> one = run(1, w -> {
            List<String> said = new java.util.ArrayList<>();
            for (Runnable r : List.<Runnable>of(
                    () -> w.scatter(new double[1002], new double[1000], 0),
                    () -> w.gather(new double[250], new double[251], 0),
                    () -> w.allgather(new long[3], new long[4]))) {
                try {
                    r.run();
                    said.add("no error");
                } catch (IllegalArgumentException e) {
                    said.add(e.getMessage());
                }
            }
            w.scatter(new double[4], new double[4], 0); // exact: fine
            return String.join("|", said);
        });
        assertThat(one.getFirst()).isEqualTo("scatter: 1002 elements at the root for 1 ranks of 1000: it must be exactly 1000"
                + "|gather: 251 elements at the root for 1 ranks of 250: it must be exactly 250"
                + "|allgather: 4 elements at each rank for 1 ranks of 3: it must be exactly 3");
    }

    /**
     * A rank whose error closes the world (the try-with-resources idiom) no longer hangs the
     * others: each rank waiting for it in a collective gets a CommException naming it, closes in
     * turn, and every rank's close returns. The library's closing barrier no longer matches a
     * user's barrier() either: a rank in barrier() when another closes is told so.
     */
    @Test
    void aRankThatFailsAndClosesEndsTheOthersWaits() throws Exception {
        List<String> got = run(4, w -> {
            try (w) {
                if (w.rank() == 0) {
                    throw new IllegalStateException("boom");
                }
                w.bcast(new double[4], 0);
                return "no error";
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
        assertThat(got.get(0)).isEqualTo("IllegalStateException: boom");
        for (int r = 1; r < 4; r++) {
            assertThat(got.get(r)).as("rank %d", r).startsWith("CommException: rank ").contains("closed the world");
        }
        List<String> barrier = run(2, w -> {
            try (w) {
                if (w.rank() == 1) {
                    w.barrier();
                }
                return "passed";
            } catch (RuntimeException e) {
                return e.getMessage();
            }
        });
        assertThat(barrier.get(0)).isEqualTo("passed");
        assertThat(barrier.get(1)).as("its barrier did not match rank 0's close").contains("rank 0 closed the world");
    }

    /** A message of 2 GiB or more is refused at its sender: its length wrapped in the envelope, and the receiver died. */
    @Test
    void aMessageOfTwoGibibytesIsRefusedAtTheSender() throws Exception {
        List<String> got = run(1, w -> {
            // a segment of that size over no memory: the check comes before any byte is read
            java.lang.foreign.MemorySegment huge = java.lang.foreign.MemorySegment.NULL.reinterpret(Comm.MAX_MESSAGE_BYTES + 1);
            try {
                w.isend(huge, 0, 0);
                return "no error";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(got.getFirst()).isEqualTo("a message of 2147483648 bytes: banyan-comm carries at most 2147483647 (2 GiB - 1) "
                + "in one; send it in parts");
    }

    /** MPI_Scan and MPI_Exscan in rank order (a non-commutative operation shows it), and the logical and bitwise operations. */
    @Test
    void scansLogicalAndBitwiseOperations() throws Exception {
        Op concat = Op.ofLongs((lower, mine) -> lower * 10 + mine, false); // digits in rank order
        List<long[]> got = run(5, w -> {
            long[] in = {w.rank() + 1, 1L << w.rank()};
            long[] scan = new long[2];
            w.scan(in, scan, Op.SUM);
            long[] ex = {-7, -7};
            w.exscan(in, ex, Op.SUM);
            long[] order = new long[1];
            w.scan(new long[] {w.rank() + 1}, order, concat);
            long[] bits = new long[2];
            w.allreduce(new long[] {1L << w.rank(), w.rank() == 3 ? 0 : 1}, bits, Op.BOR);
            long[] logic = new long[3];
            w.allreduce(new long[] {w.rank() == 3 ? 0 : 5}, new long[1], Op.LAND); // takes longs
            int[] flags = new int[3];
            w.allreduce(new int[] {w.rank() == 3 ? 0 : 5, w.rank() == 3 ? 2 : 0, 1}, flags, Op.LAND);
            int[] any = new int[1];
            w.allreduce(new int[] {w.rank() == 3 ? 2 : 0}, any, Op.LOR);
            int[] odd = new int[1];
            w.allreduce(new int[] {1}, odd, Op.LXOR);
            long[] band = new long[1];
            w.allreduce(new long[] {0b111L ^ (1L << (w.rank() % 3))}, band, Op.BAND);
            long[] bxor = new long[1];
            w.allreduce(new long[] {w.rank()}, bxor, Op.BXOR);
            return new long[] {scan[0], scan[1], ex[0], ex[1], order[0], bits[0], bits[1], flags[0], flags[1], flags[2],
                    any[0], odd[0], band[0], bxor[0]};
        });
        assertThat(got.get(0)).containsExactly(1, 1, -7, -7, 1, 31, 1, 0, 0, 1, 1, 1, 0, 4);
        assertThat(got.get(2)).startsWith(6, 7, 3, 3, 123);
        assertThat(got.get(4)).startsWith(15, 31, 10, 15, 12345);
        List<String> floating = run(2, w -> {
            try {
                w.allreduce(new double[] {1}, new double[1], Op.BAND);
                return "no error";
            } catch (CommException e) {
                return e.getMessage();
            }
        });
        assertThat(floating.getFirst()).isEqualTo("BAND is defined on integral values (BYTE, INT, LONG), not on floating ones");
    }

    /** MPI_Waitany, Waitsome, Testany, Testall over receives that complete out of order. */
    @Test
    void waitAnyAndSomeAndTestAll() throws Exception {
        List<String> got = run(3, w -> {
            if (w.rank() == 0) {
                long[] a = new long[1];
                long[] b = new long[1];
                List<Request> rs = List.of(w.irecv(a, 1, 5), w.irecv(b, 2, 5));
                int early = Request.testAny(rs); // may or may not be there yet: none, or one of the two
                boolean none = early >= -1 && early <= 1;
                int first = Request.awaitAny(rs);
                List<Integer> rest = Request.awaitSome(rs);
                while (!Request.testAll(rs)) {
                    Thread.onSpinWait();
                }
                return none + " " + (first == 0 || first == 1) + " " + !rest.isEmpty() + " " + a[0] + " " + b[0];
            }
            w.send(new long[] {10L * w.rank()}, 0, 5);
            return "sent";
        });
        assertThat(got.getFirst()).isEqualTo("true true true 10 20");
    }

    /** A closed world ends waits on the communicators split from it too, not only on the world. */
    @Test
    void aRankThatClosesEndsWaitsOnSplitCommunicators() throws Exception {
        List<String> got = run(4, w -> {
            try (w) {
                Comm half = w.split(w.rank() % 2, w.rank());
                if (w.rank() == 0) {
                    throw new IllegalStateException("boom");
                }
                half.barrier(); // rank 2 waits for world rank 0 here
                w.barrier();
                return "no error";
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
        assertThat(got.get(0)).isEqualTo("IllegalStateException: boom");
        assertThat(got.get(2)).as("waiting in its half for world rank 0").startsWith("CommException: rank 0 closed the world");
        // in the world's barrier, ranks 1 and 3 may be waiting for rank 0 or for rank 2, which closed after it
        assertThat(got.get(1)).startsWith("CommException: rank ").contains("closed the world");
        assertThat(got.get(3)).startsWith("CommException: rank ").contains("closed the world");
    }

    /**
     * MINLOC and MAXLOC (MPI_2DOUBLE_PRECISION's and MPI_2INT's pairs): where the extreme is, ties
     * to the smaller index; long buffers too, which the ring algorithm would have split mid-pair.
     */
    @Test
    void minlocAndMaxlocSayWhoHoldsTheExtreme() throws Exception {
        List<String> got = run(4, w -> {
            int me = w.rank();
            double[] mine = {me == 2 ? -1.5 : me, me, 7, me}; // pair 1: everyone holds 7, the smallest index wins
            double[] min = new double[4];
            double[] max = new double[4];
            w.allreduce(mine, min, Op.MINLOC);
            w.allreduce(mine, max, Op.MAXLOC);
            int[] ints = new int[2000]; // 8,000 bytes: past the ring's threshold
            for (int i = 0; i < ints.length; i += 2) {
                ints[i] = (i / 2 + me) % 4 == 0 ? 100 : me;
                ints[i + 1] = me;
            }
            int[] where = new int[ints.length];
            w.allreduce(ints, where, Op.MAXLOC);
            boolean pairsKept = true;
            for (int i = 0; i < where.length; i += 2) {
                int owner = (4 - (i / 2) % 4) % 4; // the rank whose (i/2 + me) % 4 == 0
                pairsKept &= where[i] == 100 && where[i + 1] == owner;
            }
            String odd;
            try {
                w.allreduce(new double[] {1, 2, 3}, new double[3], Op.MINLOC);
                odd = "accepted";
            } catch (IllegalArgumentException e) {
                odd = e.getMessage();
            }
            return Arrays.toString(min) + " " + Arrays.toString(max) + " " + pairsKept + " " + odd;
        });
        assertThat(got).containsOnly("[-1.5, 2.0, 7.0, 0.0] [3.0, 3.0, 7.0, 0.0] true allreduce: MINLOC takes (value, index) pairs: "
                + "an even number of elements, not 3");
    }

    /**
     * Non-blocking collectives: started in one order on every rank, with a blocking collective
     * called before they are awaited (it waits for them, so the ranks' collectives still meet in
     * order); each request's buffers hold the right result once done.
     */
    @Test
    void nonBlockingCollectivesMeetInCallOrderWithBlockingOnes() throws Exception {
        List<String> got = run(4, w -> {
            int me = w.rank();
            double[] sum = new double[2];
            Request r1 = w.iallreduce(new double[] {me, 1}, sum, Op.SUM);
            long[] fromOne = {me == 1 ? 42 : -1};
            Request r2 = w.ibcast(fromOne, 1);
            Request r3 = w.ibarrier();
            int[] all = new int[4];
            w.allgather(new int[] {me * me}, all); // blocking, before the three are awaited
            int[] gathered = new int[4];
            Request r4 = w.igather(new int[] {me + 10}, gathered, 2);
            int[] prefix = new int[1];
            Request r5 = w.iscan(new int[] {me + 1}, prefix, Op.SUM);
            int[] varied = new int[10];
            Request r6 = w.iallgatherv(new int[me + 1], varied, new int[] {1, 2, 3, 4}, new int[] {0, 1, 3, 6});
            Request.awaitAll(r1, r2, r3, r4, r5, r6);
            return Arrays.toString(sum) + " " + fromOne[0] + " " + Arrays.toString(all) + " "
                    + (me == 2 ? Arrays.toString(gathered) : "-") + " " + prefix[0];
        });
        assertThat(got).containsExactly("[6.0, 4.0] 42 [0, 1, 4, 9] - 1", "[6.0, 4.0] 42 [0, 1, 4, 9] - 3",
                "[6.0, 4.0] 42 [0, 1, 4, 9] [10, 11, 12, 13] 6", "[6.0, 4.0] 42 [0, 1, 4, 9] - 10");
    }

    /**
     * The collective thread makes progress while its rank computes: rank 0 starts a broadcast of
     * 4 MiB and sleeps without calling the library; the other ranks' blocking broadcasts end
     * during that sleep, not after it.
     */
    @Test
    void aNonBlockingBroadcastProgressesWhileItsRootComputes() throws Exception {
        List<Long> got = run(4, w -> {
            double[] data = new double[1 << 19];
            if (w.rank() == 0) {
                java.util.Arrays.fill(data, 3.0);
                Request r = w.ibcast(data, 0);
                Thread.sleep(1500); // computing: no call into the library
                long woke = System.nanoTime();
                r.await();
                return woke;
            }
            w.bcast(data, 0);
            return data[data.length - 1] == 3.0 ? System.nanoTime() : Long.MAX_VALUE;
        });
        for (int r = 1; r < 4; r++) {
            assertThat(got.get(r)).as("rank " + r + "'s broadcast ended before rank 0 woke").isLessThan(got.get(0));
        }
    }
}
