package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A staging directive with an empty source or target is refused when made: the target "" was the sandbox itself. */
class StagingTest {
    @Test
    void anEmptyEndIsRefused() {
        assertThatThrownBy(() -> new Staging("in.dat", "", Staging.Action.COPY))
                .hasMessage("a staging directive needs a source and a target, each a path, got 'in.dat' -> ''");
        assertThatThrownBy(() -> new Staging(" ", "x", Staging.Action.LINK)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Staging(null, "x", Staging.Action.MOVE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Staging("a", "x", null))
                .hasMessage("a staging directive needs an action (copy, link or move)");
    }

    /** A task that failed its staging said {@code java.nio.file.NoSuchFileException: /in.txt}. */
    @Test
    void aFailureSaysWhatCouldNotBeDoneAndWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path missing = dir.resolve("in.txt");
        assertThatThrownBy(() -> Staging.apply(missing, dir.resolve("box/in.txt"), Staging.Action.COPY))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("cannot copy " + missing + " to " + dir.resolve("box/in.txt") + " (No such file or directory: " + missing + ")");
    }
}
