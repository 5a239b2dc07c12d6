package org.banyan.runtime.daemon;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongFunction;

/**
 * Ranks whose start the daemon's core has decided but whose process is not made yet (a reaper
 * thread makes it once it has let go of the core's lock), and the signals that came for them
 * meanwhile: a cancel that arrives between the decision and the spawn must still reach the
 * process. The starter registers the process, then sends what was held; a signaller holds its
 * signal while the start is pending and sends it otherwise, so every signal is sent exactly
 * once, and in order, whichever side comes first.
 *
 * @param <R> the process
 */
final class PendingStarts<R> {
    private final Map<Long, List<Integer>> held = new ConcurrentHashMap<>();
    private final LongFunction<R> registered;
    private final BiConsumer<R, Integer> send;
    /**
     * Made once: C1 builds a capturing lambda at its call through a method handle and a VM call,
     * and {@link #made} runs for every task a reaper thread starts.
     */
    private final java.util.function.BiFunction<Long, List<Integer>, List<Integer>> sendHeld = this::sendHeld;

    /**
     * @param registered the process registered under a key, or null
     * @param send       sends a signal to a process
     */
    PendingStarts(LongFunction<R> registered, BiConsumer<R, Integer> send) {
        this.registered = registered;
        this.send = send;
    }

    /** The core decided the start of {@code key}; its process comes later. */
    void decided(long key) {
        held.put(key, List.of()); // a list of its own once a signal comes, which few starts see
    }

    /** A signal for {@code key}: held until its pending start is made, or sent now. */
    void signal(long key, int signal) {
        if (held.computeIfPresent(key, (k, l) -> {
            List<Integer> more = l.isEmpty() ? new ArrayList<>() : l;
            more.add(signal);
            return more;
        }) == null) { // not pending: running (or never started, or gone)
            R r = registered.apply(key);
            if (r != null) {
                send.accept(r, signal);
            }
        }
    }

    /**
     * The start of {@code key} was made (its process registered) or failed: what was held goes to
     * it, in order, before any later signal (those wait for the map's lock on the key).
     */
    void made(long key) {
        held.computeIfPresent(key, sendHeld);
    }

    /**
     * The signals held for {@code key}'s pending start, which another starter now takes over
     * (see {@link FileStarts}); it is no longer pending here.
     */
    List<Integer> take(long key) {
        List<Integer> signals = held.remove(key);
        return signals == null ? List.of() : signals;
    }

    private List<Integer> sendHeld(Long key, List<Integer> signals) {
        if (!signals.isEmpty()) {
            R r = registered.apply(key);
            if (r != null) {
                for (int s : signals) {
                    send.accept(r, s);
                }
            }
        }
        return null;
    }
}
