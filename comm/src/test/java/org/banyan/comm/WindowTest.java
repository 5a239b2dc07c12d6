package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One-sided windows over both transports: put, get and accumulate in fence and lock epochs. */
class WindowTest {
    /** Runs {@code body} on {@code n} ranks, monitored; their profiles go to a directory removed after. */
    static <T> List<T> run(boolean shm, int n, LocalJob.Body<T> body) throws Exception {
        IntFunction<String> hosts = shm ? r -> "h" : r -> "h" + r;
        java.nio.file.Path out = java.nio.file.Files.createTempDirectory("banyan-window-test");
        try {
            return LocalJob.run(n, hosts, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1", "BANYAN_MONITOR", "all",
                    "BANYAN_MONITOR_OUT", out.toString()), body);
        } finally {
            try (var files = java.nio.file.Files.walk(out)) { // the profiles, and live/ with its counters
                for (java.nio.file.Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(f);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void fenceEpochsPutGetAndAccumulate(boolean shm) throws Exception {
        List<double[]> got = run(shm, 4, w -> {
            try (Window win = Window.allocate(w, 8 * 8)) {
                int n = w.size();
                int right = (w.rank() + 1) % n;
                win.fence();
                win.put(new double[] {w.rank() + 0.5}, right, 0); // slot 0: the left neighbour's rank + 0.5
                win.accumulate(new double[] {w.rank() + 1}, Op.SUM, 0, 8); // slot 1 of rank 0: 1 + 2 + ... + n
                win.fence();
                double[] fromLeft = new double[1];
                win.get(fromLeft, right, 0); // what the right neighbour got: my rank + 0.5
                double[] sum = new double[1];
                win.get(sum, 0, 8);
                win.fence();
                double mine = win.memory().get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
                return new double[] {mine, fromLeft[0], sum[0]};
            }
        });
        for (int r = 0; r < 4; r++) {
            assertThat(got.get(r)).containsExactly((r + 3) % 4 + 0.5, r + 0.5, 10.0);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void exclusiveLocksSerialiseReadModifyWrite(boolean shm) throws Exception {
        List<Long> got = run(shm, 4, w -> {
            try (Window win = Window.allocate(w, 8)) {
                for (int i = 0; i < 25; i++) {
                    win.lock(0, true); // a counter on rank 0, read and written back under the lock
                    long[] v = new long[1];
                    win.get(MemorySegment.ofArray(v), 0, 0);
                    win.flush(0); // the get is complete: v holds the counter
                    win.put(MemorySegment.ofArray(new long[] {v[0] + 1}), 0, 0);
                    win.unlock(0);
                }
                win.lock(0, false);
                win.accumulate(new long[] {1000}, Op.SUM, 0, 0); // shared lock: accumulates are atomic per element
                win.unlock(0);
                win.fence();
                return w.rank() == 0 ? win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) : -1L;
            }
        });
        assertThat(got.get(0)).isEqualTo(100 + 4 * 1000);
    }

    @org.junit.jupiter.api.Test
    void outOfRangeOperationsAndMonitoring() throws Exception {
        List<Monitor.Snapshot> got = run(true, 2, w -> {
            try (Window win = Window.allocate(w, 16)) {
                w.monitor().reset();
                assertThatThrownBy(() -> win.put(new double[3], 1 - w.rank(), 0)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("put of 24 bytes at offset 0 is outside rank " + (1 - w.rank()) + "'s window of 16 bytes");
                assertThatThrownBy(() -> win.accumulate(new double[1], Op.ofDoubles(Math::hypot, true), 0, 0))
                        .isInstanceOf(IllegalArgumentException.class);
                if (w.rank() == 0) {
                    win.put(new double[] {1, 2}, 1, 0);
                    win.get(new double[1], 1, 8);
                }
                win.fence();
                return w.monitor().snapshot();
            }
        });
        assertThat(got.get(0).bytes(Monitor.Kind.OSC_SENT, 1)).isEqualTo(16);
        assertThat(got.get(0).messages(Monitor.Kind.OSC_SENT, 1)).isEqualTo(2);
        assertThat(got.get(0).bytes(Monitor.Kind.OSC_RECEIVED, 1)).isEqualTo(8);
        assertThat(got.get(1).messages(Monitor.Kind.OSC_SENT, 0)).isZero();
        assertThat(got.get(0).messages(Monitor.Kind.EXTERNAL, 1)).as("window protocol messages are not user traffic").isZero();
    }

    /** Element types travel by a fixed code, not their place in the enum: each code is its own and reads back. */
    @org.junit.jupiter.api.Test
    void elementTypesHaveFixedDistinctCodes() {
        assertThat(java.util.Arrays.stream(Elem.values()).mapToInt(e -> e.code).distinct().count()).isEqualTo(Elem.values().length);
        for (Elem e : Elem.values()) {
            assertThat(Elem.ofCode(e.code)).isEqualTo(e);
        }
        assertThat(Elem.DOUBLE.code).isEqualTo(5);
        assertThatThrownBy(() -> Elem.ofCode(0)).hasMessage("no element type has code 0");
        // the accumulate record's data starts after its op field, the get record ends after its id
        assertThat(WindowRecords.ACC_DATA).isEqualTo(WindowRecords.ACC_OP_AT + Integer.BYTES);
        assertThat(WindowRecords.GET_SIZE).isEqualTo(WindowRecords.GET_ID_AT + Integer.BYTES);
    }

    /**
     * Atomics on a window (MPI_Fetch_and_op, Compare_and_swap, Get_accumulate): four ranks take
     * ten tickets each from a counter on rank 0, every ticket once; one of them wins a
     * compare-and-swap of 0, the others see the winner; a NO_OP fetch reads without changing.
     */
    @org.junit.jupiter.api.Test
    void fetchAndOpAndCompareAndSwapAreAtomic() throws Exception {
        List<String> got = LocalJob.run(4, r -> "h", Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), w -> {
            try (Window win = Window.allocate(w, 16)) {
                StringBuilder tickets = new StringBuilder();
                for (int i = 0; i < 10; i++) {
                    long[] before = new long[1];
                    win.lock(0, false);
                    win.fetchAndOp(1, before, Op.SUM, 0, 0);
                    win.unlock(0);
                    tickets.append(before[0]).append(',');
                }
                long[] seen = new long[1];
                win.lock(0, false);
                win.compareAndSwap(w.rank() + 1, 0, seen, 0, 8);
                win.unlock(0);
                win.fence();
                long[] counter = new long[1];
                long[] winner = new long[1];
                win.lockAll();
                win.getAccumulate(MemorySegment.ofArray(new long[1]), MemorySegment.ofArray(counter), Elem.LONG, Window.NO_OP, 0, 0);
                win.flushAll();
                win.getAccumulate(MemorySegment.ofArray(new long[1]), MemorySegment.ofArray(winner), Elem.LONG, Window.NO_OP, 0, 8);
                win.unlockAll();
                return tickets + " " + seen[0] + " " + counter[0] + " " + winner[0];
            }
        });
        java.util.Set<Long> all = new java.util.TreeSet<>();
        long winner = Long.parseLong(got.getFirst().split(" ")[3]);
        int wins = 0;
        for (String g : got) {
            String[] f = g.split(" ");
            for (String t : f[0].split(",")) {
                assertThat(all.add(Long.parseLong(t))).as("ticket " + t + " given once").isTrue();
            }
            wins += f[1].equals("0") ? 1 : 0;
            assertThat(f[1]).isIn("0", Long.toString(winner));
            assertThat(f[2]).as("the counter after everyone's tickets").isEqualTo("40");
            assertThat(Long.parseLong(f[3])).isEqualTo(winner);
        }
        assertThat(all).hasSize(40).first().isEqualTo(0L);
        assertThat(wins).as("exactly one compare-and-swap found 0").isEqualTo(1);
        assertThat(winner).isBetween(1L, 4L);
    }
}
