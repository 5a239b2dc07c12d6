package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uids name sandboxes and profile lines, so a session gives each once. Counted per manager, two
 * task managers of one session both made task.000000 (one sandbox for both tasks' files), and two
 * pilot managers both started pilot.0000's DVM in one directory.
 */
class SessionIdsTest {
    private static TaskDescription task(String uid) {
        return new TaskDescription().executable("true").uid(uid);
    }

    @Test
    void madeUidsRunOnAcrossManagersAndSkipGivenOnes() {
        SessionIds ids = new SessionIds();
        assertThat(ids.claimTasks(List.of(task(null), task("mine"), task(null)))).containsExactly("task.000000", "mine", "task.000001");
        assertThat(ids.claimTasks(List.of(task("task.000003")))).containsExactly("task.000003");
        assertThat(ids.claimTasks(List.of(task(null), task(null)))).as("task.000003 is taken")
                .containsExactly("task.000002", "task.000004");
        assertThat(ids.nextPilot()).isEqualTo("pilot.0000");
        assertThat(ids.nextPilot()).isEqualTo("pilot.0001");
    }

    @Test
    void aUidTakenAlreadyOrGivenTwiceIsRefusedAndNothingOfTheCallIsTaken() {
        SessionIds ids = new SessionIds();
        ids.claimTasks(List.of(task("a"), task(null)));
        for (List<TaskDescription> bad : List.of(List.of(task("b"), task("a")), List.of(task("c"), task("c")),
                List.of(task("task.000000")))) {
            assertThatThrownBy(() -> ids.claimTasks(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageEndingWith("is a task's already in this session: each task needs its own (it names the task's sandbox)");
        }
        assertThat(ids.claimTasks(List.of(task("b"), task("c"), task(null)))).as("b and c were not taken by the refused calls")
                .containsExactly("b", "c", "task.000001");
        assertThat(ids.claimTasks(List.of(task("task.1")))).as("not one this session makes").containsExactly("task.1");
    }

    @Test
    void twoManagersOfOneSessionGiveTheirTasksTheirOwnSandboxes(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir.resolve("s"))) {
            TaskManager one = new TaskManager(session);
            TaskManager two = new TaskManager(session);
            Task a = one.submit(task(null)).getFirst();
            Task b = two.submit(task(null)).getFirst();
            assertThat(List.of(a.uid(), b.uid())).containsExactly("task.000000", "task.000001");
            assertThat(a.sandbox()).isNotEqualTo(b.sandbox());
            assertThatThrownBy(() -> two.submit(task("x"), task("x"))).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
