package org.banyan.core.daemon;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.job.Node;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/** The daemon's protocol logic driven without sockets or processes. */
class DaemonCoreTest {
    static final JobDescription TWO_NODES = new JobDescription(1,
            List.of(new AppContext("./app", List.of("arg"), 4, Map.of("X", "1"), "/w")),
            List.of(new Node("n0", 2), new Node("n1", 2)), MappingPolicy.SLOT, false, 0, "/w/launch", Modex.FULL);
    static final JobDescription TWO_NODES_LAZY = new JobDescription(1, TWO_NODES.apps(), TWO_NODES.nodes(),
            MappingPolicy.SLOT, false, 0, "/w/launch", Modex.LAZY);

    DaemonCore core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");

    /** Daemon 1 is a leaf of the radix tree over the head and two daemons. */
    List<DaemonAction> launch() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        return core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
    }

    static List<String> replies(List<DaemonAction> actions, int conn) {
        List<String> out = new ArrayList<>();
        for (DaemonAction a : actions) {
            if (a instanceof DaemonAction.PmiReply(int c, String line) && c == conn) {
                out.add(line);
            }
        }
        return out;
    }

    @Test
    void boundRanksGetTheirHostsCpusAReportAndABindErrorWhenTheHostLacksTheSlot() {
        // this daemon's host: two packages of two cores, no hardware threads
        core.hostTopology(() -> org.banyan.topo.TopologyFormats.synthetic("Package:2 Core:2"));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        JobDescription bySocket = new JobDescription(1, TWO_NODES.apps(), TWO_NODES.nodes(), MappingPolicy.SLOT, false, 0, "/",
                Modex.LAZY, new org.banyan.core.job.RankPlacement(org.banyan.topo.CpuBinding.Target.CORE, true, 1, true, null,
                        null));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(bySocket)));
        List<RankLaunch> starts = a.stream().filter(DaemonAction.StartRank.class::isInstance)
                .map(x -> ((DaemonAction.StartRank) x).launch()).toList();
        assertThat(starts.get(0).cpus()).as("local rank 0 on package 0").containsExactly(0);
        assertThat(starts.get(1).cpus()).as("local rank 1 dealt to package 1").containsExactly(2);
        assertThat(starts.get(1).env()).containsEntry("BANYAN_CPUS", "2");
        assertThat(a).filteredOn(DaemonAction.SendToParent.class::isInstance)
                .map(x -> ((DaemonAction.SendToParent) x).message())
                .filteredOn(OverlayMessage.Output.class::isInstance)
                .map(m -> new String(((OverlayMessage.Output) m).data(), java.nio.charset.StandardCharsets.UTF_8))
                .containsExactly("banyan: rank 2 on n1 bound to cpus 0 (package 0 core 0)\n",
                        "banyan: rank 3 on n1 bound to cpus 2 (package 1 core 0)\n");

        DaemonCore other = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
        other.hostTopology(() -> org.banyan.topo.TopologyFormats.synthetic("Package:1 Core:2"));
        other.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        JobDescription ranked = new JobDescription(2, TWO_NODES.apps(), TWO_NODES.nodes(), MappingPolicy.SLOT, false, 0, "/",
                Modex.LAZY, new org.banyan.core.job.RankPlacement(org.banyan.topo.CpuBinding.Target.CORE, false, 1, false,
                        new int[] {0, 0, 1, 1}, new String[] {"0", "1", "1", "5"}));
        List<RankLaunch> r = other.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(ranked))).stream()
                .filter(DaemonAction.StartRank.class::isInstance).map(x -> ((DaemonAction.StartRank) x).launch()).toList();
        assertThat(r.get(0).cpus()).containsExactly(1);
        assertThat(r.get(0).bindError()).isNull();
        assertThat(r.get(1).bindError()).isEqualTo("cannot bind rank 3 on n1: slot 5: this host has 2 cores");
    }

    @Test
    void startsOnlyItsOwnRanksWithTheirEnvironment() {
        List<DaemonAction> actions = launch();
        List<RankLaunch> starts = actions.stream().filter(DaemonAction.StartRank.class::isInstance)
                .map(a -> ((DaemonAction.StartRank) a).launch()).toList();
        assertThat(starts).extracting(RankLaunch::rank).containsExactly(2, 3);
        RankLaunch r3 = starts.get(1);
        assertThat(r3.executable()).isEqualTo("./app");
        assertThat(r3.args()).containsExactly("arg");
        assertThat(r3.workdir()).isEqualTo("/w");
        assertThat(r3.workdirRequired()).isTrue();
        assertThat(r3.stdinFromHead()).isFalse();
        assertThat(r3.env()).containsEntry("PMI_PORT", "127.0.0.1:5000").containsEntry("PMI_ID", "3")
                .containsEntry("PMI_RANK", "3").containsEntry("PMI_SIZE", "4").containsEntry("MPI_LOCALNRANKS", "2")
                .containsEntry("MPI_LOCALRANKID", "1").containsEntry("OMPI_COMM_WORLD_RANK", "3")
                .containsEntry("OMPI_COMM_WORLD_SIZE", "4").containsEntry("OMPI_COMM_WORLD_LOCAL_RANK", "1")
                .containsEntry("OMPI_COMM_WORLD_NODE_RANK", "1").containsEntry("OMPI_UNIVERSE_SIZE", "4")
                .containsEntry("BANYAN_RANK", "3").containsEntry("BANYAN_SIZE", "4")
                .containsEntry("BANYAN_LOCAL_RANK", "1").containsEntry("BANYAN_NODE_RANK", "1")
                .containsEntry("BANYAN_JOBID", "1").containsEntry("BANYAN_DAEMON_URI", "tcp://127.0.0.1:5000")
                .containsEntry("X", "1");
    }

    @Test
    void initackHandshakeIsByteExact() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=initack pmiid=2"));
        assertThat(replies(a, 7)).containsExactly("cmd=initack\n", "cmd=set size=4\n", "cmd=set rank=2\n",
                "cmd=set debug=0\n");
        a = core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=init pmi_version=1 pmi_subversion=1"));
        assertThat(replies(a, 7)).containsExactly("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=get_maxes")), 7))
                .containsExactly("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=get_appnum")), 7))
                .containsExactly("cmd=appnum appnum=0\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=get_universe_size")), 7))
                .containsExactly("cmd=universe_size size=4\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=get_my_kvsname")), 7))
                .containsExactly("cmd=my_kvsname kvsname=kvs_banyan_1\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7,
                "cmd=get kvsname=kvs_banyan_1 key=PMI_process_mapping")), 7))
                .containsExactly("cmd=get_result rc=0 msg=success value=(vector,(0,2,2))\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 7, "cmd=finalize")), 7))
                .containsExactly("cmd=finalize_ack\n");
    }

    @Test
    void initackForARankOfAnotherHostIsRefused() {
        launch();
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=0")), 1))
                .containsExactly("cmd=initack rc=-1 msg=pmiid_0_is_not_a_rank_of_this_host\n");
    }

    @Test
    void unknownCommandsGetAnErrorReplyNotSilence() {
        launch();
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=frobnicate x=1")), 1))
                .containsExactly("cmd=frobnicate_result rc=-1 msg=unknown_command_frobnicate\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "garbage")), 1))
                .containsExactly("cmd=error rc=-1 msg=no_cmd_in_request\n");
    }

    @Test
    void barrierGathersLocalPutsSendsOneFenceUpAndReleasesEveryRank() {
        launch();
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=2"));
        core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=initack pmiid=3"));
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=put kvsname=k key=P2 value=card2")), 1))
                .containsExactly("cmd=put_result rc=0 msg=success\n");
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"))).isEmpty();
        List<DaemonAction> a = core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=barrier_in"));
        assertThat(a).containsExactly(new DaemonAction.SendToParent(
                new OverlayMessage.FenceEnter(1, 1, 0, Map.of("P2", "card2"))));
        // A key of a rank on another host is unknown until the fence brings it.
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=get kvsname=k key=P0")), 1))
                .containsExactly("cmd=get_result rc=-1 msg=key_P0_not_found value=unknown\n");
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.FenceRelease(1, 0, Map.of("P0", "card0", "P2", "card2"))));
        assertThat(replies(a, 1)).containsExactly("cmd=barrier_out\n");
        assertThat(replies(a, 2)).containsExactly("cmd=barrier_out\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=get kvsname=k key=P0")), 2))
                .containsExactly("cmd=get_result rc=0 msg=success value=card0\n");
        // The next fence starts empty and carries the next sequence number.
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=barrier_in")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 1, 1, Map.of())));
    }

    @Test
    void lazyFencesCarryOnlyWhoHoldsEachKeyAndTheFirstGetFetchesTheValueOnce() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES_LAZY)));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=2"));
        core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=initack pmiid=3"));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=put kvsname=k key=P2 value=card2"));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=barrier_in"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 1, 0, Map.of(), Map.of("P2", 1))));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.FenceRelease(1, 0, Map.of(), Map.of("P0", 0, "P2", 1))));
        assertThat(replies(a, 1)).containsExactly("cmd=barrier_out\n");

        // Daemon 0 holds P0: the first get sends one fetch up (the route to daemon 0 climbs to
        // the head), a second get of the same key waits for the same answer.
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=get kvsname=k key=P0"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.KvsFetch(1, 1, 0, 0, "P0")));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 2, "cmd=get kvsname=k key=P0"))).isEmpty();
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetched(1, 0, 1, 0, "P0", "card0")));
        assertThat(replies(a, 1)).containsExactly("cmd=get_result rc=0 msg=success value=card0\n");
        assertThat(replies(a, 2)).containsExactly("cmd=get_result rc=0 msg=success value=card0\n");
        // Kept: the next get is answered here.
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=get kvsname=k key=P0"))).containsExactly(
                new DaemonAction.PmiReply(1, "cmd=get_result rc=0 msg=success value=card0\n"));
        // A key nobody put is not fetched from anywhere.
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=get kvsname=k key=nope")), 1))
                .containsExactly("cmd=get_result rc=-1 msg=key_nope_not_found value=unknown\n");
        // Another daemon's fetch of a local key is answered along the route back.
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetch(1, 0, 1, 7, "P2"))))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.KvsFetched(1, 1, 0, 7, "P2", "card2")));
    }

    @Test
    void theProcessTableIsWrittenBeforeTheRanksStartAndNamedInTheirEnvironment() {
        DaemonCore withTable = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000",
                () -> new org.banyan.core.wire.DaemonStats(0, 0, 0, 0, 0), "/dev/shm/t");
        withTable.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        List<DaemonAction> a = withTable.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        assertThat(a.getFirst()).isInstanceOf(DaemonAction.WriteProcessTable.class);
        DaemonAction.WriteProcessTable w = (DaemonAction.WriteProcessTable) a.getFirst();
        assertThat(w.path()).isEqualTo("/dev/shm/t");
        assertThat(org.banyan.core.job.ProcessTable.read(w.table(), 0).host()).isEqualTo("n0");
        assertThat(a).filteredOn(DaemonAction.StartRank.class::isInstance).allMatch(s ->
                "/dev/shm/t".equals(((DaemonAction.StartRank) s).launch().env().get("BANYAN_PROCTABLE")));
    }

    static String frame(String body) {
        return String.format("%6d", body.length()) + body;
    }

    /** One rank's PMI-2 session, byte for byte as Slurm's libpmi2 and this server exchanged it. */
    @Test
    void pmi2SessionOfARealClient() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        assertThat(replies(core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=init pmi_version=2 pmi_subversion=0")), 4))
                .containsExactly("cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n");
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=fullinit;srcid=3;threaded=FALSE;")), 4))
                .containsExactly(frame("cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=3;size=4;appnum=0;"
                        + "debugged=FALSE;pmiverbose=FALSE;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=job-getid;")), 4))
                .containsExactly(frame("cmd=job-getid-response;jobid=kvs_banyan_1;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=info-getjobattr;key=PMI_process_mapping;")), 4))
                .containsExactly(frame("cmd=info-getjobattr-response;found=TRUE;value=(vector,(0,2,2));rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=info-getjobattr;key=nope;")), 4))
                .containsExactly(frame("cmd=info-getjobattr-response;found=FALSE;rc=0;"));
        // A node attribute waited for by one rank and put by another of the same host.
        core.handle(new DaemonEvent.PmiLine(1, 5, "cmd=init pmi_version=2 pmi_subversion=0"));
        core.handle(new DaemonEvent.PmiFrame(1, 5, "cmd=fullinit;pmirank=2;threaded=FALSE;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=info-getnodeattr;key=seg;wait=TRUE;"))).isEmpty();
        List<DaemonAction> a = core.handle(new DaemonEvent.PmiFrame(1, 5, "cmd=info-putnodeattr;key=seg;value=shm-2;"));
        assertThat(replies(a, 5)).containsExactly(frame("cmd=info-putnodeattr-response;rc=0;"));
        assertThat(replies(a, 4)).containsExactly(frame("cmd=info-getnodeattr-response;found=TRUE;value=shm-2;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=info-getnodeattr;key=other;wait=FALSE;")), 4))
                .containsExactly(frame("cmd=info-getnodeattr-response;found=FALSE;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-put;key=k3;value=card;;of;;3;")), 4))
                .containsExactly(frame("cmd=kvs-put-response;rc=0;"));
        // kvs-fence: one message up once both local ranks (one speaks PMI-1) are in.
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-fence;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 5, "cmd=kvs-fence;"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 1, 0, Map.of("k3", "card;of;3"))));
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.FenceRelease(1, 0,
                Map.of("k3", "card;of;3", "k0", "card;of;0"))));
        assertThat(replies(a, 4)).containsExactly(frame("cmd=kvs-fence-response;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-get;jobid=kvs_banyan_1;srcid=0;key=k0;")), 4))
                .containsExactly(frame("cmd=kvs-get-response;found=TRUE;value=card;;of;;0;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-get;jobid=kvs_banyan_1;srcid=-1;key=zz;")), 4))
                .containsExactly(frame("cmd=kvs-get-response;found=FALSE;rc=0;"));
        // Names go to the head through the overlay (up, from a leaf) and come back.
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=name-publish;name=svc;port=p0;infokeycount=0;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 0, 0, "svc", "p0")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 0, 0, true, ""))), 4))
                .containsExactly(frame("cmd=name-publish-response;rc=0;"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=name-lookup;name=svc;infokeycount=0;"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 1, 2, true, "p0"))), 4))
                .containsExactly(frame("cmd=name-lookup-response;port=p0;value=p0;rc=0;"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=name-lookup;name=gone;infokeycount=0;"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 2, 2, false, "name_not_found"))), 4))
                .containsExactly(frame("cmd=name-lookup-response;rc=1;errmsg=name_not_found;"));
        // The resource manager's check and join travel as head requests too (Banyan's own commands).
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-resize-check;min=1;max=4;factor=2;preferred=0;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 3,
                        OverlayMessage.NameRequest.RESIZE_CHECK, "1,4,2,0", "")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 3, OverlayMessage.NameRequest.RESIZE_CHECK, true, "shrink,2,1"))), 4))
                .containsExactly(frame("cmd=banyan-resize-check-response;decision=shrink,2,1;rc=0;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join;generation=1;seq=1;rank=0;size=2;card=a=b\n;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 4,
                        OverlayMessage.NameRequest.JOIN, "1,1,0,2", "a=b\n")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 4, OverlayMessage.NameRequest.JOIN, false, "not_in_a_queue"))), 4))
                .containsExactly(frame("cmd=banyan-join-response;rc=1;errmsg=not_in_a_queue;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=frob;")), 4))
                .containsExactly(frame("cmd=frob-response;rc=1;errmsg=unknown_command_frob;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=abort;isworld=TRUE;msg=bad;"))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(1, 3, 1, "bad")));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=finalize;")), 4))
                .containsExactly(frame("cmd=finalize-response;rc=0;"));
    }

    /** A world's join comes to a daemon once, for all its ranks that asked. */
    @Test
    void oneJoinAnswerServesEveryRankOfTheDaemonThatAsked() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        for (int conn = 4; conn <= 5; conn++) {
            core.handle(new DaemonEvent.PmiLine(1, conn, "cmd=init pmi_version=2 pmi_subversion=0"));
            core.handle(new DaemonEvent.PmiFrame(1, conn, "cmd=fullinit;srcid=" + (conn - 2) + ";threaded=FALSE;"));
        }
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join;generation=1;seq=1;rank=2;size=4;card=c;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 0,
                        OverlayMessage.NameRequest.JOIN, "1,1,2,4", "c")));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 5, "cmd=banyan-join;generation=1;seq=1;rank=3;size=4;card=d;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 1,
                        OverlayMessage.NameRequest.JOIN, "1,1,3,4", "d")));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReplies(1, -1, 1, List.of(0, 1),
                OverlayMessage.NameRequest.JOIN, true, "a\fb\fc\fd\f")));
        assertThat(replies(a, 4)).containsExactly(frame("cmd=banyan-join-response;cards=a\fb\fc\fd\f;rc=0;"));
        assertThat(replies(a, 5)).containsExactly(frame("cmd=banyan-join-response;cards=a\fb\fc\fd\f;rc=0;"));
    }

    /** A join's answer longer than a page (a large world's cards) goes in pages the client asks for. */
    @Test
    void aLargeJoinAnswerGoesInPages() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=init pmi_version=2 pmi_subversion=0"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=fullinit;srcid=3;threaded=FALSE;"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join;generation=1;seq=1;rank=0;size=2;card=a;"));
        String cards = "x;".repeat(35_000); // 70,000 characters: three pages
        int page = PmiServer.JOIN_PAGE;
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 0, OverlayMessage.NameRequest.JOIN, true, cards))), 4))
                .containsExactly(frame("cmd=banyan-join-response;cards=" + cards.substring(0, page).replace(";", ";;")
                        + ";pages=3;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join-page;page=1;")), 4))
                .containsExactly(frame("cmd=banyan-join-page-response;cards=" + cards.substring(page, 2 * page)
                        .replace(";", ";;") + ";rc=0;"));
        List<String> last = replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join-page;page=2;")), 4);
        assertThat(last).containsExactly(frame("cmd=banyan-join-page-response;cards=" + cards.substring(2 * page)
                .replace(";", ";;") + ";rc=0;"));
        assertThat(last.getFirst().length()).as("each page fits a frame").isLessThan(6 + 64 * 1024);
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-join-page;page=2;")), 4))
                .as("forgotten after the last page")
                .containsExactly(frame("cmd=banyan-join-page-response;rc=1;errmsg=no_such_page;"));
    }

    /** A threaded client's request ids come back with the answers, which may come out of order. */
    @Test
    void pmi2ThridIsEchoedSoOutOfOrderAnswersCanBeMatched() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES_LAZY)));
        core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=init pmi_version=2 pmi_subversion=0"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=fullinit;pmirank=3;threaded=TRUE;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-get;thrid=t1;srcid=0;key=far;")))
                .noneMatch(a -> a instanceof DaemonAction.PmiReply);
        assertThat(replies(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-put;thrid=t2;key=k;value=v;")), 4))
                .containsExactly(frame("cmd=kvs-put-response;thrid=t2;rc=0;"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.KvsFetched(1, 0, 1, 0, "far", "x"))), 4))
                .containsExactly(frame("cmd=kvs-get-response;thrid=t1;found=TRUE;value=x;rc=0;"));
    }

    /** PMI-2 names the rank that put a key: lazy mode fetches from its daemon, no directory needed. */
    @Test
    void aPmi2GetNamingItsSourceRankIsFetchedFromThatRanksDaemon() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES_LAZY)));
        core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=init pmi_version=2 pmi_subversion=0"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=fullinit;srcid=3;threaded=FALSE;"));
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=kvs-get;jobid=kvs_banyan_1;srcid=1;key=card1;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.KvsFetch(1, 1, 0, 0, "card1")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.KvsFetched(1, 0, 1, 0, "card1", "c;1"))), 4))
                .containsExactly(frame("cmd=kvs-get-response;found=TRUE;value=c;;1;rc=0;"));
    }

    @Test
    void pmi1NamesGoToTheHeadAndAnswerAsMpichsClientExpects() {
        launch();
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=2"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=publish_name service=svc port=tcp://x:1")))
                .containsExactly(new DaemonAction.SendToParent(
                        new OverlayMessage.NameRequest(1, 1, -1, 0, 0, "svc", "tcp://x:1")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 0, 0, true, ""))), 1))
                .containsExactly("cmd=publish_result rc=0 info=ok\n");
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=lookup_name service=svc"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 1, 2, true, "tcp://x:1"))), 1))
                .containsExactly("cmd=lookup_result rc=0 info=ok port=tcp://x:1\n");
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=unpublish_name service=nope"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(
                new OverlayMessage.NameReply(1, -1, 1, 2, 1, false, "name_not_found"))), 1))
                .containsExactly("cmd=unpublish_result rc=-1 info=name_not_found\n");
    }

    @Test
    void aRankThatEndedDoesNotHoldUpTheBarrier() {
        launch();
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=initack pmiid=2"));
        core.handle(new DaemonEvent.PmiLine(1, 1, "cmd=barrier_in"));
        List<DaemonAction> a = core.handle(new DaemonEvent.RankEnded(1, 3, 0, ""));
        assertThat(a).contains(new DaemonAction.SendToParent(new OverlayMessage.FenceEnter(1, 1, 0, Map.of())));
    }

    @Test
    void abortGoesToTheHeadWithRankCodeAndMessage() {
        launch();
        core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=initack pmiid=3"));
        assertThat(core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=abort exitcode=7 message=it broke")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.AbortRequest(1, 3, 7, "it broke")));
    }

    @Test
    void rankEndsAreReportedOnce() {
        launch();
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 3, ""))).as("a failure goes up at once").containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(new OverlayMessage.RankExited(1, 2, 3, "")))));
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 3, ""))).isEmpty();
    }

    @Test
    void terminateSendsSigtermThenSigkillAfterTheGrace() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.TerminateJob(1, 1500)));
        assertThat(a).containsExactly(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM),
                new DaemonAction.SignalRank(1, 3, Signals.SIGTERM),
                new DaemonAction.ArmTimer(DaemonTimer.KILL_GRACE, 1500, 1));
        core.handle(new DaemonEvent.RankEnded(1, 2, 143, ""));
        assertThat(core.handle(new DaemonEvent.TimerFired(DaemonTimer.KILL_GRACE, 1)))
                .containsExactly(new DaemonAction.SignalRank(1, 3, Signals.SIGKILL));
    }

    @Test
    void losingTheParentEndsEveryRankAndThenTheDaemon() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.ParentLost("closed"));
        assertThat(a).contains(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM),
                new DaemonAction.SignalRank(1, 3, Signals.SIGTERM));
        assertThat(a).doesNotContain(new DaemonAction.Exit());
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 143, ""))).isEmpty();
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 3, 143, ""))).containsExactly(new DaemonAction.Exit());
    }

    @Test
    void aSignalToTheDaemonEndsItsRanksWithGraceReportsThemAndThenExits() {
        launch();
        List<DaemonAction> a = core.handle(new DaemonEvent.Signaled(Signals.SIGTERM));
        assertThat(a).contains(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM),
                new DaemonAction.SignalRank(1, 3, Signals.SIGTERM));
        assertThat(a).anyMatch(x -> x instanceof DaemonAction.ArmTimer t && t.timer() == DaemonTimer.KILL_GRACE);
        assertThat(a).doesNotContain(new DaemonAction.Exit());
        // the head passes the same group signal on: the ranks already had theirs
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalRanks(1, Signals.SIGTERM))))
                .noneMatch(DaemonAction.SignalRank.class::isInstance);
        List<DaemonAction> first = core.handle(new DaemonEvent.RankEnded(1, 2, 143, ""));
        assertThat(first).doesNotContain(new DaemonAction.Exit());
        List<DaemonAction> last = core.handle(new DaemonEvent.RankEnded(1, 3, 8, ""));
        assertThat(last).last().isEqualTo(new DaemonAction.Exit());
        List<DaemonAction> both = new ArrayList<>(first);
        both.addAll(last);
        assertThat(both).filteredOn(DaemonAction.SendToParent.class::isInstance) // the parent still hears how they ended
                .extracting(x -> ((DaemonAction.SendToParent) x).message().toString())
                .anyMatch(m -> m.contains("rank=2, status=143")).anyMatch(m -> m.contains("rank=3, status=8"));
    }

    /** Ctrl-C with daemons in the terminal's process group: the ranks end by SIGINT, as when the head passes it on. */
    @Test
    void theRanksGetTheSignalTheDaemonGotAndTheHeadsCopyIsNotSentAgain() {
        launch();
        assertThat(core.handle(new DaemonEvent.Signaled(Signals.SIGINT))).contains(
                new DaemonAction.SignalRank(1, 2, Signals.SIGINT), new DaemonAction.SignalRank(1, 3, Signals.SIGINT));
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalRanks(1, Signals.SIGINT))))
                .noneMatch(DaemonAction.SignalRank.class::isInstance);
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalRanks(1, Signals.SIGUSR1))))
                .contains(new DaemonAction.SignalRank(1, 2, Signals.SIGUSR1));
    }

    /**
     * The other order (CI saw it: {@code timeout(1)} signals the head, then its group): the head's
     * copy comes first and the daemon's own after it is not sent again; the grace still begins.
     * Later than the echo's window, the daemon's own signal is the user's again.
     */
    @Test
    void theHeadsCopyFirstAndTheDaemonsOwnAfterItReachTheRanksOnce() {
        launch();
        List<DaemonAction> passed = core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalRanks(1, Signals.SIGTERM)));
        assertThat(passed).contains(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM), new DaemonAction.SignalRank(1, 3, Signals.SIGTERM))
                .contains(new DaemonAction.ArmTimer(DaemonTimer.SIGNAL_ECHO, LocalJob.SIGNAL_ECHO_MILLIS, 1));
        List<DaemonAction> own = core.handle(new DaemonEvent.Signaled(Signals.SIGTERM));
        assertThat(own).noneMatch(DaemonAction.SignalRank.class::isInstance)
                .anyMatch(x -> x instanceof DaemonAction.ArmTimer t && t.timer() == DaemonTimer.KILL_GRACE);
        assertThat(core.handle(new DaemonEvent.TimerFired(DaemonTimer.KILL_GRACE, 1)))
                .contains(new DaemonAction.SignalRank(1, 2, Signals.SIGKILL));

        core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
        launch();
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalRanks(1, Signals.SIGTERM)));
        core.handle(new DaemonEvent.TimerFired(DaemonTimer.SIGNAL_ECHO, 1));
        assertThat(core.handle(new DaemonEvent.Signaled(Signals.SIGTERM))).contains(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM));
    }

    @Test
    void aSecondSignalToTheDaemonKillsItsRanksAtOnce() {
        launch();
        core.handle(new DaemonEvent.Signaled(Signals.SIGTERM));
        assertThat(core.handle(new DaemonEvent.Signaled(Signals.SIGINT))).containsSubsequence(
                new DaemonAction.SignalRank(1, 2, Signals.SIGKILL), new DaemonAction.SignalRank(1, 3, Signals.SIGKILL),
                new DaemonAction.Exit());
    }

    @Test
    void aSignaledDaemonWithNothingRunningExitsAtOnce() {
        DaemonCore idle = new DaemonCore(0, "n0:7000", "127.0.0.1:1", "tcp://127.0.0.1:1");
        idle.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 1, Map.of())));
        assertThat(idle.handle(new DaemonEvent.Signaled(Signals.SIGHUP))).contains(new DaemonAction.Exit());
    }

    @Test
    void stdinGoesOnlyToTheChosenRank() {
        DaemonCore d0 = new DaemonCore(0, "n0:7000", "127.0.0.1:1", "tcp://127.0.0.1:1");
        d0.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        List<DaemonAction> a = d0.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        assertThat(a).filteredOn(DaemonAction.StartRank.class::isInstance)
                .extracting(x -> ((DaemonAction.StartRank) x).launch().stdinFromHead()).containsExactly(true, false);
        assertThat(d0.handle(new DaemonEvent.FromParent(new OverlayMessage.StdinData(1, 0, new byte[] {1}))))
                .hasSize(1).first().isInstanceOf(DaemonAction.WriteStdin.class);
    }

    @Test
    void shutdownKillsWhatIsLeftAndExits() {
        launch();
        assertThat(core.handle(new DaemonEvent.FromParent(new OverlayMessage.Shutdown()))).containsExactly(
                new DaemonAction.SignalRank(1, 2, Signals.SIGKILL), new DaemonAction.SignalRank(1, 3, Signals.SIGKILL),
                new DaemonAction.Exit());
        assertThat(core.handle(new DaemonEvent.RankEnded(1, 2, 0, ""))).isEmpty();
    }

    static org.banyan.core.pilot.TaskSpec taskSpec(int id, int after) {
        return new org.banyan.core.pilot.TaskSpec(id, "/bin/true", List.of(), Map.of(), "/s/t" + id, "o", "e", null, after);
    }

    static List<Integer> started(List<DaemonAction> actions) {
        return actions.stream().filter(DaemonAction.StartRank.class::isInstance)
                .map(x -> ((DaemonAction.StartRank) x).launch().rank()).toList();
    }

    @Test
    void aTaskQueuedBehindARunningOneStartsWhenItEndsAndASignalledOneNever() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1,
                List.of(taskSpec(1, 0), taskSpec(2, 0), taskSpec(3, 1), taskSpec(4, 2), taskSpec(5, 99)))));
        assertThat(started(a)).as("3 and 4 wait for 1 and 2; 99 is not here, so 5 starts").containsExactly(1, 2, 5);

        a = core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 1, 0, ""));
        assertThat(started(a)).containsExactly(3);
        assertThat(a.indexOf(a.stream().filter(DaemonAction.StartRank.class::isInstance).findFirst().orElseThrow()))
                .as("the next task starts before the end goes up").isZero();

        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalTasks(-1, 1, List.of(4), Signals.SIGTERM)));
        assertThat(a).as("4 never started: its end goes up at once").contains(new DaemonAction.SendToParent(
                new OverlayMessage.RanksExited(List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, 4, 143, "", 0, 0)))));
        assertThat(started(core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 2, 0, "")))).isEmpty();

        core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1, List.of(taskSpec(6, 3)))));
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.SignalTasks(-1, 1, List.of(6, 3), 0)));
        assertThat(a).as("running 3 is left alone").noneMatch(DaemonAction.SignalRank.class::isInstance);
        assertThat(a).as("queued 6 is withdrawn: its end goes up with 2's").containsExactly(new DaemonAction.SendToParent(
                new OverlayMessage.RanksExited(List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, 2, 0, "", 0, 0),
                        new OverlayMessage.RankExited(OverlayMessage.TASKS, 6, 128, "", 0, 0)))));
        assertThat(started(core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 3, 0, "")))).isEmpty();
    }

    @Test
    void whileEveryRunningTaskHasASuccessorQueuedTaskEndsWaitForTheWindow() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        assertThat(started(core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1,
                List.of(taskSpec(1, 0), taskSpec(2, 1), taskSpec(3, 2), taskSpec(4, 3))))))).containsExactly(1);
        List<DaemonAction> a = core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 1, 0, ""));
        assertThat(a).as("the first end opens the window and goes").anyMatch(DaemonAction.SendToParent.class::isInstance);

        assertThat(started(core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 2, 0, "")))).containsExactly(3);
        assertThat(core.handle(new DaemonEvent.Idle())).as("3 runs with 4 behind it: no core waits for the head")
                .noneMatch(DaemonAction.SendToParent.class::isInstance);
        assertThat(core.handle(new DaemonEvent.TimerFired(DaemonTimer.EXIT_BATCH, 0))).contains(new DaemonAction.SendToParent(
                new OverlayMessage.RanksExited(List.of(new OverlayMessage.RankExited(OverlayMessage.TASKS, 2, 0, "", 0, 0)))));

        assertThat(started(core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 3, 0, "")))).containsExactly(4);
        assertThat(core.handle(new DaemonEvent.Idle())).as("4 has nothing behind it: the head must hear now").contains(
                new DaemonAction.SendToParent(new OverlayMessage.RanksExited(List.of(
                        new OverlayMessage.RankExited(OverlayMessage.TASKS, 3, 0, "", 0, 0)))));
    }

    /**
     * A signaled DVM daemon: its running task gets SIGTERM, the one queued behind it never starts
     * and its end goes up (the head is still there to hear it), as does that of a task sent after.
     */
    @Test
    void aSignaledDaemonsQueuedAndLaterTasksNeverStartAndTheirEndsGoUp() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1, List.of(taskSpec(1, 0), taskSpec(2, 1)))));
        List<DaemonAction> a = new ArrayList<>(core.handle(new DaemonEvent.Signaled(Signals.SIGTERM)));
        assertThat(a).contains(new DaemonAction.SignalRank(OverlayMessage.TASKS, 1, Signals.SIGTERM));
        List<DaemonAction> later = core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1,
                List.of(taskSpec(3, 0)))));
        assertThat(started(later)).isEmpty();
        a.addAll(later);
        a.addAll(core.handle(new DaemonEvent.RankEnded(OverlayMessage.TASKS, 1, 143, "")));
        assertThat(a).filteredOn(DaemonAction.SendToParent.class::isInstance)
                .flatExtracting(x -> ((OverlayMessage.RanksExited) ((DaemonAction.SendToParent) x).message()).exits())
                .extracting(OverlayMessage.RankExited::rank, OverlayMessage.RankExited::status)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(1, 143), org.assertj.core.groups.Tuple.tuple(2, 143),
                        org.assertj.core.groups.Tuple.tuple(3, 143));
        assertThat(a).last().isEqualTo(new DaemonAction.Exit());
    }

    /** A job launched onto a daemon in its grace is ended with the rest. */
    @Test
    void aJobLaunchedOntoASignaledDaemonIsEndedWithTheRest() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.RunTasks(-1, 1, List.of(taskSpec(1, 0)))));
        core.handle(new DaemonEvent.Signaled(Signals.SIGTERM));
        List<DaemonAction> a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(TWO_NODES)));
        assertThat(started(a)).containsExactly(2, 3);
        assertThat(a).contains(new DaemonAction.SignalRank(1, 2, Signals.SIGTERM), new DaemonAction.SignalRank(1, 3, Signals.SIGTERM));
    }

    /** What a rank's stdin writer handed it goes up every MiB, and once more when it takes no more. */
    @Test
    void stdinProgressGoesUpEveryMebibyteAndAtTheEnd() {
        launch();
        assertThat(core.handle(new DaemonEvent.StdinWritten(1, 2, 65_536))).isEmpty();
        assertThat(core.handle(new DaemonEvent.StdinWritten(1, 2, 1 << 20)))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.StdinTaken(1, 2, 1 << 20)));
        assertThat(core.handle(new DaemonEvent.StdinWritten(1, 2, (1 << 20) + 65_536))).isEmpty();
        assertThat(core.handle(new DaemonEvent.StdinWritten(1, 2, OverlayMessage.StdinTaken.STDIN_CLOSED))).containsExactly(
                new DaemonAction.SendToParent(new OverlayMessage.StdinTaken(1, 2, OverlayMessage.StdinTaken.STDIN_CLOSED)));
    }

    /** Open MPI's ranks on a host with more ranks than slots are told so, and the others that they are not, as mpirun tells them; a user's value wins. */
    @Test
    void ranksOfAnOversubscribedHostAreToldSo() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        JobDescription packed = new JobDescription(1, List.of(new AppContext("./app", List.of(), 6, Map.of(), null)),
                List.of(new Node("n0", 1), new Node("n1", 1)), MappingPolicy.SLOT, true, 0, "/", Modex.LAZY);
        List<RankLaunch> mine = core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(packed))).stream()
                .filter(DaemonAction.StartRank.class::isInstance).map(x -> ((DaemonAction.StartRank) x).launch()).toList();
        assertThat(mine).isNotEmpty().allSatisfy(l -> assertThat(l.env()).containsEntry("OMPI_MCA_mpi_oversubscribe", "1"));
        DaemonCore fresh = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
        fresh.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        JobDescription roomy = new JobDescription(1, List.of(new AppContext("./app", List.of(), 2, Map.of(), null)),
                List.of(new Node("n0", 1), new Node("n1", 1)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY);
        assertThat(fresh.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(roomy))).stream()
                .filter(DaemonAction.StartRank.class::isInstance).map(x -> ((DaemonAction.StartRank) x).launch().env()))
                .as("0, as mpirun sets it").isNotEmpty().allSatisfy(env -> assertThat(env).containsEntry("OMPI_MCA_mpi_oversubscribe", "0"));
        DaemonCore own = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");
        own.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        JobDescription usersOwn = new JobDescription(1, List.of(new AppContext("./app", List.of(), 6,
                Map.of("OMPI_MCA_mpi_oversubscribe", "0"), null)), List.of(new Node("n0", 1), new Node("n1", 1)),
                MappingPolicy.SLOT, true, 0, "/", Modex.LAZY);
        assertThat(own.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(usersOwn))).stream()
                .filter(DaemonAction.StartRank.class::isInstance).map(x -> ((DaemonAction.StartRank) x).launch().env()))
                .isNotEmpty().allSatisfy(env -> assertThat(env).containsEntry("OMPI_MCA_mpi_oversubscribe", "0"));
    }
}
