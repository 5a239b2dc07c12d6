package org.banyan.core.daemon;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * A daemon inside the tree: the head (vertex 0) and 6 daemons (vertices 1..6) in a radix-2
 * tree. Daemon 0 is vertex 1; its children are vertices 3 and 4, daemons 2 and 3, which are
 * leaves.
 */
class DaemonTreeTest {
    static final List<Node> NODES = List.of(new Node("n0", 1), new Node("n1", 1), new Node("n2", 1),
            new Node("n3", 1), new Node("n4", 1), new Node("n5", 1));
    static final JobDescription JOB = new JobDescription(1,
            List.of(new AppContext("./app", List.of(), 6, Map.of(), null)), NODES, MappingPolicy.SLOT, false, 0, "/w/launch",
            Modex.FULL);
    static final Map<Integer, String> BELOW_DAEMON_0 = Map.of(2, "n2", 3, "n3");

    DaemonCore d0 = new DaemonCore(0, "n0:7000", "127.0.0.1:5000", "tcp://127.0.0.1:5000");

    List<DaemonAction> adopt() {
        return d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, BELOW_DAEMON_0)));
    }

    List<DaemonAction> fromChild(int c, OverlayMessage m) {
        return d0.handle(new DaemonEvent.FromChild(c, m));
    }

    @Test
    void adoptionStartsTheChildrenAndTheirHelloGetsTheirSubtree() {
        assertThat(adopt()).containsExactly(new DaemonAction.SpawnChild(2, "n2"), new DaemonAction.SpawnChild(3, "n3"));
        assertThat(fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"))).containsExactly(
                new DaemonAction.SendToChild(2, new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of())));
    }

    @Test
    void contactsOfTheSubtreeGoUpInOneMessageOnceEveryChildHasSent() {
        adopt();
        assertThat(fromChild(2, new OverlayMessage.Contacts(Map.of(2, "n2:7002")))).isEmpty();
        assertThat(fromChild(3, new OverlayMessage.Contacts(Map.of(3, "n3:7003")))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.Contacts(
                        Map.of(0, "n0:7000", 2, "n2:7002", 3, "n3:7003"))));
        OverlayMessage all = new OverlayMessage.AllContacts(Map.of(0, "a", 1, "b", 2, "c", 3, "d", 4, "e", 5, "f"));
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        assertThat(d0.handle(new DaemonEvent.FromParent(all))).containsExactly(new DaemonAction.SendToChild(2, all));
    }

    @Test
    void theGpusOfTheSubtreesDaemonsGoUpWithTheirContacts() {
        d0.hostGpus(List.of("5", "7"));
        adopt();
        fromChild(2, new OverlayMessage.Contacts(Map.of(2, "n2:7002"), Map.of(2, "0,1,2,3")));
        assertThat(fromChild(3, new OverlayMessage.Contacts(Map.of(3, "n3:7003")))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.Contacts(
                        Map.of(0, "n0:7000", 2, "n2:7002", 3, "n3:7003"), Map.of(0, "5,7", 2, "0,1,2,3"))));
    }

    /** Under a static Slurm step a child may say hello before its parent is adopted. */
    @Test
    void aHelloBeforeAdoptionIsAnsweredOnceAdopted() {
        assertThat(fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"))).isEmpty();
        assertThat(adopt()).contains(new DaemonAction.SendToChild(2, new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of())));
    }

    @Test
    void aLeafSendsItsContactAtOnce() {
        DaemonCore leaf = new DaemonCore(5, "n5:7005", "127.0.0.1:1", "tcp://x");
        assertThat(leaf.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of()))))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.Contacts(Map.of(5, "n5:7005"))));
    }

    @Test
    void theJobGoesToChildrenAlreadyConnectedAndToLaterOnes() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        List<DaemonAction> a = d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        assertThat(a).filteredOn(DaemonAction.StartRank.class::isInstance).hasSize(1);
        assertThat(a).contains(new DaemonAction.SendToChild(2, new OverlayMessage.LaunchJob(JOB)));
        assertThat(fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003")))
                .contains(new DaemonAction.SendToChild(3, new OverlayMessage.LaunchJob(JOB)));
    }

    @Test
    void upwardTrafficOfTheSubtreeIsRelayed() {
        adopt();
        OverlayMessage.RankExited exited = new OverlayMessage.RankExited(1, 3, 1, "");
        assertThat(fromChild(3, exited)).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(exited))));
        OverlayMessage failed = new OverlayMessage.DaemonFailed(7, "n7", "ssh: connect refused");
        assertThat(fromChild(3, failed)).containsExactly(new DaemonAction.SendToParent(failed));
    }

    @Test
    void rankEndsOfTheSubtreeGoUpInBatchesAndAllTogetherWhenTheLastEnds() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        // The subtree of daemon 0 is daemons 0, 2 and 3, one rank each.
        OverlayMessage.RankExited r0 = new OverlayMessage.RankExited(1, 0, 0, "");
        assertThat(d0.handle(new DaemonEvent.RankEnded(1, 0, 0, ""))).as("an end that comes alone goes at once")
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(r0))),
                        new DaemonAction.ArmTimer(DaemonTimer.EXIT_BATCH, ExitBatch.BATCH_MILLIS));
        OverlayMessage.RankExited r2 = new OverlayMessage.RankExited(1, 2, 0, "");
        assertThat(fromChild(2, new OverlayMessage.RanksExited(List.of(r2)))).as("within the window: held").isEmpty();
        assertThat(d0.handle(new DaemonEvent.TimerFired(DaemonTimer.EXIT_BATCH))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(r2))),
                new DaemonAction.ArmTimer(DaemonTimer.EXIT_BATCH, ExitBatch.BATCH_MILLIS));
        OverlayMessage.RankExited r3 = new OverlayMessage.RankExited(1, 3, 0, "");
        assertThat(fromChild(3, new OverlayMessage.RanksExited(List.of(r3)))).as("the subtree's last end goes at once")
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(r3))));
    }

    @Test
    void taskEndsHeldInTheWindowGoWhenTheDaemonIsIdleButRankEndsWaitForTheWindow() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        d0.handle(new DaemonEvent.RankEnded(1, 0, 0, "")); // opens the window
        OverlayMessage.RankExited r2 = new OverlayMessage.RankExited(1, 2, 0, "");
        fromChild(2, new OverlayMessage.RanksExited(List.of(r2)));
        assertThat(d0.handle(new DaemonEvent.Idle())).as("a job's rank end waits for the window").isEmpty();
        OverlayMessage.RankExited task = new OverlayMessage.RankExited(OverlayMessage.TASKS, 42, 0, "");
        assertThat(fromChild(3, new OverlayMessage.RanksExited(List.of(task)))).as("within the window: held").isEmpty();
        assertThat(d0.handle(new DaemonEvent.Idle())).as("a task's end frees a core: it goes when nothing else is queued")
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(r2, task))));
        assertThat(d0.handle(new DaemonEvent.Idle())).isEmpty();
    }

    @Test
    void aFenceSendsOneMessageUpWithTheSubtreesPutsAndOneDownPerChild() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        assertThat(fromChild(2, new OverlayMessage.FenceEnter(1, 2, 0, Map.of("k2", "v2")))).isEmpty();
        assertThat(fromChild(3, new OverlayMessage.FenceEnter(1, 3, 0, Map.of("k3", "v3")))).isEmpty();
        d0.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=0"));
        d0.handle(new DaemonEvent.PmiLine(1, 1, "cmd=put kvsname=k key=k0 value=v0"));
        assertThat(d0.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 0, 0,
                        Map.of("k0", "v0", "k2", "v2", "k3", "v3"))));
        OverlayMessage.FenceRelease release = new OverlayMessage.FenceRelease(1, 0, Map.of("k0", "v0"));
        assertThat(d0.handle(new DaemonEvent.FromParent(release))).containsExactly(
                new DaemonAction.SendToChild(2, release), new DaemonAction.SendToChild(3, release),
                new DaemonAction.PmiReply(1, "cmd=barrier_out\n"));
    }

    /*
     * Spawn tree radix:2 over 7 vertices, routing binomial: routing parents are 1->0, 2->0, 3->1,
     * 4->0, 5->1, 6->2. Daemon 0 (vertex 1) shares its routing parent (the head) and routing child
     * vertex 3 with the spawn tree; its other routing child, vertex 5 (daemon 4), dials it.
     */
    static final OverlayMessage.AllContacts ALL = new OverlayMessage.AllContacts(Map.of(-1, "head:6999",
            0, "n0:7000", 1, "n1:7001", 2, "n2:7002", 3, "n3:7003", 4, "n4:7004", 5, "n5:7005"));

    @Test
    void aDaemonDialsItsRoutingParentWhenNoSpawnLinkJoinsThem() {
        DaemonCore d4 = new DaemonCore(4, "n4:7004", "127.0.0.1:1", "tcp://x");
        d4.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of(), TopologySpec.parse("binomial"))));
        assertThat(d4.handle(new DaemonEvent.FromParent(ALL)))
                .containsExactly(new DaemonAction.ConnectPeer(1, "n0:7000"));
        // Daemon 3 (vertex 4): its routing parent is the head, its spawn parent daemon 0.
        DaemonCore d3 = new DaemonCore(3, "n3:7003", "127.0.0.1:1", "tcp://x");
        d3.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of(), TopologySpec.parse("binomial"))));
        assertThat(d3.handle(new DaemonEvent.FromParent(ALL)))
                .containsExactly(new DaemonAction.ConnectPeer(0, "head:6999"));
        // Same topologies: no link beyond the tree's.
        DaemonCore same = new DaemonCore(4, "n4:7004", "127.0.0.1:1", "tcp://x");
        same.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, Map.of())));
        assertThat(same.handle(new DaemonEvent.FromParent(ALL))).isEmpty();
    }

    @Test
    void routedMessagesFollowTheRoutingTopologyAndWaitForLinksNotYetOpen() {
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, BELOW_DAEMON_0, TopologySpec.parse("binomial"))));
        assertThat(d0.handle(new DaemonEvent.FromParent(ALL))).isEmpty();
        // To daemon 4 (vertex 5), a routing child reached by its own link, not open yet: held.
        OverlayMessage.KvsFetch toD4 = new OverlayMessage.KvsFetch(1, 5, 4, 1, "k");
        assertThat(d0.handle(new DaemonEvent.FromParent(toD4))).isEmpty();
        assertThat(d0.handle(new DaemonEvent.PeerUp(5))).containsExactly(new DaemonAction.SendToPeer(5, toD4));
        // To daemon 2 (vertex 3), routing and spawn child: its spawn link once it said hello.
        OverlayMessage.KvsFetch toD2 = new OverlayMessage.KvsFetch(1, 4, 2, 2, "k");
        assertThat(d0.handle(new DaemonEvent.FromPeer(5, toD2))).isEmpty();
        assertThat(fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002")))
                .contains(new DaemonAction.SendToChild(2, toD2));
        // To daemon 3 (vertex 4): not below daemon 0 in the routing tree, so up to the head,
        // although daemon 3 is its spawn child.
        OverlayMessage.KvsFetch toD3 = new OverlayMessage.KvsFetch(1, 4, 3, 3, "k");
        assertThat(d0.handle(new DaemonEvent.FromPeer(5, toD3))).containsExactly(new DaemonAction.SendToParent(toD3));
    }

    @Test
    void aRoutingLinkLostMidJobIsReportedAsTheDaemonsLossUnlessTheTreeExplainsItFirst() {
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, BELOW_DAEMON_0, TopologySpec.parse("binomial"))));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        d0.handle(new DaemonEvent.PeerUp(5));
        assertThat(d0.handle(new DaemonEvent.PeerLost(5, "connection closed"))).containsExactly(
                new DaemonAction.ArmTimer(DaemonTimer.ROUTING_LINK_LOSS, DaemonCore.ROUTING_LOSS_GRACE_MILLIS));
        assertThat(d0.handle(new DaemonEvent.TimerFired(DaemonTimer.ROUTING_LINK_LOSS))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.DaemonFailed(4, "n4",
                        "routing link closed: connection closed")));
        // The head's teardown (a failure found through the spawn tree) arrives within the wait.
        d0.handle(new DaemonEvent.PeerUp(5));
        d0.handle(new DaemonEvent.PeerLost(5, "connection closed"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.TerminateJob(1, 2000)));
        assertThat(d0.handle(new DaemonEvent.TimerFired(DaemonTimer.ROUTING_LINK_LOSS)))
                .noneMatch(a -> a instanceof DaemonAction.SendToParent);
    }

    @Test
    void stdinIsRoutedTowardsTheDaemonOfItsRank() {
        JobDescription toRank3 = new JobDescription(1, JOB.apps(), NODES, MappingPolicy.SLOT, false, 3, "/w/launch");
        adopt();
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(toRank3)));
        OverlayMessage.StdinData data = new OverlayMessage.StdinData(1, 3, new byte[] {42});
        assertThat(d0.handle(new DaemonEvent.FromParent(data))).containsExactly(new DaemonAction.SendToChild(3, data));
    }

    /** --stdin all: each chunk goes to this daemon's rank and down to both children, held for the one not yet there. */
    @Test
    void stdinForEveryRankIsWrittenHereAndPassedToEveryChild() {
        JobDescription toAll = new JobDescription(1, JOB.apps(), NODES, MappingPolicy.SLOT, false, JobDescription.STDIN_ALL,
                "/w/launch");
        adopt();
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(toAll)));
        OverlayMessage.StdinData data = new OverlayMessage.StdinData(1, JobDescription.STDIN_ALL, new byte[] {42});
        assertThat(d0.handle(new DaemonEvent.FromParent(data))).containsExactly(
                new DaemonAction.WriteStdin(1, 0, data.data()), new DaemonAction.SendToChild(3, data));
        List<DaemonAction> hello = fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        assertThat(hello.getLast()).isEqualTo(new DaemonAction.SendToChild(2, data));
        assertThat(hello).contains(new DaemonAction.SendToChild(2, new OverlayMessage.LaunchJob(toAll)));
    }

    @Test
    void stdinForAChildNotYetConnectedIsHeldUntilItSaysHello() {
        JobDescription toRank3 = new JobDescription(1, JOB.apps(), NODES, MappingPolicy.SLOT, false, 3, "/w/launch");
        adopt();
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(toRank3)));
        OverlayMessage.StdinData a = new OverlayMessage.StdinData(1, 3, new byte[] {1});
        OverlayMessage.StdinData eof = new OverlayMessage.StdinData(1, 3, new byte[0]);
        assertThat(d0.handle(new DaemonEvent.FromParent(a))).isEmpty();
        assertThat(d0.handle(new DaemonEvent.FromParent(eof))).isEmpty();
        List<DaemonAction> hello = fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        assertThat(hello.subList(hello.size() - 2, hello.size()))
                .containsExactly(new DaemonAction.SendToChild(3, a), new DaemonAction.SendToChild(3, eof));
        assertThat(hello.get(1)).isEqualTo(new DaemonAction.SendToChild(3, new OverlayMessage.LaunchJob(toRank3)));
    }

    @Test
    void aLostChildIsReportedUpWithItsHost() {
        adopt();
        assertThat(d0.handle(new DaemonEvent.ChildLost(3, "exit status 255: ssh: connect to host n3 port 22")))
                .containsExactly(new DaemonAction.SendToParent(
                        new OverlayMessage.DaemonFailed(3, "n3", "exit status 255: ssh: connect to host n3 port 22")));
        assertThat(d0.handle(new DaemonEvent.ChildLost(3, "again"))).isEmpty();
    }

    @Test
    void losingTheParentTellsTheChildrenToEndTheirRanks() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        List<DaemonAction> a = d0.handle(new DaemonEvent.ParentLost("closed"));
        assertThat(a).contains(new DaemonAction.SendToChild(2, new OverlayMessage.TerminateJob(1, 2000)),
                new DaemonAction.SignalRank(1, 0, Signals.SIGTERM));
        assertThat(a).noneMatch(DaemonAction.SendToParent.class::isInstance);
    }

    @Test
    void statsAreGatheredUpTheTreeLikeContacts() {
        var mine = new org.banyan.core.wire.DaemonStats(3, 10, 11, 200, 210);
        DaemonCore d = new DaemonCore(0, "n0:7000", "127.0.0.1:1", "tcp://x", () -> mine);
        d.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:2"), 7, BELOW_DAEMON_0)));
        d.handle(new DaemonEvent.FromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002")));
        d.handle(new DaemonEvent.FromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003")));
        assertThat(d.handle(new DaemonEvent.FromParent(new OverlayMessage.CollectStats()))).containsExactly(
                new DaemonAction.SendToChild(2, new OverlayMessage.CollectStats()),
                new DaemonAction.SendToChild(3, new OverlayMessage.CollectStats()));
        var s2 = new org.banyan.core.wire.DaemonStats(1, 1, 1, 1, 1);
        var s3 = new org.banyan.core.wire.DaemonStats(1, 2, 2, 2, 2);
        assertThat(d.handle(new DaemonEvent.FromChild(2, new OverlayMessage.Stats(Map.of(2, s2))))).isEmpty();
        assertThat(d.handle(new DaemonEvent.FromChild(3, new OverlayMessage.Stats(Map.of(3, s3))))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.Stats(Map.of(0, mine, 2, s2, 3, s3))));
    }

    @Test
    void aChildLostDuringAFenceOrAStatsGatherCountsAsDoneAsAtTheHead() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        fromChild(3, new OverlayMessage.DaemonHello(3, "n3", 9, "n3:7003"));
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(JOB)));
        fromChild(2, new OverlayMessage.FenceEnter(1, 2, 0, Map.of("k2", "v2")));
        d0.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=0"));
        assertThat(d0.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"))).isEmpty();
        assertThat(d0.handle(new DaemonEvent.ChildLost(3, "connection closed"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.DaemonFailed(3, "n3", "connection closed")),
                new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 0, 0, Map.of("k2", "v2"))));
        assertThat(d0.handle(new DaemonEvent.FromParent(new OverlayMessage.CollectStats())))
                .containsExactly(new DaemonAction.SendToChild(2, new OverlayMessage.CollectStats()));
        assertThat(d0.handle(new DaemonEvent.ChildLost(2, "gone")))
                .contains(new DaemonAction.SendToParent(new OverlayMessage.Stats(
                        Map.of(0, new org.banyan.core.wire.DaemonStats(0, 0, 0, 0, 0)))));
    }

    @Test
    void shutdownIsFloodedBeforeTheDaemonExits() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        assertThat(d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Shutdown()))).containsExactly(
                new DaemonAction.SendToChild(2, new OverlayMessage.Shutdown()), new DaemonAction.Exit());
    }

    @Test
    void aDaemonToldToLeaveEndsItsSubtreeAndExitsAndPassesOnALeaveForAnother() {
        adopt();
        fromChild(2, new OverlayMessage.DaemonHello(2, "n2", 9, "n2:7002"));
        assertThat(d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Leave(-1, 2))))
                .containsExactly(new DaemonAction.SendToChild(2, new OverlayMessage.Leave(-1, 2)));
        assertThat(d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Leave(-1, 0)))).containsExactly(
                new DaemonAction.SendToChild(2, new OverlayMessage.Shutdown()), new DaemonAction.Exit());
    }
}
