package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;
import org.junit.jupiter.api.Test;

/** An elastic DVM's decisions about its Slurm hosts, without Slurm. */
class ElasticPolicyTest {
    final List<String> said = new ArrayList<>();
    final List<DvmAction> actions = new ArrayList<>();

    ElasticPolicy policy(DvmHosts hosts, TopologySpec spawn, TopologySpec routing, boolean stepPerDaemon) {
        return new ElasticPolicy("7", hosts, spawn, routing, stepPerDaemon, said::add, actions::add);
    }

    @Test
    void givesBackTheLastFreeHostsWithNothingServingBelowThemOneShrinkAtATime() {
        DvmHosts hosts = hosts(5);
        // spawn radix:2: daemon 0 has daemons 2 and 3 below it, daemon 1 has daemon 4
        ElasticPolicy shrink = policy(hosts, new TopologySpec.Radix(2), new TopologySpec.Radix(2), true);
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
        ElasticPolicy shrink = policy(hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), true);
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> i != 3, false)).containsExactly(2);
        hosts.lost(3);
        ElasticPolicy again = policy(hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), true);
        assertThat(again.release(new AllocationPolicy.Outside(true, 2, 0), i -> i != 3, false))
                .as("a lost daemon below serves nothing").containsExactly(2, 1);
    }

    @Test
    void nothingGoesBackWhileTheDvmsOwnQueueWaits() {
        ElasticPolicy shrink = policy(hosts(3), new TopologySpec.Radix(32), new TopologySpec.Radix(32), true);
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> true, true)).isEmpty();
        assertThat(shrink.release(new AllocationPolicy.Outside(true, 1, 0), i -> true, false)).containsExactly(2);
    }

    @Test
    void fillsOnlySlotsGivenBackOrVacantThatTheHeadStartsAlone() {
        DvmHosts hosts = hosts(6);
        // spawn radix:2: the head's children are daemons 0 and 1; 2 and 3 are below 0, 4 and 5 below 1
        ElasticPolicy two = policy(hosts, new TopologySpec.Radix(2), new TopologySpec.Radix(2), true);
        hosts.released(1);
        hosts.released(4);
        hosts.vacant(5);
        assertThat(two.refillable()).as("daemon 1 has 4 and 5 below it, and they are not the head's children").isEmpty();
        ElasticPolicy flat = policy(hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32), true);
        assertThat(flat.refillable()).as("given back or vacant; 2 and 3 serve").containsExactly(1, 4, 5);
        ElasticPolicy staticPorts = policy(hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32), false);
        assertThat(staticPorts.refillable()).as("one step started them all").isEmpty();
    }

    @Test
    void aGrantedHostFillsItsOwnSlotAndNewHostsTheFreeSlotsInOrder() {
        assertThat(ElasticPolicy.fill(List.of(1, 4, 5), List.of("node1", "node4", "(vacant)"), List.of("node9", "node4")))
                .containsExactly(Map.entry(1, "node9"), Map.entry(4, "node4"));
        assertThat(ElasticPolicy.fill(List.of(3, 5), List.of("(vacant)", "(vacant)"), List.of("a", "b")))
                .containsExactly(Map.entry(3, "a"), Map.entry(5, "b"));
    }

    @Test
    void asksForNothingWhileAJobWaitsInSlurmOrNothingWantsHosts() {
        DvmHosts hosts = hosts(3);
        hosts.released(2);
        ElasticPolicy e = policy(hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32), true);
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
        assertThat(e.decide(AllocationPolicy.Outside.QUIET, Set.of("node2"), pool, 0)).isEmpty();
        wanted[0] = 1;
        assertThat(e.decide(new AllocationPolicy.Outside(true, 4, 1), Set.of("node2"), pool, 0)).isEmpty();
        assertThat(said).isEmpty();
    }

    @Test
    void aDaemonThatNeverConnectsLosesItsSlotAtTheFirstProbeAfterTheDeadline() {
        DvmHosts hosts = hosts(3);
        hosts.released(2);
        ElasticPolicy e = policy(hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32), true);
        ElasticPool pool = idlePool();
        String before = e.hostOf(2);
        int[] wanted = {1};
        ElasticPool wanting = new ElasticPool() {
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
        assertThat(e.decide(AllocationPolicy.Outside.QUIET, Set.of("node2"), wanting, 0)).isEmpty();
        assertThat(actions).containsExactly(new DvmAction.SlurmGrow(1, List.of("node2"), List.of("node0", "node1"), 2));
        long now = 1_000_000_000L;
        assertThat(e.granted("9", List.of("node5"), now)).isEqualTo(new HeadEvent.RejoinDaemons(Map.of(2, "node5")));
        assertThat(e.hostOf(2)).as("what its joining daemon's GPUs are logged under (was %s)", before).isEqualTo("node5");
        assertThat(e.decide(AllocationPolicy.Outside.QUIET, Set.of(), pool, now + 29_000_000_000L)).as("still in time").isEmpty();
        assertThat(e.decide(AllocationPolicy.Outside.QUIET, Set.of(), pool, now + 31_000_000_000L))
                .containsExactly(new HeadEvent.DaemonLost(2, "did not connect within 30 s of Slurm's grant"));
        e.rejoined(2, pool);
        assertThat(hosts.serves(2)).isTrue();
        assertThat(hosts.get(2).name()).isEqualTo("node5");
        assertThat(e.decide(AllocationPolicy.Outside.QUIET, Set.of(), pool, now + 40_000_000_000L)).as("joined: nothing to give up").isEmpty();
        assertThat(e.laterJobs()).containsExactly("9");
    }

    /** Released daemons gone: the Slurm jobs that held their hosts shrink to what they keep; the DVM's own never goes. */
    @Test
    void theLastReleasedDaemonGoneShrinksTheJobsThatHeldTheirHosts() {
        DvmHosts hosts = hosts(4);
        ElasticPolicy e = policy(hosts, new TopologySpec.Radix(32), new TopologySpec.Radix(32), true);
        assertThat(e.release(new AllocationPolicy.Outside(true, 2, 0), i -> true, false)).containsExactly(3, 2);
        e.gone(3);
        assertThat(actions).as("not before the last").isEmpty();
        e.gone(2);
        assertThat(actions).containsExactly(new DvmAction.SlurmShrink(Map.of("7", List.of("node3", "node2")),
                Map.of("7", List.of("node0", "node1")), true));
        assertThat(e.release(new AllocationPolicy.Outside(true, 1, 0), i -> true, false)).as("until Slurm is done").isEmpty();
        e.shrunk(true);
        assertThat(e.release(new AllocationPolicy.Outside(true, 1, 0), i -> i != 2 && i != 3, false)).containsExactly(1);
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
