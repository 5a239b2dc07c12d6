package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.banyan.core.daemon.DaemonCoreTest.replies;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.WireUp;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * A job served PMI and PMIx side by side, on a daemon driven without sockets or libpmix: the
 * daemon follows whichever its ranks speak; and a rank that runs MPI as a singleton is reported.
 */
class DaemonWireUpTest {
    final DaemonCore core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");

    List<DaemonAction> launch(JobDescription job) {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        return core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(job)));
    }

    List<DaemonAction> launchBoth() {
        return launch(DaemonCoreTest.TWO_NODES.served(WireUp.BOTH, "banyan.test.1"));
    }

    @Test
    void bothWaysTheRanksGetPmiAndPmixAndTheNamespaceIsRegisteredFirst() {
        List<DaemonAction> a = launchBoth();
        int watch = -1;
        int serve = -1;
        int firstStart = -1;
        for (int i = 0; i < a.size(); i++) {
            switch (a.get(i)) {
                case DaemonAction.WatchWireUp w -> watch = i;
                case DaemonAction.ServePmix s -> {
                    serve = i;
                    assertThat(s.registration().pmiToo()).as("PMI alone if PMIx cannot be served").isTrue();
                }
                case DaemonAction.StartRank s -> {
                    if (firstStart < 0) {
                        firstStart = i;
                        assertThat(s.launch().env()).containsEntry("PMI_PORT", "127.0.0.1:5000").containsEntry("PMI_RANK", "2")
                                .containsEntry("OMPI_MCA_schizo", "^orte");
                    }
                }
                default -> { }
            }
        }
        assertThat(watch).isGreaterThanOrEqualTo(0).isLessThan(firstStart);
        assertThat(serve).isGreaterThanOrEqualTo(0).isLessThan(firstStart);
    }

    @Test
    void bothWaysRanksThatSpeakPmiAreReleasedByPmi() {
        launchBoth();
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=2"));
        core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=initack pmiid=3"));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=put kvsname=k key=P2 value=card2"));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=barrier_in"))).containsExactly(new DaemonAction.SendToParent(
                new OverlayMessage.FenceEnter(1, 1, 0, Map.of("P2", "card2"))));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.FenceRelease(1, 0,
                Map.of("P0", "card0", "P2", "card2"))));
        assertThat(replies(a, 1)).containsExactly("cmd=barrier_out\n");
        assertThat(a).noneMatch(x -> x instanceof DaemonAction.PmixFenceDone);
    }

    @Test
    void bothWaysRanksThatSpeakPmixAreReleasedByPmix() {
        launchBoth();
        core.handle(new DaemonEvent.PmixConnected(1, 2));
        core.handle(new DaemonEvent.PmixConnected(1, 3));
        core.handle(new DaemonEvent.PmixFence(1, "mine".getBytes(StandardCharsets.UTF_8)));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.FenceRelease(1, 0,
                Map.of("pmix.fence.1", DaemonPmixTest.b64("mine"), "pmix.fence.0", DaemonPmixTest.b64("theirs")))));
        assertThat(a).singleElement().isInstanceOf(DaemonAction.PmixFenceDone.class);
        assertThat(((DaemonAction.PmixFenceDone) a.getFirst()).blobs()).hasSize(2);
    }

    @Test
    void aRankThatStartsOpenMpisSingletonHelperFailsTheJobAtOnce() {
        launchBoth();
        assertThat(core.handle(new DaemonEvent.RankMpiSeen(1, 3, "libmpi.so.40", true))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.RankAlone(1, 3, "libmpi.so.40",
                        "it loaded libmpi.so.40, started orted (the helper Open MPI starts for a singleton)")));
        assertThat(core.handle(new DaemonEvent.RankMpiSeen(1, 3, "libmpi.so.40", true))).as("said once").isEmpty();
    }

    @Test
    void aRankThatLoadedMpiAndEndedWithoutWiringUpIsReportedBeforeItsEnd() {
        launch(DaemonCoreTest.TWO_NODES);
        assertThat(core.handle(new DaemonEvent.RankMpiSeen(1, 2, "libmpich.so.12", false))).isEmpty();
        List<DaemonAction> a = core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""));
        assertThat(a.getFirst()).isEqualTo(new DaemonAction.SendToParent(new OverlayMessage.RankAlone(1, 2, "libmpich.so.12",
                "it loaded libmpich.so.12, ended")));
    }

    @Test
    void ranksThatReachedAServerAreNeverSingletons() {
        launchBoth();
        core.handle(new DaemonEvent.PmixConnected(1, 2));
        core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=initack pmiid=3"));
        assertThat(core.handle(new DaemonEvent.RankMpiSeen(1, 2, "libmpi.so.40", true))).isEmpty();
        core.handle(new DaemonEvent.RankMpiSeen(1, 3, "libmpich.so.12", false));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).noneMatch(DaemonWireUpTest::alone);
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 3, 0, ""))).noneMatch(DaemonWireUpTest::alone);
    }

    @Test
    void aRankThatReachesAServerIsNoLongerLookedInto() {
        launchBoth();
        assertThat(core.handle(new DaemonEvent.PmixConnected(1, 2))).contains(new DaemonAction.RankWiredUp(1, 2));
        assertThat(core.handle(new DaemonEvent.PmixConnected(1, 2))).as("said once").noneMatch(
                a -> a instanceof DaemonAction.RankWiredUp);
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=initack pmiid=3"))).contains(new DaemonAction.RankWiredUp(1, 3));
        assertThat(core.handle(new DaemonEvent.PmixConnected(1, -1))).as("a request that names no rank")
                .noneMatch(a -> a instanceof DaemonAction.RankWiredUp);
    }

    @Test
    void aPmiConnectionThatNeverNamedItsRankMakesNoVerdict() {
        launch(DaemonCoreTest.TWO_NODES);
        core.handle(new DaemonEvent.PmiLine(1, 9, "cmd=init pmi_version=1 pmi_subversion=1"));
        core.handle(new DaemonEvent.RankMpiSeen(1, 2, "libmpich.so.12", false));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).noneMatch(DaemonWireUpTest::alone);
    }

    @Test
    void aJobOfOneRankHasNoSingletonToCatch() {
        JobDescription one = new JobDescription(1, List.of(new org.banyan.core.job.AppContext("./app", List.of(), 1, Map.of(),
                null)), DaemonCoreTest.TWO_NODES.nodes(), org.banyan.core.job.MappingPolicy.SLOT, false, 0, "/w", org.banyan.core.job.Modex.FULL);
        DaemonOutbox out = new DaemonOutbox();
        WireUpWatch watch = new WireUpWatch(one, out);
        watch.mpiSeen(0, "libmpi.so.40", true);
        watch.mpiSeen(0, "libmpi.so.40", false);
        watch.pmix(0);
        watch.ended(0, 0, false);
        assertThat(out.drain()).as("a job of one rank is not watched").isEmpty();
    }

    /**
     * A rank that wired up and exited 0 without finalizing (exit() before MPI_Finalize, a JVM
     * halted before its world's close): its job's other ranks waited for it for ever; mpirun and
     * Hydra end such a job, and so does banyan now.
     */
    @Test
    void aRankThatExitsZeroWithoutFinalizingIsReported() {
        launch(DaemonCoreTest.TWO_NODES);
        core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=initack pmiid=2"));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).anyMatch(a ->
                a instanceof DaemonAction.SendToParent(OverlayMessage.RankUnfinalized(int job, int rank)) && job == 1 && rank == 2);
    }

    @Test
    void ranksThatFinalizedOrFailedOrNeverWiredUpAreNotReportedAsUnfinalized() {
        launch(DaemonCoreTest.TWO_NODES);
        core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=initack pmiid=2"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=finalize"))).as("acknowledged").isNotEmpty();
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).as("PMI-1 finalize").noneMatch(DaemonWireUpTest::unfinalized);
        core.handle(new DaemonEvent.PmiLine(1, 8, "cmd=initack pmiid=3"));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 3, 7, ""))).as("a failing status fails the job already")
                .noneMatch(DaemonWireUpTest::unfinalized);

        DaemonWireUpTest pmix = new DaemonWireUpTest();
        pmix.launch(DaemonCoreTest.TWO_NODES.served(WireUp.BOTH, "banyan.test.1"));
        pmix.core.handle(new DaemonEvent.PmixConnected(1, 2));
        pmix.core.handle(new DaemonEvent.PmixFinalized(1, 2));
        assertThat(pmix.core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).as("PMIx finalize")
                .noneMatch(DaemonWireUpTest::unfinalized);
        pmix.core.handle(new DaemonEvent.PmixConnected(1, 3));
        assertThat(pmix.core.handle(new DaemonEvent.RankEnded(1, 3, 0, ""))).as("PMIx, not finalized")
                .anyMatch(DaemonWireUpTest::unfinalized);

        DaemonWireUpTest plain = new DaemonWireUpTest();
        plain.launch(DaemonCoreTest.TWO_NODES);
        assertThat(plain.core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).as("no PMI at all: not an MPI rank")
                .noneMatch(DaemonWireUpTest::unfinalized);
    }

    @Test
    void pmi2FinalizeCountsToo() {
        launch(DaemonCoreTest.TWO_NODES);
        core.handle(new DaemonEvent.PmiFrame(1, 7, "cmd=fullinit;pmirank=2;"));
        core.handle(new DaemonEvent.PmiFrame(1, 7, "cmd=finalize;"));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).noneMatch(DaemonWireUpTest::unfinalized);
        core.handle(new DaemonEvent.PmiFrame(1, 8, "cmd=fullinit;pmirank=3;"));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 3, 0, ""))).as("the same without finalize")
                .anyMatch(DaemonWireUpTest::unfinalized);
    }

    private static boolean unfinalized(DaemonAction a) {
        return a instanceof DaemonAction.SendToParent(OverlayMessage.RankUnfinalized u);
    }

    private static boolean alone(DaemonAction a) {
        return a instanceof DaemonAction.SendToParent(OverlayMessage.RankAlone r);
    }
}
