package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.banyan.core.pilot.TaskAgentTest.only;
import static org.banyan.core.pilot.TaskAgentTest.task;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The agent queueing tasks behind running ones on their daemons (2 nodes of 2 cores). */
class TaskQueueBehindTest {
    TaskAgent agent = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(2, 2, 0)), List.of("a", "b"), 1);

    static List<TaskSpec> launched(List<AgentAction> actions) {
        return only(actions, AgentAction.Launch.class).stream().map(a -> ((AgentAction.Launch) a).spec()).toList();
    }

    static List<TaskRequest> bag(int n) {
        List<TaskRequest> b = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            b.add(task(i));
        }
        return b;
    }

    @Test
    void withEveryCoreBusyTheNextTasksGoBehindRunningOnesAndStartWhenTheyEnd() {
        List<TaskSpec> specs = launched(agent.submit(bag(7)));
        assertThat(specs).extracting(TaskSpec::after).containsExactly(0, 0, 0, 0, 1, 2, 3);
        assertThat(agent.waiting()).isZero();
        assertThat(agent.notStarted()).as("queued on daemons: still demand for cores").isEqualTo(3);
        assertThat(agent.running()).isEqualTo(4);

        List<AgentAction> a = agent.ended(1, 0, "");
        assertThat(a).contains(new AgentAction.State(1, TaskState.DONE, 0, ""),
                new AgentAction.State(5, TaskState.AGENT_EXECUTING, 0, "a"));
        assertThat(agent.running()).as("5 took 1's core").isEqualTo(4);
        assertThat(launched(a)).as("nothing waits any more").isEmpty();

        a = agent.submit(bag(1));
        assertThat(launched(a)).as("the new task goes behind 4, the one running task with nothing behind it")
                .singleElement().extracting(TaskSpec::after).isEqualTo(4);
    }

    @Test
    void aQueuedTaskCanceledBeforeItsTurnIsDroppedByItsDaemonAndTheCoreGoesFree() {
        agent.submit(bag(5)); // 5 behind 1
        List<AgentAction> c = agent.cancel(List.of(5));
        assertThat(only(c, AgentAction.Signal.class)).containsExactly(
                new AgentAction.Signal(5, List.of(0), false, TaskAgent.SIGTERM));
        assertThat(agent.ended(5, 143, "")).as("the daemon's word that it dropped it")
                .contains(new AgentAction.State(5, TaskState.CANCELED, 143, ""));
        agent.ended(1, 0, "");
        assertThat(agent.running()).isEqualTo(3);
        assertThat(launched(agent.submit(bag(1)))).singleElement().extracting(TaskSpec::after).isEqualTo(0);
    }

    @Test
    void aQueuedTaskCanceledAsItStartsEndsCanceledThroughItsProcess() {
        agent.submit(bag(5));
        agent.cancel(List.of(5));
        List<AgentAction> a = agent.ended(1, 0, ""); // the daemon had started 5 before the signal came
        assertThat(a).contains(new AgentAction.State(5, TaskState.AGENT_EXECUTING, 0, "a"));
        assertThat(agent.ended(5, 143, "")).contains(new AgentAction.State(5, TaskState.CANCELED, 143, ""));
        assertThat(agent.running()).isEqualTo(3);
    }

    @Test
    void tasksQueuedOnALostNodeWaitAgainAndRunElsewhere() {
        agent.submit(bag(6)); // 5 behind 1 and 6 behind 2, on node 0
        List<AgentAction> a = agent.nodeLost(0);
        assertThat(a).contains(new AgentAction.State(1, TaskState.FAILED, 1, "lost the daemon on a"));
        assertThat(only(a, AgentAction.State.class)).noneMatch(s -> ((AgentAction.State) s).taskId() >= 5);
        assertThat(launched(a)).as("queued behind node 1's tasks").extracting(TaskSpec::after).containsExactly(3, 4);
    }

    @Test
    void aTaskQueuedBehindALongOneIsWithdrawnWhenCoresFreeElsewhere() {
        agent.submit(bag(5)); // 5 behind 1; then 4 ends and nothing else waits
        List<AgentAction> a = agent.ended(4, 0, "");
        assertThat(only(a, AgentAction.Signal.class)).as("withdrawn from the daemon of 1, whose end may take long")
                .containsExactly(new AgentAction.Signal(5, List.of(0), false, TaskAgent.WITHDRAW));
        a = agent.ended(5, 128, ""); // the daemon's word that it dropped 5
        assertThat(launched(a)).singleElement().satisfies(t -> {
            assertThat(t.taskId()).isEqualTo(5);
            assertThat(t.after()).isZero();
        });
        assertThat(only(a, AgentAction.Launch.class)).singleElement()
                .extracting(l -> ((AgentAction.Launch) l).node()).isEqualTo(1);
        assertThat(a).contains(new AgentAction.State(5, TaskState.AGENT_EXECUTING, 0, "b"));
        assertThat(agent.running()).isEqualTo(4);
    }

    @Test
    void aWithdrawalOvertakenByThePredecessorsEndLeavesTheTaskWhereItStarted() {
        GeneralScheduler s = new GeneralScheduler(SchedulerTest.nodes(2, 2, 0));
        TaskAgent ag = new TaskAgent(s, List.of("a", "b"), 1);
        ag.submit(bag(5));
        ag.ended(4, 0, ""); // 5 withdrawn, node 1's core held for it
        assertThat(s.freeCores()).isZero();
        List<AgentAction> a = ag.ended(1, 0, ""); // but the daemon had started 5 already
        assertThat(a).contains(new AgentAction.State(5, TaskState.AGENT_EXECUTING, 0, "a"));
        assertThat(launched(a)).isEmpty();
        assertThat(s.freeCores()).as("1's core went to 5, the held one came back").isEqualTo(1);
        assertThat(ag.ended(5, 0, "")).contains(new AgentAction.State(5, TaskState.DONE, 0, ""));
        assertThat(s.freeCores()).isEqualTo(2);
    }

    @Test
    void aTaskWhoseReservedCoresWereLostIsWithdrawnAgainWhenACoreFrees() {
        TaskAgent ag = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(4, 1, 0)), List.of("a", "b", "c", "d"), 1);
        ag.submit(bag(6)); // 1-4 run on a-d; 5 behind 1, 6 behind 2
        assertThat(only(ag.ended(4, 0, ""), AgentAction.Signal.class)).as("d's core reserved for 5")
                .containsExactly(new AgentAction.Signal(5, List.of(0), false, TaskAgent.WITHDRAW));
        assertThat(only(ag.nodeLost(3), AgentAction.State.class)).as("nothing ran on d").isEmpty();
        assertThat(only(ag.ended(3, 0, ""), AgentAction.Signal.class))
                .as("5, still queued behind 1 and holding nothing now, is the oldest to withdraw to c's core")
                .containsExactly(new AgentAction.Signal(5, List.of(0), false, TaskAgent.WITHDRAW));
        List<AgentAction> a = ag.ended(5, 128, "");
        assertThat(only(a, AgentAction.Launch.class)).singleElement()
                .extracting(l -> ((AgentAction.Launch) l).node()).isEqualTo(2);
    }

    @Test
    void anIdleCoreNoQueuedTaskFitsIsTriedOnceForTheirShapeNotOnceATask() {
        int[] places = {0};
        GeneralScheduler general = new GeneralScheduler(SchedulerTest.nodes(2, 4, 0));
        AgentScheduler counting = new AgentScheduler() {
            public Placement place(SlotRequest r) {
                places[0]++;
                return general.place(r);
            }

            public void release(Placement p) {
                general.release(p);
            }

            public String neverFits(SlotRequest r) {
                return general.neverFits(r);
            }

            public int freeCores() {
                return general.freeCores();
            }

            public int freeCoresOn(int node) {
                return general.freeCoresOn(node);
            }

            public int totalCores() {
                return general.totalCores();
            }

            public void nodeLost(int node) {
                general.nodeLost(node);
            }
        };
        TaskAgent ag = new TaskAgent(counting, List.of("a", "b"), TaskAgent.QUEUE_DEPTH);
        List<TaskRequest> bag = new ArrayList<>(List.of(task(0)));
        for (int i = 1; i <= 12; i++) {
            bag.add(pair(task(i)));
        }
        bag.add(task(13));
        ag.submit(bag); // 1 takes one core, 2-4 two each, 5-13 queue behind them, 14 takes the last core
        assertThat(ag.running()).isEqualTo(5);
        assertThat(ag.notStarted()).isEqualTo(9);
        places[0] = 0;
        List<AgentAction> a = ag.ended(1, 0, ""); // a one-core hole no pair fits
        assertThat(only(a, AgentAction.Signal.class)).as("nothing to withdraw").isEmpty();
        assertThat(places[0]).as("places tried for nine queued pairs and one free core").isEqualTo(1);
    }

    private static TaskRequest pair(TaskRequest t) {
        return new TaskRequest(t.uid(), t.executable(), t.args(), t.env(), t.sandbox(), t.stdout(), t.stderr(), t.stdin(),
                t.preExec(), t.postExec(), SlotRequest.cores(2), 0, false, 0, false, List.of());
    }

    @Test
    void chainsGrowBehindQueuedTasksAndCloseUpWhenOneLeaves() {
        TaskAgent ag = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(2, 2, 0)), List.of("a", "b"), 2);
        assertThat(launched(ag.submit(bag(12)))).extracting(TaskSpec::after).containsExactly(0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(launched(ag.submit(bag(1)))).as("every chain is full").isEmpty();
        List<AgentAction> a = ag.ended(1, 0, "");
        assertThat(a).contains(new AgentAction.State(5, TaskState.AGENT_EXECUTING, 0, "a"));
        assertThat(launched(a)).as("the chain behind 5 has room again: 13 goes behind 9").singleElement()
                .extracting(TaskSpec::after).isEqualTo(9);
        assertThat(only(ag.cancel(List.of(9)), AgentAction.Signal.class)).as("to the node 9's chain runs on")
                .containsExactly(new AgentAction.Signal(9, List.of(0), false, TaskAgent.SIGTERM));
        assertThat(ag.ended(9, 143, "")).contains(new AgentAction.State(9, TaskState.CANCELED, 143, ""));
        assertThat(ag.ended(5, 0, "")).as("13 moved up behind 5").contains(new AgentAction.State(13, TaskState.AGENT_EXECUTING, 0, "a"));
    }

    @Test
    void chainsGoDeepBehindShortTasksAndStayShortBehindLongOnes() {
        TaskAgent ag = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(1, 2, 0)), List.of("a"), 8);
        assertThat(launched(ag.submit(bag(40)))).as("no run time known yet: %d behind each", ChainDepth.UNKNOWN)
                .hasSize(2 + 2 * ChainDepth.UNKNOWN);
        // short tasks end (half a millisecond each): the chains deepen to the maximum
        List<TaskSpec> more = new ArrayList<>();
        for (int id = 1; id <= 4; id++) {
            more.addAll(launched(ag.ended(id, 0, "", 500)));
        }
        assertThat(ag.notStarted() - ag.waiting()).as("queued on the daemon: 8 behind each of the 2 running").isEqualTo(16);

        TaskAgent slow = new TaskAgent(new GeneralScheduler(SchedulerTest.nodes(1, 2, 0)), List.of("a"), 8);
        slow.submit(bag(40));
        for (int id = 1; id <= 12; id++) { // tasks of a second: every end moves a chain up, none grows
            slow.ended(id, 0, "", 1_000_000);
        }
        assertThat(slow.notStarted() - slow.waiting()).as("chains closed up to one behind each").isEqualTo(2);
        assertThat(launched(slow.submit(bag(1)))).as("and stay there").isEmpty();
    }

    @Test
    void mpiTaggedAndSeveralRankTasksAreNeverQueuedBehindOthers() {
        agent.submit(bag(4));
        TaskRequest mpi = new TaskRequest("m", "/bin/true", List.of(), Map.of(), "/s", "o", "e", "/dev/null", List.of(), List.of(),
                SlotRequest.cores(1), 0, true, 0, false, List.of());
        TaskRequest tagged = new TaskRequest("t", "/bin/true", List.of(), Map.of(), "/s", "o", "e", "/dev/null", List.of(), List.of(),
                new SlotRequest(1, 1, 0, "group", false), 0, false, 0, false, List.of());
        TaskRequest copies = new TaskRequest("c", "/bin/true", List.of(), Map.of(), "/s", "o", "e", "/dev/null", List.of(), List.of(),
                new SlotRequest(2, 1, 0, null, false), 0, false, 0, false, List.of());
        assertThat(launched(agent.submit(List.of(mpi, tagged, copies)))).isEmpty();
        assertThat(agent.waiting()).isEqualTo(3);
    }

    /**
     * Many seeds: the agent and a model of its daemons (as LocalTasks behaves), with messages
     * delayed at random both ways and cancels at random. No node ever runs more processes than
     * it has cores, no task starts twice, and every task ends exactly once, DONE if it was never
     * canceled.
     */
    @Test
    void randomInterleavingsNeverOversubscribeAndEndEveryTaskOnce() {
        int withdrawals = 0;
        int tooLate = 0;
        for (int k = 0; k < 300; k++) {
            final int seed = k;
            Random rnd = new Random(seed);
            GeneralScheduler scheduler = new GeneralScheduler(SchedulerTest.nodes(2, 2, 0));
            TaskAgent ag = new TaskAgent(scheduler, List.of("a", "b"), 1);
            ArrayDeque<Object> down = new ArrayDeque<>(); // Launch and Signal actions, in order
            ArrayDeque<int[]> up = new ArrayDeque<>(); // {task, status}
            List<Set<Integer>> running = List.of(new HashSet<>(), new HashSet<>());
            Map<Integer, TaskSpec> queued = new HashMap<>(); // running task -> queued behind it
            Map<Integer, Integer> nodeOf = new HashMap<>();
            Set<Integer> started = new HashSet<>();
            Map<Integer, TaskState> finals = new HashMap<>();
            Set<Integer> canceled = new HashSet<>();
            int n = 30 + rnd.nextInt(30);
            int[] withdrawalsTooLate = {0};
            int[] withdrawn = {0};
            java.util.function.Consumer<List<AgentAction>> apply = actions -> {
                for (AgentAction a : actions) {
                    switch (a) {
                        case AgentAction.Launch l -> down.add(l);
                        case AgentAction.Signal s -> {
                            down.add(s);
                            withdrawn[0] += s.signal() == TaskAgent.WITHDRAW ? 1 : 0;
                        }
                        case AgentAction.State s when s.state().isFinal() ->
                                assertThat(finals.put(s.taskId(), s.state())).as("seed %d: task %d ends once", seed, s.taskId()).isNull();
                        default -> { }
                    }
                }
            };
            apply.accept(ag.submit(bag(n)));
            int steps = 0;
            while (finals.size() < n && steps++ < 100_000) {
                int choice = rnd.nextInt(4);
                if (choice == 0 && !down.isEmpty()) { // the daemon takes the next message
                    switch (down.poll()) {
                        case AgentAction.Launch l -> {
                            TaskSpec t = l.spec();
                            nodeOf.put(t.taskId(), l.node());
                            if (t.after() != 0 && running.get(l.node()).contains(t.after()) && !queued.containsKey(t.after())) {
                                queued.put(t.after(), t);
                            } else {
                                assertThat(started.add(t.taskId())).isTrue();
                                running.get(l.node()).add(t.taskId());
                            }
                        }
                        case AgentAction.Signal s -> {
                            Integer before = queued.entrySet().stream().filter(e -> e.getValue().taskId() == s.taskId())
                                    .map(Map.Entry::getKey).findFirst().orElse(null);
                            if (before != null) {
                                queued.remove(before);
                                up.add(new int[] {s.taskId(), 128 + s.signal()});
                            } else if (s.signal() == TaskAgent.WITHDRAW) {
                                withdrawalsTooLate[0]++; // started already (or never here): nothing to do
                            } else if (running.get(nodeOf.get(s.taskId())).remove(s.taskId())) {
                                up.add(new int[] {s.taskId(), 128 + s.signal()});
                                startNext(queued, s.taskId(), running, nodeOf, started);
                            }
                        }
                        default -> throw new AssertionError();
                    }
                } else if (choice == 1) { // a process ends by itself
                    int node = rnd.nextInt(2);
                    if (!running.get(node).isEmpty()) {
                        int id = running.get(node).iterator().next();
                        running.get(node).remove(id);
                        up.add(new int[] {id, 0});
                        startNext(queued, id, running, nodeOf, started);
                    }
                } else if (choice == 2 && !up.isEmpty()) { // the agent hears of an end
                    int[] e = up.poll();
                    apply.accept(ag.ended(e[0], e[1], ""));
                } else if (choice == 3 && rnd.nextInt(10) == 0) {
                    int id = 1 + rnd.nextInt(n);
                    canceled.add(id);
                    apply.accept(ag.cancel(List.of(id)));
                }
                for (Set<Integer> r : running) {
                    assertThat(r.size()).as("seed %d: processes on a node", seed).isLessThanOrEqualTo(2);
                }
            }
            assertThat(finals).as("seed %d", seed).hasSize(n);
            for (int id = 1; id <= n; id++) {
                if (!canceled.contains(id)) {
                    assertThat(finals.get(id)).as("seed %d task %d", seed, id).isEqualTo(TaskState.DONE);
                }
            }
            assertThat(ag.running()).isZero();
            assertThat(scheduler.freeCores()).as("seed %d: every core free again", seed).isEqualTo(4);
            withdrawals += withdrawn[0];
            tooLate += withdrawalsTooLate[0];
        }
        assertThat(withdrawals).as("tasks withdrawn for idle cores").isPositive();
        assertThat(tooLate).as("withdrawals that found the task started").isPositive();
    }

    private static void startNext(Map<Integer, TaskSpec> queued, int ended, List<Set<Integer>> running,
                                  Map<Integer, Integer> nodeOf, Set<Integer> started) {
        TaskSpec next = queued.remove(ended);
        if (next != null) {
            assertThat(started.add(next.taskId())).isTrue();
            running.get(nodeOf.get(next.taskId())).add(next.taskId());
        }
    }

    /**
     * While cores are free no task looks for a chain end, so the ends offered were never met and
     * dropped: every task started stayed in the agent, with its request, for the DVM's life.
     */
    @Test
    void tasksThatEndAreNotHeldAsChainEnds() {
        for (int i = 0; i < 1_000; i++) {
            agent.submit(bag(1));
            agent.ended(agent.lastIds().getFirst(), 0, "");
        }
        assertThat(agent.unfinished()).isZero();
        assertThat(agent.chainEndsHeld()).isZero();
        agent.submit(bag(7)); // 4 run, 3 queued behind them: chain ends in use, then over
        for (int id : agent.lastIds()) {
            agent.ended(id, 0, "");
        }
        assertThat(agent.unfinished()).isZero();
        assertThat(agent.chainEndsHeld()).isZero();
    }
}
