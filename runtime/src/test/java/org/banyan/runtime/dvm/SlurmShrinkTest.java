package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.banyan.core.job.Node;
import org.banyan.core.tree.TopologySpec;
import org.banyan.rm.AllocationPolicy;
import org.junit.jupiter.api.Test;

class SlurmShrinkTest {
    final List<String> said = new ArrayList<>();

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
        assertThat(SlurmShrink.outside(squeue, sinfo, "7"))
                .as("job 42 waits for another job, 7 is the DVM's own; 43 and 44 tie, 43 is older")
                .isEqualTo(new AllocationPolicy.Outside(true, 3, 2));
        assertThat(SlurmShrink.outside("", "", "7")).isEqualTo(new AllocationPolicy.Outside(false, 0, 0));
    }

    @Test
    void givesBackTheLastFreeHostsWithNothingServingBelowThemOneShrinkAtATime() {
        DvmHosts hosts = hosts(5);
        // spawn radix:2: daemon 0 has daemons 2 and 3 below it, daemon 1 has daemon 4
        SlurmShrink shrink = new SlurmShrink("7", hosts, new TopologySpec.Radix(2), new TopologySpec.Radix(2), Path.of("/tmp"),
                said::add, true);
        Set<Integer> busy = Set.of(3);
        AllocationPolicy.Outside waiting = new AllocationPolicy.Outside(true, 3, 0);
        assertThat(shrink.decide(waiting, i -> !busy.contains(i), false))
                .as("4 and 2, then 1 whose subtree has then gone; 3 is busy, 0 stays")
                .containsExactly(4, 2, 1);
        assertThat(shrink.decide(waiting, i -> true, false)).as("a shrink is under way").isEmpty();
    }

    @Test
    void aHostWithAServingDaemonBelowItInTheRoutingTreeStays() {
        DvmHosts hosts = hosts(4);
        // spawn: every daemon a child of the head; routing radix:2: daemon 3 routes through daemon 1
        SlurmShrink shrink = new SlurmShrink("7", hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), Path.of("/tmp"),
                said::add, true);
        assertThat(shrink.decide(new AllocationPolicy.Outside(true, 1, 0), i -> i != 3, false)).containsExactly(2);
        hosts.lost(3);
        SlurmShrink again = new SlurmShrink("7", hosts, new TopologySpec.Direct(), new TopologySpec.Radix(2), Path.of("/tmp"),
                said::add, true);
        assertThat(again.decide(new AllocationPolicy.Outside(true, 2, 0), i -> i != 3, false))
                .as("a lost daemon below serves nothing").containsExactly(2, 1);
    }

    @Test
    void nothingGoesBackWhileTheDvmsOwnQueueWaits() {
        SlurmShrink shrink = new SlurmShrink("7", hosts(3), new TopologySpec.Radix(32), new TopologySpec.Radix(32),
                Path.of("/tmp"), said::add, true);
        assertThat(shrink.decide(new AllocationPolicy.Outside(true, 1, 0), i -> true, true)).isEmpty();
        assertThat(shrink.decide(new AllocationPolicy.Outside(true, 1, 0), i -> true, false)).containsExactly(2);
    }

    static DvmHosts hosts(int n) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new Node("node" + i, 2));
        }
        return new DvmHosts(nodes);
    }
}
