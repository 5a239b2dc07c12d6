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
}
