package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PreparedBlocksTest {
    @Test
    void blocksForTheNamedSizesArePreparedButNotForTheCurrentOne() {
        // rank 1 of 1,000 elements: 250 at 4 ranks, 500 at 2, none at 1
        PreparedBlocks b = new PreparedBlocks(1000, 2, new int[] {4, 2, 1}, 1);
        b.ahead(4);
        assertThat(b.count()).as("two arrays at 2 ranks; rank 1 has no block at 1 rank; 4 is the current size").isEqualTo(2);
        double[] first = b.take(0, 500);
        assertThat(first).hasSize(500);
        assertThat(b.count()).isEqualTo(1);
        assertThat(b.take(0, 500)).as("handed out once: a second is new").isNotSameAs(first).hasSize(500);
    }

    @Test
    void aReplacedBlockComesBackForTheResizeBackAndOnlyTheLastIsKept() {
        PreparedBlocks b = new PreparedBlocks(1000, 1, new int[] {}, 0);
        double[] at4 = new double[250];
        double[] at3 = new double[334];
        b.keep(0, at4);
        assertThat(b.take(0, 250)).isSameAs(at4);
        b.keep(0, at4);
        b.keep(0, at3);
        assertThat(b.count()).as("one replaced block kept per array, whatever the resizes").isEqualTo(1);
        assertThat(b.take(0, 334)).isSameAs(at3);
        assertThat(b.take(0, 250)).isNotSameAs(at4);
    }

    @Test
    void aPreparedLengthStaysKeptBesideTheReplacedOne() {
        PreparedBlocks b = new PreparedBlocks(1000, 1, new int[] {2}, 0);
        b.ahead(4);
        double[] at2 = b.take(0, 500); // the shrink to 2
        double[] at4 = new double[250];
        b.keep(0, at4);                // it replaced the block at 4
        assertThat(b.take(0, 250)).isSameAs(at4); // the expansion back
        b.keep(0, at2);
        b.keep(0, new double[334]);    // another replaced block does not push the prepared one out
        assertThat(b.take(0, 500)).isSameAs(at2);
    }

    @Test
    void badSizesAreRefused() {
        assertThatThrownBy(() -> new PreparedBlocks(10, 0, new int[] {2}, 0)).hasMessageContaining("0 arrays");
        assertThatThrownBy(() -> new PreparedBlocks(10, 1, new int[] {0}, 0)).hasMessageContaining("a world of 0 ranks");
        assertThatThrownBy(() -> new PreparedBlocks(1L << 40, 1, new int[] {2}, 0)).hasMessageContaining("do not fit an array");
    }
}
