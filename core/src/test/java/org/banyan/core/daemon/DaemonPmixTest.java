package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/** A PMIx job on a daemon, driven without sockets or libpmix: registration first, fences over the tree, abort. */
class DaemonPmixTest {
    final DaemonCore core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");

    List<DaemonAction> launch() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        return core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(
                DaemonCoreTest.TWO_NODES.withPmix("banyan.test.1"))));
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theNamespaceIsRegisteredBeforeAnyRankStartsAndRanksAreToldToUsePmix() {
        List<DaemonAction> a = launch();
        int serve = -1;
        int firstStart = -1;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) instanceof DaemonAction.ServePmix s) {
                serve = i;
                assertThat(s.registration().nspace()).isEqualTo("banyan.test.1");
                assertThat(s.registration().ranks()).containsExactly(2, 3);
            } else if (a.get(i) instanceof DaemonAction.StartRank s && firstStart < 0) {
                firstStart = i;
                assertThat(s.launch().env()).containsEntry("OMPI_MCA_schizo", "^orte")
                        .as("no PMI listener for PMIx ranks").doesNotContainKeys("PMI_PORT", "BANYAN_DAEMON_URI");
            }
        }
        assertThat(serve).isGreaterThanOrEqualTo(0).isLessThan(firstStart);
    }

    @Test
    void aFenceCarriesThisHostsBlobUpAndTheReleaseHandsEveryHostsBackInDaemonOrder() {
        launch();
        List<DaemonAction> up = core.handle(new DaemonEvent.PmixFence(1, "mine".getBytes(StandardCharsets.UTF_8)));
        assertThat(up).containsExactly(new DaemonAction.SendToParent(
                new OverlayMessage.FenceEnter(1, 1, 0, Map.of("pmix.fence.1", b64("mine")))));
        List<DaemonAction> done = core.handle(new DaemonEvent.FromParent(new OverlayMessage.FenceRelease(1, 0,
                Map.of("pmix.fence.1", b64("mine"), "pmix.fence.0", b64("theirs"), "pmix.fence.2", ""))));
        assertThat(done).hasSize(1);
        DaemonAction.PmixFenceDone d = (DaemonAction.PmixFenceDone) done.getFirst();
        assertThat(d.jobId()).isEqualTo(1);
        assertThat(d.blobs()).extracting(b -> new String(b, StandardCharsets.UTF_8)).containsExactly("theirs", "mine");

        // the next fence, without data (PMIx_Fence without collection), carries the next sequence number
        assertThat(core.handle(new DaemonEvent.PmixFence(1, new byte[0]))).containsExactly(new DaemonAction.SendToParent(
                new OverlayMessage.FenceEnter(1, 1, 1, Map.of("pmix.fence.1", ""))));
    }

    @Test
    void anAbortGoesToTheHeadWithRankCodeAndMessage() {
        launch();
        assertThat(core.handle(new DaemonEvent.PmixAbort(1, 3, 7, "bad input"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(1, 3, 7, "bad input")));
        assertThat(core.handle(new DaemonEvent.PmixAbort(9, 0, 1, "no such job"))).isEmpty();
    }

    @Test
    void aRemoteRanksDataIsFetchedFromItsDaemonAndALocalRanksIsPackedForAnother() {
        launch();
        // this host's server wants rank 0's data, held on daemon 0 (reached through the head)
        List<DaemonAction> ask = core.handle(new DaemonEvent.PmixModexRequest(1, 0));
        assertThat(ask).hasSize(1);
        OverlayMessage.KvsFetch f = (OverlayMessage.KvsFetch) ((DaemonAction.SendToParent) ask.getFirst()).message();
        assertThat(f.to()).isZero();
        assertThat(f.key()).isEqualTo("pmix.dmodex.0");
        List<DaemonAction> got = core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetched(1, 0, 1, f.request(),
                f.key(), b64("data of 0"))));
        assertThat(got).hasSize(1);
        DaemonAction.PmixModexDone done = (DaemonAction.PmixModexDone) got.getFirst();
        assertThat(done.rank()).isZero();
        assertThat(new String(done.blob(), StandardCharsets.UTF_8)).isEqualTo("data of 0");
        List<DaemonAction> none = core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetched(1, 0, 1, 9,
                "pmix.dmodex.1", null)));
        assertThat(((DaemonAction.PmixModexDone) none.getFirst()).blob()).as("its daemon has none").isNull();

        // daemon 0 wants local rank 3's: this server is asked, and its answer goes back
        List<DaemonAction> asked = core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetch(1, 0, 1, 5,
                "pmix.dmodex.3")));
        assertThat(asked).hasSize(1);
        DaemonAction.PmixModexFetch fetch = (DaemonAction.PmixModexFetch) asked.getFirst();
        assertThat(fetch.rank()).isEqualTo(3);
        assertThat(core.handle(new DaemonEvent.PmixModexData(fetch.token(), "data of 3".getBytes(StandardCharsets.UTF_8))))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.KvsFetched(1, 1, 0, 5, "pmix.dmodex.3",
                        b64("data of 3"))));
        assertThat(core.handle(new DaemonEvent.PmixModexData(fetch.token(), new byte[0]))).as("answered once").isEmpty();
    }

    @Test
    void namesGoToTheHeadsNameServiceAndTheAnswerToTheServer() {
        launch();
        List<DaemonAction> up = core.handle(new DaemonEvent.PmixNameRequest(1, 41, 0, "svc", "port-1"));
        assertThat(up).containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 41, 0, "svc",
                "port-1")));
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, 0, 1, 41, 0, false, "name_in_use"))))
                .containsExactly(new DaemonAction.PmixNameReply(1, 41, false, "name_in_use"));
        assertThat(core.handle(new DaemonEvent.PmixNameRequest(7, 42, 2, "svc", ""))).as("no such job here")
                .containsExactly(new DaemonAction.PmixNameReply(7, 42, false, "no_such_job"));
    }

    /** A job spawned by job 1, its ranks on daemon 0 ({@code n1Slots} 0) or on both. */
    static org.banyan.core.job.JobDescription child(int n1Slots) {
        return new org.banyan.core.job.JobDescription(2,
                List.of(new org.banyan.core.job.AppContext("./child", List.of(), 2, Map.of(), null)),
                List.of(new org.banyan.core.job.Node("n0", 2 - n1Slots), new org.banyan.core.job.Node("n1", n1Slots)),
                org.banyan.core.job.MappingPolicy.SLOT, false, -1, "/w", org.banyan.core.job.Modex.LAZY,
                org.banyan.core.job.RankPlacement.NONE, "banyan.test.2", 1);
    }

    @Test
    void aSpawnGoesToTheHeadAndItsAnswerWaitsUntilTheNewJobIsRegisteredHere() {
        launch();
        var apps = List.of(new org.banyan.core.job.AppContext("./child", List.of(), 2, Map.of("OMPI_PARENT_PORT", "p"), null));
        List<DaemonAction> ask = core.handle(new DaemonEvent.PmixSpawn(1, 50, apps, List.of()));
        assertThat(ask).containsExactly(new DaemonAction.SendToParent(new OverlayMessage.SpawnRequest(1, 1, -1, 50, apps)));
        // the answer overtakes the job (another route): it waits
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 50,
                OverlayMessage.NameRequest.SPAWN, true, "2 banyan.test.2")))).isEmpty();
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(child(1))));
        int serve = -1;
        int answer = -1;
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) instanceof DaemonAction.ServePmix sp && sp.registration().jobId() == 2) {
                serve = i;
            } else if (a.get(i) instanceof DaemonAction.PmixNameReply r) {
                answer = i;
                assertThat(r).isEqualTo(new DaemonAction.PmixNameReply(1, 50, true, "2 banyan.test.2"));
            }
        }
        assertThat(serve).isGreaterThanOrEqualTo(0).isLessThan(answer);
        // a refusal is answered at once
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 51,
                OverlayMessage.NameRequest.SPAWN, false, "no slots")))).containsExactly(
                new DaemonAction.PmixNameReply(1, 51, false, "no slots"));
    }

    @Test
    void aDaemonHostingOnlyTheParentRegistersTheChildWithNoRankToConnectThem() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(child(0))));
        assertThat(a).filteredOn(DaemonAction.ServePmix.class::isInstance).singleElement()
                .satisfies(sp -> {
                    assertThat(((DaemonAction.ServePmix) sp).registration().nspace()).isEqualTo("banyan.test.2");
                    assertThat(((DaemonAction.ServePmix) sp).registration().ranks()).isEmpty();
                });
        assertThat(a).noneMatch(DaemonAction.StartRank.class::isInstance);
    }

    @Test
    void aDaemonHostingOnlyTheChildRegistersTheParentFirstWithNoRank() {
        DaemonCore zero = new DaemonCore(0, "n0:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
        zero.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        var parentOnN1 = new org.banyan.core.job.JobDescription(1, DaemonCoreTest.TWO_NODES.apps().stream()
                .map(app -> new org.banyan.core.job.AppContext(app.executable(), app.args(), 2, app.env(), app.workdir())).toList(),
                List.of(new org.banyan.core.job.Node("n0", 0), new org.banyan.core.job.Node("n1", 2)),
                org.banyan.core.job.MappingPolicy.SLOT, false, 0, "/w", org.banyan.core.job.Modex.LAZY,
                org.banyan.core.job.RankPlacement.NONE, "banyan.test.1");
        assertThat(zero.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(parentOnN1))))
                .noneMatch(DaemonAction.ServePmix.class::isInstance);
        List<DaemonAction> a = zero.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(child(0))));
        List<String> served = a.stream().filter(DaemonAction.ServePmix.class::isInstance)
                .map(sp -> ((DaemonAction.ServePmix) sp).registration().nspace()).toList();
        assertThat(served).containsExactly("banyan.test.1", "banyan.test.2");
    }

    @Test
    void aConnectRegistersTheOtherJobsNamespaceBeforeItCompletes() {
        launch();
        // another job (of a DVM, say) with no rank here
        var other = new org.banyan.core.job.JobDescription(5,
                List.of(new org.banyan.core.job.AppContext("./server", List.of(), 2, Map.of(), null)),
                List.of(new org.banyan.core.job.Node("n0", 2), new org.banyan.core.job.Node("n1", 0)),
                org.banyan.core.job.MappingPolicy.SLOT, false, -1, "/w", org.banyan.core.job.Modex.LAZY,
                org.banyan.core.job.RankPlacement.NONE, "banyan.test.5");
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(other))))
                .noneMatch(DaemonAction.ServePmix.class::isInstance);
        String name = "connect banyan.test.1:-2,banyan.test.5:-2";
        assertThat(core.handle(new DaemonEvent.PmixNameRequest(1, 60, OverlayMessage.NameRequest.CONNECT, name, "")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 60,
                        OverlayMessage.NameRequest.CONNECT, name, "")));
        List<DaemonAction> done = core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 60,
                OverlayMessage.NameRequest.CONNECT, true, "")));
        assertThat(done).hasSize(2);
        assertThat(((DaemonAction.ServePmix) done.get(0)).registration().nspace()).isEqualTo("banyan.test.5");
        assertThat(done.get(1)).isEqualTo(new DaemonAction.PmixNameReply(1, 60, true, ""));
    }

    @Test
    void aForgottenJobIsLetGoOf() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.ForgetJob(1)));
        assertThat(a).contains(new DaemonAction.ForgetJob(1));
        assertThat(core.handle(new DaemonEvent.PmixFence(1, new byte[0]))).as("the job is gone").isEmpty();
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.ForgetJob(1)))).as("once")
                .noneMatch(DaemonAction.ForgetJob.class::isInstance);
    }
}
