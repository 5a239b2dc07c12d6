package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskAgentTest {
    TaskAgent agent = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(2, 2, 0)), List.of("a", "b"));

    static List<AgentAction> only(List<AgentAction> actions, Class<?> kind) {
        return actions.stream().filter(kind::isInstance).toList();
    }

    static TaskRequest task(int i) {
        return TaskRequest.of("task." + i, "/s/task." + i, "/bin/true");
    }

    @Test
    void tasksStartAsCoresComeFreeAndEndDoneOrFailed() {
        List<AgentAction> a = agent.submit(List.of(task(0), task(1), task(2), task(3), task(4)));
        assertThat(only(a, AgentAction.Launch.class)).hasSize(4);
        assertThat(agent.waiting()).isEqualTo(1);
        List<AgentAction> done = agent.ended(1, 0, "");
        assertThat(done).contains(new AgentAction.State(1, TaskState.DONE, 0, ""));
        assertThat(only(done, AgentAction.Launch.class)).as("the freed core takes the waiting task").hasSize(1);
        assertThat(agent.ended(2, 3, "boom")).contains(new AgentAction.State(2, TaskState.FAILED, 3, "boom"));
    }

    /** A task with GPUs is told which are its own, and no running task shares one. */
    @Test
    void aTaskIsToldItsOwnGpus() {
        TaskAgent gpus = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("g", 4, 3))), List.of("g"));
        java.util.function.IntFunction<TaskRequest> oneGpu = i -> new TaskRequest("g" + i, "/bin/true", List.of(),
                java.util.Map.of(), "/s", "o", "e", null, List.of(), List.of(), new SlotRequest(1, 1, i == 0 ? 2 : 1, null, false),
                0, false, 0, false, List.of());
        List<AgentAction> a = gpus.submit(List.of(oneGpu.apply(0), oneGpu.apply(1), oneGpu.apply(2)));
        assertThat(only(a, AgentAction.Launch.class)).extracting(l -> ((AgentAction.Launch) l).spec().env())
                .extracting(e -> e.get("CUDA_VISIBLE_DEVICES") + "/" + e.get("BANYAN_TASK_GPUS"))
                .as("two GPUs for the first, the last for the second; the third waits").containsExactly("0,1/0,1", "2/2");
        a = gpus.ended(1, 0, "");
        assertThat(only(a, AgentAction.Launch.class)).extracting(l -> ((AgentAction.Launch) l).spec().env()
                .get("CUDA_VISIBLE_DEVICES")).containsExactly("0");
        assertThat(agent.submit(List.of(task(9)))).allMatch(x -> !(x instanceof AgentAction.Launch l)
                || !l.spec().env().containsKey("CUDA_VISIBLE_DEVICES"));
    }

    /**
     * A task that holds no GPU, on a node that has some, is told it has none (Flux's -1): it saw
     * the daemon's list, and a CUDA program took the GPUs of the tasks that held them. On a node
     * without GPUs nothing is set.
     */
    @Test
    void aTaskWithoutGpusOnAGpuNodeIsToldItHasNone() {
        TaskAgent gpus = new TaskAgent(new GeneralScheduler(List.of(new NodeResources("g", 4, 2))), List.of("g"));
        TaskRequest own = new TaskRequest("own", "/bin/true", List.of(), java.util.Map.of("CUDA_VISIBLE_DEVICES", "1"), "/s", "o",
                "e", null, List.of(), List.of(), SlotRequest.cores(1), 0, false, 0, false, List.of());
        List<AgentAction> a = gpus.submit(List.of(task(0), own));
        assertThat(only(a, AgentAction.Launch.class)).extracting(l -> ((AgentAction.Launch) l).spec().env())
                .extracting(e -> e.get("CUDA_VISIBLE_DEVICES") + "/" + e.get("BANYAN_TASK_GPUS"))
                .as("its own setting wins").containsExactly("-1/", "1/");
        assertThat(only(agent.submit(List.of(task(1))), AgentAction.Launch.class))
                .allMatch(l -> !((AgentAction.Launch) l).spec().env().containsKey("CUDA_VISIBLE_DEVICES"));
    }

    /** A task of several cores per rank is told to run that many threads (OMP_NUM_THREADS, as Flux's -c), unless it says. */
    @Test
    void aTaskOfSeveralCoresIsToldItsThreads() {
        java.util.function.BiFunction<Integer, java.util.Map<String, String>, TaskRequest> cores = (n, env) -> new TaskRequest(
                "c" + n, "/bin/true", List.of(), env, "/s", "o", "e", null, List.of(), List.of(), SlotRequest.cores(n), 0, false, 0,
                false, List.of());
        TaskAgent four = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(1, 8, 0)), List.of("n0"));
        List<AgentAction> a = four.submit(List.of(cores.apply(2, java.util.Map.of()), cores.apply(1, java.util.Map.of()),
                cores.apply(3, java.util.Map.of("OMP_NUM_THREADS", "1"))));
        assertThat(only(a, AgentAction.Launch.class)).extracting(l -> ((AgentAction.Launch) l).spec().env()
                .get("OMP_NUM_THREADS")).containsExactly("2", null, "1");
    }

    /** A node whose daemon was given GPUs under names of its own (Slurm's 2,3): a task gets those names. */
    @Test
    void aTaskIsToldItsGpusByTheNamesItsNodeHasThem() {
        GeneralScheduler scheduler = new GeneralScheduler(List.of(new NodeResources("g", 4, 0)));
        TaskAgent gpus = new TaskAgent(scheduler, List.of("g"));
        assertThat(scheduler.gpusFound(0, 2)).isTrue();
        gpus.gpuNames().set(0, List.of("2", "3"));
        java.util.function.IntFunction<TaskRequest> oneGpu = i -> new TaskRequest("g" + i, "/bin/true", List.of(),
                java.util.Map.of(), "/s", "o", "e", null, List.of(), List.of(), new SlotRequest(1, 1, 1, null, false),
                0, false, 0, false, List.of());
        List<AgentAction> a = gpus.submit(List.of(oneGpu.apply(0), oneGpu.apply(1)));
        assertThat(only(a, AgentAction.Launch.class)).extracting(l -> ((AgentAction.Launch) l).spec().env())
                .extracting(e -> e.get("CUDA_VISIBLE_DEVICES") + "/" + e.get("BANYAN_TASK_GPUS"))
                .containsExactly("2/0", "3/1");
    }

    @Test
    void higherPriorityFirstAndSmallTasksBackfillBehindABigOne() {
        agent.submit(List.of(task(0), task(1), task(2), task(3)));
        TaskRequest big = new TaskRequest("big", "/bin/true", List.of(), java.util.Map.of(), "/s", "o", "e", "/dev/null", List.of(),
                List.of(), SlotRequest.cores(2), 0, false, 0, false, List.of());
        TaskRequest urgent = new TaskRequest("urgent", "/bin/true", List.of(), java.util.Map.of(), "/s", "o", "e", "/dev/null", List.of(),
                List.of(), SlotRequest.cores(1), 5, false, 0, false, List.of());
        agent.submit(List.of(big, task(5), urgent));
        List<AgentAction> a = agent.ended(1, 0, "");
        assertThat(only(a, AgentAction.Launch.class)).singleElement()
                .matches(l -> ((AgentAction.Launch) l).spec().env().get("BANYAN_TASK_UID").equals("urgent"));
        a = agent.ended(2, 0, "");
        assertThat(only(a, AgentAction.Launch.class)).as("the 2-core task waits, the 1-core one backfills").singleElement()
                .matches(l -> ((AgentAction.Launch) l).spec().env().get("BANYAN_TASK_UID").equals("task.5"));
    }

    @Test
    void cancelWorksWaitingAndRunningAndTimeoutsFail() {
        agent.submit(List.of(task(0), task(1), task(2), task(3), task(4)));
        assertThat(agent.cancel(List.of(5))).contains(new AgentAction.State(5, TaskState.CANCELED, 0, ""));
        List<AgentAction> c = agent.cancel(List.of(1));
        assertThat(only(c, AgentAction.Signal.class)).hasSize(1);
        assertThat(agent.ended(1, 143, "")).contains(new AgentAction.State(1, TaskState.CANCELED, 143, ""));
        agent.timedOut(2);
        TaskRequest slow = new TaskRequest("slow", "sleep", List.of("9"), java.util.Map.of(), "/s", "o", "e", "/dev/null", List.of(),
                List.of(), SlotRequest.cores(1), 0, false, 1500, false, List.of());
        assertThat(only(agent.submit(List.of(slow)), AgentAction.ArmTimeout.class)).as("task 1's core is free")
                .hasSize(1);
        int slowId = agent.lastIds().getFirst();
        assertThat(agent.timedOut(slowId)).hasSize(1);
        assertThat(agent.ended(slowId, 143, "")).contains(new AgentAction.State(slowId, TaskState.FAILED, 143,
                "timed out after 1.5 s"));
    }

    @Test
    void cancelledWaitingTasksLeaveTheQueueAndTheOthersStillRun() {
        java.util.List<TaskRequest> bag = new java.util.ArrayList<>();
        for (int i = 0; i < 10_004; i++) {
            bag.add(task(i));
        }
        agent.submit(bag); // 4 run (ids 1-4), 10,000 wait (ids 5-10,004)
        java.util.List<Integer> evens = new java.util.ArrayList<>();
        for (int id = 6; id <= 10_004; id += 2) {
            evens.add(id);
        }
        assertThat(only(agent.cancel(evens), AgentAction.State.class)).hasSize(5_000);
        assertThat(agent.waiting()).isEqualTo(5_000);
        List<AgentAction> a = agent.ended(1, 0, "");
        assertThat(only(a, AgentAction.Launch.class)).as("the canceled task 6 is passed over for 5, then 7")
                .singleElement().matches(l -> ((AgentAction.Launch) l).spec().taskId() == 5);
        assertThat(only(agent.ended(2, 0, ""), AgentAction.Launch.class)).singleElement()
                .matches(l -> ((AgentAction.Launch) l).spec().taskId() == 7);
        assertThat(agent.waiting()).isEqualTo(4_998);
        assertThat(agent.cancel(List.of(6))).as("canceled already: nothing more").isEmpty();
    }

    @Test
    void aLostNodeFailsItsTasksOrRestartsRestartableOnes() {
        TaskRequest again = new TaskRequest("again", "/bin/true", List.of(), java.util.Map.of(), "/s", "o", "e", "/dev/null", List.of(),
                List.of(), SlotRequest.cores(1), 0, false, 0, true, List.of());
        agent.submit(List.of(task(0), again));
        List<AgentAction> a = agent.nodeLost(0);
        assertThat(a).contains(new AgentAction.State(1, TaskState.FAILED, 1, "lost the daemon on a"));
        assertThat(only(a, AgentAction.Launch.class)).singleElement()
                .matches(l -> ((AgentAction.Launch) l).node() == 1)
                .as("told it runs again, as Slurm's SLURM_RESTART_COUNT")
                .matches(l -> ((AgentAction.Launch) l).spec().env().get("BANYAN_TASK_RESTARTS").equals("1"));
        assertThat(only(agent.submit(List.of(task(2))), AgentAction.Launch.class)).singleElement()
                .matches(l -> !((AgentAction.Launch) l).spec().env().containsKey("BANYAN_TASK_RESTARTS"));
    }

    @Test
    void preAndPostExecWrapTheCommandAndKeepItsStatus() {
        TaskRequest r = new TaskRequest("t", "./sim", List.of("x y"), java.util.Map.of("A", "1"), "/s", "o", "e", "/dev/null",
                List.of("module load x"), List.of("echo post"), SlotRequest.cores(1), 0, false, 0, false, List.of());
        TaskSpec s = new TaskSpecs(new GeneralScheduler(SchedulerTest.nodes(2, 2, 0))).spec(7, r, 0, new Placement(List.of(new Placement.Share(0, 1, 1, 0)), null), 0);
        assertThat(s.executable()).isEqualTo("/bin/sh");
        assertThat(s.args()).containsExactly("-c", """
                {
                module load x
                } || { rc=$?; echo "pre_exec failed (exit $rc): "'module load x' >&2; exit $rc; }
                "$@"
                rc=$?
                (
                echo post
                ) || echo "post_exec failed (exit $?): "'echo post' >&2
                exit $rc
                """, "banyan-task", "./sim", "x y");
        assertThat(s.env()).containsEntry("A", "1").containsEntry("BANYAN_TASK_ID", "7");
    }

    /**
     * An executable task of several ranks starts as one job of that many copies over the nodes
     * it was placed on, and is signaled as that job. It was one process on its first node, on
     * cores held on both nodes.
     */
    @Test
    void anExecutableTaskOfSeveralRanksStartsAsAJobOfCopiesAndIsCanceledAsOne() {
        TaskRequest copies = new TaskRequest("c", "hostname", List.of(), java.util.Map.of(), "/s", "o", "e", null, List.of(),
                List.of(), new SlotRequest(3, 1, 0, null, false), 0, false, 0, false, List.of());
        assertThat(copies.runsAsJob()).isTrue();
        assertThat(task(0).runsAsJob()).as("one rank: one process").isFalse();
        List<AgentAction> a = agent.submit(List.of(copies));
        assertThat(only(a, AgentAction.Launch.class)).isEmpty();
        assertThat(only(a, AgentAction.LaunchJob.class)).singleElement().satisfies(l -> {
            Placement p = ((AgentAction.LaunchJob) l).placement();
            assertThat(p.shares().stream().mapToInt(Placement.Share::ranks).sum()).isEqualTo(3);
            assertThat(p.shares()).extracting(Placement.Share::node).containsExactlyInAnyOrder(0, 1);
        });
        int id = agent.lastIds().getFirst();
        assertThat(only(agent.cancel(List.of(id)), AgentAction.Signal.class))
                .containsExactly(new AgentAction.Signal(id, List.of(0, 1), true, TaskAgent.SIGTERM));
    }

    @Test
    void aTaskThatCanNeverRunFailsAtOnceWithTheReason() {
        TaskRequest huge = new TaskRequest("huge", "/bin/true", List.of(), java.util.Map.of(), "/s", "o", "e", "/dev/null", List.of(),
                List.of(), SlotRequest.cores(3), 0, false, 0, false, List.of());
        assertThat(agent.submit(List.of(huge))).singleElement().matches(a -> a instanceof AgentAction.State s
                && s.state() == TaskState.FAILED && s.detail().contains("does not fit any node"));
    }
}
