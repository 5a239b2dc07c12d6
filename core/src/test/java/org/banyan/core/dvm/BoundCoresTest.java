package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BoundCoresTest {
    @Test
    void boundJobsGetCoresNoOtherBoundJobHolds() {
        BoundCores cores = new BoundCores();
        int[] hosts = {4, 4};
        int[][] a = cores.take(1, new int[] {2, 0}, hosts);
        assertThat(a[0]).containsExactly(0, 1);
        assertThat(a[1]).isNull();
        int[][] b = cores.take(2, new int[] {1, 3}, hosts);
        assertThat(b[0]).containsExactly(2);
        assertThat(b[1]).containsExactly(0, 1, 2);
        cores.release(1);
        assertThat(cores.take(3, new int[] {3, 0}, hosts)[0]).as("job 1's cores came back; job 2's core 2 is still held")
                .containsExactly(0, 1, 3);
    }

    @Test
    void aHostWithNoCoreFreeSharesAllOfThemAndReleasingThatTakesNothingBack() {
        BoundCores cores = new BoundCores();
        int[] host = {2};
        cores.take(1, new int[] {2}, host);
        assertThat(cores.take(2, new int[] {1}, host)[0]).containsExactly(0, 1);
        cores.release(2);
        assertThat(cores.take(3, new int[] {1}, host)[0]).as("job 1 still holds both").containsExactly(0, 1);
        cores.release(1);
        assertThat(cores.take(4, new int[] {1}, host)[0]).containsExactly(0);
    }

    @Test
    void fewerFreeThanWantedGivesTheFreeOnes() {
        BoundCores cores = new BoundCores();
        int[] host = {3};
        cores.take(1, new int[] {2}, host);
        assertThat(cores.take(2, new int[] {2}, host)[0]).containsExactly(2);
        cores.release(7); // unknown job: nothing happens
        assertThat(cores.take(3, new int[] {1}, host)[0]).containsExactly(0, 1, 2);
    }
}
