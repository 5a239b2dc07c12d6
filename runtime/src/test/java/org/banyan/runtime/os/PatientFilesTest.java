package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class PatientFilesTest {
    @Test
    void anAnswerInTimeIsGivenAndAFailureIsItsOwn() throws Exception {
        assertThat(PatientFiles.within(5_000, () -> "here")).isEqualTo("here");
        assertThatThrownBy(() -> PatientFiles.within(5_000, () -> {
            throw new AccessDeniedException("/x");
        })).isInstanceOf(AccessDeniedException.class);
    }

    /** A call that does not answer (a hung mount) costs the caller its patience, and the next call a new thread. */
    @Test
    void aCallThatDoesNotAnswerHoldsOnlyItsOwnThread() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        assertThatThrownBy(() -> PatientFiles.within(200, () -> {
            never.await();
            return null;
        })).isInstanceOf(PatientFiles.NoAnswer.class).hasMessage("its file system did not answer in 200 ms");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
        assertThat(PatientFiles.within(5_000, () -> 42)).as("while the first still waits").isEqualTo(42);
        never.countDown();
    }
}
