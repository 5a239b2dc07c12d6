package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskDependencyTest {
    final TaskAgent agent = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(1, 2, 0)), List.of("a"));

    static TaskRequest task(String uid, String deps) {
        TaskRequest r = TaskRequest.of(uid, "/s/" + uid, "/bin/true");
        return new TaskRequest(r.uid(), r.executable(), r.args(), r.env(), r.sandbox(), r.stdout(), r.stderr(), r.stdin(),
                r.preExec(), r.postExec(), r.slots(), r.priority(), r.mpi(), r.timeoutMillis(), r.restartable(),
                deps.isEmpty() ? List.of() : TaskDependency.parse(deps));
    }

    static List<AgentAction.State> states(List<AgentAction> actions, int id) {
        return actions.stream().filter(a -> a instanceof AgentAction.State s && s.taskId() == id)
                .map(a -> (AgentAction.State) a).toList();
    }

    static Set<Integer> launched(List<AgentAction> actions) {
        Set<Integer> out = new HashSet<>();
        for (AgentAction a : actions) {
            if (a instanceof AgentAction.Launch l) {
                out.add(l.spec().taskId());
            }
        }
        return out;
    }

    @Test
    void slurmAndFluxSpellingsParse() {
        assertThat(TaskDependency.parse("afterok:7:9,afterany:3, after:1,afternotok:2")).containsExactly(
                new TaskDependency(TaskDependency.Kind.AFTER_OK, 7), new TaskDependency(TaskDependency.Kind.AFTER_OK, 9),
                new TaskDependency(TaskDependency.Kind.AFTER_ANY, 3), new TaskDependency(TaskDependency.Kind.AFTER, 1),
                new TaskDependency(TaskDependency.Kind.AFTER_NOT_OK, 2));
        assertThat(TaskDependency.parse("afterok:7:9").toString()).isEqualTo("[afterok:7, afterok:9]");
        assertThat(TaskDependency.parse("afterany:3-5,12,afterok:1").toString())
                .as("what --detach prints, after a kind").isEqualTo("[afterany:3, afterany:4, afterany:5, afterany:12, afterok:1]");
        assertThatThrownBy(() -> TaskDependency.parse("7")).hasMessageContaining("'7' is not a dependency");
        assertThatThrownBy(() -> TaskDependency.parse("afterok:9-3")).hasMessageContaining("'9-3' is not a range of task ids");
        assertThatThrownBy(() -> TaskDependency.parse("afterok:1-2000000")).hasMessageContaining("at most 1000000");
        assertThatThrownBy(() -> TaskDependency.parse("afterok")).hasMessageContaining("'afterok' is not a dependency");
        assertThatThrownBy(() -> TaskDependency.parse("singleton")).hasMessageContaining("afterany, afterok, afternotok");
        assertThatThrownBy(() -> TaskDependency.parse("afterok:x")).hasMessageContaining("'x' is not a task id");
        assertThatThrownBy(() -> TaskDependency.parse("afterok:0")).hasMessageContaining("'0' is not a task id");
        assertThatThrownBy(() -> TaskDependency.parse("afterok:7,")).hasMessageContaining("'' is not a dependency");
    }

    /** afterok: held, said so, then scheduled once the other is DONE. */
    @Test
    void aTaskWaitsUntilTheOneItNamesIsDone() {
        List<AgentAction> a = agent.submit(List.of(task("a", ""), task("b", "afterok:1")));
        assertThat(launched(a)).containsExactly(1);
        assertThat(states(a, 2)).containsExactly(
                new AgentAction.State(2, TaskState.AGENT_SCHEDULING_PENDING, 0, "waiting for afterok:1"));
        assertThat(agent.held()).isEqualTo(1);
        assertThat(agent.notStarted()).as("it does not wait for cores").isZero();
        a = agent.ended(1, 0, "");
        assertThat(launched(a)).containsExactly(2);
        assertThat(states(a, 2)).extracting(AgentAction.State::state)
                .containsExactly(TaskState.AGENT_SCHEDULING, TaskState.AGENT_EXECUTING);
        assertThat(agent.held()).isZero();
    }

    /** One that can no longer be met fails the task, and those that wait on it in turn: nothing waits for ever. */
    @Test
    void anUnmetDependencyFailsTheTaskAndItsDependents() {
        agent.submit(List.of(task("a", ""), task("b", "afterok:1"), task("c", "afterok:2"), task("d", "afternotok:1"),
                task("e", "afterany:2")));
        List<AgentAction> a = agent.ended(1, 3, "boom");
        assertThat(states(a, 2)).containsExactly(new AgentAction.State(2, TaskState.FAILED, -1,
                "its dependency afterok:1 can no longer be met: task 1 ended FAILED"));
        assertThat(states(a, 3)).extracting(AgentAction.State::detail)
                .containsExactly("its dependency afterok:2 can no longer be met: task 2 ended FAILED");
        assertThat(launched(a)).as("afternotok of a failure, afterany of anything").containsExactlyInAnyOrder(4, 5);
        assertThat(agent.held()).isZero();
    }

    /** after: released when the other starts; a second condition on the same task still holds it. */
    @Test
    void afterIsMetWhenTheOtherStarts() {
        agent.submit(List.of(task("long", ""), task("long2", "")));
        List<AgentAction> a = agent.submit(List.of(task("w", ""), task("x", "after:3"), task("y", "after:3,afterok:3")));
        assertThat(launched(a)).as("both cores are busy").isEmpty();
        a = agent.ended(1, 0, "");
        assertThat(launched(a)).as("w starts, which lets x go (it waits for a core)").containsExactly(3);
        assertThat(states(a, 4)).extracting(AgentAction.State::state).containsExactly(TaskState.AGENT_SCHEDULING);
        assertThat(states(a, 5)).isEmpty();
        a = agent.ended(3, 0, "");
        assertThat(launched(a)).containsExactly(4);
        assertThat(states(a, 5)).extracting(AgentAction.State::state).containsExactly(TaskState.AGENT_SCHEDULING);
    }

    @Test
    void aDependencyOnAnUnknownTaskOrOnItselfFailsAtOnce() {
        List<AgentAction> a = agent.submit(List.of(task("a", "afterok:9"), task("b", "afterany:2")));
        assertThat(states(a, 1)).extracting(AgentAction.State::detail)
                .allMatch(d -> d.startsWith("its dependency afterok:9 names no task this DVM knows"));
        assertThat(states(a, 2)).extracting(AgentAction.State::state).as("not on itself: it would wait for ever")
                .containsExactly(TaskState.FAILED);
        assertThat(agent.unfinished()).isZero();
    }

    /** A task that ended before, whoever submitted it, or earlier in the same submit. */
    @Test
    void tasksThatEndedBeforeAreJudgedByTheirFinalState() {
        agent.submit(List.of(task("a", ""), task("b", "")));
        agent.ended(1, 0, "");
        agent.cancel(List.of(2));
        agent.ended(2, 143, "");
        TaskRequest huge = new TaskRequest("huge", "/bin/true", List.of(), Map.of(), "/s", "o", "e", null, List.of(), List.of(),
                SlotRequest.cores(64), 0, false, 0, false, List.of());
        List<AgentAction> a = agent.submit(List.of(task("c", "afterok:1"), task("d", "afterok:2"), huge,
                task("e", "afternotok:5")));
        assertThat(launched(a)).as("afterok of a DONE one; afternotok of one that failed in the same submit")
                .containsExactlyInAnyOrder(3, 6);
        assertThat(states(a, 4)).extracting(AgentAction.State::detail)
                .containsExactly("its dependency afterok:2 can no longer be met: task 2 ended CANCELED");
    }

    /** Ends are kept two bits an id, for the latest ids only. */
    @Test
    void finalStatesKeepTheLatestIds() {
        FinalStates ends = new FinalStates(64);
        for (int id = 1; id <= 100; id++) {
            ends.given(id);
            ends.ended(id, id % 3 == 0 ? TaskState.DONE : id % 3 == 1 ? TaskState.FAILED : TaskState.CANCELED);
        }
        ends.given(101);
        assertThat(ends.of(100, 101)).isEqualTo(TaskState.FAILED);
        assertThat(ends.of(99, 101)).isEqualTo(TaskState.DONE);
        assertThat(ends.of(38, 101)).isEqualTo(TaskState.CANCELED);
        assertThat(ends.of(101, 101)).as("given, not ended").isNull();
        assertThat(ends.of(37, 101)).as("forgotten: 64 ids back").isNull();
        assertThat(ends.of(102, 101)).isNull();
        assertThat(ends.of(0, 101)).isNull();
    }

    /** Cancelling a held task ends it (not a task of the queue) and lets afterany dependents go. */
    @Test
    void aHeldTaskCanBeCanceled() {
        agent.submit(List.of(task("a", ""), task("b", "afterok:1"), task("c", "afterany:2")));
        List<AgentAction> a = agent.cancel(List.of(2));
        assertThat(states(a, 2)).extracting(AgentAction.State::state).containsExactly(TaskState.CANCELED);
        assertThat(launched(a)).containsExactly(3);
        assertThat(agent.waiting()).isZero();
        assertThat(agent.held()).isZero();
        assertThat(agent.ended(1, 0, "")).as("b stays canceled").noneMatch(x -> x instanceof AgentAction.State s && s.taskId() == 2);
    }

    /** A chain as long as a big bag fails down its length without overflowing the stack. */
    @Test
    void aLongChainFailsDownItsWholeLength() {
        List<TaskRequest> chain = new ArrayList<>(List.of(task("t0", "")));
        for (int i = 1; i < 100_000; i++) {
            chain.add(task("t" + i, "afterok:" + i));
        }
        agent.submit(chain);
        assertThat(agent.held()).isEqualTo(99_999);
        List<AgentAction> a = agent.ended(1, 1, "");
        assertThat(a.stream().filter(x -> x instanceof AgentAction.State s && s.state() == TaskState.FAILED)).hasSize(100_000);
        assertThat(agent.held()).isZero();
        assertThat(agent.unfinished()).isZero();
    }

    /**
     * Random graphs of dependencies on earlier tasks, random ends and cancels, over many seeds:
     * every task ends; none starts before what it waits for; one failed for a dependency has one
     * that cannot be met.
     */
    @Test
    void randomDependencyGraphsEndWithEveryConditionKept() {
        for (long seed = 0; seed < 300; seed++) {
            Random rnd = new Random(seed);
            TaskAgent ag = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(1 + rnd.nextInt(2), 1 + rnd.nextInt(3), 0)),
                    List.of("a", "b"));
            int n = 5 + rnd.nextInt(40);
            List<List<TaskDependency>> deps = new ArrayList<>();
            List<TaskRequest> requests = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                List<TaskDependency> d = new ArrayList<>();
                for (int k = rnd.nextInt(3); k > 0 && i > 1; k--) {
                    d.add(new TaskDependency(TaskDependency.Kind.values()[rnd.nextInt(4)], 1 + rnd.nextInt(i - 1)));
                }
                deps.add(d);
                TaskRequest r = task("t" + i, "");
                requests.add(new TaskRequest(r.uid(), r.executable(), r.args(), r.env(), r.sandbox(), r.stdout(), r.stderr(),
                        r.stdin(), r.preExec(), r.postExec(), r.slots(), rnd.nextInt(3), false, 0, false, d));
            }
            Map<Integer, TaskState> state = new HashMap<>();
            Set<Integer> running = new HashSet<>();
            List<AgentAction> actions = new ArrayList<>(ag.submit(requests));
            for (int guard = 0; guard < 10_000; guard++) {
                for (AgentAction a : actions) {
                    if (a instanceof AgentAction.State s) {
                        assertThat(state.get(s.taskId())).as("seed %d: nothing moves after its end", seed).isNotIn(
                                TaskState.DONE, TaskState.FAILED, TaskState.CANCELED);
                        state.put(s.taskId(), s.state());
                        if (s.state() == TaskState.AGENT_EXECUTING) {
                            for (TaskDependency d : deps.get(s.taskId() - 1)) {
                                TaskState other = state.get(d.taskId());
                                assertThat(d.metBy(other)).as("seed %d: task %d started before %s (it is %s)", seed,
                                        s.taskId(), d, other).isTrue();
                            }
                            running.add(s.taskId());
                        }
                        if (s.state().isFinal()) {
                            running.remove(s.taskId());
                        }
                        if (s.state() == TaskState.FAILED && s.detail().contains("can no longer be met")) {
                            assertThat(deps.get(s.taskId() - 1)).as("seed %d", seed)
                                    .anyMatch(d -> Boolean.FALSE.equals(d.metBy(state.get(d.taskId()))));
                        }
                    }
                }
                if (running.isEmpty()) {
                    break;
                }
                int id = List.copyOf(running).get(rnd.nextInt(running.size()));
                actions = rnd.nextInt(10) == 0 ? ag.cancel(List.of(id)) : ag.ended(id, rnd.nextInt(3) == 0 ? 1 : 0, "");
                if (rnd.nextInt(10) == 0) {
                    actions = new ArrayList<>(actions);
                    actions.addAll(ag.cancel(List.of(1 + rnd.nextInt(n))));
                }
                if (actions.stream().noneMatch(x -> x instanceof AgentAction.State) && running.contains(id)) {
                    actions = ag.ended(id, 143, ""); // a cancel's signal ended it
                }
            }
            assertThat(ag.unfinished()).as("seed %d: every task ended", seed).isZero();
            assertThat(ag.held()).as("seed %d", seed).isZero();
            for (int i = 1; i <= n; i++) {
                TaskState s = state.get(i);
                assertThat(s).as("seed %d: task %d", seed, i).isIn(TaskState.DONE, TaskState.FAILED, TaskState.CANCELED);
            }
        }
    }
}
