package org.banyan.cli.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskIdsTest {
    @Test
    void idsAndRangesBothWays() throws Exception {
        List<Integer> ids = TaskIds.parse(List.of("3-5,9", "12"));
        assertThat(ids).containsExactly(3, 4, 5, 9, 12);
        assertThat(TaskIds.format(ids)).isEqualTo("3-5,9,12");
        assertThat(TaskIds.format(List.of(7))).isEqualTo("7");
        assertThat(TaskIds.format(List.of())).isEmpty();
        assertThat(TaskIds.format(List.of(2, 1, 4, 3, 3, 9))).as("in the order tasks ended").isEqualTo("1-4,9");
    }

    @Test
    void aBadIdIsNamed() {
        assertThatThrownBy(() -> TaskIds.parse(List.of("4-2"))).hasMessage("'4-2' ends before it starts (write 2-4)");
        assertThatThrownBy(() -> TaskIds.parse(List.of("x"))).hasMessage("'x' is not a task id or a range of them (like 7 or 3-9)");
        assertThatThrownBy(() -> TaskIds.parse(List.of("1-"))).hasMessageContaining("'1-' is not a task id");
        assertThatThrownBy(() -> TaskIds.parse(List.of("1-2000000000"))).as("a range it said was not one")
                .hasMessage("'1-2000000000' makes 2,000,000,000 ids in all, more than the 10,000,000 one command takes");
        assertThatThrownBy(() -> TaskIds.parse(List.of("1-6000000", "1-6000000"))).as("in all: each part under the bound")
                .hasMessage("'1-6000000' makes 12,000,000 ids in all, more than the 10,000,000 one command takes");
    }
}
