package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTest {
    @TempDir
    Path dir;

    /** A second session would truncate the first's profile and write over its sandboxes. */
    @Test
    void aDirectoryHoldingASessionIsRefused() throws Exception {
        Path s = dir.resolve("s");
        try (Session first = new Session(s)) {
            first.profile().event(1_000_000L, "state", "tmgr", "task.000000", "DONE", "");
        }
        long before = Files.size(s.resolve(Profile.FILE));
        assertThatThrownBy(() -> new Session(s)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("the session directory " + s + " already holds a session (banyan.prof); give a new one");
        assertThat(Files.size(s.resolve(Profile.FILE))).isEqualTo(before);
    }

    @Test
    void aDirectoryThatCannotBeMadeIsNamedWithTheReason() throws Exception {
        Files.writeString(dir.resolve("file"), "");
        assertThatThrownBy(() -> new Session(dir.resolve("file/s"))).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot make the session directory " + dir.resolve("file/s") + " (Not a directory)");
    }

    @Test
    void defaultDirectoriesOfOneProgramWithinASecondDiffer() throws Exception {
        Path a = Session.defaultDir(dir);
        Files.createDirectories(a);
        Path b = Session.defaultDir(dir);
        assertThat(b).isNotEqualTo(a);
        if (b.getFileName().toString().startsWith(a.getFileName().toString())) { // the same second
            assertThat(b.getFileName().toString()).isEqualTo(a.getFileName() + ".2");
        }
    }
}
