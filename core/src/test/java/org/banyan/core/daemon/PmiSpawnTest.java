package org.banyan.core.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.banyan.core.daemon.DaemonCoreTest.frame;
import static org.banyan.core.daemon.DaemonCoreTest.replies;

import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.pmi.PmiV2Codec;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/** banyan-spawn and waiting lookups over PMI-2 (what banyan-comm's spawn is built on), without sockets. */
class PmiSpawnTest {
    final DaemonCore core = new DaemonCore(1, "n1:7001", "127.0.0.1:5000", "tcp://127.0.0.1:5000");

    void started() {
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.Adopt(TopologySpec.parse("radix:32"), 3, Map.of())));
        core.handle(new DaemonEvent.FromParent(new OverlayMessage.LaunchJob(DaemonCoreTest.TWO_NODES)));
        core.handle(new DaemonEvent.PmiLine(1, 4, "cmd=init pmi_version=2 pmi_subversion=0"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=fullinit;pmirank=2;threaded=TRUE;"));
    }

    @Test
    void aSpawnGoesToTheHeadAndItsAnswerNamesTheNewJob() {
        started();
        List<DaemonAction> a = core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-spawn;thrid=7;executable=java;count=3;"
                + "argc=2;arg0=-cp;arg1=a;;b;envc=1;env0=BANYAN_COMM_PARENT=svc=1;"));
        assertThat(a).containsExactly(new DaemonAction.SendToParent(new OverlayMessage.SpawnRequest(1, 1, -1, -1,
                List.of(new AppContext("java", List.of("-cp", "a;b"), 3, Map.of("BANYAN_COMM_PARENT", "svc=1"), null)))));
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, -1,
                OverlayMessage.NameRequest.SPAWN, true, "2 banyan-2")));
        assertThat(replies(a, 4)).containsExactly(frame("cmd=banyan-spawn-response;thrid=7;jobid=2;rc=0;"));
        // the next one has its own request id, and a refusal says why
        a = core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-spawn;executable=x;count=9;"));
        assertThat(a).containsExactly(new DaemonAction.SendToParent(new OverlayMessage.SpawnRequest(1, 1, -1, -2,
                List.of(new AppContext("x", List.of(), 9, Map.of(), null)))));
        a = core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, -2,
                OverlayMessage.NameRequest.SPAWN, false, "only 2 of the run's 4 slots are free; add --oversubscribe")));
        assertThat(replies(a, 4)).containsExactly(frame(
                "cmd=banyan-spawn-response;rc=1;errmsg=only 2 of the run's 4 slots are free;; add --oversubscribe;"));
        // MPI_Info's host and wdir go with the request
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-spawn;executable=x;count=1;wdir=/d;hosts=n1;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.SpawnRequest(1, 1, -1, -3,
                        List.of(new AppContext("x", List.of(), 1, Map.of(), "/d")), List.of("n1"))));
    }

    @Test
    void aMalformedSpawnIsRefusedAtOnceAndNothingLeavesTheDaemon() {
        started();
        for (String bad : List.of("count=2;", "executable=x;", "executable=x;count=0;", "executable=x;count=1;argc=2;arg0=a;",
                "executable=x;count=1;argc=-1;", "executable=x;count=1;argc=99999;", "executable=x;count=1;envc=1;env0=NOEQUALS;")) {
            List<DaemonAction> a = core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=banyan-spawn;" + bad));
            assertThat(a).as(bad).noneMatch(DaemonAction.SendToParent.class::isInstance);
            assertThat(replies(a, 4)).as(bad).singleElement().satisfies(r -> assertThat(r).contains("rc=1;errmsg="));
        }
    }

    @Test
    void theRequestsWordsSayWhatIsWrong() {
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;count=2;")))
                .hasMessage("the spawn request names no program");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;executable=x;count=0;")))
                .hasMessage("the spawn request asks for 0 processes (at least 1)");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;executable=x;count=1;argc=2;arg0=a;")))
                .hasMessage("argc=2 but no arg1");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;executable=x;count=1;envc=1;env0==v;")))
                .hasMessage("env0 is not NAME=VALUE");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;executable=x;count=1;envc=4097;")))
                .hasMessage("envc must be 0 to 4096: 4097");
    }

    @Test
    void severalApplicationsADirectoryAndHostsMakeOneRequest() {
        PmiSpawnRequest r = PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;appc=2;app0.executable=a;app0.count=1;"
                + "app0.wdir=/w;app1.executable=b;app1.count=2;app1.argc=1;app1.arg0=x;app1.envc=1;app1.env0=K=V;hosts=n1,n0,n1;"));
        assertThat(r.apps()).containsExactly(new AppContext("a", List.of(), 1, Map.of(), "/w"),
                new AppContext("b", List.of("x"), 2, Map.of("K", "V"), null));
        assertThat(r.hosts()).containsExactly("n1", "n0");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;appc=2;app0.executable=a;app0.count=1;")))
                .hasMessage("the spawn request names no program for app1.executable");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse("cmd=banyan-spawn;appc=0;")))
                .hasMessage("the spawn request names no program (appc=0)");
        assertThatThrownBy(() -> PmiSpawnRequest.parse(PmiV2Codec.parse(
                "cmd=banyan-spawn;appc=1;app0.executable=a;app0.count=0;"))).hasMessage("the spawn request asks for 0 processes (at least 1) of a");
    }

    @Test
    void aLookupThatWaitsCarriesItsSecondsAndIsAnsweredAsALookup() {
        started();
        assertThat(core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=name-lookup;name=svc;wait=5;")))
                .containsExactly(new DaemonAction.SendToParent(new OverlayMessage.NameRequest(1, 1, -1, 0,
                        OverlayMessage.NameRequest.LOOKUP_WAIT, "svc", "5")));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 0,
                OverlayMessage.NameRequest.LOOKUP_WAIT, true, "p0"))), 4))
                .containsExactly(frame("cmd=name-lookup-response;port=p0;value=p0;rc=0;"));
        core.handle(new DaemonEvent.PmiFrame(1, 4, "cmd=name-lookup;name=late;wait=1;"));
        assertThat(replies(core.handle(new DaemonEvent.FromParent(new OverlayMessage.NameReply(1, -1, 1, 1,
                OverlayMessage.NameRequest.LOOKUP_WAIT, false, "timeout"))), 4))
                .containsExactly(frame("cmd=name-lookup-response;rc=1;errmsg=timeout;"));
    }
}
