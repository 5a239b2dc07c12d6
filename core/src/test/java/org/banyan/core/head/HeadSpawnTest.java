package org.banyan.core.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.pmix.PmixNamespaces;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/** MPI_Comm_spawn, PMIx connect and waiting lookups as the head of a run serves them, without sockets. */
class HeadSpawnTest {
    static final int SPAWN = OverlayMessage.NameRequest.SPAWN;
    static final int CONNECT = OverlayMessage.NameRequest.CONNECT;

    static JobDescription run(boolean oversubscribe) {
        return new JobDescription(1, List.of(new AppContext("./parent", List.of(), 2, Map.of("X", "from -x"), null)),
                List.of(new Node("n0", 2), new Node("n1", 2)), MappingPolicy.SLOT, oversubscribe, 0, "/w/launch")
                .withPmix(PmixNamespaces.of(1));
    }

    HeadCore core;

    List<HeadAction> from(int d, OverlayMessage m) {
        return core.handle(new HeadEvent.FromDaemon(d, m));
    }

    void launched(JobDescription job) {
        core = new HeadCore(job, RankMap.of(job), HeadCoreTest.SETTINGS, TopologySpec.parse("radix:32"));
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"));
    }

    static OverlayMessage.SpawnRequest spawnOf(int count) {
        return new OverlayMessage.SpawnRequest(1, 0, -1, 5, List.of(new AppContext("./child", List.of("a"), count,
                Map.of("OMPI_PARENT_PORT", "port-1", "X", "from the request"), null)));
    }

    static JobDescription launchedJob(List<HeadAction> actions, int daemon) {
        for (HeadAction a : actions) {
            if (a instanceof HeadAction.SendToDaemon(int d, OverlayMessage.LaunchJob(JobDescription j)) && d == daemon) {
                return j;
            }
        }
        return null;
    }

    @Test
    void aSpawnStartsANewJobDownTheTreeInTheFreeSlotsAndAnswersWithItsNamespace() {
        launched(run(false));
        List<HeadAction> a = from(0, spawnOf(2));
        JobDescription child = launchedJob(a, 0);
        assertThat(child).isNotNull().isEqualTo(launchedJob(a, 1));
        assertThat(child.jobId()).isEqualTo(2);
        assertThat(child.spawnedBy()).isEqualTo(1);
        assertThat(child.pmixNamespace()).isEqualTo(PmixNamespaces.of(2));
        assertThat(child.pmi()).as("a PMIx parent's child is served PMIx only, as its parent").isFalse();
        assertThat(child.stdinRank()).isEqualTo(-1);
        assertThat(child.launchDir()).isEqualTo("/w/launch");
        assertThat(child.apps().getFirst().env()).containsEntry("OMPI_PARENT_PORT", "port-1").containsEntry("X", "from the request");
        assertThat(child.apps().getFirst().args()).containsExactly("a");
        // the parent holds both slots of n0: the children go to n1
        RankMap map = RankMap.of(child);
        assertThat(map.ranksOn(0)).isZero();
        assertThat(map.ranksOn(1)).isEqualTo(2);
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 5, SPAWN, true,
                "2 " + PmixNamespaces.of(2))));
    }

    @Test
    void theChildOfAJobServedPmiIsServedPmiToo() {
        JobDescription pmiOnly = new JobDescription(1, run(false).apps(), run(false).nodes(), MappingPolicy.SLOT, false, 0,
                "/w/launch");
        launched(pmiOnly);
        JobDescription child = launchedJob(from(0, spawnOf(2)), 0);
        assertThat(child.pmi()).as("banyan-comm's spawn: the children speak PMI-2 as their parents").isTrue();
        assertThat(child.spawnedBy()).isEqualTo(1);
    }

    @Test
    void aSpawnThatDoesNotFitIsRefusedWithTheReasonUnlessTheRunOversubscribes() {
        launched(run(false));
        List<HeadAction> a = from(0, spawnOf(3));
        String why = "MPI_Comm_spawn asks for 3 processes but only 2 of the run's 4 slots are free; add --oversubscribe";
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 5, SPAWN, false, why)));
        assertThat(HeadCoreTest.reports(a)).containsExactly("banyan run: cannot spawn for job 1: " + why);
        assertThat(launchedJob(a, 0)).isNull();

        launched(run(true));
        from(1, spawnOf(2)); // the slots of n1 are taken now
        JobDescription over = launchedJob(from(0, spawnOf(3)), 0);
        assertThat(over.jobId()).isEqualTo(3);
        assertThat(over.oversubscribe()).isTrue();
        assertThat(RankMap.of(over).size()).isEqualTo(3);
    }

    @Test
    void theRunEndsWithItsLastJob() {
        launched(run(false));
        from(0, spawnOf(2));
        assertThat(from(1, new OverlayMessage.Output(2, 1, 1, new byte[] {'x'}))).as("tagged with its own job")
                .singleElement().isInstanceOfSatisfying(HeadAction.ForJob.class, f -> {
                    assertThat(f.jobId()).isEqualTo(2);
                    assertThat(f.action()).isInstanceOf(HeadAction.EmitOutput.class);
                });
        from(0, new OverlayMessage.RankExited(1, 0, 0, ""));
        assertThat(HeadCoreTest.finish(from(0, new OverlayMessage.RankExited(1, 1, 0, "")))).as("the children still run").isNull();
        from(1, new OverlayMessage.RankExited(2, 0, 0, ""));
        assertThat(HeadCoreTest.finish(from(1, new OverlayMessage.RankExited(2, 1, 0, "")))).isZero();
    }

    @Test
    void aFailingChildEndsItsParentAndGivesTheRunItsStatus() {
        launched(run(false));
        from(0, spawnOf(2));
        List<HeadAction> a = from(1, new OverlayMessage.RankExited(2, 1, 3, ""));
        assertThat(HeadCoreTest.reports(a)).as("the rank named with its job: rank 1 of job 1 is another process")
                .containsExactly("banyan run: job 2 rank 1 on n1 exited with status 3; ending the job");
        assertThat(a).contains(new HeadAction.SendToDaemon(1, new OverlayMessage.TerminateJob(2, 2000)));
        // the child is over once its last rank reported: then its parent is ended
        a = from(1, new OverlayMessage.RankExited(2, 0, 143, ""));
        assertThat(HeadCoreTest.reports(a)).containsExactly("banyan run: job 2 failed; ending job 1");
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.TerminateJob(1, 2000)));
        assertThat(HeadCoreTest.finish(from(0, new OverlayMessage.RankExited(1, 0, 143, "")))).isNull();
        assertThat(HeadCoreTest.finish(from(0, new OverlayMessage.RankExited(1, 1, 143, "")))).isEqualTo(3);
    }

    @Test
    void aConnectIsAnsweredOnceEveryDaemonHostingAParticipantAsked() {
        launched(run(false));
        from(0, spawnOf(2)); // parent on n0, children on n1
        String name = "connect " + PmixNamespaces.of(1) + ":-2," + PmixNamespaces.of(2) + ":-2";
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 8, CONNECT, name, ""))).isEmpty();
        assertThat(from(1, new OverlayMessage.NameRequest(2, 1, -1, 9, CONNECT, name, ""))).containsExactlyInAnyOrder(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 8, CONNECT, true, "")),
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(2, -1, 1, 9, CONNECT, true, "")));
        // a fence over both jobs: every daemon gets every daemon's data, in daemon order
        String fence = "fence " + PmixNamespaces.of(1) + ":0," + PmixNamespaces.of(1) + ":1," + PmixNamespaces.of(2) + ":0,"
                + PmixNamespaces.of(2) + ":1";
        assertThat(from(1, new OverlayMessage.NameRequest(2, 1, -1, 10, CONNECT, fence, "QkI="))).isEmpty();
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 11, CONNECT, fence, "QUE="))).containsExactlyInAnyOrder(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 11, CONNECT, true, "QUE=,QkI=")),
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(2, -1, 1, 10, CONNECT, true, "QUE=,QkI=")));
        // a participant of no running job cannot be waited for
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 12, CONNECT, "connect " + PmixNamespaces.of(1) + ":-2,banyan.none.7:-2", ""))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 12, CONNECT, false, "no_such_job")));
    }

    @Test
    void aConnectWaitingForAJobThatEndsIsRefusedRatherThanLeftHanging() {
        launched(run(false));
        from(0, spawnOf(2)); // parent on n0, children on n1
        String name = "connect " + PmixNamespaces.of(1) + ":-2," + PmixNamespaces.of(2) + ":-2";
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 8, CONNECT, name, ""))).isEmpty();
        from(1, new OverlayMessage.RankExited(2, 0, 0, ""));
        assertThat(from(1, new OverlayMessage.RankExited(2, 1, 0, ""))).as("the children ended without connecting")
                .contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 8, CONNECT, false,
                        "participant_ended")));
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 9, CONNECT, name, ""))).as("and it is not waited for again")
                .containsExactly(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 9, CONNECT, false,
                        "no_such_job")));
    }

    @Test
    void aLookupThatWaitsIsAnsweredByThePublishOrRefusedWhenItsJobEnds() {
        launched(run(false));
        int wait = OverlayMessage.NameRequest.LOOKUP_WAIT;
        assertThat(from(1, new OverlayMessage.NameRequest(1, 1, -1, 3, wait, "svc", ""))).isEmpty();
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 4, 0, "svc", "port-0"))).containsExactlyInAnyOrder(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 4, 0, true, "")),
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(1, -1, 1, 3, wait, true, "port-0")));
        assertThat(from(1, new OverlayMessage.NameRequest(1, 1, -1, 5, wait, "svc", ""))).containsExactly(
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(1, -1, 1, 5, wait, true, "port-0")));

        // PMIX_TIMEOUT: the head arms a timer for the wait, and refuses it when it fires
        List<HeadAction> parked = from(1, new OverlayMessage.NameRequest(1, 1, -1, 7, wait, "late", "600"));
        assertThat(parked).singleElement().isInstanceOfSatisfying(HeadAction.ArmTimer.class, t -> {
            assertThat(t.timer()).isEqualTo(HeadTimer.NAME_WAIT);
            assertThat(t.delayMillis()).isEqualTo(600_000);
        });
        int waitId = ((HeadAction.ArmTimer) parked.getFirst()).jobId();
        assertThat(core.handle(new HeadEvent.TimerFired(HeadTimer.NAME_WAIT, waitId))).containsExactly(
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(1, -1, 1, 7, wait, false, "timeout")));
        assertThat(core.handle(new HeadEvent.TimerFired(HeadTimer.NAME_WAIT, waitId))).as("once").isEmpty();
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 8, 0, "late", "port-8"))).as("nobody waits any more")
                .containsExactly(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 8, 0, true, "")));

        NameService names = new NameService();
        assertThat(names.serve(new OverlayMessage.NameRequest(4, 1, -1, 6, wait, "never", ""))).isEmpty();
        assertThat(names.forget(3)).isEmpty();
        assertThat(names.forget(4)).containsExactly(new OverlayMessage.NameReply(4, -1, 1, 6, wait, false, "job_ended"));
    }

    @Test
    void aSpawnGoesToTheHostsItNamesOrIsRefusedWhenItNamesAnother() {
        JobDescription parent = run(false);
        List<AppContext> two = List.of(new AppContext("./c", List.of(), 2, Map.of(), null));
        JobDescription child = SpawnPlacement.child(parent, parent, 2, two, new int[] {0, 0}, List.of("n1"));
        assertThat(RankMap.of(child).ranksOn(0)).isZero();
        assertThat(RankMap.of(child).ranksOn(1)).isEqualTo(2);
        assertThatThrownBy(() -> SpawnPlacement.child(parent, parent, 2, two, new int[] {0, 1}, List.of("n1")))
                .hasMessage("MPI_Comm_spawn asks for 2 processes but only 1 of the named hosts' 2 slots are free; "
                        + "add --oversubscribe");
        assertThatThrownBy(() -> SpawnPlacement.child(parent, parent, 2, two, new int[2], List.of("elsewhere")))
                .hasMessage("MPI_Comm_spawn names host elsewhere, which is not one of the run's");
        JobDescription over = SpawnPlacement.child(run(true), parent, 2, two, new int[] {0, 2}, List.of("n1"));
        assertThat(RankMap.of(over).ranksOn(0)).as("oversubscribed, still only where it was asked").isZero();
    }

    @Test
    void aSpawnWithNoCountOrNoProgramIsRefused() {
        JobDescription parent = run(true);
        assertThatThrownBy(() -> SpawnPlacement.child(parent, parent, 2, List.of(), new int[2], List.of()))
                .hasMessage("the spawn request names no program");
        assertThatThrownBy(() -> SpawnPlacement.child(parent, parent, 2,
                List.of(new AppContext("./c", List.of(), 0, Map.of(), null)), new int[2], List.of()))
                .hasMessage("the spawn request asks for 0 processes of ./c");
        JobDescription child = SpawnPlacement.child(parent, parent, 2,
                List.of(new AppContext("./c", List.of(), 1, Map.of(), "/elsewhere")), new int[] {2, 1}, List.of());
        assertThat(child.apps().getFirst().env()).as("the parent's -x").containsEntry("X", "from -x");
        assertThat(child.apps().getFirst().workdir()).isEqualTo("/elsewhere");
        assertThat(RankMap.of(child).ranksOn(1)).isEqualTo(1);
    }

    /**
     * A rank asking, on an oversubscribing run, for 2^31 - 1 processes (or two applications whose
     * counts overflow an int) is refused with the reason before any per-rank table is made: the
     * head would run out of memory mapping them.
     */
    @Test
    void aSpawnOfMoreRanksThanAJobMayHaveIsRefusedNotMapped() {
        launched(run(true));
        List<HeadAction> a = from(0, new OverlayMessage.SpawnRequest(1, 0, -1, 5, List.of(
                new AppContext("./c", List.of(), Integer.MAX_VALUE, Map.of(), null),
                new AppContext("./d", List.of(), Integer.MAX_VALUE, Map.of(), null))));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 5, SPAWN, false,
                "a job of 4294967294 ranks is more than Banyan runs as one job (at most 16777216)")));
        assertThat(launchedJob(a, 0)).isNull();
    }

    /** A queued job's refusal is said by the command its client ran, as the rest of its lines. */
    @Test
    void aQueuedJobsSpawnRefusalIsSaidByItsOwnCommand() {
        List<Node> nodes = List.of(new Node("n0", 2), new Node("n1", 2));
        core = HeadCore.forDvm(nodes, HeadCoreTest.SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), null,
                java.util.Set.of());
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"));
        core.handle(new HeadEvent.Submit(run(false), HeadCoreTest.SETTINGS.queued("banyan dvm submit", 0)));
        OverlayMessage.SpawnRequest request = spawnOf(2);
        from(0, request);
        assertThat(core.handle(new HeadEvent.SpawnAnswer(request, null, null, "no room"))).contains(
                new HeadAction.ForJob(1, new HeadAction.Report("banyan dvm submit: cannot spawn for job 1: no room")));
    }

    @Test
    void aDvmPlacesTheSpawnedJobAndItsClientHearsOfTheFamilysEndOnceTheLastEnded() {
        List<Node> nodes = List.of(new Node("n0", 2), new Node("n1", 2));
        core = HeadCore.forDvm(nodes, HeadCoreTest.SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), null, java.util.Set.of());
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"));
        JobDescription parent = run(false);
        core.handle(new HeadEvent.Submit(parent, HeadCoreTest.SETTINGS));
        OverlayMessage.SpawnRequest request = spawnOf(2);
        assertThat(from(0, request)).as("the DVM's scheduler places it")
                .containsExactly(new HeadAction.SpawnRequested(parent, request));
        List<HeadAction> refused = core.handle(new HeadEvent.SpawnAnswer(request, null, null, "no room"));
        assertThat(refused).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 5, SPAWN, false,
                "no room")), new HeadAction.ForJob(1, new HeadAction.Report("banyan run: cannot spawn for job 1: no room")));

        JobDescription child = SpawnPlacement.child(parent, 7, request.apps(), List.of(new Node("n0", 0), new Node("n1", 2)),
                false, null);
        List<HeadAction> a = core.handle(new HeadEvent.SpawnAnswer(request, child, HeadCoreTest.SETTINGS, null));
        assertThat(launchedJob(a, 1)).isEqualTo(child);
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 5, SPAWN, true,
                "7 " + PmixNamespaces.of(7))));
        from(0, new OverlayMessage.RankExited(1, 0, 0, ""));
        assertThat(from(0, new OverlayMessage.RankExited(1, 1, 0, ""))).as("the parent's end waits for its child")
                .noneMatch(HeadAction.JobEnded.class::isInstance);
        from(1, new OverlayMessage.RankExited(7, 0, 0, ""));
        List<HeadAction> ended = from(1, new OverlayMessage.RankExited(7, 1, 0, ""));
        assertThat(ended).filteredOn(HeadAction.JobEnded.class::isInstance)
                .containsExactly(new HeadAction.JobEnded(7, 0), new HeadAction.JobEnded(1, 0));
        assertThat(ended).as("the daemons let go of a job that is over")
                .contains(new HeadAction.SendToDaemon(1, new OverlayMessage.ForgetJob(7)));
    }
}
