package org.banyan.core.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChainDepthTest {
    private static final SlotRequest ONE = SlotRequest.cores(1);
    private static final SlotRequest FOUR = SlotRequest.cores(4);

    @Test
    void anUnknownShapeGetsTheDefaultDepthCappedByTheMaximum() {
        assertThat(new ChainDepth(8).of(ONE)).isEqualTo(ChainDepth.UNKNOWN);
        assertThat(new ChainDepth(1).of(ONE)).isEqualTo(1);
        assertThat(new ChainDepth(0).of(ONE)).as("no queueing").isZero();
    }

    @Test
    void theDepthIsWhatRunsWithinTheHorizonBetweenOneAndTheMaximum() {
        ChainDepth d = new ChainDepth(8);
        d.ran(ONE, 500);
        assertThat(d.of(ONE)).as("20 half-millisecond tasks fit in 10 ms; the maximum is 8").isEqualTo(8);
        d.ran(FOUR, 2_500);
        assertThat(d.of(FOUR)).as("four of 2.5 ms").isEqualTo(4);
        assertThat(d.of(SlotRequest.cores(2))).as("shapes apart").isEqualTo(ChainDepth.UNKNOWN);
        ChainDepth e = new ChainDepth(8);
        e.ran(ONE, 60_000_000);
        assertThat(e.of(ONE)).as("behind a minute's task, one").isEqualTo(1);
    }

    @Test
    void theMeanFollowsTasksThatGrowLongerAndIgnoresUnknownTimes() {
        ChainDepth d = new ChainDepth(8);
        d.ran(ONE, 500);
        d.ran(ONE, 0);
        assertThat(d.of(ONE)).isEqualTo(8);
        for (int i = 0; i < 60; i++) {
            d.ran(ONE, 5_000_000);
        }
        assertThat(d.of(ONE)).isEqualTo(1);
    }
}
