package org.banyan.cli.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage.TaskUpdate;
import org.junit.jupiter.api.Test;

class TasksCommandTest {
    @Test
    void aLinePerTaskWithItsStateHowLongAndWhyItFailed() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long now = 1_000_000_000_000L;
        TasksCommand.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), List.of(
                new TaskUpdate(7, TaskState.AGENT_EXECUTING, now - 2_500_000, 0, "node3"),
                new TaskUpdate(12, TaskState.FAILED, now - 75_000_000, 3, "cat: x: No such file\nsecond line"),
                new TaskUpdate(13, TaskState.DONE, now + 5, 0, ""),
                new TaskUpdate(14, TaskState.DONE, 0, 0, "")), now);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "      ID  STATE                              FOR  EXIT  DETAIL",
                "       7  AGENT_EXECUTING                   2.5s        node3",
                "      12  FAILED                           1m15s     3  cat: x: No such file ...",
                "      13  DONE                              0.0s",
                "      14  DONE                                 -"); // an end kept without its time
    }

    @Test
    void durationsAreShortAsSqueuesTime() {
        assertThat(TasksCommand.duration(400_000)).isEqualTo("0.4s");
        assertThat(TasksCommand.duration(12_000_000)).isEqualTo("12s");
        assertThat(TasksCommand.duration(185_000_000)).isEqualTo("3m05s");
        assertThat(TasksCommand.duration(7_620_000_000L)).isEqualTo("2h07m");
    }
}
