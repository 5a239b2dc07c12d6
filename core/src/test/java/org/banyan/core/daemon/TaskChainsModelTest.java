package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.AgentAction;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * The agent and the daemons' {@link LocalTasks} together, as the DVM runs them, over many seeds:
 * two nodes of two cores, messages delayed at random on each node's link both ways, processes
 * ending at random, cancels at random, chains of every depth the agent may build. No node ever
 * runs more processes than it has cores, no task starts twice, every task ends exactly once (DONE
 * unless canceled), and every core is free at the end.
 */
class TaskChainsModelTest {
    private static final int NODES = 2;
    private static final int CORES = 2;

    @Test
    void agentAndDaemonsAgreeOnChainsOfEveryDepth() {
        int withdrawn = 0;
        int dropped = 0;
        int queuedDeep = 0;
        for (int depth : new int[] {1, 2, 3, 8}) {
            for (int seed = 0; seed < 150; seed++) {
                Run r = new Run(depth, seed);
                r.play();
                withdrawn += r.withdrawn;
                dropped += r.dropped;
                queuedDeep += r.queuedDeep;
            }
        }
        assertThat(withdrawn).as("withdrawals for idle cores").isPositive();
        assertThat(dropped).as("queued tasks dropped by their daemon").isPositive();
        assertThat(queuedDeep).as("tasks queued behind queued ones").isPositive();
    }

    private static final class Run {
        final int depth;
        final int seed;
        final Random rnd;
        final GeneralScheduler scheduler;
        final TaskAgent agent;
        final List<DaemonOutbox> outboxes = new ArrayList<>();
        final List<LocalTasks> daemons = new ArrayList<>();
        final List<ArrayDeque<Object>> down = new ArrayList<>();
        final List<ArrayDeque<int[]>> up = new ArrayList<>();
        final List<Set<Integer>> processes = new ArrayList<>();
        final Set<Integer> started = new HashSet<>();
        final Map<Integer, TaskState> finals = new HashMap<>();
        final Set<Integer> canceled = new HashSet<>();
        int withdrawn;
        int dropped;
        int queuedDeep;
        final Set<Integer> queuedIds = new HashSet<>();

        Run(int depth, int seed) {
            this.depth = depth;
            this.seed = seed;
            this.rnd = new Random(seed * 31L + depth);
            List<NodeResources> nodes = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                nodes.add(new NodeResources("n" + i, CORES, 0));
                int node = i;
                DaemonOutbox out = new DaemonOutbox();
                outboxes.add(out);
                daemons.add(new LocalTasks(out, e -> {
                    dropped++;
                    up.get(node).add(new int[] {e.rank(), e.status()});
                }));
                down.add(new ArrayDeque<>());
                up.add(new ArrayDeque<>());
                processes.add(new HashSet<>());
            }
            scheduler = new GeneralScheduler(nodes);
            agent = new TaskAgent(scheduler, List.of("n0", "n1"), depth);
        }

        void play() {
            int n = 20 + rnd.nextInt(40);
            List<TaskRequest> bag = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                bag.add(TaskRequest.of("t" + i, "/s/t" + i, "/bin/true"));
            }
            apply(agent.submit(bag));
            int steps = 0;
            while (finals.size() < n && steps++ < 200_000) {
                int node = rnd.nextInt(NODES);
                switch (rnd.nextInt(4)) {
                    case 0 -> deliverDown(node);
                    case 1 -> endAProcess(node);
                    case 2 -> {
                        int[] e = up.get(node).poll();
                        if (e != null) {
                            // run times that make the agent's chains deepen and shorten as it goes
                            long ran = rnd.nextInt(4) == 0 ? 0 : rnd.nextBoolean() ? 200 + rnd.nextInt(2_000) : 5_000 + rnd.nextInt(20_000);
                            apply(agent.ended(e[0], e[1], "", ran));
                        }
                    }
                    default -> {
                        if (rnd.nextInt(12) == 0) {
                            int id = 1 + rnd.nextInt(n);
                            canceled.add(id);
                            apply(agent.cancel(List.of(id)));
                        }
                    }
                }
                for (Set<Integer> p : processes) {
                    assertThat(p.size()).as("depth %d seed %d: processes on a node", depth, seed).isLessThanOrEqualTo(CORES);
                }
            }
            assertThat(finals).as("depth %d seed %d: every task ended", depth, seed).hasSize(n);
            for (int id = 1; id <= n; id++) {
                if (!canceled.contains(id)) {
                    assertThat(finals.get(id)).as("depth %d seed %d task %d", depth, seed, id).isEqualTo(TaskState.DONE);
                }
            }
            assertThat(agent.running()).isZero();
            assertThat(scheduler.freeCores()).as("depth %d seed %d: every core free again", depth, seed)
                    .isEqualTo(NODES * CORES);
            for (LocalTasks d : daemons) {
                assertThat(d.idle()).isTrue();
            }
        }

        void apply(List<AgentAction> actions) {
            for (AgentAction a : actions) {
                switch (a) {
                    case AgentAction.Launch l -> {
                        down.get(l.node()).add(l);
                        if (l.spec().after() != 0) {
                            queuedDeep += queuedIds.contains(l.spec().after()) ? 1 : 0;
                            queuedIds.add(l.spec().taskId());
                        }
                    }
                    case AgentAction.Signal s -> {
                        for (int node : s.nodes()) {
                            down.get(node).add(s);
                        }
                        withdrawn += s.signal() == 0 ? 1 : 0;
                    }
                    case AgentAction.State s when s.state().isFinal() ->
                            assertThat(finals.put(s.taskId(), s.state())).as("depth %d seed %d: task %d ends once", depth,
                                    seed, s.taskId()).isNull();
                    default -> { }
                }
            }
        }

        void deliverDown(int node) {
            Object m = down.get(node).poll();
            if (m == null) {
                return;
            }
            LocalTasks d = daemons.get(node);
            switch (m) {
                case AgentAction.Launch l -> d.run(new OverlayMessage.RunTasks(-1, node, List.of(l.spec())));
                case AgentAction.Signal s -> d.signal(new OverlayMessage.SignalTasks(-1, node, List.of(s.taskId()), s.signal()));
                default -> throw new AssertionError(m);
            }
            carryOut(node);
        }

        void endAProcess(int node) {
            Set<Integer> p = processes.get(node);
            if (!p.isEmpty()) {
                int id = p.iterator().next();
                end(node, id, 0);
            }
        }

        private void end(int node, int id, int status) {
            processes.get(node).remove(id);
            assertThat(daemons.get(node).ended(id)).isTrue();
            up.get(node).add(new int[] {id, status});
            carryOut(node);
        }

        /** What the daemon asked for: processes start, and signalled ones end at once. */
        private void carryOut(int node) {
            List<DaemonAction> actions = outboxes.get(node).drain();
            for (DaemonAction a : actions) {
                switch (a) {
                    case DaemonAction.StartRank s -> {
                        assertThat(started.add(s.launch().rank())).as("depth %d seed %d: task %d starts once", depth, seed,
                                s.launch().rank()).isTrue();
                        processes.get(node).add(s.launch().rank());
                    }
                    case DaemonAction.SignalRank s -> {
                        assertThat(s.signal()).isNotZero();
                        if (processes.get(node).contains(s.rank())) {
                            end(node, s.rank(), 128 + s.signal());
                        }
                    }
                    default -> { } // the kill grace's timer
                }
            }
        }
    }
}
