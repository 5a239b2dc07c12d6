package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class EndRateTest {
    private static final long MS = 1_000_000L;

    @Test
    void theEndsOfTheLastFullPeriodPerSecond() {
        EndRate r = new EndRate();
        assertThat(r.perSecond(0)).as("nothing known").isZero();
        for (int i = 0; i < 100; i++) {
            r.ended(i * MS); // one a millisecond
        }
        assertThat(r.perSecond(150 * MS)).as("no full period yet").isZero();
        for (int i = 150; i < 200; i++) {
            r.ended(i * MS);
        }
        assertThat(r.perSecond(200 * MS)).isCloseTo(750, within(1.0)); // 150 ends in 200 ms
        assertThat(r.perSecond(300 * MS)).as("held until the next period is over").isCloseTo(750, within(1.0));
        r.ended(350 * MS);
        assertThat(r.perSecond(400 * MS)).as("long tasks: one end in 200 ms").isCloseTo(5, within(0.01));
        assertThat(r.perSecond(5_000 * MS)).as("none since").isZero();
    }
}
