package org.banyan.runtime.dvm;

import org.banyan.core.dvm.DvmHosts;
import org.banyan.core.dvm.ElasticPool;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;
import org.banyan.runtime.launch.LaunchAgent;
import org.junit.jupiter.api.Test;

class ElasticSlurmTest {
    final List<String> said = new ArrayList<>();
    final List<HeadEvent> events = new ArrayList<>();

    @Test
    void theFirstJobWaitingForResourcesByPriorityAndTheDistinctIdleNodes() {
        String squeue = """
                41 2 100 Resources
                42 8 900 Dependency
                43 3 500 Priority
                44 1 500 Resources
                7 4 9999 Resources
                """;
        String sinfo = "node5\nnode6\nnode5\n";
        assertThat(ElasticSlurm.outside(squeue, sinfo, "7"))
                .as("job 42 waits for another job, 7 is the DVM's own; 43 and 44 tie, 43 is older")
                .isEqualTo(new AllocationPolicy.Outside(true, 3, 2));
        assertThat(ElasticSlurm.outside("", "", "7")).isEqualTo(new AllocationPolicy.Outside(false, 0, 0));
    }

    @Test
    void givesBackTheLastFreeHostsWithNothingServingBelowThemOneShrinkAtATime() {
        DvmHosts hosts = hosts(5);
        // spawn radix:2: daemon 0 has daemons 2 and 3 below it, daemon 1 has daemon 4
        ElasticSlurm shrink = new ElasticSlurm("7", hosts, new TopologySpec.Radix(2), new TopologySpec.Radix(2), Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        Set<Integer> busy = Set.of(3);
        AllocationPolicy.Outside waiting = new AllocationPolicy.Outside(true, 3, 0);
        assertThat(shrink.release(waiting, i -> !busy.contains(i), false))
                .as("4 and 2, then 1 whose subtree has then gone; 3 is busy, 0 stays")
                .containsExactly(4, 2, 1);
        assertThat(shrink.release(waiting, i -> true, false)).as("a shrink is under way").isEmpty();
    }

    @Test
    void aHostWithAServingDaemonBelowItInTheRoutingTreeStays() {
        DvmHosts hosts = hosts(4);
        // spawn: every daemon a child of the head; routing radix:2: daemon 3 routes through daemon 1
        ElasticSlurm shrink = new ElasticSlurm("7", hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> i != 3, false)).containsExactly(2);
        hosts.lost(3);
        ElasticSlurm again = new ElasticSlurm("7", hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        assertThat(again.release(new AllocationPolicy.Outside(true, 2, 0), i -> i != 3, false))
                .as("a lost daemon below serves nothing").containsExactly(2, 1);
    }

    @Test
    void nothingGoesBackWhileTheDvmsOwnQueueWaits() {
        ElasticSlurm shrink = new ElasticSlurm("7", hosts(3), new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> true, true)).isEmpty();
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> true, false)).containsExactly(2);
    }

    @Test
    void fillsOnlySlotsGivenBackOrVacantThatTheHeadStartsAlone() {
        DvmHosts hosts = hosts(6);
        // spawn radix:2: the head's children are daemons 0 and 1; 2 and 3 are below 0, 4 and 5 below 1
        ElasticSlurm two = new ElasticSlurm("7", hosts, new TopologySpec.Radix(2), new TopologySpec.Radix(2), Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        hosts.released(1);
        hosts.released(4);
        hosts.vacant(5);
        assertThat(two.refillable()).as("daemon 1 has 4 and 5 below it, and they are not the head's children").isEmpty();
        ElasticSlurm flat = new ElasticSlurm("7", hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"), new LaunchAgent.Slurm(), said::add, events::add);
        assertThat(flat.refillable()).as("given back or vacant; 2 and 3 serve").containsExactly(1, 4, 5);
        ElasticSlurm staticPorts = new ElasticSlurm("7", hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"), new LaunchAgent.SlurmStep(20007, "node[0-5]"), said::add, events::add);
        assertThat(staticPorts.refillable()).as("one step started them all").isEmpty();
    }

    @Test
    void aGrantedHostFillsItsOwnSlotAndNewHostsTheFreeSlotsInOrder() {
        assertThat(ElasticSlurm.fill(List.of(1, 4, 5), List.of("node1", "node4", "(vacant)"), List.of("node9", "node4")))
                .containsExactly(Map.entry(1, "node9"), Map.entry(4, "node4"));
        assertThat(ElasticSlurm.fill(List.of(3, 5), List.of("(vacant)", "(vacant)"), List.of("a", "b")))
                .containsExactly(Map.entry(3, "a"), Map.entry(5, "b"));
    }

    @Test
    void asksForNothingWhileAJobWaitsInSlurmOrNothingWantsHosts() {
        DvmHosts hosts = hosts(3);
        hosts.released(2);
        ElasticSlurm e = new ElasticSlurm("7", hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"),
                new LaunchAgent.Slurm(), said::add, events::add);
        int[] wanted = {0};
        ElasticPool pool = new ElasticPool() {
            public boolean isFree(int i) {
                return false;
            }

            public boolean anyQueued() {
                return false;
            }

            public void outsideDemand(int nodes) {}

            public int wanted() {
                return wanted[0];
            }

            public void retire(int i) {}

            public void restore(int i) {}
        };
        assertThat(e.decide(new ElasticSlurm.Seen(AllocationPolicy.Outside.QUIET, Set.of("node2")), pool)).isEmpty();
        wanted[0] = 1;
        assertThat(e.decide(new ElasticSlurm.Seen(new AllocationPolicy.Outside(true, 4, 1), Set.of("node2")), pool)).isEmpty();
        assertThat(said).isEmpty();
    }

    @Test
    void aDaemonThatNeverConnectsLosesItsSlotAtTheFirstProbeAfterTheDeadline() {
        DvmHosts hosts = hosts(3);
        hosts.released(2);
        ElasticSlurm e = new ElasticSlurm("7", hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"), new LaunchAgent.Slurm(), said::add, events::add);
        ElasticPool pool = idlePool();
        String before = e.hostOf(2);
        e.granted("9", Map.of(2, "node5"), System.nanoTime() + 60_000_000_000L);
        assertThat(events).containsExactly(new HeadEvent.RejoinDaemons(Map.of(2, "node5")));
        assertThat(e.hostOf(2)).as("what its joining daemon's GPUs are logged under (was %s)", before).isEqualTo("node5");
        assertThat(e.decide(ElasticSlurm.Seen.QUIET, pool)).as("still in time").isEmpty();
        e.granted("9", Map.of(2, "node5"), System.nanoTime() - 1);
        assertThat(e.decide(ElasticSlurm.Seen.QUIET, pool))
                .containsExactly(new HeadEvent.DaemonLost(2, "did not connect within 30 s of Slurm's grant"));
        e.rejoined(2, pool);
        assertThat(hosts.serves(2)).isTrue();
        assertThat(hosts.get(2).name()).isEqualTo("node5");
        assertThat(e.decide(ElasticSlurm.Seen.QUIET, pool)).as("joined: nothing to give up").isEmpty();
    }

    static ElasticPool idlePool() {
        return new ElasticPool() {
            public boolean isFree(int i) {
                return false;
            }

            public boolean anyQueued() {
                return false;
            }

            public void outsideDemand(int nodes) {}

            public int wanted() {
                return 0;
            }

            public void retire(int i) {}

            public void restore(int i) {}
        };
    }

    static DvmHosts hosts(int n) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new Node("node" + i, 2));
        }
        return new DvmHosts(nodes);
    }
}
