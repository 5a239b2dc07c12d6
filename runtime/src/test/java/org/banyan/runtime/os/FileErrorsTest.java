package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

class FileErrorsTest {
    @Test
    void aReasonIsTheCLibrarysWordsWithoutThePath() {
        assertThat(FileErrors.reason(new AccessDeniedException("/x/y"))).isEqualTo("Permission denied");
        assertThat(FileErrors.reason(new FileSystemException("/x/y", null, "No space left on device")))
                .isEqualTo("No space left on device");
        assertThat(FileErrors.reason(new IOException())).isEqualTo("IOException");
    }

    /** The JDK says EPIPE as "Broken pipe" for streams and "Broken pipe (Write failed)" on some paths. */
    @Test
    void aBrokenPipeIsKnownWhateverTheJdkAddsToIt() {
        assertThat(FileErrors.brokenPipe(new IOException("Broken pipe"))).isTrue();
        assertThat(FileErrors.brokenPipe(new IOException("Broken pipe (Write failed)"))).isTrue();
        assertThat(FileErrors.brokenPipe(new IOException("No space left on device"))).isFalse();
        assertThat(FileErrors.brokenPipe(new IOException())).isFalse();
    }
}
