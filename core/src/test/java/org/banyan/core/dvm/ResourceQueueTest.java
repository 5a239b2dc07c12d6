package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;

/** The DVM queue's decisions and bookkeeping, without a DVM: the same calls DvmHead makes. */
class ResourceQueueTest {
    final AtomicInteger ids = new AtomicInteger(1);
    final ResourceQueue queue = new ResourceQueue(List.of(new Node("a", 2), new Node("b", 2), new Node("c", 2),
            new Node("d", 2)), ids::getAndIncrement);
    final Client owner = new Client(1, a -> {});

    static ClientMessage.QueueJob job(int min, int max, int rpn) {
        return new ClientMessage.QueueJob(min, max, 0, 2, 60_000, rpn, 5_000, new ClientMessage.RunJob(
                List.of(new AppContext("./app", List.of("x"), 0, Map.of("K", "V"), null)), MappingPolicy.SLOT, false, 0, "/",
                Modex.LAZY, 0));
    }

    static ResourceQueue.Launch only(List<ResourceQueue.Launch> launches) {
        assertThat(launches).hasSize(1);
        return launches.getFirst();
    }

    /** What the dashboard says of each queued job: what it needs, and whom it waits behind. */
    @Test
    void queuedJobsSayWhyTheyWait() {
        var rigid = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(4, 4, 2));
        assertThat(rigid.launches()).hasSize(1);
        var two = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1));
        var one = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 1, 1));
        assertThat(queue.status()).extracting(ClientMessage.QueuedStatus::queueId).containsExactly(two.queueId(), one.queueId());
        assertThat(queue.reasons()).containsExactly("needs 2 hosts, 0 free", "behind job " + two.queueId() + "; needs 1 host, 0 free");
    }

    @Test
    void aMalleableJobShrinksForAQueuedJobAndGrowsBackKeepingItsRanksInPlace() {
        var m = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 4, 2));
        ResourceQueue.Launch first = only(m.launches());
        assertThat(m.ahead()).isEqualTo(-1);
        assertThat(first.hosts()).containsExactly(0, 1, 2, 3);
        assertThat(first.ranks()).isEqualTo(8);
        assertThat(first.run().apps().getFirst().env()).containsEntry("K", "V").containsEntry("BANYAN_DMR_OFFSET", "0")
                .containsEntry("BANYAN_DMR_SIZE", "8").containsEntry("BANYAN_DMR_GENERATION", "0")
                .containsEntry("BANYAN_DMR_LIMITS", "1,4,2,0");

        var b = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1));
        assertThat(b.ahead()).isZero();
        assertThat(b.launches()).isEmpty();

        // the first queued job cannot start: shrink by one step (4 -> 2 hosts, 8 -> 4 ranks)
        assertThat(queue.check(first.jobId(), "1,4,2,0")).isEqualTo(new ResourceQueue.Answer(true, "shrink,4,1", List.of()));
        assertThat(queue.check(first.jobId(), "1,4,2,0").text()).as("nothing more while ranks leave").isEqualTo("none,4,1");
        assertThat(queue.join(first.jobId(), "1,1,0,4", "c0", "w0")).isNull();
        for (int r = 4; r < 7; r++) {
            assertThat(queue.rankEnded(first.jobId(), r).hosts()).isEmpty();
        }
        ResourceQueue.Freed freed = queue.rankEnded(first.jobId(), 7);
        assertThat(freed.hosts()).containsExactly(2, 3);
        ResourceQueue.Launch second = only(freed.launches());
        assertThat(second.jobId()).isEqualTo(b.queueId());
        assertThat(second.hosts()).containsExactly(2, 3);

        // the rest of generation 1 joins: all four cards, in rank order, to all four waiters
        assertThat(queue.join(first.jobId(), "1,1,2,4", "c2", "w2")).isNull();
        assertThat(queue.join(first.jobId(), "1,1,1,4", "c1", "w1")).isNull();
        ResourceQueue.Joined joined = queue.join(first.jobId(), "1,1,3,4", "c3", "w3");
        assertThat(joined.error()).isNull();
        assertThat(joined.cards()).isEqualTo("c0\fc1\fc2\fc3\f");
        assertThat(joined.waiters()).containsExactly("w0", "w2", "w1", "w3");
        assertThat(queue.join(first.jobId(), "0,1,0,4", "c", "w").error()).as("a stale generation")
                .contains("is_not_the_job's_1");

        // the queued job ends: the hosts are free and no job waits, so grow back (2 -> 4 hosts)
        ResourceQueue.Ended bEnded = queue.dvmJobEnded(second.jobId(), 0);
        assertThat(bEnded.whole()).isTrue();
        assertThat(bEnded.freed().hosts()).containsExactly(2, 3);
        ResourceQueue.Answer grow = queue.check(first.jobId(), "1,4,2,0");
        assertThat(grow.text()).isEqualTo("expand,8,2");
        ResourceQueue.Launch added = only(grow.launches());
        assertThat(added.expansion()).isTrue();
        assertThat(added.hosts()).containsExactly(2, 3);
        assertThat(added.rankOffset()).isEqualTo(4);
        assertThat(added.ranks()).isEqualTo(4);
        assertThat(added.run().stdinRank()).isEqualTo(-1);
        assertThat(added.run().apps().getFirst().env()).containsEntry("BANYAN_DMR_OFFSET", "4")
                .containsEntry("BANYAN_DMR_SIZE", "8").containsEntry("BANYAN_DMR_GENERATION", "2");
        assertThat(queue.queueIdOf(added.jobId())).isEqualTo(first.jobId());
        assertThat(queue.rankOffsetOf(added.jobId())).isEqualTo(4);

        // both DVM jobs end: the queued job's end comes with the last, every host back
        assertThat(queue.dvmJobEnded(added.jobId(), 0).whole()).isFalse();
        ResourceQueue.Ended end = queue.dvmJobEnded(first.jobId(), 0);
        assertThat(end.whole()).isTrue();
        assertThat(end.status()).isZero();
        assertThat(end.freed().hosts()).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aWorldWhoseCardsExceedOnePmiFrameStillJoins() {
        var m = (ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 4, 2));
        ResourceQueue.Launch first = only(m.launches());
        String card = "x".repeat(10_000); // 8 ranks: 80,000 characters, more than a PMI-2 frame's 64 KiB
        ResourceQueue.Joined joined = null;
        for (int r = 0; r < 8; r++) {
            joined = queue.join(first.jobId(), "0,1," + r + ",8", card + r, "w" + r);
        }
        assertThat(joined.error()).as("the daemons page it to the ranks").isNull();
        assertThat(joined.cards()).hasSize(8 * 10_002).startsWith(card + "0\f").endsWith(card + "7\f");
    }

    @Test
    void aFailureEndsTheOtherPartsAndItsStatusIsTheJobs() {
        ResourceQueue.Launch first = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 2, 1))).launches());
        queue.dvmJobEnded(only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1))).launches()).jobId(), 0);
        ResourceQueue.Launch added = only(queue.check(first.jobId(), "1,4,2,0").launches());
        ResourceQueue.Ended failed = queue.dvmJobEnded(first.jobId(), 7);
        assertThat(failed.cancel()).containsExactly(added.jobId());
        assertThat(failed.whole()).isFalse();
        ResourceQueue.Ended end = queue.dvmJobEnded(added.jobId(), 137);
        assertThat(end.whole()).isTrue();
        assertThat(end.status()).as("the first failure's").isEqualTo(7);
    }

    @Test
    void badChecksAndJobsOutsideTheQueueAreRefused() {
        ResourceQueue.Launch first = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 4, 1))).launches());
        assertThat(queue.check(first.jobId(), "3,2,2,0").ok()).isFalse();
        assertThat(queue.check(first.jobId(), "1,8,2,0").text()).isEqualTo("max 8 exceeds the 4 hosts");
        assertThat(queue.check(first.jobId(), "4,1,2,0").text()).as("words, not the_words_(PMI-2 carries spaces)")
                .isEqualTo("the maximum (1) is below the minimum (4)");
        assertThat(queue.check(first.jobId(), "1,x,2,0").ok()).isFalse();
        assertThat(queue.check(99, "1,4,2,0")).isEqualTo(new ResourceQueue.Answer(false, "not in a queue", List.of()));
        assertThat(queue.submit(owner, job(1, 5, 1))).isEqualTo(
                new ResourceQueue.Outcome.Refused("the job asks for 5 hosts; the DVM has 4"));
        assertThat(queue.submit(owner, job(1, 1, 3))).isEqualTo(
                new ResourceQueue.Outcome.Refused("--ranks-per-node 3 is more than the 2 slots of host a (add --oversubscribe to run "
                        + "more ranks than slots)"));
    }

    /** dvm submit --oversubscribe was dropped: a job of more ranks per host than slots was refused all the same. */
    @Test
    void anOversubscribedJobRunsMoreRanksThanSlotsOnTheHostsItHolds() {
        ClientMessage.QueueJob q = job(1, 2, 3);
        ClientMessage.RunJob r = q.run();
        ClientMessage.QueueJob over = new ClientMessage.QueueJob(q.minNodes(), q.maxNodes(), q.preferredNodes(), q.factor(),
                q.walltimeMillis(), q.ranksPerNode(), q.resizeTimeoutMillis(), new ClientMessage.RunJob(r.apps(), r.mapping(), true,
                r.stdinRank(), r.launchDir(), r.modex(), r.timeoutMillis()));
        ResourceQueue.Launch l = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, over)).launches());
        assertThat(l.ranks()).isEqualTo(6);
        assertThat(l.hosts()).hasSize(2);
    }

    @Test
    void anExpansionNotJoinedInTimeIsGivenUpAndItsHostsGoBack() {
        ResourceQueue.Launch first = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 2, 1))).launches());
        queue.dvmJobEnded(only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1))).launches()).jobId(), 0);
        ResourceQueue.Answer grow = queue.check(first.jobId(), "1,4,2,0");
        assertThat(grow.text()).isEqualTo("expand,4,1");
        ResourceQueue.Launch added = only(grow.launches());
        assertThat(added.generation()).isEqualTo(1);
        assertThat(added.resizeTimeoutMillis()).isEqualTo(5_000);
        assertThat(queue.join(first.jobId(), "1,1,0,4", "c0", "w0")).isNull();
        assertThat(queue.join(first.jobId(), "1,1,1,4", "c1", "w1")).isNull();
        assertThat(queue.check(first.jobId(), "1,4,2,0").text()).as("no check while it is under way").isEqualTo("none,4,1");

        ResourceQueue.Abandoned a = queue.abandon(first.jobId(), 1);
        assertThat(a.waiters()).containsExactlyInAnyOrder("w0", "w1");
        assertThat(a.dvmJob()).isEqualTo(added.jobId());
        assertThat(a.freed().hosts()).containsExactly(2, 3);
        assertThat(a.ranks()).isEqualTo(2);
        assertThat(queue.abandon(first.jobId(), 1)).as("once").isNull();
        assertThat(queue.dvmJobEnded(added.jobId(), 137).cancel()).as("its end is no failure").isEmpty();
        ResourceQueue.Answer retry = queue.check(first.jobId(), "1,4,2,0");
        assertThat(retry.text()).as("the job may try again, as generation 1 again").isEqualTo("expand,4,1");
        assertThat(only(retry.launches()).hosts()).containsExactly(2, 3);
    }

    @Test
    void anExpansionGrantedAsTheProgramEndsIsLeftToBeGivenUpAtOnce() {
        ResourceQueue.Launch first = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 2, 1))).launches());
        queue.dvmJobEnded(only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1))).launches()).jobId(), 0);
        ResourceQueue.Launch added = only(queue.check(first.jobId(), "1,4,2,0").launches());

        // the program's ranks end without joining generation 1 (an asynchronous check's answer not acted on)
        ResourceQueue.Ended ended = queue.dvmJobEnded(first.jobId(), 0);
        assertThat(ended.whole()).isFalse();
        assertThat(ended.cancel()).isEmpty();
        assertThat(ended.orphaned()).as("the expansion to give up").isEqualTo(1);
        ResourceQueue.Abandoned a = queue.abandon(first.jobId(), ended.orphaned());
        assertThat(a.dvmJob()).isEqualTo(added.jobId());
        ResourceQueue.Ended end = queue.dvmJobEnded(added.jobId(), 137);
        assertThat(end.whole()).isTrue();
        assertThat(end.status()).as("ending it is no failure").isZero();
        assertThat(end.freed().hosts()).containsExactlyInAnyOrder(0, 1);

        // an expansion whose ranks all joined is the job's own: its first part ending orphans nothing
        ResourceQueue.Launch again = only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(1, 2, 1))).launches());
        queue.dvmJobEnded(only(((ResourceQueue.Outcome.Queued) queue.submit(owner, job(2, 2, 1))).launches()).jobId(), 0);
        ResourceQueue.Launch grown = only(queue.check(again.jobId(), "1,4,2,0").launches());
        for (int r = 0; r < 4; r++) {
            queue.join(again.jobId(), "1,1," + r + ",4", "c" + r, "w" + r);
        }
        assertThat(queue.dvmJobEnded(again.jobId(), 0).orphaned()).isEqualTo(-1);
        assertThat(queue.dvmJobEnded(grown.jobId(), 0).whole()).isTrue();
    }
}
