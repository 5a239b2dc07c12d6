package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskStateTest {
    @Test
    void statesAreOrderedAndEachHasItsPendingPredecessor() {
        for (TaskState s : TaskState.values()) {
            if (!s.isFinal() && s != TaskState.NEW && !s.name().endsWith("_PENDING")) {
                assertThat(TaskState.valueOf(s.name() + "_PENDING").compareTo(s)).isEqualTo(-1);
            }
        }
        assertThat(TaskState.AGENT_EXECUTING).isGreaterThan(TaskState.AGENT_SCHEDULING);
    }

    @Test
    void skippedStatesAreFilledIn() {
        assertThat(TaskState.path(TaskState.AGENT_EXECUTING, TaskState.DONE)).containsExactly(
                TaskState.AGENT_STAGING_OUTPUT_PENDING, TaskState.AGENT_STAGING_OUTPUT,
                TaskState.TMGR_STAGING_OUTPUT_PENDING, TaskState.TMGR_STAGING_OUTPUT, TaskState.DONE);
        assertThat(TaskState.path(TaskState.NEW, TaskState.TMGR_SCHEDULING))
                .containsExactly(TaskState.TMGR_SCHEDULING_PENDING, TaskState.TMGR_SCHEDULING);
        assertThat(TaskState.path(TaskState.AGENT_SCHEDULING, TaskState.FAILED)).containsExactly(TaskState.FAILED);
        assertThat(TaskState.path(TaskState.NEW, TaskState.CANCELED)).containsExactly(TaskState.CANCELED);
    }

    @Test
    void nothingGoesBackNorLeavesAFinalState() {
        assertThatThrownBy(() -> TaskState.path(TaskState.AGENT_EXECUTING, TaskState.AGENT_SCHEDULING))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> TaskState.path(TaskState.DONE, TaskState.CANCELED)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyPathIsTheSameObjectEachTimeAndCannotBeChanged() {
        var p = TaskState.path(TaskState.NEW, TaskState.DONE);
        assertThat(TaskState.path(TaskState.NEW, TaskState.DONE)).isSameAs(p);
        assertThatThrownBy(() -> p.add(TaskState.NEW)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(TaskState.AGENT_EXECUTING.component()).isEqualTo("agent");
        assertThat(TaskState.TMGR_STAGING_OUTPUT.component()).isEqualTo("tmgr");
        assertThat(TaskState.DONE.component()).isEqualTo("tmgr");
    }
}
