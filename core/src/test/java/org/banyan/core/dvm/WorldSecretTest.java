package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * The world a resized job builds holds ranks of several DVM jobs, whose job secrets differ: the
 * head gives every rank of it one secret with the join's answer (until 2026-12-02 such a world's
 * TCP connections carried no proof, and any local user could connect to its ranks as one of them).
 */
class WorldSecretTest {
    /** The four ranks left after the shrink (generation 1) join their new world; the answers each daemon got. */
    static List<OverlayMessage.NameReplies> joinAfterShrink(DvmCoreTest.Harness h) {
        int dvmJob = WarmPoolPolicyTest.shrunk(h, "java", false);
        h.log.clear();
        for (int rank = 0; rank < 4; rank++) {
            h.handle(new DvmEvent.Head(new HeadEvent.FromDaemon(rank / 2, new OverlayMessage.NameRequest(dvmJob, rank / 2,
                    Topology.daemonOfVertex(0), 10 + rank, OverlayMessage.NameRequest.JOIN, "1,1," + rank + ",4", "card" + rank))));
        }
        return h.log.stream().filter(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.NameReplies r))
                .map(a -> (OverlayMessage.NameReplies) ((DvmAction.ToDaemon) a).message()).toList();
    }

    @Test
    void everyRankOfAResizedWorldGetsTheSameSecretAfterTheCards() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2, 2, 2, 2);
        h.core.worldSecrets((queueId, generation) -> "00ff" + queueId + generation);
        List<OverlayMessage.NameReplies> replies = joinAfterShrink(h);
        assertThat(replies).as("one answer per daemon of the world").hasSize(2);
        assertThat(replies).extracting(OverlayMessage.NameReplies::ok).containsOnly(true);
        assertThat(replies).extracting(OverlayMessage.NameReplies::portOrReason)
                .as("the cards in rank order, then queued job 1's secret of generation 1")
                .containsOnly("card0\fcard1\fcard2\fcard3\f" + ResourceQueue.WORLD_SECRET + "00ff11\f");
    }

    @Test
    void withoutSecretsTheAnswerIsTheCardsAlone() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2, 2, 2, 2);
        assertThat(joinAfterShrink(h)).extracting(OverlayMessage.NameReplies::portOrReason)
                .containsOnly("card0\fcard1\fcard2\fcard3\f");
    }
}
