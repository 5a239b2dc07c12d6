package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A description that cannot be a task is refused by submit, naming the field, and none of that
 * call's tasks is taken. Found later, when its batch went to the pilot, it ended the sending
 * thread and every task of the manager, good ones too, waited for ever.
 */
class TaskManagerSubmitTest {
    private static TaskDescription ok() {
        return new TaskDescription().executable("true");
    }

    @Test
    void aBadDescriptionIsRefusedAtSubmitAndNothingOfThatCallIsTaken(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            refused(tmgr, ok().ranks(0), "a task needs at least one rank (got 0) of at least one core (got 1), and no negative GPUs (got 0)");
            refused(tmgr, ok().coresPerRank(0), "a task needs at least one rank (got 1) of at least one core (got 0), and no negative GPUs (got 0)");
            refused(tmgr, ok().gpusPerRank(-1), "a task needs at least one rank (got 1) of at least one core (got 1), and no negative GPUs (got -1)");
            refused(tmgr, ok().timeout(-1), "a task's timeout is 0 (none) or a number of seconds, got -1.0");
            refused(tmgr, ok().timeout(Double.NaN), "a task's timeout is 0 (none) or a number of seconds, got NaN");
            refused(tmgr, ok().arguments(Arrays.asList("a", null)), "a task's arguments cannot be null: [a, null]");
            refused(tmgr, ok().environment("K", null), "a task's environment cannot hold null: K=null");
            refused(tmgr, new TaskDescription().arguments("x"), "a task needs an executable (or a function)");
            refused(tmgr, ok().arguments("a\0b"), "a task's arguments cannot hold a NUL character: a\\0b");
            refused(tmgr, ok().environment("K", "v\0"), "a task's environment cannot hold a NUL character: v\\0");
            refused(tmgr, ok().environment("A=B", "1"), "'A=B' cannot be the name of an environment variable");
            refused(tmgr, ok().environment("", "1"), "'' cannot be the name of an environment variable");
            refused(tmgr, ok().stdout("o\0ut"), "a task's stdout cannot hold a NUL character: o\\0ut");
            refused(tmgr, ok().stdin("i\0n"), "a task's stdin cannot hold a NUL character: i\\0n");
            // a function task's process fields were dropped without a word
            refused(tmgr, new TaskDescription().function(() -> 1).coresPerRank(2).timeout(5),
                    "a function task runs in a worker JVM of its pool, one call on one core: coresPerRank, timeout do not apply to it "
                            + "(an executable task has them)");
            refused(tmgr, ok().function(() -> 1), "a function task runs in a worker JVM of its pool, one call on one core: "
                    + "executable does not apply to it (an executable task has it)");
            refused(tmgr, new TaskDescription().function(() -> 1).pilot("pilot.0000"), "a function task runs in a worker JVM "
                    + "of its pool, one call on one core: pilot does not apply to it (an executable task has it)");
            refused(tmgr, new TaskDescription().mode(TaskDescription.Mode.FUNCTION),
                    "a function task needs its function (TaskDescription.function)");
            List<Task> taken = tmgr.submit(ok());
            assertThat(taken.getFirst().uid()).as("no task was made by the refused calls").isEqualTo("task.000000");
        }
    }

    @Test
    void aClosedManagerTakesNothing(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir)) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.close();
            assertThatThrownBy(() -> tmgr.submit(ok())).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the task manager is closed");
        }
    }

    private static void refused(TaskManager tmgr, TaskDescription bad, String message) {
        assertThatThrownBy(() -> tmgr.submit(ok(), bad)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
