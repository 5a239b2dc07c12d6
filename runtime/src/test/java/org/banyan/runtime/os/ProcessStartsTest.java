package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProcessStartsTest {
    /**
     * The JDK hands libc's environ to posix_spawn of its helper; the PMIx server's start may
     * setenv on another thread meanwhile (a rank guard's sh once failed with "Bad address").
     * Starts of {@code true} on two threads while the C environment churns.
     */
    @Test
    void startsWhileTheCEnvironmentGrowsAllSucceed() throws Exception {
        assertThat(CEnvironmentChurn.failuresOf(150, () -> {
            Process p = ProcessStarts.start(new ProcessBuilder("true")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true));
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
        })).isEmpty();
    }
}
