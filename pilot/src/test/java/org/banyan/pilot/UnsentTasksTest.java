package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Waiting tasks go higher priority first, then as submitted; a pilot takes only the shapes it can run. */
class UnsentTasksTest {
    private static Task task(String uid, int cores, int gpus, int priority) {
        return new Task(uid, new TaskDescription().executable("true").coresPerRank(cores).gpusPerRank(gpus).priority(priority),
                null, null, 0);
    }

    private static List<String> uids(List<Task> tasks) {
        return tasks.stream().map(Task::uid).toList();
    }

    @Test
    void eachTakeFollowsTheOrderAcrossTheShapesItTakes() {
        UnsentTasks unsent = new UnsentTasks();
        for (Task t : List.of(task("a", 1, 0, 0), task("gpu1", 1, 1, 0), task("b", 2, 0, 5), task("c", 1, 0, 0),
                task("gpu2", 1, 1, 9))) {
            unsent.add(t);
        }
        assertThat(unsent.size()).isEqualTo(5);
        assertThat(unsent.kinds()).hasSize(3);
        assertThat(uids(unsent.take(3, k -> k.slots().gpusPerRank() == 0))).as("no GPU here").containsExactly("b", "a", "c");
        assertThat(uids(unsent.take(10, k -> k.slots().gpusPerRank() == 0))).isEmpty();
        assertThat(unsent.kinds()).as("emptied shapes are dropped").hasSize(1);
        assertThat(uids(unsent.take(1))).containsExactly("gpu2");
        assertThat(unsent.size()).isEqualTo(1);
    }

    /** A task held for others until later keeps its submission's place: it went behind tasks submitted after it. */
    @Test
    void aTaskAddedLateKeepsThePlaceItWasNumberedIn() {
        UnsentTasks unsent = new UnsentTasks();
        Task held = task("held", 1, 0, 0);
        unsent.number(held);
        unsent.add(task("later", 1, 0, 0));
        unsent.add(task("urgent", 1, 0, 3));
        unsent.add(held);
        assertThat(uids(unsent.drain())).containsExactly("urgent", "held", "later");
    }

    @Test
    void aTaskThatNamesItsPilotIsAKindOfItsOwn() {
        UnsentTasks unsent = new UnsentTasks();
        unsent.add(task("any", 1, 0, 0));
        unsent.add(new Task("pinned", new TaskDescription().executable("true").pilot("pilot.0001"), null, null, 0));
        assertThat(unsent.kinds()).hasSize(2);
        assertThat(uids(unsent.take(5, k -> k.pilot() == null || k.pilot().equals("pilot.0000")))).containsExactly("any");
        assertThat(uids(unsent.take(5, k -> k.pilot() == null || k.pilot().equals("pilot.0001")))).containsExactly("pinned");
    }

    @Test
    void aTaskCanceledWhileItWaitsIsSkipped(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        UnsentTasks unsent = new UnsentTasks();
        Task gone = task("gone", 1, 0, 0);
        unsent.add(gone);
        unsent.add(task("kept", 1, 0, 0));
        try (Session session = new Session(dir)) {
            gone.advance(org.banyan.core.pilot.TaskState.CANCELED, 1, 0, "", session.profile());
        }
        assertThat(uids(unsent.drain())).containsExactly("kept");
        assertThat(unsent.isEmpty()).isTrue();
    }
}
