package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.FunctionPool;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.RemoteFunctionException;
import org.banyan.pilot.Session;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Function tasks in worker JVMs on a real local pilot: values, what functions throw, task states, and nothing left. */
class FunctionTaskTest {
    @TempDir
    Path dir;

    /**
     * A program's own pool of one worker and a function task on a 2-core pilot: the task goes to
     * that pool, and an executable task still finds a core. A default pool beside it took the
     * other core, and the executable waited in AGENT_SCHEDULING for ever.
     */
    @Test
    void functionPoolsLeaveACoreForExecutableTasks() throws Exception {
        try (Session session = new Session(dir.resolve("starve"))) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            FunctionPool own = tmgr.functionPool(1);
            Task fn = tmgr.submit(new TaskDescription().function((org.banyan.pilot.SerializableCallable<Integer>) () -> 6 * 7))
                    .getFirst();
            assertThat(fn.result().get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(42);
            Task exe = tmgr.submit(new TaskDescription().executable("/bin/true")).getFirst();
            assertThat(tmgr.waitTasks(List.of(exe), java.util.Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 30_000))
                    .as("the executable task got a core").containsExactly(TaskState.DONE);
            own.close();
            // without a pool of the program's, the default one leaves a core free too
            Task fn2 = tmgr.submit(new TaskDescription().function((org.banyan.pilot.SerializableCallable<Integer>) () -> 1)).getFirst();
            assertThat(fn2.result().get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
            Task exe2 = tmgr.submit(new TaskDescription().executable("/bin/true")).getFirst();
            assertThat(tmgr.waitTasks(List.of(exe2), java.util.Set.of(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED), 30_000))
                    .containsExactly(TaskState.DONE);
        }
    }

    @Test
    void functionsRunInWorkersAndTheirValuesAndExceptionsComeBack() throws Exception {
        try (Session session = new Session(dir.resolve("session"))) {
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(2));
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);

            FunctionPool pool = tmgr.functionPool(2);
            List<Integer> args = IntStream.range(0, 20_000).boxed().toList();
            List<CompletableFuture<Long>> squares = pool.map(x -> (long) x * x, args);
            for (int i = 0; i < args.size(); i += 997) {
                assertThat(squares.get(i).get(60, TimeUnit.SECONDS)).isEqualTo((long) i * i);
            }
            assertThat(squares.getLast().get(60, TimeUnit.SECONDS)).isEqualTo(19_999L * 19_999L);
            // A few long calls go to every worker, not all to the first that asks (it took them all before).
            assertThat(pool.awaitWorkers(2, java.time.Duration.ofSeconds(60))).as("both workers dialed back").isTrue();
            List<CompletableFuture<Long>> slow = pool.map(x -> {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                return ProcessHandle.current().pid();
            }, IntStream.range(0, 20).boxed().toList());
            java.util.Map<Long, Long> perWorker = new java.util.HashMap<>();
            for (CompletableFuture<Long> f : slow) {
                perWorker.merge(f.get(60, TimeUnit.SECONDS), 1L, Long::sum);
            }
            assertThat(perWorker).as("calls per worker").hasSize(2);
            assertThat(perWorker.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(5));
            long workerPid = pool.submit(() -> ProcessHandle.current().pid()).get(60, TimeUnit.SECONDS);
            assertThat(workerPid).as("it ran in another JVM").isNotEqualTo(ProcessHandle.current().pid());

            Throwable thrown = catchThrowable(() -> pool.submit(() -> 1 / (args.size() - 20_000)).get(60, TimeUnit.SECONDS));
            assertThat(thrown).isInstanceOf(ExecutionException.class).cause().isInstanceOf(RemoteFunctionException.class)
                    .hasMessageContaining("java.lang.ArithmeticException: / by zero");
            assertThat(((RemoteFunctionException) thrown.getCause()).remoteClass()).isEqualTo("java.lang.ArithmeticException");
            Throwable unserializable = catchThrowable(() -> pool.submit(Object::new).get(60, TimeUnit.SECONDS));
            assertThat(unserializable.getCause()).hasMessageContaining("the result, a java.lang.Object, is not serializable");
            assertThat(pool.submit(() -> "still working").get(60, TimeUnit.SECONDS)).isEqualTo("still working");
            // A call that cannot be sent, or whose value cannot come back, fails alone: its
            // neighbours run and no worker is lost (a half-written batch took the worker with it).
            Object notSerializable = new Object();
            List<CompletableFuture<Integer>> mixed = List.of(pool.submit(() -> 1),
                    pool.submit(() -> notSerializable.hashCode() * 0 + 2), pool.submit(() -> 3));
            assertThat(mixed.get(0).get(60, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(catchThrowable(() -> mixed.get(1).get(60, TimeUnit.SECONDS))).cause()
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be serialized")
                    .hasMessageContaining("java.lang.Object");
            assertThat(mixed.get(2).get(60, TimeUnit.SECONDS)).isEqualTo(3);
            Throwable deep = catchThrowable(() -> pool.submit(() -> new java.util.ArrayList<>(List.of(new Object())))
                    .get(60, TimeUnit.SECONDS));
            assertThat(deep.getCause()).hasMessageContaining("the result cannot be serialized");
            java.util.Set<Long> after = new java.util.HashSet<>();
            for (CompletableFuture<Long> f : pool.map(x -> {
                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                return ProcessHandle.current().pid();
            }, IntStream.range(0, 20).boxed().toList())) {
                after.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(after).as("the same workers").isEqualTo(perWorker.keySet());

            pool.close(); // its workers hold both cores; the default pool of function tasks needs them
            assertThat(tmgr.waitTasks(pool.workers(), java.util.Set.of(TaskState.DONE), 30_000))
                    .as("told to end, the workers exit 0").containsOnly(TaskState.DONE);
            assertThat(catchThrowable(() -> pool.submit(() -> 1).get())).hasMessageContaining("the function pool is closed");

            List<Task> tasks = tmgr.submit(new TaskDescription().function(() -> "forty-two"),
                    new TaskDescription().uid("throws").function(() -> {
                        throw new IllegalStateException("no luck");
                    }));
            tmgr.waitTasks(tasks);
            assertThat(tasks.get(0).state()).isEqualTo(TaskState.DONE);
            assertThat(tasks.get(0).result().get()).isEqualTo("forty-two");
            assertThat(tasks.get(0).times()).containsKeys(TaskState.AGENT_SCHEDULING, TaskState.AGENT_EXECUTING);
            assertThat(tasks.get(1).state()).isEqualTo(TaskState.FAILED);
            assertThat(tasks.get(1).detail()).contains("java.lang.IllegalStateException: no luck");

        }
        Banyan.assertNoProcessesWith("org.banyan.pilot.function.FunctionWorker");
        Banyan.assertNoProcessesWith("DvmMain");
    }
}
