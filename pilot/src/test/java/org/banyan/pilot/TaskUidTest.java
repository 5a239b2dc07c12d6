package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskUidTest {
    @Test
    void sixDigitsAtLeastAsRadicalPilotWritesThem() {
        assertThat(Task.uid(0)).isEqualTo("task.000000");
        assertThat(Task.uid(42)).isEqualTo("task.000042");
        assertThat(Task.uid(999_999)).isEqualTo("task.999999");
        assertThat(Task.uid(1_000_000)).isEqualTo("task.1000000").isEqualTo(String.format("task.%06d", 1_000_000));
    }
}
