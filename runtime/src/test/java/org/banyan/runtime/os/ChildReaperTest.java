package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The reaper with two threads, over real processes. */
class ChildReaperTest {
    private final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ChildReaper reaper = new ChildReaper(failures::add, () -> { }, 2);

    private static long spawn(String... command) throws IOException {
        return PosixSpawn.spawn(List.of(command), Map.of(), null, PosixSpawn.NULL, PosixSpawn.NULL, PosixSpawn.NULL).pid();
    }

    @Test
    void everyChildIsReapedOnceWithItsStatusAndNoneIsLeft() throws Exception {
        assertThat(PosixSpawn.available()).as("posix_spawn and pidfd_open through FFM (glibc 2.36+)").isTrue();
        List<CompletableFuture<Integer>> exits = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            exits.add(reaper.watch(spawn("/bin/sh", "-c", "exit " + (i % 5))));
        }
        for (int i = 0; i < exits.size(); i++) {
            assertThat(exits.get(i).get(10, TimeUnit.SECONDS)).as("child %d", i).isEqualTo(i % 5);
        }
        assertThat(reaper.watch(spawn("/bin/sh", "-c", "kill -9 $$")).get(10, TimeUnit.SECONDS)).isEqualTo(128 + 9);
        assertThat(reaper.watch(spawn("/bin/sh", "-c", "kill -9 $$"), true).get(10, TimeUnit.SECONDS))
                .as("a death by signal, flagged").isEqualTo(ChildReaper.SIGNALED | 128 + 9);
        assertThat(reaper.watch(spawn("/bin/sh", "-c", "exit 137"), true).get(10, TimeUnit.SECONDS))
                .as("an exit with the same status, not flagged").isEqualTo(137);
        assertThat(ProcessHandle.current().children().count()).as("no child left, not even a zombie").isZero();
        assertThat(failures).isEmpty();
    }

    /**
     * Pidfds are closed without leaving the epoll set first (each reports once): with both reaper
     * threads spawning while the other closes, fd numbers come back at once, and an entry kept
     * alive by a child being spawned must not report for its number's next owner. Each child's
     * status must still arrive at its own future.
     */
    @Test
    void reusedPidfdNumbersKeepEachStatusWithItsChild() throws Exception {
        int chains = 4;
        int length = 150;
        List<CompletableFuture<Void>> done = new ArrayList<>();
        List<String> wrong = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int c = 0; c < chains; c++) {
            CompletableFuture<Void> end = new CompletableFuture<>();
            done.add(end);
            statusChain(c, 0, length, wrong, end);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(wrong).isEmpty();
        assertThat(ProcessHandle.current().children().count()).as("no child left, not even a zombie").isZero();
        assertThat(failures).isEmpty();
    }

    private void statusChain(int chain, int i, int length, List<String> wrong, CompletableFuture<Void> end) {
        try {
            int code = (chain * 7 + i) % 256;
            long pid = i == 0 ? spawn("/bin/sh", "-c", "sleep 0.3; exit " + code) : spawn("/bin/sh", "-c", "exit " + code);
            reaper.watch(pid).thenAccept(status -> {
                if (status != code) {
                    wrong.add("chain " + chain + " child " + i + ": " + status + " for " + code);
                }
                if (i + 1 < length) {
                    statusChain(chain, i + 1, length, wrong, end);
                } else {
                    end.complete(null);
                }
            });
        } catch (IOException e) {
            end.completeExceptionally(e);
        }
    }

    /**
     * A child started while its predecessor is being reaped (as a daemon starts the next task of
     * a chain) is reaped by the same thread; chains started from elsewhere are spread over both.
     */
    @Test
    void aChainStaysOnItsReaperThreadAndChainsAreSpreadOverThem() throws Exception {
        int chains = 4;
        int length = 25;
        Map<Integer, Set<String>> threadsOf = new ConcurrentHashMap<>();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int c = 0; c < chains; c++) {
            CompletableFuture<Void> end = new CompletableFuture<>();
            done.add(end);
            next(c, length, length, threadsOf, end);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        Set<String> all = new java.util.HashSet<>();
        for (int c = 0; c < chains; c++) {
            assertThat(threadsOf.get(c)).as("chain %d", c).hasSize(1);
            all.addAll(threadsOf.get(c));
        }
        assertThat(all).as("chains spread over both reaper threads").hasSize(2);
        assertThat(failures).isEmpty();
    }

    private void next(int chain, int left, int length, Map<Integer, Set<String>> threadsOf, CompletableFuture<Void> end) {
        try {
            // The first child lives long enough for thenRun to be attached before its end (else
            // the callback would run here, on the test's thread); the later ones are started on a
            // reaper thread, which cannot see their end before it returns.
            long pid = left == length ? spawn("/bin/sleep", "0.3") : spawn("/bin/true");
            reaper.watch(pid).thenRun(() -> {
                threadsOf.computeIfAbsent(chain, k -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
                if (left > 1) {
                    next(chain, left - 1, length, threadsOf, end);
                } else {
                    end.complete(null);
                }
            });
        } catch (IOException e) {
            end.completeExceptionally(e);
        }
    }
}
