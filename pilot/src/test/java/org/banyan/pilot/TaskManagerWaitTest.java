package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.banyan.core.pilot.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * waitTasks is woken once, when the last task it waits for ends, not on every end; these check
 * that it still returns as soon as it may. Tasks with no pilot wait in the manager, and cancelling
 * them ends them there, so no DVM is needed.
 */
class TaskManagerWaitTest {
    private static final Set<TaskState> FINAL = Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED);

    @Test
    void aWaiterForFinalStatesReturnsWhenItsLastTaskEndsAndNotBefore(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Task> tasks = tmgr.submit(descriptions(5));
            List<Task> other = tmgr.submit(descriptions(3));
            CompletableFuture<List<TaskState>> waited = inItsOwnThread(() -> waitFor(tmgr, tasks, FINAL));
            tmgr.cancel(other); // ends that count towards nothing the waiter waits for
            tmgr.cancel(tasks.subList(0, 4));
            Thread.sleep(300); // long enough for a wrong wake-up to show
            assertThat(waited).isNotDone();
            tmgr.cancel(tasks.subList(4, 5));
            assertThat(waited.get(10, TimeUnit.SECONDS)).containsOnly(TaskState.CANCELED).hasSize(5);
        }
    }

    /** RADICAL-Pilot's wait_tasks() with no uids: every task submitted so far, without a list. */
    @Test
    void waitingForEveryTaskReturnsWhenTheLastOneSubmittedSoFarEnds(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Task> first = tmgr.submit(descriptions(3));
            List<Task> second = tmgr.submit(descriptions(2));
            CompletableFuture<List<TaskState>> all = inItsOwnThread(() -> {
                try {
                    tmgr.waitTasks();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return List.of();
            });
            tmgr.cancel(first);
            tmgr.cancel(second.subList(0, 1));
            Thread.sleep(300);
            assertThat(all).isNotDone();
            tmgr.cancel(second.subList(1, 2));
            all.get(10, TimeUnit.SECONDS);
            tmgr.waitTasks(); // nothing unfinished: at once
            CompletableFuture<Throwable> inCallback = new CompletableFuture<>();
            tmgr.registerCallback((t, st) -> {
                try {
                    tmgr.waitTasks();
                    inCallback.complete(null);
                } catch (Throwable e) {
                    inCallback.complete(e);
                }
            });
            tmgr.cancel(tmgr.submit(descriptions(1)));
            assertThat(inCallback.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void twoWaitersForDifferentTasksAreEachWokenForTheirOwn(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Task> few = tmgr.submit(descriptions(2));
            List<Task> many = tmgr.submit(descriptions(6));
            CompletableFuture<List<TaskState>> forMany = inItsOwnThread(() -> waitFor(tmgr, many, FINAL));
            CompletableFuture<List<TaskState>> forFew = inItsOwnThread(() -> waitFor(tmgr, few, FINAL));
            Thread.sleep(200);
            tmgr.cancel(few);
            assertThat(forFew.get(10, TimeUnit.SECONDS)).containsOnly(TaskState.CANCELED);
            assertThat(forMany).isNotDone();
            tmgr.cancel(many);
            assertThat(forMany.get(10, TimeUnit.SECONDS)).containsOnly(TaskState.CANCELED);
        }
    }

    @Test
    void aWaiterForAStateOnTheWayReturnsOnceEveryTaskIsThere(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Task> tasks = tmgr.submit(descriptions(3));
            // with no pilot they stay TMGR_SCHEDULING_PENDING
            assertThat(tmgr.waitTasks(tasks, Set.of(TaskState.TMGR_SCHEDULING_PENDING), 5_000))
                    .containsOnly(TaskState.TMGR_SCHEDULING_PENDING);
            assertThat(tmgr.waitTasks(tasks, Set.of(TaskState.AGENT_EXECUTING), 300))
                    .containsOnly(TaskState.TMGR_SCHEDULING_PENDING);
        }
    }

    /** A waiter for final states does not poll, but its timeout still ends its wait. */
    @Test
    void aWaiterForFinalStatesGivesUpAtItsTimeout(@TempDir Path dir) throws Exception {
        try (Session session = new Session(dir); TaskManager tmgr = new TaskManager(session)) {
            List<Task> tasks = tmgr.submit(descriptions(2));
            long t0 = System.nanoTime();
            assertThat(tmgr.waitTasks(tasks, FINAL, 300)).containsOnly(TaskState.TMGR_SCHEDULING_PENDING);
            assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(290L, 10_000L);
        }
    }

    /** Not the common pool: on two cores it has one thread, and one waiter would hold it. */
    private static <T> CompletableFuture<T> inItsOwnThread(java.util.function.Supplier<T> s) {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> f.complete(s.get()));
        return f;
    }

    private static List<TaskState> waitFor(TaskManager tmgr, List<Task> tasks, Set<TaskState> states) {
        try {
            return tmgr.waitTasks(tasks, states, 0);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<TaskDescription> descriptions(int n) {
        return java.util.stream.IntStream.range(0, n)
                .mapToObj(i -> new TaskDescription().executable("/bin/true"))
                .toList();
    }
}
