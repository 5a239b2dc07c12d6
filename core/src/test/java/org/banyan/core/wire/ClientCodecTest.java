package org.banyan.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.junit.jupiter.api.Test;

class ClientCodecTest {
    static ClientMessage roundTrip(ClientMessage m) {
        byte[] frame = ClientCodec.encode(m);
        assertThat(frame.length - 4).isEqualTo(java.nio.ByteBuffer.wrap(frame).getInt());
        return ClientCodec.decode(Arrays.copyOfRange(frame, 4, frame.length));
    }

    /** One or more of every kind of client message, with fields of every shape. */
    static List<ClientMessage> samples() {
        return List.of(
                new ClientMessage.Hello("s3cret", "banyan run", "a1b2"),
                new ClientMessage.RunJob(List.of(new AppContext("./a", List.of("x", "y"), 2, Map.of("K", "V"), null),
                        new AppContext("./b", List.of(), 0, Map.of(), "/w")), MappingPolicy.NODE, true, -1, "/home",
                        Modex.FULL, 60_000),
                new ClientMessage.RunJob(List.of(new AppContext("./a", List.of(), 2, Map.of(), null)), MappingPolicy.SLOT, false, 0,
                        "/", Modex.LAZY, 0, new org.banyan.core.job.RankPlacement(org.banyan.topo.CpuBinding.Target.NUMA, true, 3,
                        true, null, null)),
                new ClientMessage.RunJob(List.of(new AppContext("./ompi", List.of(), 4, Map.of(), null)), MappingPolicy.SLOT,
                        false, 0, "/", Modex.LAZY, 0, org.banyan.core.job.RankPlacement.NONE, org.banyan.core.job.WireUp.PMIX),
                new ClientMessage.RunJob(List.of(new AppContext("python3", List.of("-m", "mpi4py"), 3, Map.of(), null)),
                        MappingPolicy.SLOT, false, 0, "/", Modex.LAZY, 0, org.banyan.core.job.RankPlacement.NONE,
                        org.banyan.core.job.WireUp.BOTH),
                new ClientMessage.SignalJob(3, 2),
                new ClientMessage.StatusRequest(),
                new ClientMessage.Stop(), new ClientMessage.OpenDashboard("127.0.0.1", 0),
                new ClientMessage.DashboardAt("127.0.0.1", 8123, ""), new ClientMessage.DashboardAt("", 0, "no"), new ClientMessage.Detach(), new ClientMessage.WatchTasks(List.of(3, 9)),
                new ClientMessage.Refused("wrong secret"),
                new ClientMessage.Closing("it was stopped by banyan dvm stop"),
                new ClientMessage.Challenge("00ff17"),
                new ClientMessage.Welcome(4, 32),
                new ClientMessage.Welcome(4, 32, "9f00"),
                new ClientMessage.JobAccepted(7, 16),
                new ClientMessage.JobRejected("no"),
                new ClientMessage.JobReport(7, "banyan run: rank 1 exited with status 3"),
                new ClientMessage.JobEnded(7, 3),
                new ClientMessage.SubmitTasks(List.of(new org.banyan.core.pilot.TaskRequest("task.1", "sim", List.of("-x"),
                        Map.of("A", "b"), "/s/task.1", "task.1.out", "task.1.err", "in.txt", List.of("pre"), List.of("post"),
                        new org.banyan.core.pilot.SlotRequest(2, 3, 1, "tag", true), 5, true, 1000, true,
                        org.banyan.core.pilot.TaskDependency.parse("afterok:7:9,after:1,afterany:2,afternotok:3")))),
                new ClientMessage.CancelTasks(List.of(1, 2)),
                new ClientMessage.TasksAccepted(List.of(3, 4, 5)),
                new ClientMessage.TaskUpdates(List.of(new ClientMessage.TaskUpdate(3,
                        org.banyan.core.pilot.TaskState.FAILED, 1234567, 2, "oops"))),
                new ClientMessage.Status(42, List.of(new ClientMessage.HostStatus("n1", 8, 2, ClientMessage.HostStatus.State.UP, 4, 1),
                        new ClientMessage.HostStatus("n2", 8, 0, ClientMessage.HostStatus.State.LOST),
                        new ClientMessage.HostStatus("n3", 8, 0, ClientMessage.HostStatus.State.RELEASED)), List.of(new ClientMessage.JobStatus(7, 2, "./a")),
                        List.of(new ClientMessage.QueuedStatus(3, 1, 4, "./cg")), new ClientMessage.TaskCounts(5, 2, 100_000)),
                new ClientMessage.QueueJob(1, 4, 2, 2, 600_000, 3, 30_000, new ClientMessage.RunJob(List.of(new AppContext("./cg",
                        List.of("-n", "9"), 0, Map.of("K", "V"), null)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY, 0)),
                new ClientMessage.QueueJob(1, 4, 2, 2, 600_000, 1, 30_000, new ClientMessage.RunJob(List.of(new AppContext("java",
                        List.of("Main"), 0, Map.of(), null)), MappingPolicy.SLOT, false, 0, "/", Modex.LAZY, 0), true),
                new ClientMessage.JobQueued(5, 2), new ClientMessage.JobQueued(6, -1),
                new ClientMessage.JobOutput(7, 1, 2, new byte[] {'a'}), new ClientMessage.StdinCredit(7, 9L << 33),
                new ClientMessage.Stdin(7, new byte[] {1, 2}));
    }

    @Test
    void everyMessageSurvivesTheWire() {
        List<ClientMessage> messages = samples().stream()
                .filter(m -> !(m instanceof ClientMessage.JobOutput || m instanceof ClientMessage.Stdin)).toList();
        for (ClientMessage m : messages) {
            assertThat(roundTrip(m)).isEqualTo(m);
        }
        ClientMessage.JobOutput o = (ClientMessage.JobOutput) roundTrip(new ClientMessage.JobOutput(7, 1, 2, new byte[] {'a'}));
        assertThat(o.data()).containsExactly('a');
        assertThat(roundTrip(new ClientMessage.StdinCredit(7, 9L << 33))).isEqualTo(new ClientMessage.StdinCredit(7, 9L << 33));
        assertThat(roundTrip(new ClientMessage.StdinCredit(7, -1))).isEqualTo(new ClientMessage.StdinCredit(7, -1));
        ClientMessage.Stdin in = (ClientMessage.Stdin) roundTrip(new ClientMessage.Stdin(7, new byte[0]));
        assertThat(in.data()).isEmpty();
    }

    @Test
    void aHelloCarriesTheProtocolAndOneFromBeforeItReadsAsZero() {
        assertThat(roundTrip(new ClientMessage.Hello("s", "c", "n")))
                .isEqualTo(new ClientMessage.Hello("s", "c", ClientCodec.PROTOCOL, "n"));
        byte[] frame = ClientCodec.encode(new ClientMessage.Hello("s", "c", 7, ""));
        int nonce = 4; // an empty string: its u32 length
        assertThat(ClientCodec.decode(Arrays.copyOfRange(frame, 4, frame.length - nonce)))
                .as("the layout before the client's nonce").isEqualTo(new ClientMessage.Hello("s", "c", 7, ""));
        assertThat(ClientCodec.decode(Arrays.copyOfRange(frame, 4, frame.length - nonce - 4)))
                .as("the layout before the protocol number").isEqualTo(new ClientMessage.Hello("s", "c", 0, ""));
    }

    @Test
    void aWelcomeFromBeforeTheProofReadsAsUnproven() {
        byte[] frame = ClientCodec.encode(new ClientMessage.Welcome(2, 8));
        assertThat(ClientCodec.decode(Arrays.copyOfRange(frame, 4, frame.length - 4)))
                .isEqualTo(new ClientMessage.Welcome(2, 8, ""));
    }

    @Test
    void garbageIsRejectedNotMisread() {
        assertThatThrownBy(() -> ClientCodec.decode(new byte[] {99})).hasMessageContaining("unknown client message type 99");
        byte[] frame = ClientCodec.encode(new ClientMessage.Hello("s", "c", "n"));
        assertThatThrownBy(() -> ClientCodec.decode(Arrays.copyOfRange(frame, 4, frame.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
