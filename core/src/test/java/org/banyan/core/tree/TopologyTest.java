package org.banyan.core.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTest {
    /** Every vertex but the root has exactly one parent, which lists it as a child. */
    static void assertConsistent(Topology t) {
        int[] seen = new int[t.size()];
        for (int v = 0; v < t.size(); v++) {
            for (int c : t.children(v)) {
                assertThat(t.parent(c)).as("parent of %d in %s", c, t).isEqualTo(v);
                seen[c]++;
            }
        }
        assertThat(seen[0]).isZero();
        for (int v = 1; v < t.size(); v++) {
            assertThat(seen[v]).as("vertex %d of %s reached once", v, t).isEqualTo(1);
            assertThat(t.parent(v)).isLessThan(v);
        }
    }

    @Test
    void karyTreesAreConsistentForManyShapes() {
        for (int k = 1; k <= 9; k++) {
            for (int n = 1; n <= 70; n++) {
                assertConsistent(new KaryTree(n, k));
            }
        }
    }

    @Test
    void binomialTreesAreConsistent() {
        for (int n = 1; n <= 130; n++) {
            assertConsistent(new BinomialTree(n));
        }
    }

    @Test
    void karyShape() {
        KaryTree t = new KaryTree(10, 3);
        assertThat(t.children(0)).containsExactly(1, 2, 3);
        assertThat(t.children(1)).containsExactly(4, 5, 6);
        assertThat(t.children(3)).containsExactly(); // 10, 11, 12 do not exist
        assertThat(t.children(2)).containsExactly(7, 8, 9);
        assertThat(t.height()).isEqualTo(2);
        assertThat(new KaryTree(1001, 32).height()).isEqualTo(2);
    }

    @Test
    void binomialShape() {
        BinomialTree t = new BinomialTree(8);
        assertThat(t.children(0)).containsExactly(1, 2, 4);
        assertThat(t.children(1)).containsExactly(3, 5);
        assertThat(t.children(2)).containsExactly(6);
        assertThat(t.children(3)).containsExactly(7);
        assertThat(t.parent(6)).isEqualTo(2);
        assertThat(t.height()).isEqualTo(3);
    }

    @Test
    void routingFindsTheChildTowardsATarget() {
        KaryTree t = new KaryTree(40, 3);
        assertThat(t.parent(20)).isEqualTo(6);
        assertThat(t.nextHop(0, 20)).isEqualTo(1);
        assertThat(t.nextHop(1, 20)).isEqualTo(6);
        assertThat(t.nextHop(6, 20)).isEqualTo(20);
        assertThat(t.nextHop(2, 20)).isEqualTo(-1);
        assertThat(t.inSubtree(1, 20)).isTrue();
        assertThat(t.inSubtree(2, 20)).isFalse();
    }

    @Test
    void parseNamesTheChoices() {
        assertThat(TopologySpec.parse("radix:4").over(10)).isEqualTo(new KaryTree(10, 4));
        assertThat(TopologySpec.parse("binomial").over(10)).isEqualTo(new BinomialTree(10));
        assertThat(TopologySpec.parse("direct").over(10).children(0)).hasSize(9);
        assertThatThrownBy(() -> TopologySpec.parse("ring")).hasMessageContaining("valid: radix:K, binomial, direct");
    }

    @Test
    void everyVertexIsInTheRootsSubtree() {
        List<Integer> missing = new ArrayList<>();
        BinomialTree t = new BinomialTree(100);
        for (int v = 0; v < 100; v++) {
            if (!t.inSubtree(0, v)) {
                missing.add(v);
            }
        }
        assertThat(missing).isEmpty();
    }
}
