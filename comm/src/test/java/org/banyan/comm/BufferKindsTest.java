package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every call that takes a buffer takes every buffer type (issue 55: "consistent overloads for
 * every primitive array type, ByteBuffer and MemorySegment"), checked over the public API by
 * reflection, and the forms added for it exercised over shared memory and TCP.
 */
class BufferKindsTest {
    /** Calls whose int[] is ranks, coordinates or a graph's lists, not a buffer. */
    private static final Set<String> NOT_BUFFERS = Set.of("rank", "graph");
    private static final List<Class<?>> ARRAYS = List.of(byte[].class, int[].class, long[].class, float[].class, double[].class);

    /**
     * A call's family is its name, its number of arguments (an {@link Elem} not counted: memory
     * segments and byte buffers name their values' type where an array's type says it) and
     * whether it takes a {@link Datatype}. In every family: all five array types if any, a
     * {@code ByteBuffer} form wherever there is a {@code MemorySegment} one, and every name that
     * takes arrays also takes segments in some family (an (offset, count) form is the arrays'
     * own: a segment's part is {@code asSlice}).
     */
    @Test
    void everyBufferCallTakesEveryBufferType() {
        List<String> missing = new ArrayList<>();
        for (Class<?> type : List.of(Comm.class, Intercomm.class, DistGraph.class, Cartesian.class, Window.class)) {
            Map<String, Set<String>> families = new TreeMap<>();
            Map<String, Set<String>> byName = new TreeMap<>();
            for (Method m : type.getMethods()) {
                if (!Modifier.isPublic(m.getModifiers()) || m.getDeclaringClass() == Object.class) {
                    continue;
                }
                Class<?> buffer = Arrays.stream(m.getParameterTypes()).filter(BufferKindsTest::isBuffer).findFirst().orElse(null);
                if (buffer == null || NOT_BUFFERS.contains(m.getName()) || m.getName().startsWith("create")) {
                    continue;
                }
                long args = Arrays.stream(m.getParameterTypes()).filter(p -> p != Elem.class).count();
                boolean typed = Arrays.asList(m.getParameterTypes()).contains(Datatype.class);
                String family = m.getName() + "/" + args + (typed ? " typed" : "");
                families.computeIfAbsent(family, f -> new TreeSet<>()).add(buffer.getSimpleName());
                byName.computeIfAbsent(m.getName(), f -> new TreeSet<>()).add(buffer.getSimpleName());
            }
            families.forEach((family, kinds) -> {
                boolean arrays = ARRAYS.stream().anyMatch(a -> kinds.contains(a.getSimpleName()));
                for (Class<?> a : ARRAYS) {
                    if (arrays && !kinds.contains(a.getSimpleName())) {
                        missing.add(type.getSimpleName() + "." + family + ": " + a.getSimpleName());
                    }
                }
                if (kinds.contains("MemorySegment") != kinds.contains("ByteBuffer")) {
                    missing.add(type.getSimpleName() + "." + family + ": " + (kinds.contains("MemorySegment") ? "ByteBuffer" : "MemorySegment"));
                }
            });
            byName.forEach((name, kinds) -> {
                if (!kinds.contains("MemorySegment")) {
                    missing.add(type.getSimpleName() + "." + name + ": no MemorySegment form");
                }
            });
        }
        assertThat(missing).isEmpty();
    }

    /**
     * Every blocking collective of a communicator, in every form (types, datatypes, parts of
     * arrays), every collective of an intercommunicator, and every neighbour collective of a
     * topology has its non-blocking twin.
     */
    @Test
    void everyCollectiveHasANonBlockingForm() {
        Set<String> collectives = Set.of("barrier", "bcast", "reduce", "allreduce", "scan", "exscan", "gather", "scatter", "allgather",
                "alltoall", "gatherv", "scatterv", "allgatherv", "alltoallv", "alltoallw", "reduceScatter", "reduceScatterBlock");
        Set<String> neighbours = Set.of("neighborAllgather", "neighborAlltoall", "neighborAllgatherv", "neighborAlltoallv",
                "neighborAlltoallw");
        List<String> missing = new ArrayList<>();
        for (Class<?> type : List.of(Comm.class, Intercomm.class, DistGraph.class, Cartesian.class)) {
            for (Method m : type.getMethods()) {
                if (collectives.contains(m.getName()) || neighbours.contains(m.getName())) {
                    twin(type, m, missing);
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    private static void twin(Class<?> type, Method m, List<String> missing) {
        try {
            Method twin = type.getMethod("i" + m.getName(), m.getParameterTypes());
            if (twin.getReturnType() != Request.class) {
                missing.add(twin + " does not return a Request");
            }
        } catch (NoSuchMethodException e) {
            missing.add(type.getSimpleName() + ".i" + m.getName() + Arrays.toString(m.getParameterTypes()));
        }
    }

    private static boolean isBuffer(Class<?> p) {
        return ARRAYS.contains(p) || p == MemorySegment.class || p == ByteBuffer.class;
    }

    private static ByteBuffer direct(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    /**
     * Reductions on bytes and floats, reduce-scatter on bytes, floats and byte buffers, scans on
     * parts of arrays, and the non-blocking forms on byte buffers, on 3 ranks.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void reductionsOnEveryBufferType(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            StringBuilder s = new StringBuilder();
            byte[] bits = new byte[1];
            w.allreduce(new byte[] {(byte) (1 << me)}, bits, Op.BOR);
            s.append("bor ").append(bits[0]);
            byte[] atRoot = new byte[1];
            w.reduce(new byte[] {(byte) (me + 1)}, atRoot, Op.SUM, 0);
            s.append(" reduce ").append(me == 0 ? atRoot[0] : -1);
            float[] block = new float[2];
            w.reduceScatterBlock(new float[] {me, me, 10, 10, 100, 100}, block, Op.SUM);
            s.append(" rsb ").append(block[0]).append(",").append(block[1]);
            byte[] mine = new byte[me + 1];
            w.reduceScatter(new byte[] {1, 1, 1, 1, 1, 1}, mine, new int[] {1, 2, 3}, Op.SUM);
            s.append(" rs ").append(Arrays.toString(mine));
            ByteBuffer send = direct(24);
            for (int i = 0; i < 3; i++) {
                send.putLong(i * 8, me * 10L + i);
            }
            ByteBuffer recv = direct(8);
            w.reduceScatterBlock(send, recv, Elem.LONG, Op.MAX);
            s.append(" rsbb ").append(recv.getLong(0));
            long[] prefix = {0, 0, 0, -7};
            w.scan(new long[] {-1, me, me}, 1, prefix, 1, 2, Op.SUM);
            s.append(" scan ").append(Arrays.toString(prefix));
            ByteBuffer a = direct(8).putDouble(0, me + 0.5);
            ByteBuffer b = direct(8);
            w.iallreduce(a, b, Elem.DOUBLE, Op.SUM).await();
            s.append(" iall ").append(b.getDouble(0));
            float[] ex = {-1};
            w.iexscan(new float[] {me + 1}, ex, Op.PROD).await();
            s.append(" iexscan ").append(me == 0 ? "-" : ex[0]);
            return s.toString();
        });
        assertThat(got).containsExactly(
                "bor 7 reduce 6 rsb 3.0,3.0 rs [3] rsbb 20 scan [0, 0, 0, -7] iall 4.5 iexscan -",
                "bor 7 reduce -1 rsb 30.0,30.0 rs [3, 3] rsbb 21 scan [0, 1, 1, -7] iall 4.5 iexscan 1.0",
                "bor 7 reduce -1 rsb 300.0,300.0 rs [3, 3, 3] rsbb 22 scan [0, 3, 3, -7] iall 4.5 iexscan 2.0");
    }

    /**
     * The "v" collectives on floats, bytes, byte buffers and memory segments, and on parts of
     * arrays, on 3 ranks: rank r contributes r + 1 values.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void vectorCollectivesOnEveryBufferType(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            int[] counts = {1, 2, 3};
            int[] displs = {0, 1, 3};
            StringBuilder s = new StringBuilder();
            float[] mine = new float[me + 1];
            Arrays.fill(mine, me);
            float[] all = new float[6];
            w.allgatherv(mine, all, counts, displs);
            s.append("agv ").append(Arrays.toString(all));
            byte[] fromRoot = new byte[me + 1];
            w.scatterv(me == 1 ? new byte[] {9, 8, 7, 6, 5, 4} : null, counts, displs, fromRoot, 1);
            s.append(" sv ").append(Arrays.toString(fromRoot));
            ByteBuffer part = direct(me + 1);
            for (int i = 0; i <= me; i++) {
                part.put(i, (byte) (10 * me + i));
            }
            ByteBuffer gathered = me == 2 ? direct(6) : null;
            w.gatherv(part, gathered, me == 2 ? new long[] {1, 2, 3} : null, me == 2 ? new long[] {0, 1, 3} : null, 2);
            if (me == 2) {
                byte[] seen = new byte[6];
                gathered.get(0, seen);
                s.append(" gv ").append(Arrays.toString(seen));
            }
            MemorySegment out = MemorySegment.ofArray(new int[] {me, me, me});
            MemorySegment in = MemorySegment.ofArray(new int[3]);
            long[] one = {4, 4, 4};
            long[] at = {0, 4, 8};
            w.alltoallv(out, one, at, in, one, at);
            s.append(" a2av ").append(Arrays.toString(in.toArray(java.lang.foreign.ValueLayout.JAVA_INT)));
            double[] big = {-1, me, me, me, -1};
            double[] allParts = new double[6];
            w.allgatherv(big, 1, me + 1, allParts, counts, displs);
            s.append(" agvPart ").append(Arrays.toString(allParts));
            long[] into = {-1, -1, -1, -1};
            w.scatterv(me == 0 ? new long[] {1, 2, 3, 4, 5, 6} : null, counts, displs, into, 1, me + 1, 0);
            s.append(" svPart ").append(Arrays.toString(into));
            byte[] ib = new byte[6];
            w.iallgatherv(new byte[] {(byte) me}, ib, new int[] {1, 1, 1}, new int[] {0, 2, 4}).await();
            s.append(" iagv ").append(Arrays.toString(ib));
            return s.toString();
        });
        assertThat(got).containsExactly(
                "agv [0.0, 1.0, 1.0, 2.0, 2.0, 2.0] sv [9] a2av [0, 1, 2] agvPart [0.0, 1.0, 1.0, 2.0, 2.0, 2.0] svPart [-1, 1, -1, -1]"
                        + " iagv [0, 0, 1, 0, 2, 0]",
                "agv [0.0, 1.0, 1.0, 2.0, 2.0, 2.0] sv [8, 7] a2av [0, 1, 2] agvPart [0.0, 1.0, 1.0, 2.0, 2.0, 2.0]"
                        + " svPart [-1, 2, 3, -1] iagv [0, 0, 1, 0, 2, 0]",
                "agv [0.0, 1.0, 1.0, 2.0, 2.0, 2.0] sv [6, 5, 4] gv [0, 10, 11, 20, 21, 22] a2av [0, 1, 2]"
                        + " agvPart [0.0, 1.0, 1.0, 2.0, 2.0, 2.0] svPart [-1, 4, 5, 6] iagv [0, 0, 1, 0, 2, 0]");
    }

    /**
     * Point-to-point forms added for every type: buffered and ready sends of ints, a persistent
     * send of floats, a matched receive into bytes, sendrecv_replace of floats, a synchronous send
     * and a matched receive on byte buffers, between 2 ranks.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void pointToPointOnEveryBufferType(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(2, shm, w -> {
            int me = w.rank();
            int peer = 1 - me;
            StringBuilder s = new StringBuilder();
            if (me == 0) {
                w.bsend(new int[] {1, 2}, peer, 1);
                w.rsend(new long[] {3}, peer, 2);
                PersistentRequest p = w.sendInit(new float[] {4.5f}, peer, 3);
                p.start();
                p.await();
                w.send(new byte[] {5, 6, 7}, peer, 4);
                w.ssend(direct(4).putInt(0, 8), peer, 5);
            } else {
                int[] a = new int[2];
                w.recv(a, 0, 1);
                long[] b = new long[1];
                w.recv(b, 0, 2);
                float[] c = new float[1];
                PersistentRequest p = w.recvInit(c, 0, 3);
                p.start();
                p.await();
                byte[] d = new byte[3];
                w.imrecv(d, w.mprobe(0, 4)).await();
                ByteBuffer e = direct(4);
                w.mrecv(e, w.mprobe(0, 5));
                s.append(Arrays.toString(a)).append(b[0]).append(c[0]).append(Arrays.toString(d)).append(e.getInt(0));
            }
            float[] mine = {me + 0.25f};
            w.sendrecvReplace(mine, peer, 9, peer, 9);
            s.append(" swapped ").append(mine[0]);
            return s.toString();
        });
        assertThat(got).containsExactly(" swapped 1.25", "[1, 2]34.5[5, 6, 7]8 swapped 0.25");
    }

    /**
     * One-sided operations on ints, floats, bytes and byte buffers: puts into rank 0's window,
     * an accumulate of floats, fetch-and-op on an int, compare-and-swap on a double, a get into a
     * byte buffer, on 3 ranks under fences.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void windowsOnEveryBufferType(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            try (Window win = Window.allocate(w, 64)) {
                win.fence();
                if (me > 0) {
                    win.put(new int[] {me * 11}, 0, 4L * me); // ints 1 and 2
                    win.accumulate(new float[] {me}, Op.SUM, 0, 16); // float at 16
                    win.put(direct(2).put(0, (byte) 7).put(1, (byte) me), 0, 24 + 2L * me); // bytes 26-27, 28-29
                }
                win.fence();
                int[] before = {-1};
                if (me == 1) {
                    win.fetchAndOp(100, before, Op.SUM, 0, 4);
                }
                win.fence();
                double[] old = {-1};
                if (me == 2) {
                    win.put(new double[] {2.5}, 0, 32);
                }
                win.fence();
                if (me == 1) {
                    win.compareAndSwap(9.0, 2.5, old, 0, 32);
                }
                win.fence();
                ByteBuffer seen = direct(40);
                win.get(seen, 0, 0);
                win.fence();
                String said = "ints " + seen.getInt(4) + "," + seen.getInt(8) + " float " + seen.getFloat(16) + " bytes " + seen.get(26)
                        + seen.get(27) + seen.get(28) + seen.get(29) + " double " + seen.getDouble(32);
                return said + (me == 1 ? " before " + before[0] + " old " + old[0] : "");
            }
        });
        assertThat(got).containsExactly(
                "ints 111,22 float 3.0 bytes 7172 double 9.0",
                "ints 111,22 float 3.0 bytes 7172 double 9.0 before 11 old 2.5",
                "ints 111,22 float 3.0 bytes 7172 double 9.0");
    }
}
