package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskUidTest {
    @Test
    void sixDigitsAtLeastAsRadicalPilotWritesThem() {
        assertThat(Task.uid(0)).isEqualTo("task.000000");
        assertThat(Task.uid(42)).isEqualTo("task.000042");
        assertThat(Task.uid(999_999)).isEqualTo("task.999999");
        assertThat(Task.uid(1_000_000)).isEqualTo("task.1000000").isEqualTo(String.format("task.%06d", 1_000_000));
    }

    /**
     * A uid names the task's sandbox in the session's directory: one that climbs out of it
     * ('../x' put the sandbox and its output files beside the session) or names a directory
     * below it is refused, as a bad field.
     */
    @Test
    void aUidThatIsNotOneNameIsRefused() {
        for (String bad : List.of("../escaped", "a/b", "..", ".", "", "/etc", "a\0b")) {
            TaskDescription d = new TaskDescription().executable("true").uid(bad);
            assertThatThrownBy(d::check).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("a task's uid names its sandbox in the session's directory: '");
        }
        new TaskDescription().executable("true").uid("step.1-of-3 (retry)").check();
    }
}
