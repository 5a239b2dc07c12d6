package org.banyan.core.tree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TreeGatherTest {
    static TreeGather<Integer> sum(List<Integer> children, boolean local) {
        return new TreeGather<>(children, local, 0, Integer::sum);
    }

    @Test
    void completesOnceEveryChildAndTheLocalPartCame() {
        TreeGather<Integer> g = sum(List.of(1, 2), true);
        assertThat(g.fromChild(1, 10)).isFalse();
        assertThat(g.local(1)).isFalse();
        assertThat(g.fromChild(1, 99)).as("a repeated part is ignored").isFalse();
        assertThat(g.fromChild(2, 100)).isTrue();
        assertThat(g.result()).isEqualTo(111);
        assertThat(g.fromChild(2, 5)).as("nothing after completion").isFalse();
    }

    @Test
    void aLostChildCountsAsDone() {
        TreeGather<Integer> g = sum(List.of(1, 2), false);
        assertThat(g.fromChild(1, 10)).isFalse();
        assertThat(g.childLost(2)).isTrue();
        assertThat(g.result()).isEqualTo(10);
    }

    @Test
    void aLossFirstStillWaitsForTheOthers() {
        TreeGather<Integer> g = sum(List.of(1, 2), true);
        assertThat(g.childLost(1)).isFalse();
        assertThat(g.awaits(2)).isTrue();
        assertThat(g.local(3)).isFalse();
        assertThat(g.fromChild(2, 4)).isTrue();
        assertThat(g.result()).isEqualTo(7);
    }

    @Test
    void aRoundOfLostChildrenOnlyNeverCompletes() {
        TreeGather<Integer> g = sum(List.of(1), false);
        assertThat(g.childLost(1)).isFalse();
    }

    @Test
    void aLeafWithItsOwnPartCompletesAtOnce() {
        assertThat(sum(List.of(), true).local(5)).isTrue();
    }
}
