package org.banyan.core.wire;

import org.banyan.core.tree.TopologySpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.JobDescription;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Node;
import org.junit.jupiter.api.Test;

class OverlayCodecTest {
    static OverlayMessage roundTrip(OverlayMessage m) {
        byte[] frame = OverlayCodec.encode(m);
        int length = ByteBuffer.wrap(frame).getInt();
        assertThat(length).isEqualTo(frame.length - 4);
        return OverlayCodec.decode(Arrays.copyOfRange(frame, 4, frame.length));
    }

    /** One or more of most kinds of overlay message (those with byte arrays apart), fields of every shape. */
    static List<OverlayMessage> samples() {
        Map<String, String> puts = new LinkedHashMap<>();
        puts.put("P0-businesscard", "description#vm$port#1234$");
        puts.put("ünïcode", "välue");
        JobDescription job = new JobDescription(7,
                List.of(new AppContext("./a", List.of("x", "y z"), 1, Map.of("A", "1"), null),
                        new AppContext("/bin/b", List.of(), 3, Map.of(), "/tmp")),
                List.of(new Node("n1", 2), new Node("n2", 4)), MappingPolicy.NODE, true, -1, "/w/launch");
        List<OverlayMessage> messages = List.of(
                new OverlayMessage.DaemonHello(3, "node3", 123456789012L, "10.0.0.3:4567"),
                new OverlayMessage.Adopt(TopologySpec.parse("radix:4"), 100, Map.of(5, "n5", 21, "n21")),
                new OverlayMessage.Adopt(TopologySpec.parse("radix:4"), 100, Map.of(), TopologySpec.parse("binomial")),
                new OverlayMessage.AllContacts(Map.of(-1, "head:1", 0, "a:2")),
                new OverlayMessage.PeerHello(12),
                new OverlayMessage.NameRequest(1, 3, -1, 9, 0, "svc", "tcp://h:1"),
                new OverlayMessage.NameReply(1, -1, 3, 9, 2, false, "name_not_found"),
                new OverlayMessage.NameReplies(4, -1, 3, List.of(9, 12, 7), 4, true, "a\fbé\f"),
                new OverlayMessage.NameReplies(4, -1, 3, List.of(), 4, false, "not_in_a_queue"),
                new OverlayMessage.KvsFetch(1, 3, -1, 77, "P3-businesscard"),
                new OverlayMessage.KvsFetched(1, -1, 3, 77, "P3-businesscard", "card"),
                new OverlayMessage.KvsFetched(1, 4, 3, 78, "gone", null),
                new OverlayMessage.FenceEnter(1, 2, 9, Map.of(), Map.of("k", 2, "ünï", 0)),
                new OverlayMessage.FenceRelease(1, 9, Map.of(), Map.of("k", 2)),
                new OverlayMessage.LaunchJob(new JobDescription(8, job.apps(), job.nodes(), MappingPolicy.SLOT, false, 0,
                        "/", org.banyan.core.job.Modex.FULL)),
                new OverlayMessage.Contacts(Map.of(1, "a:1", 2, "b:2")),
                new OverlayMessage.Contacts(Map.of(1, "a:1", 2, "b:2"), Map.of(2, "5,7")),
                new OverlayMessage.AllContacts(Map.of()),
                new OverlayMessage.DaemonFailed(7, "n7", "ssh: no route"),
                new OverlayMessage.CollectStats(),
                new OverlayMessage.Stats(Map.of(3, new DaemonStats(3, 1L << 40, 7, 250, 260, 1L << 33, 9))),
                new OverlayMessage.LaunchJob(job),
                new OverlayMessage.LaunchJob(job.withPmix("banyan.2301.af3.1")),
                new OverlayMessage.LaunchJob(job.served(org.banyan.core.job.WireUp.BOTH, "banyan.2301.af3.3")),
                new OverlayMessage.LaunchJob(new JobDescription(2, job.apps(), job.nodes(), MappingPolicy.SLOT, true, -1, "/",
                        org.banyan.core.job.Modex.LAZY, org.banyan.core.job.RankPlacement.NONE, "banyan.2301.af3.2", 1)),
                new OverlayMessage.SpawnRequest(1, 3, -1, 12, job.apps()),
                new OverlayMessage.ForgetJob(7),
                new OverlayMessage.Leave(-1, 4),
                new OverlayMessage.LaunchJob(new JobDescription(9, job.apps(), job.nodes(), MappingPolicy.SLOT, false, 0, "/",
                        org.banyan.core.job.Modex.LAZY, new org.banyan.core.job.RankPlacement(
                                org.banyan.topo.CpuBinding.Target.SOCKET, true, 2, true, null, null).withDisplayMap(true))),
                new OverlayMessage.LaunchJob(new JobDescription(10, job.apps(), job.nodes(), MappingPolicy.SLOT, false, 0, "/",
                        org.banyan.core.job.Modex.FULL, new org.banyan.core.job.RankPlacement(
                                org.banyan.topo.CpuBinding.Target.CORE, false, 1, false, true, null, null,
                                new int[][] {{2, 3}, null, {0}}, true))),
                new OverlayMessage.LaunchJob(new JobDescription(11, job.apps(), job.nodes(), MappingPolicy.NODE_RANKED_BY_SLOT, false, 0,
                        "/", org.banyan.core.job.Modex.LAZY, new org.banyan.core.job.RankPlacement(
                                org.banyan.topo.CpuBinding.Target.CORE, true, 1, false, null, null).withReranked(true))),
                new OverlayMessage.LaunchJob(new JobDescription(9, job.apps(), job.nodes(), MappingPolicy.SLOT, false, 0, "/",
                        org.banyan.core.job.Modex.LAZY, new org.banyan.core.job.RankPlacement(
                                org.banyan.topo.CpuBinding.Target.CORE, false, 1, false, new int[] {1, 0, 1, 1},
                                new String[] {"0", "1:2", "0-1", "ünï"}))),
                new OverlayMessage.RankExited(1, 5, 139, ""),
                new OverlayMessage.RankExited(1, 5, 140, "", 7, 9, false),
                new OverlayMessage.RankExited(1, 5, 127, "./a: not found"),
                new OverlayMessage.SignalRanks(1, 10),
                new OverlayMessage.RunTasks(-1, 3, List.of(
                        new org.banyan.core.pilot.TaskSpec(7, "/bin/true", List.of("a b"), java.util.Map.of("K", "v"), "/s/t7",
                                "t7.out", "t7.err", "t7.in", 0),
                        new org.banyan.core.pilot.TaskSpec(8, "/bin/true", List.of(), java.util.Map.of(), "/s/t8", "o", "e", null, 7))),
                new OverlayMessage.SignalTasks(-1, 3, List.of(7, 8), 15),
                new OverlayMessage.KeepWarm(-1, 2, 5, 4, new org.banyan.core.daemon.WarmProgram(5, "/usr/bin/java",
                        List.of("-cp", "a b.jar", "Main", "ünï"), java.util.Map.of("K", "v", "E", ""), "/w d")),
                new OverlayMessage.KeepWarm(-1, 2, 6, 1, new org.banyan.core.daemon.WarmProgram(6, "java", List.of(),
                        java.util.Map.of(), null)),
                new OverlayMessage.DropWarm(-1, 2, 5),
                new OverlayMessage.TerminateJob(1, 2000),
                new OverlayMessage.KillJob(1),
                new OverlayMessage.AbortRequest(1, 1, 7, "bad things"),
                new OverlayMessage.RankAlone(1, 2, "libmpi.so.40", "it loaded libmpi.so.40, ended"),
                new OverlayMessage.RankUnfinalized(1, 2),
                new OverlayMessage.FenceEnter(1, 2, 9, puts),
                new OverlayMessage.FenceRelease(1, 9, puts),
                new OverlayMessage.Shutdown());
        return messages;
    }

    @Test
    void everyMessageSurvivesARoundTrip() {
        for (OverlayMessage m : samples()) {
            assertThat(roundTrip(m)).isEqualTo(m);
        }
        OverlayMessage.Output out = (OverlayMessage.Output) roundTrip(new OverlayMessage.Output(1, 4, 2, new byte[] {0, 10, -1}));
        assertThat(out.rank()).isEqualTo(4);
        assertThat(out.stream()).isEqualTo(2);
        assertThat(out.data()).containsExactly(0, 10, -1);
        OverlayMessage.OutputBatch batch = (OverlayMessage.OutputBatch) roundTrip(new OverlayMessage.OutputBatch(List.of(
                new OverlayMessage.Output(1, 1, 1, new byte[] {'a'}), new OverlayMessage.Output(1, 7, 2, new byte[] {'b', 'c'}))));
        assertThat(batch.chunks()).extracting(OverlayMessage.Output::rank).containsExactly(1, 7);
        assertThat(batch.chunks().get(1).stream()).isEqualTo(2);
        assertThat(batch.chunks().get(1).data()).containsExactly('b', 'c');
        OverlayMessage.StdinData in = (OverlayMessage.StdinData) roundTrip(new OverlayMessage.StdinData(1, 0, new byte[0]));
        assertThat(in.data()).isEmpty();
        assertThat(roundTrip(new OverlayMessage.StdinTaken(3, 2, 5L << 32))).isEqualTo(new OverlayMessage.StdinTaken(3, 2, 5L << 32));
        assertThat(roundTrip(new OverlayMessage.StdinTaken(3, 2, OverlayMessage.StdinTaken.STDIN_CLOSED)))
                .isEqualTo(new OverlayMessage.StdinTaken(3, 2, -1));
    }

    @Test
    void layoutOfASmallMessageIsAsDocumented() {
        byte[] frame = OverlayCodec.encode(new OverlayMessage.TerminateJob(1, 0x01020304)); // job 1, grace
        assertThat(frame).containsExactly(0, 0, 0, 9, 7, 0, 0, 0, 1, 1, 2, 3, 4);
    }

    @Test
    void truncatedOrUnknownFramesAreRejected() {
        byte[] frame = OverlayCodec.encode(new OverlayMessage.AbortRequest(1, 1, 2, "message"));
        byte[] body = Arrays.copyOfRange(frame, 4, frame.length - 2);
        assertThatThrownBy(() -> OverlayCodec.decode(body)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OverlayCodec.decode(new byte[] {99})).hasMessageContaining("unknown overlay message type 99");
        assertThatThrownBy(() -> OverlayCodec.decode(new byte[] {12, 0})).hasMessageContaining("stray bytes");
    }
}
