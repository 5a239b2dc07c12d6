package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Windows' group epochs (post, start, complete, wait, test) and request-based operations, over both transports. */
class WindowEpochTest {
    /**
     * A ring: each rank exposes its window to its left neighbour and accesses its right one's;
     * then rank 0 exposes to all others at once and ends its epoch by testing. Every value is
     * where it belongs when the epoch ends, and no rank waits for a rank outside its groups.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void postStartCompleteAndWaitInARingAndAStar(boolean shm) throws Exception {
        List<long[]> got = WindowTest.run(shm, 4, w -> {
            try (Window win = Window.allocate(w, 16)) {
                int n = w.size();
                int left = (w.rank() + n - 1) % n;
                int right = (w.rank() + 1) % n;
                Group all = w.group();
                for (int round = 1; round <= 3; round++) {
                    win.post(all.incl(left));
                    win.start(all.incl(right));
                    win.put(MemorySegment.ofArray(new long[] {100L * round + w.rank()}), right, 0);
                    win.complete();
                    win.await();
                    assertThat(win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0)).isEqualTo(100L * round + left);
                }
                long star;
                if (w.rank() == 0) {
                    win.post(all.excl(0));
                    while (!win.test()) {
                        Thread.onSpinWait();
                    }
                    star = win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
                } else {
                    win.start(all.incl(0));
                    win.accumulate(new long[] {w.rank()}, Op.SUM, 0, 8);
                    win.complete();
                    star = -1;
                }
                return new long[] {win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0), star};
            }
        });
        for (int r = 0; r < 4; r++) {
            assertThat(got.get(r)[0]).isEqualTo(300L + (r + 3) % 4);
        }
        assertThat(got.get(0)[1]).as("1 + 2 + 3, accumulated by the others before rank 0's epoch ended").isEqualTo(6);
    }

    /**
     * Request-based operations: an rput's request is done once the value is in the target's
     * window (a get after it reads it without a flush between), an rget's once the value is in
     * the buffer, raccumulate's and rgetAccumulate's likewise; all in one lock_all epoch.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void requestsAreDoneWhenTheirTargetHasAnswered(boolean shm) throws Exception {
        List<long[]> got = WindowTest.run(shm, 3, w -> {
            try (Window win = Window.allocate(w, 24)) {
                int right = (w.rank() + 1) % w.size();
                win.lockAll();
                Request put = win.rput(MemorySegment.ofArray(new long[] {40L + w.rank()}), right, 0);
                put.await();
                long[] back = new long[1];
                Request get = win.rget(MemorySegment.ofArray(back), right, 0);
                assertThat(get.await()).isNull();
                assertThat(get.test()).isTrue();
                Request acc = win.raccumulate(MemorySegment.ofArray(new long[] {1}), Elem.LONG, Op.SUM, 0, 8);
                long[] before = new long[1];
                Request fetch = win.rgetAccumulate(MemorySegment.ofArray(new long[] {10}), MemorySegment.ofArray(before), Elem.LONG,
                        Op.SUM, 0, 16);
                Request.awaitAll(acc, fetch);
                win.unlockAll();
                w.barrier();
                long[] counters = new long[2];
                if (w.rank() == 0) {
                    counters[0] = win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
                    counters[1] = win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
                }
                w.barrier(); // nobody's window closes under rank 0's reads
                return new long[] {back[0], before[0], counters[0], counters[1]};
            }
        });
        java.util.Set<Long> fetched = new java.util.TreeSet<>();
        for (int r = 0; r < 3; r++) {
            assertThat(got.get(r)[0]).as("rank " + r + " read back its own rput").isEqualTo(40L + r);
            fetched.add(got.get(r)[1]);
        }
        assertThat(fetched).as("each fetch-and-add saw the others' before it, once each").containsExactly(0L, 10L, 20L);
        assertThat(got.get(0)[2]).isEqualTo(3);
        assertThat(got.get(0)[3]).isEqualTo(30);
    }

    /** Epoch calls out of order, and a group with a process outside the window's communicator, are refused on the caller. */
    @org.junit.jupiter.api.Test
    void misusedEpochsAreRefusedWithAReason() throws Exception {
        List<String> got = WindowTest.run(true, 2, w -> {
            Comm alone = w.split(w.rank(), 0); // a communicator of this rank alone
            try (Window win = Window.allocate(alone, 8)) {
                StringBuilder said = new StringBuilder();
                for (Runnable misuse : List.<Runnable>of(win::complete, win::await, () -> win.test(),
                        () -> win.start(w.group().incl(1 - w.rank())))) {
                    try {
                        misuse.run();
                        said.append("accepted;");
                    } catch (IllegalStateException | IllegalArgumentException e) {
                        said.append(e.getMessage()).append(';');
                    }
                }
                win.post(alone.group());
                assertThatThrownBy(() -> win.post(alone.group())).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("already posted");
                win.start(alone.group()); // to itself
                win.put(MemorySegment.ofArray(new long[] {7}), 0, 0);
                assertThatThrownBy(() -> win.start(alone.group())).hasMessageContaining("already open");
                win.complete();
                win.await();
                said.append(win.memory().get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                return said.toString();
            } finally {
                alone.close();
            }
        });
        for (String s : got) {
            assertThat(s).contains("complete: no access epoch is open", "await: this rank's window is not posted",
                    "test: this rank's window is not posted", "start: the group", "outside the window's communicator").endsWith(";7");
        }
    }

    /**
     * What waits for the target: while rank 1 sleeps outside the library, rank 0's rput and rget
     * are not done (test() false), and finish once it calls in again; rank 0's start waits for
     * rank 1's post (which comes after a sleep).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void requestsAndStartWaitForTheTarget(boolean shm) throws Exception {
        List<String> got = WindowTest.run(shm, 2, w -> {
            try (Window win = Window.allocate(w, 8)) {
                win.fence();
                if (w.rank() == 1) {
                    w.send(new int[1], 0, 0); // rank 1 leaves the library (a fence's last messages may still be handled in it)
                    Thread.sleep(400);
                    win.fence();
                    Thread.sleep(400);
                    win.post(w.group().incl(0));
                    win.await();
                    return "target";
                }
                w.recv(new int[1], 1, 0);
                Thread.sleep(50); // rank 1's send has returned: it sleeps outside the library
                Request put = win.rput(MemorySegment.ofArray(new long[] {9}), 1, 0);
                long[] back = new long[1];
                Request get = win.rget(MemorySegment.ofArray(back), 1, 0);
                boolean putDone = put.test();
                boolean getDone = get.test();
                Request.awaitAll(put, get);
                win.fence();
                long before = System.nanoTime();
                win.start(w.group().incl(1));
                long waited = (System.nanoTime() - before) / 1_000_000;
                win.complete();
                return putDone + " " + getDone + " " + back[0] + " " + (waited >= 300);
            }
        });
        assertThat(got).containsExactly("false false 9 true", "target");
    }

    /**
     * A shared window: each rank stores into its own part directly and loads its right
     * neighbour's after a barrier; parts of different sizes lie where sharedQuery says; a put by
     * message lands in the same memory; nothing is left in /dev/shm; ranks on different hosts are
     * refused on every rank.
     */
    @org.junit.jupiter.api.Test
    void aSharedWindowIsLoadedAndStoredDirectly() throws Exception {
        List<String> got = WindowTest.run(true, 4, w -> {
            try (Window win = Window.allocateShared(w, 8L * (w.rank() + 1))) {
                int right = (w.rank() + 1) % w.size();
                assertThat(win.memory().byteSize()).isEqualTo(8L * (w.rank() + 1));
                win.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 11L * w.rank());
                win.sync();
                w.barrier();
                win.sync();
                long theirs = win.sharedQuery(right).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                win.fence();
                if (w.rank() == 1) {
                    win.put(MemorySegment.ofArray(new long[] {77}), 3, 24); // rank 3's last slot
                }
                win.fence();
                long last = win.sharedQuery(3).get(ValueLayout.JAVA_LONG_UNALIGNED, 24);
                return theirs + " " + last + " " + win.sharedQuery(right).byteSize();
            }
        });
        assertThat(got).containsExactly("11 77 16", "22 77 24", "33 77 32", "0 77 8");
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm"))) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("banyan-") && f.contains("-window-")).toList()).isEmpty();
        }
        List<String> apart = WindowTest.run(false, 2, w -> {
            try {
                Window.allocateShared(w, 8).close();
                return "accepted";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        });
        assertThat(apart).containsOnly("allocateShared: ranks 0 and 1 of MPI_COMM_WORLD are on different hosts; make the window on "
                + "comm.splitShared(key)");
        List<String> huge = WindowTest.run(true, 2, w -> {
            try {
                Window.allocateShared(w, w.rank() == 0 ? -1 : 8).close();
                return "accepted";
            } catch (IllegalArgumentException e) {
                String negative = e.getMessage();
                try {
                    Window.allocateShared(w, Long.MAX_VALUE / 3).close();
                    return "accepted";
                } catch (IllegalArgumentException | CommException f) {
                    return negative + " | " + f.getMessage();
                }
            }
        });
        assertThat(huge).containsOnly("allocateShared: rank 0 asked for -1 bytes | allocateShared: the ranks' parts add up to more than "
                + "any memory holds");
        WindowTest.run(true, 1, w -> {
            try (Window plain = Window.allocate(w, 8)) {
                assertThatThrownBy(() -> plain.sharedQuery(0)).hasMessageContaining("not made by allocateShared");
            }
            return null;
        });
    }
}
