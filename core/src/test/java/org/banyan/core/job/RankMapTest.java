package org.banyan.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RankMapTest {
    static JobDescription job(MappingPolicy policy, boolean over, List<Node> nodes, int... counts) {
        List<AppContext> apps = new java.util.ArrayList<>();
        for (int c : counts) {
            apps.add(new AppContext("/bin/true", List.of(), c, Map.of(), null));
        }
        return new JobDescription(1, apps, nodes, policy, over, 0, "/w/launch");
    }

    @Test
    void slotPolicyFillsEachNodeBeforeTheNext() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, false, List.of(new Node("a", 2), new Node("b", 2)), 4));
        assertThat(new int[] {m.nodeOf(0), m.nodeOf(1), m.nodeOf(2), m.nodeOf(3)}).containsExactly(0, 0, 1, 1);
        assertThat(m.localRankOf(3)).isEqualTo(1);
        assertThat(m.ranksOf(1)).containsExactly(2, 3);
        assertThat(m.processMapping()).isEqualTo("(vector,(0,2,2))");
    }

    /** MPI_UNIVERSE_SIZE as mpirun gives it: the hosts' slots, or the job's size when it oversubscribes them. */
    @Test
    void theUniverseIsTheSlotsOrTheJobWhenItIsLarger() {
        List<Node> four = List.of(new Node("a", 1), new Node("b", 3));
        assertThat(RankMap.of(job(MappingPolicy.SLOT, false, four, 1)).universeSize()).isEqualTo(4);
        assertThat(RankMap.of(job(MappingPolicy.SLOT, true, four, 6)).universeSize()).as("the slots, as mpirun's").isEqualTo(4);
    }

    @Test
    void nodePolicyRoundRobins() {
        RankMap m = RankMap.of(job(MappingPolicy.NODE, false, List.of(new Node("a", 2), new Node("b", 2)), 4));
        assertThat(new int[] {m.nodeOf(0), m.nodeOf(1), m.nodeOf(2), m.nodeOf(3)}).containsExactly(0, 1, 0, 1);
        assertThat(m.processMapping()).isEqualTo("(vector,(0,2,1))");
    }

    @Test
    void nodePolicySkipsFullNodes() {
        RankMap m = RankMap.of(job(MappingPolicy.NODE, false, List.of(new Node("a", 3), new Node("b", 1)), 4));
        assertThat(new int[] {m.nodeOf(0), m.nodeOf(1), m.nodeOf(2), m.nodeOf(3)}).containsExactly(0, 1, 0, 0);
    }

    /** {@code --rank-by}: each node keeps the count its mapping gives it; only the numbering changes. */
    @Test
    void rankByNumbersTheMappedCountsTheOtherWay() {
        List<Node> nodes = List.of(new Node("a", 2), new Node("b", 2));
        RankMap slotByNode = RankMap.of(job(MappingPolicy.SLOT_RANKED_BY_NODE, false, nodes, 3));
        assertThat(new int[] {slotByNode.nodeOf(0), slotByNode.nodeOf(1), slotByNode.nodeOf(2)}).as("a:2 b:1, round robin")
                .containsExactly(0, 1, 0);
        RankMap nodeBySlot = RankMap.of(job(MappingPolicy.NODE_RANKED_BY_SLOT, false, List.of(new Node("a", 3), new Node("b", 3)), 5));
        assertThat(new int[] {nodeBySlot.nodeOf(0), nodeBySlot.nodeOf(1), nodeBySlot.nodeOf(2), nodeBySlot.nodeOf(3),
                nodeBySlot.nodeOf(4)}).as("a:3 b:2, node after node").containsExactly(0, 0, 0, 1, 1);
        RankMap over = RankMap.of(job(MappingPolicy.NODE_RANKED_BY_SLOT, true, List.of(new Node("a", 1), new Node("b", 1)), 5));
        assertThat(over.ranksOf(0)).containsExactly(0, 1, 2);
        assertThat(over.processMapping()).isEqualTo("(vector,(0,1,3),(1,1,2))");
        assertThat(MappingPolicy.SLOT.rankedBy(false)).isEqualTo(MappingPolicy.SLOT);
        assertThat(MappingPolicy.NODE.rankedBy(true)).isEqualTo(MappingPolicy.NODE);
        assertThat(MappingPolicy.NODE.rankedBy(false)).isEqualTo(MappingPolicy.NODE_RANKED_BY_SLOT);
    }

    @Test
    void singleNodeMapping() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, true, List.of(new Node("a", 2)), 64));
        assertThat(m.processMapping()).isEqualTo("(vector,(0,1,64))");
        assertThat(m.ranksOn(0)).isEqualTo(64);
        assertThat(m.localRankOf(63)).isEqualTo(63);
    }

    @Test
    void oversubscriptionRepeatsThePolicy() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, true, List.of(new Node("a", 1), new Node("b", 1)), 5));
        assertThat(new int[] {m.nodeOf(0), m.nodeOf(1), m.nodeOf(2), m.nodeOf(3), m.nodeOf(4)})
                .containsExactly(0, 1, 0, 1, 0);
    }

    @Test
    void irregularLayoutsListEveryBlock() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, false, List.of(new Node("a", 3), new Node("b", 1)), 4));
        assertThat(m.processMapping()).isEqualTo("(vector,(0,1,3),(1,1,1))");
    }

    @Test
    void hostsWithoutFreeSlotsTakeNoRankAndTheMappingNumbersNodesDensely() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, false, List.of(new Node("a", 0), new Node("b", 2),
                new Node("c", 0), new Node("d", 1)), 3));
        assertThat(new int[] {m.nodeOf(0), m.nodeOf(1), m.nodeOf(2)}).containsExactly(1, 1, 3);
        assertThat(m.processMapping()).as("MPICH reads node ids as dense").isEqualTo("(vector,(0,1,2),(1,1,1))");
        assertThatThrownBy(() -> RankMap.of(job(MappingPolicy.SLOT, true, List.of(new Node("a", 0)), 1)))
                .hasMessageContaining("no slot is free");
    }

    @Test
    void tooManyRanksWithoutOversubscribeNamesTheFix() {
        assertThatThrownBy(() -> RankMap.of(job(MappingPolicy.SLOT, false, List.of(new Node("vm", 2)), 5)))
                .hasMessage("5 ranks requested but only 2 slots available on vm; add --oversubscribe or give more"
                        + " slots (--host NAME:SLOTS or a hostfile)");
    }

    @Test
    void mpmdContextsNumberRanksAcrossApps() {
        RankMap m = RankMap.of(job(MappingPolicy.SLOT, false, List.of(new Node("a", 4)), 1, 3));
        assertThat(m.appOf(0)).isZero();
        assertThat(m.appOf(1)).isEqualTo(1);
        assertThat(m.appOf(3)).isEqualTo(1);
        assertThat(m.size()).isEqualTo(4);
    }
}
