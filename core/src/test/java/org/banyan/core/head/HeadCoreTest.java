package org.banyan.core.head;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.banyan.core.daemon.Signals;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Node;
import org.banyan.core.job.RankMap;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/** The head's protocol logic driven without sockets. */
class HeadCoreTest {
    static final JobDescription JOB = new JobDescription(1,
            List.of(new AppContext("./app", List.of(), 4, Map.of(), null)),
            List.of(new Node("n0", 2), new Node("n1", 2)), MappingPolicy.SLOT, false, 0, "/w/launch");
    static final HeadSettings SETTINGS = new HeadSettings(0, 2000, 30_000);

    HeadCore core = new HeadCore(JOB, RankMap.of(JOB), SETTINGS, TopologySpec.parse("radix:32"));

    List<HeadAction> from(int d, OverlayMessage m) {
        return core.handle(new HeadEvent.FromDaemon(d, m));
    }

    void launched() {
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"));
    }

    static Integer finish(List<HeadAction> actions) {
        for (HeadAction a : actions) {
            if (a instanceof HeadAction.Finish(int status)) {
                return status;
            }
        }
        return null;
    }

    static List<String> reports(List<HeadAction> actions) {
        return actions.stream().filter(HeadAction.Report.class::isInstance).map(a -> ((HeadAction.Report) a).line()).toList();
    }

    /** --display-map: each host's slots and ranks, before a daemon is started; nothing without it. */
    @Test
    void theJobsMapComesBeforeTheDaemonsWhenAsked() {
        JobDescription job = new JobDescription(1, List.of(new AppContext("./a", List.of(), 1, Map.of(), null),
                new AppContext("./b", List.of(), 2, Map.of(), null)), List.of(new Node("n0", 2), new Node("n1", 2)),
                MappingPolicy.NODE, false, 0, "/w", org.banyan.core.job.Modex.LAZY,
                org.banyan.core.job.RankPlacement.NONE.withDisplayMap(true));
        List<HeadAction> first = new HeadCore(job, RankMap.of(job), SETTINGS, TopologySpec.parse("radix:32")).start();
        assertThat(reports(first)).containsExactly(
                " ===============   JOB MAP (job 1, 3 ranks)   ===============",
                " Data for node: n0\tNum slots: 2\tNum procs: 2",
                " \tProcess rank: 0\tApp: 0\tLocal rank: 0",
                " \tProcess rank: 2\tApp: 1\tLocal rank: 1",
                " Data for node: n1\tNum slots: 2\tNum procs: 1",
                " \tProcess rank: 1\tApp: 1\tLocal rank: 0",
                " ============================================================");
        assertThat(first.subList(0, 7)).allMatch(HeadAction.Report.class::isInstance);
        assertThat(reports(core.start())).isEmpty();
    }

    @Test
    void startsItsChildrenAndAdoptsAndLaunchesEachAsItSaysHello() {
        assertThat(core.start()).containsExactly(new HeadAction.SpawnDaemon(0, "n0"), new HeadAction.SpawnDaemon(1, "n1"),
                new HeadAction.ArmTimer(HeadTimer.DAEMON_START, 30_000));
        assertThat(from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"))).containsExactly(
                new HeadAction.Milestone("first daemon up"),
                new HeadAction.SendToDaemon(0, new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())),
                new HeadAction.SendToDaemon(0, new OverlayMessage.LaunchJob(JOB)), new HeadAction.ForwardStdin(List.of(0), 0),
                new HeadAction.StdinCredit(org.banyan.core.head.StdinWindow.WINDOW));
        assertThat(from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"))).containsExactly(
                new HeadAction.SendToDaemon(1, new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())),
                new HeadAction.SendToDaemon(1, new OverlayMessage.LaunchJob(JOB)));
        assertThat(from(0, new OverlayMessage.Contacts(Map.of(0, "n0:1")))).isEmpty();
        OverlayMessage all = new OverlayMessage.AllContacts(Map.of(0, "n0:1", 1, "n1:1"));
        assertThat(from(1, new OverlayMessage.Contacts(Map.of(1, "n1:1")))).containsExactly(
                new HeadAction.Milestone("all daemons up, contacts gathered"),
                new HeadAction.SendToDaemon(0, all), new HeadAction.SendToDaemon(1, all));
    }

    /**
     * --stdin all: stdin flows only once every child with ranks below it has the job, to all of
     * them at once; bytes read before would not reach the ranks of a subtree adopted later.
     */
    @Test
    void stdinForEveryRankGoesDownOnceEverySubtreeWithRanksHasTheJob() {
        List<Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            nodes.add(new Node("n" + i, 1));
        }
        JobDescription all = new JobDescription(1, List.of(new AppContext("./a", List.of(), 7, Map.of(), null)), nodes,
                MappingPolicy.SLOT, false, JobDescription.STDIN_ALL, "/w/launch");
        HeadCore c = new HeadCore(all, RankMap.of(all), SETTINGS, TopologySpec.parse("radix:2"));
        c.start();
        assertThat(c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x"))))
                .noneMatch(HeadAction.ForwardStdin.class::isInstance);
        assertThat(c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x"))))
                .containsOnlyOnce(new HeadAction.ForwardStdin(List.of(0, 1), JobDescription.STDIN_ALL));
    }

    @Test
    void inADeepTreeTheHeadHasOnlyItsChildrenAndAdoptsThemWithTheirSubtrees() {
        List<Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            nodes.add(new Node("n" + i, 1));
        }
        JobDescription seven = new JobDescription(1, List.of(new AppContext("./a", List.of(), 7, Map.of(), null)), nodes,
                MappingPolicy.SLOT, false, 6, "/w/launch");
        HeadCore c = new HeadCore(seven, RankMap.of(seven), SETTINGS, TopologySpec.parse("radix:2"));
        assertThat(c.start()).containsExactly(new HeadAction.SpawnDaemon(0, "n0"), new HeadAction.SpawnDaemon(1, "n1"),
                new HeadAction.ArmTimer(HeadTimer.DAEMON_START, 30_000));
        List<HeadAction> a = c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x")));
        // vertex 2 (daemon 1) has vertices 5, 6 below it: daemons 4 and 5; rank 6 lives on daemon 6, under daemon 0.
        assertThat(a).contains(new HeadAction.SendToDaemon(1, new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 8, Map.of(4, "n4", 5, "n5"))));
        assertThat(a).noneMatch(HeadAction.ForwardStdin.class::isInstance);
        a = c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        assertThat(a).contains(new HeadAction.ForwardStdin(List.of(0), 6));
        // Losing daemon 0 loses its whole subtree: daemons 0, 2, 3, 6 and their ranks.
        a = c.handle(new HeadEvent.DaemonLost(0, "connection closed"));
        assertThat(reports(a)).containsExactly("banyan run: lost the daemon on n0: connection closed");
        for (int r : new int[] {1, 4, 5}) {
            a = c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.RankExited(1, r, 143, "")));
        }
        assertThat(finish(a)).isEqualTo(HeadSettings.DAEMON_LOST_STATUS);
    }

    @Test
    void allRanksExitingZeroFinishesWithZero() {
        launched();
        for (int r = 0; r < 3; r++) {
            assertThat(finish(from(r / 2, new OverlayMessage.RankExited(1, r, 0, "")))).isNull();
        }
        List<HeadAction> a = from(1, new OverlayMessage.RankExited(1, 3, 0, ""));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.Shutdown()),
                new HeadAction.SendToDaemon(1, new OverlayMessage.Shutdown()));
        assertThat(finish(a)).isZero();
    }

    @Test
    void firstFailingRankDecidesStatusAndEndsTheJob() {
        launched();
        List<HeadAction> a = from(1, new OverlayMessage.RankExited(1, 2, 3, ""));
        assertThat(reports(a)).containsExactly("banyan run: rank 2 on n1 exited with status 3; ending the job");
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.TerminateJob(1, 2000)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.TerminateJob(1, 2000)));
        // The others die of the SIGTERM; they are consequences, not reported and not the status.
        assertThat(reports(from(0, new OverlayMessage.RankExited(1, 0, 143, "")))).isEmpty();
        from(0, new OverlayMessage.RankExited(1, 1, 143, ""));
        assertThat(finish(from(1, new OverlayMessage.RankExited(1, 3, 143, "")))).isEqualTo(3);
    }

    /** --enable-recovery: each failure is reported, nobody is told to end, and the first failure is the status. */
    @Test
    void withRecoveryAFailedRankLeavesTheOthersRunning() {
        core = new HeadCore(JOB, RankMap.of(JOB), new HeadSettings(0, 2000, 30_000, false, false, true), TopologySpec.parse("radix:32"));
        launched();
        List<HeadAction> a = from(1, new OverlayMessage.RankExited(1, 2, 3, ""));
        assertThat(reports(a)).containsExactly("banyan run: rank 2 on n1 exited with status 3; the other ranks go on");
        assertThat(a).noneMatch(x -> x instanceof HeadAction.SendToDaemon(int d, OverlayMessage.TerminateJob t));
        assertThat(reports(from(0, new OverlayMessage.RankExited(1, 0, 0, "")))).isEmpty();
        assertThat(reports(from(0, new OverlayMessage.RankExited(1, 1, 1, ""))))
                .containsExactly("banyan run: rank 1 on n0 exited with status 1; the other ranks go on");
        assertThat(finish(from(1, new OverlayMessage.RankExited(1, 3, 0, "")))).as("the first failure's").isEqualTo(3);
    }

    @Test
    void aDaemonAdoptedAfterTheJobStartedEndingNeverGetsItAndItsRanksCountAsEnded() {
        core.start();
        from(1, new OverlayMessage.DaemonHello(1, "n1", 2, "n1:1"));
        from(1, new OverlayMessage.RankExited(1, 2, 3, ""));
        List<HeadAction> a = from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.TerminateJob(1, 2000)));
        assertThat(a).noneMatch(x -> x instanceof HeadAction.SendToDaemon s && s.message() instanceof OverlayMessage.LaunchJob);
        assertThat(finish(from(1, new OverlayMessage.RankExited(1, 3, 143, "")))).isEqualTo(3);
    }

    @Test
    void reportLaunchGathersEveryDaemonsStatsBeforeFinishing() {
        HeadCore c = new HeadCore(JOB, RankMap.of(JOB), new HeadSettings(0, 2000, 30_000, true), TopologySpec.parse("radix:32"));
        c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x")));
        List<HeadAction> a = List.of();
        for (int r = 0; r < 4; r++) {
            a = c.handle(new HeadEvent.FromDaemon(r / 2, new OverlayMessage.RankExited(1, r, 0, "")));
        }
        assertThat(finish(a)).isNull();
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.CollectStats()),
                new HeadAction.SendToDaemon(1, new OverlayMessage.CollectStats()),
                new HeadAction.ArmTimer(HeadTimer.STATS_DEADLINE, HeadSettings.STATS_MILLIS));
        var s0 = new org.banyan.core.wire.DaemonStats(1, 3, 4, 100, 110);
        var s1 = new org.banyan.core.wire.DaemonStats(1, 5, 6, 120, 130);
        assertThat(finish(c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Stats(Map.of(0, s0)))))).isNull();
        a = c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.Stats(Map.of(1, s1))));
        assertThat(a).contains(new HeadAction.LaunchReport(Map.of(0, s0, 1, s1)));
        assertThat(finish(a)).isZero();
    }

    @Test
    void signalDeathIsDescribed() {
        launched();
        assertThat(reports(from(0, new OverlayMessage.RankExited(1, 1, 139, ""))))
                .containsExactly("banyan run: rank 1 on n0 was killed by signal 11 (SIGSEGV); ending the job");
    }

    @Test
    void abortUsesTheGivenExitCode() {
        launched();
        List<HeadAction> a = from(1, new OverlayMessage.AbortRequest(1, 3, 7, ""));
        assertThat(reports(a)).containsExactly("banyan run: rank 3 on n1 called abort (MPI_Abort) with exit code 7");
        for (int r = 0; r < 4; r++) {
            a = from(r / 2, new OverlayMessage.RankExited(1, r, r == 3 ? 7 : 143, ""));
        }
        assertThat(finish(a)).isEqualTo(7);
    }

    /** mpirun and Hydra end a job one of whose ranks exited without MPI_Finalize; its other ranks would wait for ever. */
    @Test
    void aRankThatLeftWithoutFinalizingFailsTheJobWithStatusOne() {
        launched();
        List<HeadAction> a = from(1, new OverlayMessage.RankUnfinalized(1, 2));
        assertThat(reports(a)).singleElement().asString().startsWith("banyan run: rank 2 on n1 exited with status 0 without "
                + "finalizing").endsWith("ending the job, whose other ranks would wait for it");
        for (int r = 0; r < 4; r++) {
            a = from(r / 2, new OverlayMessage.RankExited(1, r, r == 2 ? 0 : 143, ""));
        }
        assertThat(finish(a)).isEqualTo(1);
    }

    @Test
    void fenceWaitsForEveryDaemonAndReleasesAllPutsToAll() {
        launched();
        assertThat(from(0, new OverlayMessage.FenceEnter(1, 0, 0, Map.of("a", "1")))).isEmpty();
        List<HeadAction> a = from(1, new OverlayMessage.FenceEnter(1, 1, 0, Map.of("b", "2")));
        OverlayMessage release = new OverlayMessage.FenceRelease(1, 0, Map.of("a", "1", "b", "2"));
        assertThat(a).containsExactly(new HeadAction.SendToDaemon(0, release), new HeadAction.SendToDaemon(1, release));
        assertThat(from(0, new OverlayMessage.FenceEnter(1, 0, 1, Map.of()))).isEmpty();
    }

    @Test
    void aDaemonLostDuringAFenceCountsAsEnteredAsItWouldInADaemon() {
        launched();
        from(0, new OverlayMessage.FenceEnter(1, 0, 0, Map.of("a", "1")));
        List<HeadAction> a = core.handle(new HeadEvent.DaemonLost(1, "connection closed"));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.FenceRelease(1, 0, Map.of("a", "1"))));
        assertThat(a).doesNotContain(new HeadAction.SendToDaemon(1, new OverlayMessage.FenceRelease(1, 0, Map.of("a", "1"))));
    }

    @Test
    void aDvmsHeadSaysWhichDaemonsALossTookWithTheSubtreeBelow() {
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1)), SETTINGS,
                TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), null, java.util.Set.of());
        dvm.start();
        assertThat(dvm.handle(new HeadEvent.DaemonLost(0, "connection closed")))
                .contains(new HeadAction.DaemonsLost(List.of(0, 2), "lost the daemon on n0: connection closed"));
        assertThat(dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonFailed(2, "n2", "again"))))
                .as("reported once").isEmpty();
        assertThat(core.handle(new HeadEvent.DaemonLost(1, "x"))).as("a run's head does not")
                .noneMatch(HeadAction.DaemonsLost.class::isInstance);
    }

    @Test
    void aDvmThatLosesADaemonBeforeItIsUpStopsAtOnceAndOneThatIsUpServesOn() {
        List<Node> three = List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1));
        HeadCore starting = HeadCore.forDvm(three, SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"),
                null, java.util.Set.of());
        starting.start();
        starting.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        List<HeadAction> a = starting.handle(new HeadEvent.DaemonLost(1, "ssh ended, exit status 255: Connection refused"));
        assertThat(a).as("it said why, told the daemon that came to go, and finished; it used to wait for ever")
                .contains(new HeadAction.DaemonsLost(List.of(1), "lost the daemon on n1: ssh ended, exit status 255: Connection refused"),
                        new HeadAction.Report("the DVM cannot come up without its daemon on n1; stopping"),
                        new HeadAction.SendToDaemon(0, new OverlayMessage.Shutdown()));
        assertThat(finish(a)).isEqualTo(HeadSettings.DAEMON_LOST_STATUS);
        assertThat(reports(starting.handle(new HeadEvent.TimerFired(HeadTimer.DAEMON_START)))).as("not twice").isEmpty();

        HeadCore up = HeadCore.forDvm(three, SETTINGS, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"),
                null, java.util.Set.of());
        up.start();
        for (int d = 0; d < 3; d++) {
            up.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")));
            up.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.Contacts(Map.of(d, "h" + d + ":1"))));
        }
        a = up.handle(new HeadEvent.DaemonLost(1, "connection closed"));
        assertThat(a).containsExactly(new HeadAction.DaemonsLost(List.of(1), "lost the daemon on n1: connection closed"));
    }

    @Test
    void aDvmWhoseDaemonsNeverConnectSaysSoWithoutRunsName() {
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1)), SETTINGS, TopologySpec.parse("radix:32"),
                TopologySpec.parse("radix:32"), null, java.util.Set.of());
        dvm.start();
        dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Contacts(Map.of(0, "h0:1"))));
        List<HeadAction> a = dvm.handle(new HeadEvent.TimerFired(HeadTimer.DAEMON_START));
        assertThat(reports(a)).containsExactly("no daemon connected within 30.0 s from n1");
        assertThat(finish(a)).isEqualTo(HeadSettings.DAEMON_LOST_STATUS);
    }

    @Test
    void aDvmReleasesDaemonsWithTheirSubtreesAndTakesTheirEndsAsNoLoss() {
        // radix 2: daemons 0 and 1 are the head's children, daemons 2 and 3 are below daemon 0
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1), new Node("n3", 1)),
                SETTINGS, TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), null, java.util.Set.of());
        dvm.start();
        for (int d : new int[] {0, 1}) {
            dvm.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")));
        }
        dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Contacts(Map.of(0, "h0:1", 2, "h2:1", 3, "h3:1"))));
        dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.Contacts(Map.of(1, "h1:1")))); // up: only then are hosts given back
        assertThat(dvm.handle(new HeadEvent.ReleaseDaemons(List.of(3, 1))))
                .as("daemon 1 is told directly, daemon 3 through daemon 0")
                .containsExactlyInAnyOrder(new HeadAction.SendToDaemon(1, new OverlayMessage.Leave(-1, 1)),
                        new HeadAction.SendToDaemon(0, new OverlayMessage.Leave(-1, 3)));
        assertThat(dvm.handle(new HeadEvent.DaemonLost(1, "connection closed")))
                .containsExactly(new HeadAction.DaemonReleased(1));
        assertThat(dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonFailed(3, "n3", "link closed"))))
                .containsExactly(new HeadAction.DaemonReleased(3));
        assertThat(dvm.handle(new HeadEvent.DaemonLost(0, "connection closed")))
                .as("a daemon not released is still a loss; its released child is not counted twice")
                .containsExactly(new HeadAction.DaemonsLost(List.of(0, 2), "lost the daemon on n0: connection closed"));
    }

    @Test
    void aReleasedDaemonRejoinsWhereItWasAndServesAgain() {
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1), new Node("n3", 1)),
                SETTINGS, TopologySpec.parse("radix:2"), TopologySpec.parse("radix:2"), null, java.util.Set.of());
        dvm.start();
        for (int d : new int[] {0, 1}) {
            dvm.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")));
        }
        dvm.handle(new HeadEvent.ReleaseDaemons(List.of(3, 1)));
        assertThat(dvm.handle(new HeadEvent.RejoinDaemons(Map.of(1, "n1"))))
                .as("daemon 1 has not left yet").containsExactly(new HeadAction.DaemonReleased(1));
        dvm.handle(new HeadEvent.DaemonLost(1, "connection closed"));
        dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonFailed(3, "n3", "link closed")));
        assertThat(dvm.handle(new HeadEvent.RejoinDaemons(new java.util.TreeMap<>(Map.of(1, "n1", 3, "n3", 2, "n2")))))
                .as("1 starts anew; 2 was never released, 3 is below daemon 0")
                .containsExactly(new HeadAction.SpawnDaemon(1, "n1"), new HeadAction.DaemonReleased(2),
                        new HeadAction.DaemonReleased(3));
        assertThat(dvm.handle(new HeadEvent.DaemonLost(1, "srun ended"))).as("a failed start is no loss")
                .containsExactly(new HeadAction.DaemonReleased(1));
        dvm.handle(new HeadEvent.RejoinDaemons(Map.of(1, "n1")));
        dvm.handle(new HeadEvent.Submit(new JobDescription(1, List.of(new AppContext("./a", List.of(), 1, Map.of(), null)),
                List.of(new Node("n0", 1), new Node("n1", 0), new Node("n2", 0), new Node("n3", 0)), MappingPolicy.SLOT,
                false, 0, "/w"), SETTINGS));
        assertThat(dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x"))))
                .as("adopted, but the job running now does not involve it")
                .hasSize(1).allMatch(a -> a instanceof HeadAction.SendToDaemon(int d, OverlayMessage.Adopt ad) && d == 1);
        assertThat(dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.Contacts(Map.of(1, "h1:1")))))
                .containsExactly(new HeadAction.SendToDaemon(1, new OverlayMessage.AllContacts(Map.of(1, "h1:1"))),
                        new HeadAction.DaemonRejoined(1));
        assertThat(dvm.handle(new HeadEvent.DaemonLost(1, "connection closed"))).as("serving again: a loss is a loss")
                .contains(new HeadAction.DaemonsLost(List.of(1), "lost the daemon on n1: connection closed"));
    }

    @Test
    void aDvmIsToldItsHostsGpusBeforeItIsReady() {
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1)), SETTINGS,
                TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), "head:1", java.util.Set.of());
        dvm.start();
        for (int d : new int[] {0, 1}) {
            dvm.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")));
        }
        assertThat(dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Contacts(Map.of(0, "h0:1"), Map.of(0, "2,3")))))
                .containsExactly(new HeadAction.GpusFound(Map.of(0, "2,3")));
        List<HeadAction> last = dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.Contacts(Map.of(1, "h1:1"), Map.of(1, "0"))));
        assertThat(last).contains(new HeadAction.GpusFound(Map.of(1, "0")), new HeadAction.Ready());
        assertThat(last.indexOf(new HeadAction.GpusFound(Map.of(1, "0")))).isLessThan(last.indexOf(new HeadAction.Ready()));
    }

    @Test
    void aRunsHeadIsNotToldGpus() {
        launched();
        from(0, new OverlayMessage.Contacts(Map.of(0, "h0:1"), Map.of(0, "0")));
        assertThat(from(1, new OverlayMessage.Contacts(Map.of(1, "h1:1"), Map.of(1, "0"))))
                .as("a run's ranks see the GPUs their daemon was given, as before")
                .noneMatch(a -> a instanceof HeadAction.GpusFound);
    }

    @Test
    void aDvmWithVacantSlotsIsUpWithoutThemAndFillsThemWithNewHosts() {
        HeadCore dvm = HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1), new Node("(vacant)", 1)), SETTINGS,
                TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), "head:1", java.util.Set.of(2));
        assertThat(dvm.start()).as("the vacant slot is not started")
                .containsExactly(new HeadAction.SpawnDaemon(0, "n0"), new HeadAction.SpawnDaemon(1, "n1"),
                        new HeadAction.ArmTimer(HeadTimer.DAEMON_START, SETTINGS.daemonStartMillis()));
        for (int d : new int[] {0, 1}) {
            dvm.handle(new HeadEvent.FromDaemon(d, new OverlayMessage.DaemonHello(d, "n" + d, 1, "x")));
        }
        dvm.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Contacts(Map.of(0, "h0:1"))));
        assertThat(dvm.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.Contacts(Map.of(1, "h1:1")))))
                .contains(new HeadAction.Ready());
        assertThat(dvm.handle(new HeadEvent.RejoinDaemons(Map.of(2, "n7")))).containsExactly(new HeadAction.SpawnDaemon(2, "n7"));
        dvm.handle(new HeadEvent.FromDaemon(2, new OverlayMessage.DaemonHello(2, "n7", 1, "x")));
        assertThat(dvm.handle(new HeadEvent.FromDaemon(2, new OverlayMessage.Contacts(Map.of(2, "h7:1")))))
                .containsExactly(new HeadAction.SendToDaemon(2, new OverlayMessage.AllContacts(
                        Map.of(0, "h0:1", 1, "h1:1", 2, "h7:1", -1, "head:1"))), new HeadAction.DaemonRejoined(2));
        assertThat(dvm.handle(new HeadEvent.DaemonLost(2, "connection closed"))).as("named by its new host")
                .contains(new HeadAction.DaemonsLost(List.of(2), "lost the daemon on n7: connection closed"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HeadCore.forDvm(List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1)), SETTINGS,
                TopologySpec.parse("radix:1"), TopologySpec.parse("radix:1"), null, java.util.Set.of(1)))
                .hasMessageContaining("vacant slot 1 is not a leaf child of the head");
    }

    @Test
    void daemonsWithoutRanksAreNotWaitedForInFences() {
        JobDescription small = new JobDescription(1, List.of(new AppContext("./a", List.of(), 2, Map.of(), null)),
                List.of(new Node("n0", 2), new Node("n1", 2)), MappingPolicy.SLOT, false, 0, "/w/launch");
        HeadCore c = new HeadCore(small, RankMap.of(small), SETTINGS, TopologySpec.parse("radix:32"));
        c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x")));
        assertThat(c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.FenceEnter(1, 0, 0, Map.of()))))
                .containsExactly(new HeadAction.SendToDaemon(0, new OverlayMessage.FenceRelease(1, 0, Map.of())));
    }

    @Test
    void losingADaemonFailsItsRanksAndEndsTheOthers() {
        launched();
        List<HeadAction> a = core.handle(new HeadEvent.DaemonLost(1, "connection closed"));
        assertThat(reports(a)).containsExactly("banyan run: lost the daemon on n1: connection closed");
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.TerminateJob(1, 2000)));
        assertThat(a).doesNotContain(new HeadAction.SendToDaemon(1, new OverlayMessage.TerminateJob(1, 2000)));
        from(0, new OverlayMessage.RankExited(1, 0, 143, ""));
        assertThat(finish(from(0, new OverlayMessage.RankExited(1, 1, 143, ""))))
                .isEqualTo(HeadSettings.DAEMON_LOST_STATUS);
    }

    @Test
    void daemonsThatNeverConnectEndTheRunWithTheirNames() {
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x"));
        from(0, new OverlayMessage.Contacts(Map.of(0, "x")));
        List<HeadAction> a = core.handle(new HeadEvent.TimerFired(HeadTimer.DAEMON_START));
        assertThat(reports(a)).containsExactly("banyan run: no daemon connected within 30.0 s from n1");
        assertThat(finish(a)).isEqualTo(HeadSettings.DAEMON_LOST_STATUS);
    }

    @Test
    void timeoutEndsTheJobWithStatus124() {
        HeadCore c = new HeadCore(JOB, RankMap.of(JOB), new HeadSettings(5000, 2000, 30_000), TopologySpec.parse("radix:32"));
        List<HeadAction> a = c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        assertThat(a).contains(new HeadAction.ArmTimer(HeadTimer.JOB_TIMEOUT, 5000, 1));
        c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x")));
        a = c.handle(new HeadEvent.TimerFired(HeadTimer.JOB_TIMEOUT, 1)); // a job's timers name their job
        assertThat(reports(a)).containsExactly("banyan run: job timed out after 5 s; ending all ranks");
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.TerminateJob(1, 2000)));
        for (int r = 0; r < 4; r++) {
            a = c.handle(new HeadEvent.FromDaemon(r / 2, new OverlayMessage.RankExited(1, r, 143, "")));
        }
        assertThat(finish(a)).isEqualTo(HeadSettings.TIMEOUT_STATUS);
    }

    /** mpirun's --report-state-on-timeout: the ranks still running, by host, after the timeout's line. */
    @Test
    void theRanksStillRunningAtTheTimeoutAreNamedWhenAsked() {
        HeadCore c = new HeadCore(JOB, RankMap.of(JOB), new HeadSettings(5000, 2000, 30_000, false, false, false, true),
                TopologySpec.parse("radix:32"));
        c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "x")));
        c.handle(new HeadEvent.FromDaemon(1, new OverlayMessage.DaemonHello(1, "n1", 1, "x")));
        c.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.RankExited(1, 1, 0, "")));
        List<HeadAction> a = c.handle(new HeadEvent.TimerFired(HeadTimer.JOB_TIMEOUT, 1));
        assertThat(reports(a)).containsExactly("banyan run: job timed out after 5 s; ending all ranks",
                "banyan run: still running at the timeout: [n0] 0 [n1] 2,3");
    }

    static final HeadAction ECHO_WINDOW = new HeadAction.ArmTimer(HeadTimer.SIGNAL_ECHO, HeadSettings.SIGNAL_ECHO_MILLIS, 1);

    @Test
    void firstSignalIsForwardedSecondKills() {
        launched();
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGINT))).containsExactly(ECHO_WINDOW,
                new HeadAction.SendToDaemon(0, new OverlayMessage.SignalRanks(1, Signals.SIGINT)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.SignalRanks(1, Signals.SIGINT)));
        core.handle(new HeadEvent.TimerFired(HeadTimer.SIGNAL_ECHO, 1));
        List<HeadAction> a = core.handle(new HeadEvent.UserSignal(Signals.SIGINT));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.KillJob(1)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.KillJob(1)));
        for (int r = 0; r < 4; r++) {
            a = from(r / 2, new OverlayMessage.RankExited(1, r, 137, ""));
        }
        assertThat(finish(a)).isEqualTo(130);
    }

    /**
     * timeout(1), and a kill of the process group, send one SIGTERM to the head and then the same
     * to its group, the head included: the two are one delivery, and the ranks get their grace.
     */
    @Test
    void theSameSignalAgainAtOnceIsOneDeliveryNotTheKillingSecond() {
        launched();
        core.handle(new HeadEvent.UserSignal(Signals.SIGTERM));
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGTERM))).isEmpty();
        core.handle(new HeadEvent.TimerFired(HeadTimer.SIGNAL_ECHO, 1));
        List<HeadAction> a = core.handle(new HeadEvent.UserSignal(Signals.SIGTERM));
        assertThat(reports(a)).containsExactly("banyan run: received SIGTERM again; killing all ranks");
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.KillJob(1)));
    }

    /** Within the window only the same signal is its echo: Ctrl-C then a SIGTERM is two. */
    @Test
    void anotherEndingSignalWithinTheWindowStillCountsAsTheSecond() {
        launched();
        core.handle(new HeadEvent.UserSignal(Signals.SIGINT));
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGTERM)))
                .contains(new HeadAction.SendToDaemon(1, new OverlayMessage.KillJob(1)));
    }

    @Test
    void userSignalsThatDoNotEndJobsAreOnlyForwarded() {
        launched();
        core.handle(new HeadEvent.UserSignal(Signals.SIGUSR1));
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGUSR1)))
                .containsExactly(new HeadAction.SendToDaemon(0, new OverlayMessage.SignalRanks(1, Signals.SIGUSR1)),
                        new HeadAction.SendToDaemon(1, new OverlayMessage.SignalRanks(1, Signals.SIGUSR1)));
    }

    /** A USR1 before the first Ctrl-C does not make that Ctrl-C the second. */
    @Test
    void onlyEndingSignalsCountTowardsTheKillingSecond() {
        launched();
        core.handle(new HeadEvent.UserSignal(Signals.SIGUSR1));
        core.handle(new HeadEvent.UserSignal(Signals.SIGTSTP));
        core.handle(new HeadEvent.UserSignal(Signals.SIGCONT));
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGINT))).containsExactly(ECHO_WINDOW,
                new HeadAction.SendToDaemon(0, new OverlayMessage.SignalRanks(1, Signals.SIGINT)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.SignalRanks(1, Signals.SIGINT)));
    }

    /** Ctrl-Z stops the ranks with SIGSTOP, then this process; the shell's SIGCONT is passed on. */
    @Test
    void ctrlZStopsTheRanksThenTheHead() {
        launched();
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGTSTP))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.SignalRanks(1, Signals.SIGSTOP)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.SignalRanks(1, Signals.SIGSTOP)),
                new HeadAction.Suspend());
        assertThat(core.handle(new HeadEvent.UserSignal(Signals.SIGCONT))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.SignalRanks(1, Signals.SIGCONT)),
                new HeadAction.SendToDaemon(1, new OverlayMessage.SignalRanks(1, Signals.SIGCONT)));
    }

    @Test
    void teardownDeadlineStopsWaitingSoTheRunNeverHangs() {
        launched();
        from(1, new OverlayMessage.RankExited(1, 2, 5, ""));
        List<HeadAction> a = core.handle(new HeadEvent.TimerFired(HeadTimer.TEARDOWN_DEADLINE, 1));
        assertThat(reports(a)).containsExactly("banyan run: 3 rank(s) did not report their end; giving up on them");
        assertThat(finish(a)).isEqualTo(5);
        assertThat(core.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.RankExited(1, 0, 0, "")))).isEmpty();
    }

    /**
     * Spawn tree radix:1 (a chain: head, daemon 0, daemon 1, daemon 2), routing direct (every
     * daemon a routing child of the head): daemons 1 and 2 dial the head, which relays between
     * its routing children.
     */
    @Test
    void theHeadIsTheRoutingRootAndRelaysBetweenItsRoutingChildren() {
        JobDescription three = new JobDescription(1, List.of(new AppContext("./app", List.of(), 3, Map.of(), null)),
                List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1)), MappingPolicy.SLOT, false, -1, "/");
        HeadCore head = new HeadCore(three, RankMap.of(three), SETTINGS, TopologySpec.parse("radix:1"), TopologySpec.parse("direct"), "head:9");
        assertThat(head.start()).contains(new HeadAction.SpawnDaemon(0, "n0"));
        assertThat(head.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"))))
                .contains(new HeadAction.SendToDaemon(0, new OverlayMessage.Adopt(TopologySpec.parse("radix:1"), 4, Map.of(1, "n1", 2, "n2"),
                        TopologySpec.parse("direct"))));
        List<HeadAction> a = head.handle(new HeadEvent.FromDaemon(0, new OverlayMessage.Contacts(
                Map.of(0, "n0:1", 1, "n1:1", 2, "n2:1"))));
        assertThat(a).contains(new HeadAction.SendToDaemon(0, new OverlayMessage.AllContacts(
                Map.of(-1, "head:9", 0, "n0:1", 1, "n1:1", 2, "n2:1"))));
        // Daemon 2 asks daemon 1 before daemon 1's routing link is up: held, then sent on it.
        OverlayMessage.KvsFetch fetch = new OverlayMessage.KvsFetch(1, 2, 1, 0, "k");
        head.handle(new HeadEvent.PeerUp(3));
        assertThat(head.handle(new HeadEvent.FromPeer(3, fetch))).isEmpty();
        assertThat(head.handle(new HeadEvent.PeerUp(2))).containsExactly(new HeadAction.SendToPeer(2, fetch));
        // To daemon 0, a spawn child too: its spawn link.
        OverlayMessage.KvsFetch toZero = new OverlayMessage.KvsFetch(1, 2, 0, 1, "k");
        assertThat(head.handle(new HeadEvent.FromPeer(3, toZero))).containsExactly(new HeadAction.SendToDaemon(0, toZero));
        // A routing link lost and not explained by the spawn tree within the wait ends the job.
        assertThat(head.handle(new HeadEvent.PeerLost(2, "connection closed"))).containsExactly(
                new HeadAction.ArmTimer(HeadTimer.ROUTING_LINK_LOSS, org.banyan.core.daemon.DaemonCore.ROUTING_LOSS_GRACE_MILLIS));
        assertThat(reports(head.handle(new HeadEvent.TimerFired(HeadTimer.ROUTING_LINK_LOSS))))
                .containsExactly("banyan run: lost the daemon on n1: routing link closed: connection closed");
    }

    @Test
    void theHeadServesTheJobsNames() {
        launched();
        assertThat(from(1, new OverlayMessage.NameRequest(1, 1, -1, 7, 0, "svc", "port-1"))).containsExactly(
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(1, -1, 1, 7, 0, true, "")));
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 1, 0, "svc", "port-0"))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 1, 0, false, "name_in_use")));
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 2, 2, "svc", ""))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 2, 2, true, "port-1")));
        assertThat(from(1, new OverlayMessage.NameRequest(1, 1, -1, 8, 1, "svc", ""))).containsExactly(
                new HeadAction.SendToDaemon(1, new OverlayMessage.NameReply(1, -1, 1, 8, 1, true, "")));
        assertThat(from(0, new OverlayMessage.NameRequest(1, 0, -1, 3, 2, "svc", ""))).containsExactly(
                new HeadAction.SendToDaemon(0, new OverlayMessage.NameReply(1, -1, 0, 3, 2, false, "name_not_found")));
    }

    /** Stdin's flow control: the reading rank's progress moves the credit; its end stops the reader. */
    @Test
    void theStdinCreditFollowsTheReadingRank() {
        core.start();
        from(0, new OverlayMessage.DaemonHello(0, "n0", 1, "n0:1"));
        assertThat(from(0, new OverlayMessage.StdinTaken(1, 0, 1 << 20)))
                .containsExactly(new HeadAction.StdinCredit((1 << 20) + StdinWindow.WINDOW));
        assertThat(from(0, new OverlayMessage.StdinTaken(1, 0, 1 << 19))).as("an older count").isEmpty();
        assertThat(from(0, new OverlayMessage.RankExited(1, 0, 0, "", 0, 0)))
                .contains(new HeadAction.StdinCredit(StdinWindow.STOP));
    }
}
