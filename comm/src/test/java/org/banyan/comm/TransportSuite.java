package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * What every transport must do, run over each (Netty's way): subclasses say which transport
 * carries the messages by where they put the ranks and what they switch off.
 */
abstract class TransportSuite {
    abstract IntFunction<String> hosts();

    abstract Map<String, String> env();

    /** The transport the suite's ranks must use between each other. */
    abstract Class<? extends Transport> transport();

    <T> List<T> run(int n, LocalJob.Body<T> body) throws Exception {
        return LocalJob.run(n, hosts(), env(), body);
    }

    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 8, 1000, 65_536, 1_000_003, 5_000_000})
    void pingPongKeepsEveryByte(int bytes) throws Exception {
        List<Boolean> ok = run(2, w -> {
            byte[] out = pattern(bytes, w.rank());
            byte[] in = new byte[bytes];
            if (w.rank() == 0) {
                w.send(out, 1, 7);
                Status s = w.recv(in, 1, 7);
                return s.bytes() == bytes && Arrays.equals(in, pattern(bytes, 1));
            }
            Status s = w.recv(in, 0, 7);
            w.send(out, 0, 7);
            return s.source() == 0 && s.tag() == 7 && Arrays.equals(in, pattern(bytes, 0));
        });
        assertThat(ok).containsOnly(true);
    }

    /**
     * Four ranks send each other 250 messages a pair of random sizes (mostly a few bytes, some
     * of several ring records, a few above the eager limit) and tags, all at once; each message
     * arrives whole, from each sender in the order sent, whatever the rings' wrapping and padding.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void randomSizesAndTagsBetweenFourRanksArriveWholeAndInOrder() throws Exception {
        int perPair = 250;
        List<String> got = run(4, w -> {
            int me = w.rank();
            Random sizes = new Random(me);
            List<Request> sends = new ArrayList<>();
            for (int i = 0; i < perPair; i++) {
                for (int peer = 0; peer < 4; peer++) {
                    if (peer != me) {
                        int size = size(sizes);
                        byte[] m = pattern(size, me * 1_000_000 + peer * 1_000 + i);
                        if (size >= 4) {
                            ByteBuffer.wrap(m).putInt(i);
                        }
                        sends.add(w.isend(m, peer, (i * 7 + size) % 5));
                    }
                }
            }
            byte[] buf = new byte[600_000];
            int[] next = new int[4];
            Random[] theirs = {new Random(0), new Random(1), new Random(2), new Random(3)};
            int[][] theirSizes = new int[4][perPair];
            for (int from = 0; from < 4; from++) { // the sizes each sender drew for us, in its order of draws
                for (int i = 0; i < perPair; i++) {
                    for (int peer = 0; peer < 4; peer++) {
                        if (peer != from) {
                            int size = size(theirs[from]);
                            if (peer == me) {
                                theirSizes[from][i] = size;
                            }
                        }
                    }
                }
            }
            for (int round = 0; round < perPair; round++) {
                for (int from = 0; from < 4; from++) {
                    if (from == me) {
                        continue;
                    }
                    int i = next[from]++;
                    int size = theirSizes[from][i];
                    Status st = w.recv(buf, from, Comm.ANY_TAG);
                    byte[] want = pattern(size, from * 1_000_000 + me * 1_000 + i);
                    if (size >= 4) {
                        ByteBuffer.wrap(want).putInt(i);
                    }
                    if (st.bytes() != size || st.tag() != (i * 7 + size) % 5
                            || !Arrays.equals(Arrays.copyOf(buf, size), want)) {
                        return "message " + i + " from " + from + ": " + st.bytes() + " bytes, tag " + st.tag();
                    }
                }
            }
            Request.awaitAll(sends);
            return "ok";
        });
        assertThat(got).containsOnly("ok");
    }

    /** Mostly a few bytes; some of several shared-memory records; a few above the eager limit. */
    private static int size(Random r) {
        int kind = r.nextInt(20);
        return kind < 14 ? r.nextInt(65) : kind < 18 ? 64 + r.nextInt(150_000) : 150_000 + r.nextInt(450_000);
    }

    @Test
    void theMessagesGoThroughTheTransportUnderTest() throws Exception {
        List<List<Class<?>>> used = run(3, w -> List.of(w.engine.transportTo((w.rank() + 1) % 3), w.engine.transportTo(w.rank())));
        for (List<Class<?>> u : used) {
            assertThat(u).containsExactly(transport(), SelfTransport.class);
        }
    }

    @Test
    void oneSendersMessagesArriveInTheOrderSentWhateverTheTag() throws Exception {
        List<int[]> got = run(2, w -> {
            int[] seen = new int[200];
            if (w.rank() == 0) {
                for (int i = 0; i < 200; i++) {
                    byte[] m = i % 10 == 0 ? new byte[300_000] : new byte[4]; // some long enough to stream
                    ByteBuffer.wrap(m).putInt(i);
                    w.send(m, 1, i % 3);
                }
            } else {
                byte[] buf = new byte[300_000];
                for (int i = 0; i < 200; i++) {
                    Status s = w.recv(buf, 0, Comm.ANY_TAG);
                    seen[i] = ByteBuffer.wrap(buf).getInt();
                    assertThat(s.tag()).isEqualTo(seen[i] % 3);
                }
            }
            return seen;
        });
        assertThat(got.get(1)).containsExactly(IntStream.range(0, 200).toArray());
    }

    @Test
    void receivesMatchByTagAndSourceNotByArrival() throws Exception {
        List<int[]> got = run(3, w -> {
            if (w.rank() > 0) {
                w.send(new int[] {w.rank() * 10 + 1}, 0, 1);
                w.send(new int[] {w.rank() * 10 + 2}, 0, 2);
                return new int[0];
            }
            int[] a = new int[1];
            int[] r = new int[4];
            w.recv(a, 2, 2);
            r[0] = a[0];
            w.recv(a, 1, 2);
            r[1] = a[0];
            w.recv(a, 2, 1);
            r[2] = a[0];
            w.recv(a, Comm.ANY_SOURCE, 1);
            r[3] = a[0];
            return r;
        });
        assertThat(got.get(0)).containsExactly(22, 12, 21, 11);
    }

    @Test
    void anySourceGetsEveryoneOnce() throws Exception {
        List<List<Integer>> got = run(5, w -> {
            List<Integer> sources = new ArrayList<>();
            if (w.rank() == 0) {
                long[] v = new long[1];
                for (int i = 1; i < w.size(); i++) {
                    Status s = w.recv(v, Comm.ANY_SOURCE, Comm.ANY_TAG);
                    assertThat(v[0]).isEqualTo(s.source() * 100L);
                    sources.add(s.source());
                }
            } else {
                w.send(new long[] {w.rank() * 100L}, 0, w.rank());
            }
            return sources;
        });
        assertThat(got.get(0)).containsExactlyInAnyOrder(1, 2, 3, 4);
    }

    @Test
    void nonBlockingRequestsPostedBeforeAndAfterTheirMessages() throws Exception {
        List<Boolean> ok = run(2, w -> {
            int peer = 1 - w.rank();
            List<Request> reqs = new ArrayList<>();
            double[][] in = new double[20][1000];
            for (int i = 0; i < 10; i++) {
                reqs.add(w.irecv(in[i], peer, i));
            }
            for (int i = 0; i < 20; i++) {
                double[] out = new double[1000];
                Arrays.fill(out, w.rank() * 1000 + i);
                reqs.add(w.isend(out, peer, i));
            }
            for (int i = 10; i < 20; i++) {
                reqs.add(w.irecv(in[i], peer, i));
            }
            Request.awaitAll(reqs);
            for (int i = 0; i < 20; i++) {
                if (in[i][999] != peer * 1000 + i) {
                    return false;
                }
            }
            return true;
        });
        assertThat(ok).containsOnly(true);
    }

    @Test
    void aShortReceiveBufferIsReportedNotOverrun() throws Exception {
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                w.send(new byte[100], 1, 0);
                return "";
            }
            byte[] small = new byte[60];
            try {
                w.recv(small, 0, 0);
                return "no exception";
            } catch (TruncatedException e) {
                return e.getMessage();
            }
        });
        assertThat(got.get(1)).isEqualTo("message from rank 0 (tag 0) has 100 bytes, the receive buffer only 60");
    }

    @Test
    void badRanksTagsAndUseAfterCloseAreClearErrors() throws Exception {
        run(2, w -> {
            assertThatThrownBy(() -> w.send(new byte[1], 2, 0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("destination rank 2 is out of range: the communicator MPI_COMM_WORLD has ranks 0 to 1");
            assertThatThrownBy(() -> w.recv(new byte[1], 0, -5)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tag -5 is negative");
            Comm d = w.dup();
            d.close();
            assertThatThrownBy(() -> d.send(new byte[1], 0, 0)).isInstanceOf(CommException.class)
                    .hasMessageContaining("after close");
            return null;
        });
    }

    @Test
    void byteBuffersAndSegmentsTravelFromPositionToLimit() throws Exception {
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                ByteBuffer b = ByteBuffer.allocateDirect(16).put("xxhello".getBytes()).flip().position(2);
                w.send(b, 1, 0);
                return "";
            }
            MemorySegment seg = MemorySegment.ofArray(new byte[16]);
            Status s = w.recv(seg, 0, 0);
            return new String(seg.asSlice(0, s.bytes()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        });
        assertThat(got.get(1)).isEqualTo("hello");
    }

    /**
     * A rank that waits for a large message's go-ahead while a small message it has not asked
     * for yet stands before that go-ahead (the shared-memory transport leaves messages no receive
     * waits for in the ring): the go-ahead still comes, and both messages arrive.
     */
    @Test
    void aGoAheadBehindAMessageNotYetReceivedStillComes() throws Exception {
        int large = 1 << 20;
        List<Boolean> ok = run(2, w -> {
            if (w.rank() == 0) {
                w.send(pattern(large, 0), 1, 1); // waits for rank 1's go-ahead
                byte[] small = new byte[64];
                w.recv(small, 1, 2);
                return Arrays.equals(small, pattern(64, 1));
            }
            w.send(pattern(64, 1), 0, 2); // eager: before the go-ahead on its way to rank 0
            byte[] in = new byte[large];
            w.recv(in, 0, 1);
            return Arrays.equals(in, pattern(large, 0));
        });
        assertThat(ok).containsOnly(true);
    }

    /**
     * Eager messages a rank receives only after waiting for a third rank, which waits for the
     * sender's next message: the first ones must be taken in while the rank waits on another
     * receive, or the sender could not go on (more than a ring holds: 64 × 8 KiB).
     */
    @Test
    void messagesNotYetAskedForAreTakenInWhileTheRankWaitsOnAnother() throws Exception {
        List<Boolean> ok = run(3, w -> {
            byte[] block = new byte[8192];
            switch (w.rank()) {
                case 0 -> {
                    for (int i = 0; i < 64; i++) {
                        w.send(pattern(8192, i), 1, 5);
                    }
                    w.send(new byte[] {1}, 2, 6);
                    return true;
                }
                case 1 -> {
                    w.recv(new byte[1], 2, 7);
                    for (int i = 0; i < 64; i++) {
                        w.recv(block, 0, 5);
                        if (!Arrays.equals(block, pattern(8192, i))) {
                            return false;
                        }
                    }
                    return true;
                }
                default -> {
                    w.recv(new byte[1], 0, 6);
                    w.send(new byte[] {1}, 1, 7);
                    return true;
                }
            }
        });
        assertThat(ok).containsOnly(true);
    }

    /** A stream of messages, each received only after the one before, arrives whole and in order. */
    @Test
    void aStreamReceivedOneByOneArrivesInOrder() throws Exception {
        List<Boolean> ok = run(2, w -> {
            byte[] block = new byte[20_000];
            for (int i = 0; i < 200; i++) {
                if (w.rank() == 0) {
                    w.send(pattern(20_000, i), 1, 3);
                } else {
                    w.recv(block, 0, 3);
                    if (!Arrays.equals(block, pattern(20_000, i))) {
                        return false;
                    }
                }
            }
            return true;
        });
        assertThat(ok).containsOnly(true);
    }

    @Test
    void iprobeSeesAWaitingMessageWithoutTakingIt() throws Exception {
        List<Integer> got = run(2, w -> {
            if (w.rank() == 0) {
                w.send(new byte[42], 1, 9);
                w.barrier();
                return 0;
            }
            w.barrier(); // the message was sent before
            Status s = w.probe(Comm.ANY_SOURCE, 9);
            w.recv(new byte[s.bytes()], s.source(), s.tag());
            return s.bytes();
        });
        assertThat(got.get(1)).isEqualTo(42);
    }

    /**
     * Flow control: large messages sent before their receives are posted are announced, not
     * delivered, so the receiver holds envelopes, not 50 MiB; posted later and in another order,
     * each receive gets its own message whole; probe sees the full length, and a short buffer
     * is a truncation naming it.
     */
    @Test
    void largeMessagesWaitAtTheSenderUntilTheirReceivesArePosted() throws Exception {
        int big = 1 << 20;
        int count = 50;
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    sends.add(w.isend(pattern(big, i), 1, i));
                }
                sends.add(w.isend(pattern(big + 8, 99), 1, 99));
                w.barrier(); // rank 1 looks while nothing is received
                int waiting = w.engine.announcedWaiting();
                w.barrier();
                Request.awaitAll(sends);
                return waiting + " " + w.engine.announcedWaiting();
            }
            w.barrier();
            Status announced = w.probe(0, 7);
            w.barrier();
            StringBuilder wrong = new StringBuilder();
            for (int i = count - 1; i >= 0; i--) {
                byte[] in = new byte[big];
                Status s = w.recv(in, 0, i);
                if (s.bytes() != big || !Arrays.equals(in, pattern(big, i))) {
                    wrong.append(i).append(' ');
                }
            }
            String truncated;
            try {
                w.recv(new byte[big], 0, 99);
                truncated = "no exception";
            } catch (TruncatedException e) {
                truncated = e.getMessage();
            }
            return announced.bytes() + " [" + wrong + "] " + truncated;
        });
        assertThat(got.get(0)).as("announced and waiting, then all sent").isEqualTo((count + 1) + " 0");
        assertThat(got.get(1)).isEqualTo(big + " [] message from rank 0 (tag 99) has " + (big + 8) + " bytes, the receive buffer only "
                + big);
    }

    /** A buffered send returns before its receive is posted, large or not; the bytes follow as the sender makes progress. */
    @Test
    void aBufferedSendDoesNotWaitForItsReceive() throws Exception {
        int big = 4 << 20;
        List<Boolean> got = run(2, w -> {
            if (w.rank() == 0) {
                byte[] data = pattern(big, 3);
                w.bsend(MemorySegment.ofArray(data), 1, 5);
                java.util.Arrays.fill(data, (byte) 0); // the copy went, not this
                w.barrier(); // the receive is posted after this
                w.barrier();
                return true;
            }
            w.barrier();
            byte[] in = new byte[big];
            Request r = w.irecv(in, 0, 5);
            w.barrier();
            r.await();
            return Arrays.equals(in, pattern(big, 3));
        });
        assertThat(got).containsOnly(true);
    }

    /** A synchronous send, even of 8 bytes, is not done before its receive is posted; then it is. */
    @Test
    void aSynchronousSendWaitsForItsReceive() throws Exception {
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                Request r = w.issend(new byte[8], 1, 3);
                boolean early = r.test();
                w.barrier(); // rank 1 posts its receive only after this
                r.await();
                w.ssend(new double[] {2.5}, 1, 4);
                return "done before the receive: " + early;
            }
            w.barrier();
            w.recv(new byte[8], 0, 3);
            double[] d = new double[1];
            w.recv(d, 0, 4);
            return "got " + d[0];
        });
        assertThat(got).containsExactly("done before the receive: false", "got 2.5");
    }

    /**
     * Matched probes (MPI_Mprobe/Mrecv): a probed message is taken out of matching, so a later
     * receive or probe gets the next one; small and announced (large) messages alike; a message
     * is received once; a probe of PROC_NULL is a message of no bytes.
     */
    @Test
    void aMatchedProbeTakesItsMessageOutOfMatching() throws Exception {
        int big = 1 << 20;
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                w.send(new int[] {11}, 1, 1);
                Request large = w.isend(pattern(big, 5), 1, 2);
                w.send(new int[] {12}, 1, 1);
                w.barrier();
                large.await();
                return "";
            }
            w.barrier();
            Message first = w.mprobe(0, Comm.ANY_TAG);
            Status next = w.probe(0, Comm.ANY_TAG);
            Message large = w.improbe(0, 2);
            int[] third = new int[1];
            w.recv(third, 0, 1);
            int[] one = new int[1];
            Status s1 = w.mrecv(one, first);
            byte[] in = new byte[big];
            Status s2 = w.mrecv(in, large);
            String again;
            try {
                w.mrecv(one, first);
                again = "received twice";
            } catch (IllegalStateException e) {
                again = e.getMessage();
            }
            Message none = w.improbe(0, 9);
            Status fromNull = w.mrecv(new byte[0], w.improbe(Comm.PROC_NULL, 0));
            return first.status().tag() + " " + next.tag() + " " + third[0] + " " + one[0] + " " + s1.bytes() + " "
                    + (s2.bytes() == big && Arrays.equals(in, pattern(big, 5))) + " " + (none == null) + " " + fromNull.source()
                    + " | " + again;
        });
        assertThat(got.get(1)).isEqualTo("1 2 12 11 4 true true " + Comm.PROC_NULL
                + " | the message (from rank 0, tag 1) was received already");
    }

    /**
     * MPI_Cancel of a receive: taken back before a message matched it, it gets nothing and the
     * message waits for the next receive; once matched, cancel is refused and the receive ends
     * normally; a send cannot be cancelled.
     */
    @Test
    void aReceiveCancelledBeforeItsMessageLeavesTheMessageToTheNext() throws Exception {
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                w.barrier();
                w.send(new int[] {5}, 1, 5);
                Request s = w.isend(new int[] {7}, 1, 7);
                boolean sendCancelled = s.cancel();
                s.await();
                w.barrier();
                return "send cancelled: " + sendCancelled;
            }
            Request early = w.irecv(new int[1], 0, 5);
            boolean taken = early.cancel();
            Status nothing = early.await();
            w.barrier(); // rank 0 sends only now
            int[] five = new int[1];
            w.recv(five, 0, 5);
            int[] seven = new int[1];
            Request late = w.irecv(seven, 0, 7);
            late.await();
            boolean lateTaken = late.cancel();
            w.barrier();
            return taken + " " + early.cancelled() + " " + nothing + " " + five[0] + " " + lateTaken + " " + late.cancelled() + " " + seven[0];
        });
        assertThat(got).containsExactly("send cancelled: false", "true true null 5 false false 7");
    }

    /** The (offset, count) forms: a part of an array goes into a part of another, as &a[i] in C. */
    @Test
    void partsOfArraysTravelByOffsetAndCount() throws Exception {
        List<String> got = run(2, w -> {
            if (w.rank() == 0) {
                w.send(new double[] {0, 1, 2, 3, 4, 5, 6}, 2, 4, 1, 0);
                w.isend(new int[] {9, 8, 7}, 1, 2, 1, 1).await();
                try {
                    w.send(new long[3], 2, 2, 1, 2);
                    return "accepted";
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            }
            double[] d = new double[6];
            Status s = w.recv(d, 1, 4, 0, 0);
            int[] i = new int[4];
            w.irecv(i, 2, 2, 0, 1).await();
            return Arrays.toString(d) + " " + s.bytes() + " " + Arrays.toString(i);
        });
        assertThat(got).containsExactly("elements 2 to 4 are outside an array of 3",
                "[0.0, 2.0, 3.0, 4.0, 5.0, 0.0] 32 [0, 0, 8, 7]");
    }

    /**
     * A large message waits at its sender for the receive (the rendezvous); a receiver that fails
     * and closes the world before posting it will never ask for it, and the send fails naming it
     * instead of waiting for ever (the sender then closes, and the job ends).
     */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aLargeSendToARankThatFailsBeforeItsReceiveFailsRatherThanWaits() throws Exception {
        List<String> got = run(2, w -> {
            try (w) {
                if (w.rank() == 1) {
                    w.barrier();
                    throw new IllegalStateException("boom");
                }
                Request send = w.isend(MemorySegment.ofArray(new byte[(Rendezvous.EAGER_LIMIT + 1) * 4]), 1, 5);
                w.barrier();
                send.await();
                return "sent";
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
        assertThat(got.get(1)).isEqualTo("IllegalStateException: boom");
        assertThat(got.get(0)).startsWith("CommException: rank 1 closed the world").contains("message to it");
    }
}
