package org.banyan.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SimInvariantsTest {
    @Test
    void eachBrokenRuleIsNamed() {
        SimInvariants i = new SimInvariants();
        i.timeMovesOn(10, 10);
        i.rankStarts(0, false, false);
        i.finishedOnce(false);
        assertThat(i.violations()).isEmpty();
        i.timeMovesOn(10, 9);
        i.rankStarts(1, true, false);
        i.rankStarts(0, false, true);
        i.finishedOnce(true);
        assertThat(i.violations()).containsExactly("time went back from 10 to 9 us",
                "rank 1 started by a daemon whose parent was gone", "rank 0 started while it ran", "rank 0 started twice",
                "the head finished twice");
    }
}
