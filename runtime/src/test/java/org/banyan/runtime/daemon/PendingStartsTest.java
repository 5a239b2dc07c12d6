package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class PendingStartsTest {
    /** A process stand-in: the signals it got. */
    private record Proc(List<Integer> got) {}

    private final Map<Long, Proc> registry = new ConcurrentHashMap<>();
    private final PendingStarts<Proc> pending = new PendingStarts<>(registry::get, (p, s) -> p.got().add(s));

    @Test
    void aSignalForAStartNotMadeYetReachesTheProcessWhenItIsMade() {
        pending.decided(7);
        pending.signal(7, 15);
        Proc p = new Proc(new CopyOnWriteArrayList<>());
        registry.put(7L, p);
        pending.made(7);
        assertThat(p.got()).containsExactly(15);
        pending.signal(7, 9);
        assertThat(p.got()).as("once made, signals go straight to it").containsExactly(15, 9);
    }

    @Test
    void signalsHeldForAPendingStartGoInTheirOrder() {
        pending.decided(8);
        pending.signal(8, 15);
        pending.signal(8, 9);
        pending.signal(8, 2);
        Proc p = new Proc(new CopyOnWriteArrayList<>());
        registry.put(8L, p);
        pending.made(8);
        assertThat(p.got()).containsExactly(15, 9, 2);
        pending.made(8);
        assertThat(p.got()).as("sent once").containsExactly(15, 9, 2);
    }

    @Test
    void aSignalForARankNeitherPendingNorRunningIsDropped() {
        pending.signal(3, 15);
        pending.decided(4);
        pending.signal(4, 15);
        pending.made(4); // the start failed: nothing registered
        assertThat(registry).isEmpty();
    }

    /** The starter (register, then made) and a signaller race; each signal arrives exactly once. */
    @Test
    void racingStartsAndSignalsDeliverEverySignalOnce() throws Exception {
        CyclicBarrier go = new CyclicBarrier(2);
        for (long key = 0; key < 3_000; key++) {
            long k = key;
            pending.decided(k);
            Proc p = new Proc(new CopyOnWriteArrayList<>());
            Thread starter = Thread.ofPlatform().start(() -> {
                await(go);
                registry.put(k, p);
                pending.made(k);
            });
            Thread signaller = Thread.ofPlatform().start(() -> {
                await(go);
                pending.signal(k, 15);
                pending.signal(k, 9);
            });
            starter.join();
            signaller.join();
            assertThat(p.got()).as("key %d", k).containsExactly(15, 9);
        }
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
