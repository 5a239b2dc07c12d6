package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.banyan.pmix.CCall;
import org.junit.jupiter.api.Test;

class ProcessStartsTest {
    /**
     * The JDK hands libc's environ to posix_spawn of its helper; the PMIx server's start may
     * setenv on another thread meanwhile (a rank guard's sh once failed with "Bad address").
     * Starts of {@code true} on two threads while a third sets 3,000 new variables and removes
     * them, as PmixServer sets its own.
     */
    @Test
    void startsWhileTheCEnvironmentGrowsAllSucceed() throws Exception {
        AtomicBoolean over = new AtomicBoolean();
        Thread writer = Thread.ofPlatform().start(() -> {
            int set = 0;
            for (; set < 3000 && !over.get(); set++) {
                CCall.setenv("BANYAN_START_RACE_" + set, "x");
            }
            for (int i = 0; i < set; i++) {
                CCall.unsetenv("BANYAN_START_RACE_" + i);
            }
        });
        try {
            List<Thread> starters = new ArrayList<>();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            for (int t = 0; t < 2; t++) {
                starters.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 150; i++) {
                            Process p = ProcessStarts.start(new ProcessBuilder("true")
                                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true));
                            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
                            assertThat(p.exitValue()).isZero();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread s : starters) {
                s.join();
            }
            assertThat(failures).isEmpty();
        } finally {
            over.set(true);
            writer.join();
        }
    }
}
