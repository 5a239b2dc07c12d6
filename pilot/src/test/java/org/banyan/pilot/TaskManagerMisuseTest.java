package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.banyan.core.pilot.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a program may get wrong with task managers, each refused at once instead of a wait that
 * never ends, a pilot nothing would stop, or a callback that stops the manager. Tasks with no
 * pilot wait in the manager, so no DVM is needed.
 */
@org.junit.jupiter.api.Timeout(60)
class TaskManagerMisuseTest {
    private static final Set<TaskState> FINAL = Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED);

    @TempDir
    Path dir;

    /** A manager is told only of its own tasks' moves: waiting for another's never returned. */
    @Test
    void anotherManagersTasksAreRefusedByWaitAndCancel() throws Exception {
        try (Session session = new Session(dir); TaskManager a = new TaskManager(session); TaskManager b = new TaskManager(session)) {
            List<Task> tasks = a.submit(task());
            assertThatThrownBy(() -> b.waitTasks(tasks)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("task.000000 was submitted to another task manager: wait with that one");
            assertThatThrownBy(() -> b.cancel(tasks)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("another task manager");
            assertThat(tasks.getFirst().state()).isEqualTo(TaskState.TMGR_SCHEDULING_PENDING);
            assertThatThrownBy(() -> a.waitTasks(tasks, FINAL, -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("negative timeout");
        }
    }

    /** Once its session is closed, nothing would end a new pilot or cancel a new manager's tasks. */
    @Test
    void aClosedSessionTakesNoNewManagerAndNoPilot() throws Exception {
        Session session = new Session(dir);
        PilotManager pmgr = new PilotManager(session);
        session.close();
        assertThatThrownBy(() -> new TaskManager(session)).isInstanceOf(IllegalStateException.class)
                .hasMessage("the session is closed");
        assertThatThrownBy(() -> pmgr.submit(PilotDescription.local(1))).isInstanceOf(IllegalStateException.class)
                .hasMessage("the pilot manager is closed");
        assertThat(pmgr.pilots()).isEmpty();
    }

    /**
     * A callback that throws is reported and the others still run, for every move; it used to
     * end the thread that made the move, a pilot's reader, with its tasks stuck for ever.
     */
    @Test
    void aCallbackThatThrowsIsReportedAndTheTasksGoOn() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(e));
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            tmgr.registerCallback((t, s) -> {
                throw new IllegalStateException("boom at " + s);
            });
            tmgr.registerCallback((t, s) -> seen.add(t.uid() + " " + s));
            List<Task> tasks = tmgr.submit(task(), task());
            tmgr.cancel(tasks);
            assertThat(tmgr.waitTasks(tasks, FINAL, 5_000)).containsOnly(TaskState.CANCELED);
            assertThat(seen).containsExactly("task.000000 TMGR_SCHEDULING_PENDING", "task.000001 TMGR_SCHEDULING_PENDING",
                    "task.000000 CANCELED", "task.000001 CANCELED");
            assertThat(reported).hasSize(4).first().hasToString("java.lang.IllegalStateException: boom at TMGR_SCHEDULING_PENDING");
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }

    /** In a callback a wait could only end once the callback returned: refused, unless it is over already. */
    @Test
    void aCallbackCannotWaitForTasksThatHaveToMoveOn() throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Object> got = new ArrayList<>();
            List<Task> others = tmgr.submit(task());
            tmgr.registerCallback((t, s) -> {
                if (s == TaskState.CANCELED) {
                    try {
                        got.add(tmgr.waitTasks(List.of(t), FINAL, 0)); // over: returns
                        got.add(tmgr.waitTasks(others));
                    } catch (InterruptedException | RuntimeException e) {
                        got.add(e.getMessage());
                    }
                }
            });
            Task t = tmgr.submit(task()).getFirst();
            tmgr.cancel(List.of(t));
            assertThat(got).containsExactly(List.of(TaskState.CANCELED),
                    "waitTasks in a task callback: the tasks it waits for cannot move on until the callback returns");
        }
    }

    private static TaskDescription task() {
        return new TaskDescription().executable("/bin/true");
    }
}
