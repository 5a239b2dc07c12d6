package org.banyan.rm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AllocationPolicyTest {
    final AllocationPolicy policy = new AllocationPolicy(1);

    @Test
    void givesBackTheFewestHostsThatLetTheFirstWaitingJobStart() {
        // 4 hosts, the last 3 free; a job waits for 3 nodes and 1 is idle outside: 2 go back
        assertThat(policy.release(new AllocationPolicy.Inside(4, 3, false), new AllocationPolicy.Outside(true, 3, 1)))
                .isEqualTo(2);
    }

    @Test
    void keepsEverythingWhenNothingWaitsOutside() {
        assertThat(policy.release(new AllocationPolicy.Inside(4, 3, false), AllocationPolicy.Outside.QUIET)).isZero();
    }

    @Test
    void keepsEverythingWhileItsOwnQueueWaits() {
        assertThat(policy.release(new AllocationPolicy.Inside(4, 3, true), new AllocationPolicy.Outside(true, 1, 0)))
                .isZero();
    }

    @Test
    void keepsEverythingWhenTheWaitingJobCouldStartAlready() {
        assertThat(policy.release(new AllocationPolicy.Inside(4, 3, false), new AllocationPolicy.Outside(true, 2, 2)))
                .isZero();
    }

    @Test
    void givesNothingBackWhenWhatItCouldGiveWouldNotLetTheJobStart() {
        // the seed's rule: a shrink that does not let the waiting job start is not made
        assertThat(policy.release(new AllocationPolicy.Inside(4, 1, false), new AllocationPolicy.Outside(true, 3, 0)))
                .isZero();
    }

    @Test
    void neverGivesBackTheHostsItMustKeep() {
        assertThat(policy.release(new AllocationPolicy.Inside(2, 2, false), new AllocationPolicy.Outside(true, 2, 0)))
                .isZero();
        assertThat(policy.release(new AllocationPolicy.Inside(2, 2, false), new AllocationPolicy.Outside(true, 1, 0)))
                .isEqualTo(1);
        assertThatThrownBy(() -> new AllocationPolicy(0)).hasMessageContaining("at least one host");
    }

    @Test
    void regainsWhatItWantsOfTheIdleHostsItGaveBack() {
        assertThat(policy.regain(1, 2, AllocationPolicy.Outside.QUIET)).isEqualTo(1);
        assertThat(policy.regain(5, 2, AllocationPolicy.Outside.QUIET)).as("no more than are idle").isEqualTo(2);
        assertThat(policy.regain(0, 2, AllocationPolicy.Outside.QUIET)).as("nothing wants them").isZero();
        assertThat(policy.regain(2, 2, new AllocationPolicy.Outside(true, 4, 2))).as("a job waits in Slurm: leave them")
                .isZero();
    }
}
