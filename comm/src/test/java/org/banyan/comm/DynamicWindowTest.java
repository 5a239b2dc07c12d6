package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dynamic windows (MPI_Win_create_dynamic, attach, detach) over shared memory and TCP: memory
 * attached after creation reached at the addresses attach gave, an operation outside what is
 * attached refused by the target and said at the origin, memory detached no longer reached.
 */
class DynamicWindowTest {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void attachedMemoryIsReachedAtItsAddress(boolean shm) throws Exception {
        List<String> got = VectorCollectivesTest.run(3, shm, w -> {
            int me = w.rank();
            try (Window win = Window.createDynamic(w); Arena arena = Arena.ofConfined()) {
                long[] counters = new long[4];
                MemorySegment table = arena.allocate(64, 8);
                long[] addresses = new long[2];
                if (me == 0) {
                    addresses[0] = win.attach(MemorySegment.ofArray(counters));
                    addresses[1] = win.attach(table);
                }
                w.bcast(addresses, 0);
                StringBuilder s = new StringBuilder(me + ":");
                if (me > 0) {
                    win.lock(0, false);
                    win.accumulate(new long[] {me, 10L * me}, Op.SUM, 0, addresses[0] + 8); // counters 1 and 2
                    win.put(new double[] {me + 0.5}, 0, addresses[1] + 8L * me);
                    win.unlock(0);
                }
                w.barrier();
                if (me == 2) {
                    win.lock(0, true);
                    long[] seen = new long[4];
                    win.get(seen, 0, addresses[0]);
                    double[] values = new double[3];
                    win.get(values, 0, addresses[1]);
                    win.unlock(0);
                    s.append(" seen ").append(Arrays.toString(seen)).append(Arrays.toString(values));
                    // past the end of the first part: the target has nothing there
                    win.lock(0, false);
                    win.put(new long[] {1}, 0, addresses[0] + 32);
                    Request r = win.rget(new long[1], 0, addresses[1] + 64);
                    assertThatThrownBy(r::await).hasMessageContaining("of rank 0's dynamic window found no memory attached there");
                    assertThatThrownBy(() -> win.unlock(0)).isInstanceOf(CommException.class)
                            .hasMessage("a put or accumulate of 8 bytes at address " + (addresses[0] + 32)
                                    + " of rank 0's dynamic window found no memory attached there");
                }
                w.barrier();
                if (me == 0) {
                    win.detach(addresses[1]);
                    assertThatThrownBy(() -> win.detach(addresses[1])).hasMessageContaining("nothing is attached at address");
                    s.append(" counters ").append(Arrays.toString(counters)).append(" table ")
                            .append(table.get(ValueLayout.JAVA_DOUBLE, 8)).append(",").append(table.get(ValueLayout.JAVA_DOUBLE, 16));
                }
                w.barrier();
                if (me == 1) {
                    win.lock(0, false);
                    win.put(new double[] {9}, 0, addresses[1]);
                    assertThatThrownBy(() -> win.unlock(0)).hasMessageContaining("found no memory attached there");
                    s.append(" detached refused");
                }
                w.barrier();
                return s.toString();
            }
        });
        assertThat(got).containsExactly(
                "0: counters [0, 3, 30, 0] table 1.5,2.5",
                "1: detached refused",
                "2: seen [0, 3, 30, 0][0.0, 1.5, 2.5]");
    }

    /** attach on a window of fixed memory is refused; a dynamic window's memory() is empty. */
    @org.junit.jupiter.api.Test
    void attachNeedsADynamicWindow() throws Exception {
        List<String> got = VectorCollectivesTest.run(1, true, w -> {
            try (Window fixed = Window.allocate(w, 8); Window dynamic = Window.createDynamic(w)) {
                assertThatThrownBy(() -> fixed.attach(MemorySegment.ofArray(new byte[8])))
                        .hasMessage("attach: this window was not made by createDynamic");
                return "memory " + dynamic.memory().byteSize();
            }
        });
        assertThat(got).containsExactly("memory 0");
    }
}
