package org.banyan.runtime.os;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.banyan.pmix.CCall;

/**
 * What the PMIx server's start does to the C environment, many times over, while process
 * starts run: a thread sets 3,000 new variables through {@link CCall#setenv} and removes them
 * again (glibc's array moves either way; the environment ends as it began).
 */
final class CEnvironmentChurn {
    /** One round of a starter thread; its failure is collected, not thrown. */
    interface Round {
        void run() throws Exception;
    }

    private CEnvironmentChurn() {}

    /** The failures of {@code rounds} rounds of {@code round} on each of two threads, run while the environment churns. */
    static List<Throwable> failuresOf(int rounds, Round round) throws InterruptedException {
        AtomicBoolean over = new AtomicBoolean();
        Thread writer = Thread.ofPlatform().start(() -> {
            int set = 0;
            for (; set < 3000 && !over.get(); set++) {
                CCall.setenv("BANYAN_ENV_RACE_" + set, "x");
            }
            for (int i = 0; i < set; i++) {
                CCall.unsetenv("BANYAN_ENV_RACE_" + i);
            }
        });
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try {
            List<Thread> starters = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                starters.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < rounds; i++) {
                            round.run();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread s : starters) {
                s.join();
            }
        } finally {
            over.set(true);
            writer.join();
        }
        return List.copyOf(failures);
    }
}
