package org.banyan.rm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.banyan.rm.MalleableScheduler.Decision;
import org.banyan.rm.MalleableScheduler.Kind;
import org.banyan.rm.MalleableScheduler.Start;
import org.junit.jupiter.api.Test;

class MalleableSchedulerTest {
    static JobRequest rigid(int id, int nodes, double wall) {
        return new JobRequest(id, nodes, nodes, 0, 1, wall);
    }

    static JobRequest malleable(int id, int min, int max, double wall) {
        return new JobRequest(id, min, max, 0, 2, wall);
    }

    @Test
    void firstComeFirstServedThenBackfillThatDoesNotDelayTheFirst() {
        MalleableScheduler s = new MalleableScheduler(8, false);
        assertThat(s.submit(rigid(1, 6, 100), 0)).containsExactly(new Start(1, 6));
        assertThat(s.submit(rigid(2, 8, 50), 1)).as("2 nodes free: job 2 waits for job 1's end, t=100").isEmpty();
        assertThat(s.submit(rigid(3, 2, 200), 2)).as("would still run at t=100, on nodes job 2 needs").isEmpty();
        assertThat(s.submit(rigid(4, 2, 90), 3)).as("ends before t=100: backfilled").containsExactly(new Start(4, 2));
        assertThat(s.ended(4, 93)).isEmpty();
        assertThat(s.ended(1, 100)).containsExactly(new Start(2, 8));
        assertThat(s.ended(2, 150)).containsExactly(new Start(3, 2));
        assertThat(s.queued()).isZero();
    }

    @Test
    void backfillMayUseWhatTheFirstJobWillNotNeed() {
        MalleableScheduler s = new MalleableScheduler(8, false);
        s.submit(rigid(1, 6, 100), 0);
        s.submit(rigid(2, 4, 50), 1);
        assertThat(s.submit(rigid(3, 2, 500), 2)).as("at t=100 job 2 needs 4 of 8: 4 spare").containsExactly(new Start(3, 2));
        assertThat(s.ended(1, 100)).containsExactly(new Start(2, 4));
    }

    @Test
    void theFixedPolicyNeverResizes() {
        MalleableScheduler s = new MalleableScheduler(8, false);
        s.submit(malleable(1, 1, 4, 100), 0);
        assertThat(s.check(1, 1)).isEqualTo(new Decision(Kind.NONE, 4));
    }

    @Test
    void aRunningJobShrinksSoThatTheFirstQueuedJobStartsAndThatJobGoesFirst() {
        MalleableScheduler s = new MalleableScheduler(8, true);
        s.submit(malleable(1, 1, 8, 100), 0);
        s.submit(rigid(2, 2, 100), 1);
        s.submit(rigid(3, 4, 100), 2);
        // job 2 needs 2 of the 8 job 1 holds: the fewest steps (8 -> 4) do
        assertThat(s.check(1, 3)).isEqualTo(new Decision(Kind.SHRINK, 4));
        assertThat(s.free()).as("not before the leaving ranks are gone").isZero();
        assertThat(s.shrunk(1, 4)).containsExactly(new Start(2, 2));
        assertThat(s.check(1, 5)).as("job 3 needs 4: shrink to 2 frees 2 + the 2 left").isEqualTo(new Decision(Kind.SHRINK, 2));
        assertThat(s.shrunk(1, 6)).containsExactly(new Start(3, 4));
    }

    @Test
    void expandsByTheFactorWhileNothingIsQueued() {
        MalleableScheduler s = new MalleableScheduler(16, true);
        s.submit(new JobRequest(2, 1, 8, 0, 2, 100), 2);
        s.submit(rigid(3, 4, 100), 2);
        assertThat(s.sizeOf(2)).as("started at its maximum").isEqualTo(8);
        assertThat(s.check(2, 3)).as("8 is the maximum").isEqualTo(new Decision(Kind.NONE, 8));
        MalleableScheduler g = new MalleableScheduler(16, true);
        g.submit(new JobRequest(5, 1, 16, 0, 2, 100), 0);
        g.submit(rigid(6, 12, 100), 0);
        assertThat(g.check(5, 1)).as("job 6 needs 12: shrink 16 -> 4").isEqualTo(new Decision(Kind.SHRINK, 4));
        g.shrunk(5, 2);
        g.ended(6, 3);
        assertThat(g.check(5, 4)).isEqualTo(new Decision(Kind.EXPAND, 8));
        assertThat(g.check(5, 5)).isEqualTo(new Decision(Kind.EXPAND, 16));
        assertThat(g.free()).isZero();
    }

    @Test
    void aRequestAboveTheSizeExpandsWhenTheNodesAreThereAndPreferredSizesAreMovedTo() {
        MalleableScheduler s = new MalleableScheduler(8, true);
        s.submit(new JobRequest(1, 1, 2, 0, 2, 100), 0);
        assertThat(s.check(1, new JobRequest(1, 4, 4, 0, 2, 100), 1)).isEqualTo(new Decision(Kind.EXPAND, 4));
        assertThat(s.check(1, new JobRequest(1, 1, 2, 0, 2, 100), 2)).as("a maximum below the size").isEqualTo(
                new Decision(Kind.SHRINK, 2));
        s.shrunk(1, 3);
        MalleableScheduler p = new MalleableScheduler(8, true);
        p.submit(new JobRequest(1, 1, 2, 0, 2, 100), 0);
        assertThat(p.check(1, new JobRequest(1, 1, 8, 4, 2, 100), 1)).isEqualTo(new Decision(Kind.EXPAND, 4));
        p.submit(rigid(2, 7, 100), 2);
        assertThat(p.check(1, new JobRequest(1, 1, 8, 4, 2, 100), 3)).as("job 2 needs 7: shrink to 1, below the preferred 4")
                .isEqualTo(new Decision(Kind.SHRINK, 1));
        p.shrunk(1, 4);
        assertThat(p.check(1, new JobRequest(1, 1, 8, 4, 2, 100), 5)).as("nothing free: stays").isEqualTo(
                new Decision(Kind.NONE, 1));
    }

    /**
     * With jobs queued, a job above its preferred size shrinks toward it only when the running
     * jobs at their preferred sizes would free enough for a queued job: on 32 nodes, with every
     * job asking for 32, it shrank to 16, then 8, and the nodes it freed stayed idle.
     */
    @Test
    void aShrinkTowardThePreferredSizeHappensOnlyWhenAQueuedJobCouldUseTheNodes() {
        MalleableScheduler alone = new MalleableScheduler(32, true);
        alone.submit(new JobRequest(1, 2, 32, 8, 2, 100), 0);
        alone.submit(new JobRequest(2, 2, 32, 8, 2, 100), 1);
        assertThat(alone.check(1, 2)).as("nothing the queued job could start on").isEqualTo(new Decision(Kind.NONE, 32));

        MalleableScheduler two = new MalleableScheduler(64, true);
        two.submit(new JobRequest(1, 2, 32, 16, 2, 100), 0);
        two.submit(new JobRequest(2, 2, 32, 16, 2, 100), 0);
        two.submit(new JobRequest(3, 2, 32, 16, 2, 100), 1);
        assertThat(two.check(1, 2)).as("both at 16 free 32: the third job's").isEqualTo(new Decision(Kind.SHRINK, 16));
        two.shrunk(1, 3);
        assertThat(two.check(2, 4)).isEqualTo(new Decision(Kind.SHRINK, 16));
        assertThat(two.shrunk(2, 5)).containsExactly(new MalleableScheduler.Start(3, 32));
    }

    @Test
    void badRequestsAreOneClearError() {
        assertThatThrownBy(() -> new JobRequest(1, 0, 4, 0, 2, 1)).hasMessage("job 1: the minimum is 0 nodes; it must be at least 1");
        assertThatThrownBy(() -> new JobRequest(1, 4, 2, 0, 2, 1)).hasMessage("job 1: the maximum (2) is below the minimum (4)");
        assertThatThrownBy(() -> new JobRequest(1, 2, 12, 0, 2, 1)).hasMessage("job 1: 12 is not 2 times a power of 2");
        assertThatThrownBy(() -> new JobRequest(1, 2, 8, 16, 2, 1)).hasMessage("job 1: the preferred size 16 is outside 2..8");
        assertThatThrownBy(() -> new JobRequest(1, 2, 8, 4, 0, 1)).hasMessage("job 1: the factor is 0; it must be at least 1");
        MalleableScheduler s = new MalleableScheduler(4, true);
        assertThatThrownBy(() -> s.submit(rigid(1, 8, 1), 0)).hasMessage("job 1 needs 8 nodes; there are 4");
    }

    @Test
    void anAbandonedExpansionGivesItsNodesBack() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        s.submit(malleable(1, 1, 4, 100), 0);
        s.submit(rigid(2, 2, 10), 1);
        assertThat(s.check(1, 2)).isEqualTo(new Decision(Kind.SHRINK, 2));
        assertThat(s.shrunk(1, 3)).containsExactly(new Start(2, 2));
        s.ended(2, 13);
        assertThat(s.check(1, 14)).isEqualTo(new Decision(Kind.EXPAND, 4));
        assertThat(s.free()).isZero();
        assertThat(s.abandoned(1, 2, 20)).isEmpty();
        assertThat(s.free()).isEqualTo(2);
        assertThat(s.sizeOf(1)).isEqualTo(2);
        assertThatThrownBy(() -> s.abandoned(1, 3, 21)).hasMessageContaining("cannot go back to 3");
    }

    @Test
    void aWithdrawnJobLeavesTheQueueAndTheOnesBehindItMayStart() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        s.submit(rigid(1, 2, 100), 0);
        assertThat(s.submit(rigid(2, 4, 100), 1)).isEmpty();
        assertThat(s.submit(rigid(3, 2, 500), 2)).as("would delay job 2").isEmpty();
        assertThat(s.queuedIds()).containsExactly(2, 3);
        assertThat(s.withdraw(2, 3)).containsExactly(new Start(3, 2));
        assertThat(s.queuedIds()).isEmpty();
        assertThat(s.withdraw(2, 4)).as("not queued any more").isEmpty();
        assertThat(s.isRunning(3)).isTrue();
    }

    @Test
    void retiredNodesLeaveThePoolUntilRestored() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        assertThat(s.submit(rigid(1, 2, 100), 0)).containsExactly(new Start(1, 2));
        assertThatThrownBy(() -> s.retire(3)).hasMessageContaining("cannot retire 3 of 2 free");
        s.retire(1);
        assertThat(s.nodes()).isEqualTo(3);
        assertThat(s.free()).isEqualTo(1);
        assertThat(s.submit(rigid(2, 2, 100), 1)).as("1 node free: waits").isEmpty();
        assertThat(s.submit(rigid(3, 4, 100), 2)).as("up to the capacity: its nodes may come back").isEmpty();
        assertThatThrownBy(() -> s.submit(rigid(4, 5, 100), 2)).hasMessageContaining("needs 5 nodes; there are 4");
        assertThat(s.ended(1, 100)).containsExactly(new Start(2, 2));
        assertThat(s.free()).isEqualTo(1);
        assertThat(s.wanted()).as("job 3 lacks 3").isEqualTo(3);
        assertThatThrownBy(() -> s.restore(2, 101)).hasMessageContaining("cannot restore 2 nodes to 3 of 4");
        s.ended(2, 102);
        assertThat(s.restore(1, 103)).containsExactly(new Start(3, 4));
    }

    @Test
    void aJobWaitingOutsideShrinksRunningJobsWhenNothingIsQueuedInside() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        assertThat(s.submit(malleable(1, 1, 2, 100), 0)).containsExactly(new Start(1, 2));
        assertThat(s.check(1, 1)).as("nothing waits: it could grow but is at its max").isEqualTo(new Decision(Kind.NONE, 2));
        s.outsideDemand(3);
        assertThat(s.check(1, 2)).as("2 free + 1 from a shrink to 1 = 3").isEqualTo(new Decision(Kind.SHRINK, 1));
        s.shrunk(1, 3);
        assertThat(s.free()).isEqualTo(3);
        s.outsideDemand(4);
        assertThat(s.check(1, 4)).as("it cannot give enough: it stays").isEqualTo(new Decision(Kind.NONE, 1));
        s.outsideDemand(1);
        assertThat(s.check(1, 5)).as("a demand the free nodes cover: no growth into them").isEqualTo(new Decision(Kind.NONE, 1));
        s.outsideDemand(0);
        assertThat(s.check(1, 6)).isEqualTo(new Decision(Kind.EXPAND, 2));
    }

    @Test
    void theDvmsOwnQueueComesBeforeTheBatchSystemsWaitingJob() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        s.submit(malleable(1, 1, 4, 100), 0);
        s.submit(rigid(2, 2, 100), 1);
        s.outsideDemand(3);
        assertThat(s.check(1, 2)).as("shrink for the queued job, by the fewest steps").isEqualTo(new Decision(Kind.SHRINK, 2));
    }

    @Test
    void restoredNodesJoinThePoolAndStartWhatWaits() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        s.retire(2);
        assertThat(s.submit(rigid(1, 2, 100), 0)).containsExactly(new Start(1, 2));
        assertThat(s.submit(rigid(2, 2, 100), 1)).isEmpty();
        assertThat(s.wanted()).as("the first queued job lacks 2").isEqualTo(2);
        assertThat(s.restore(2, 2)).containsExactly(new Start(2, 2));
        assertThat(s.nodes()).isEqualTo(4);
        assertThat(s.wanted()).isZero();
    }

    @Test
    void malleableJobsWantTheRoomBelowTheirMaximum() {
        MalleableScheduler s = new MalleableScheduler(4, true);
        assertThat(s.submit(malleable(1, 1, 2, 100), 0)).containsExactly(new Start(1, 2));
        s.outsideDemand(3);
        assertThat(s.check(1, 1)).isEqualTo(new Decision(Kind.SHRINK, 1));
        s.shrunk(1, 2);
        assertThat(s.wanted()).as("not while the batch system's job has a claim").isZero();
        s.retire(3);
        s.outsideDemand(0);
        assertThat(s.wanted()).as("1 below its maximum, none free").isEqualTo(1);
        s.restore(2, 3);
        assertThat(s.wanted()).as("the free nodes cover it").isZero();
        assertThat(s.check(1, 4)).isEqualTo(new Decision(Kind.EXPAND, 2));
        MalleableScheduler fixed = new MalleableScheduler(4, false);
        fixed.submit(malleable(1, 1, 2, 100), 0);
        fixed.retire(2);
        fixed.ended(1, 1);
        fixed.submit(malleable(2, 1, 2, 100), 2);
        assertThat(fixed.wanted()).as("the fixed baseline never grows").isZero();
    }
}
