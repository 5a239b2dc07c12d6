package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.banyan.core.job.AppContext;
import org.banyan.core.job.MappingPolicy;
import org.banyan.core.job.Modex;
import org.banyan.core.wire.ClientMessage;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * A queued job submitted with {@code --warm} keeps JVMs of its program waiting on the hosts it
 * could grow onto, and they go when it ends: what the DVM's core tells the daemons.
 */
class WarmPoolPolicyTest {
    static ClientMessage.QueueJob job(String executable, int min, int max, int rpn, boolean warm) {
        return new ClientMessage.QueueJob(min, max, 0, 2, 60_000, rpn, 5_000, new ClientMessage.RunJob(
                List.of(new AppContext(executable, List.of("-cp", "app.jar", "Main"), 0, Map.of("K", "v"), null)),
                MappingPolicy.SLOT, false, 0, "/work", Modex.LAZY, 0), warm);
    }

    static List<OverlayMessage.KeepWarm> kept(DvmCoreTest.Harness h) {
        return h.log.stream().filter(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.KeepWarm k))
                .map(a -> (OverlayMessage.KeepWarm) ((DvmAction.ToDaemon) a).message()).toList();
    }

    static List<OverlayMessage.DropWarm> dropped(DvmCoreTest.Harness h) {
        return h.log.stream().filter(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.DropWarm k))
                .map(a -> (OverlayMessage.DropWarm) ((DvmAction.ToDaemon) a).message()).toList();
    }

    @Test
    void theHostsAWarmJobsShrinkLeavesKeepItsJvmsWaitingUntilItEnds() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2, 2, 2, 2);
        int dvmJob = shrunk(h, "/usr/lib/jvm/bin/java", true);
        List<OverlayMessage.KeepWarm> kept = kept(h);
        assertThat(kept).extracting(OverlayMessage.KeepWarm::to).as("the hosts it left").containsExactlyInAnyOrder(2, 3);
        assertThat(kept).extracting(OverlayMessage.KeepWarm::count).as("as many as it ran on each").containsOnly(2);
        OverlayMessage.KeepWarm k = kept.getFirst();
        assertThat(k.program().executable()).isEqualTo("/usr/lib/jvm/bin/java");
        assertThat(k.program().args()).containsExactly("-cp", "app.jar", "Main");
        assertThat(k.program().env()).as("the job's variables, not a generation's").isEqualTo(Map.of("K", "v"));
        assertThat(k.program().workdir()).isEqualTo("/work");
        assertThat(launched(h, "sleep")).as("the queued job runs there beside them").hasSize(1);
        assertThat(dropped(h)).isEmpty();
        for (int rank = 0; rank < 4; rank++) { // the job ends
            h.ended(rank / 2, List.of(new OverlayMessage.RankExited(dvmJob, rank, 0, "")));
        }
        assertThat(dropped(h)).extracting(OverlayMessage.DropWarm::to).containsExactlyInAnyOrder(2, 3);
        assertThat(dropped(h)).extracting(OverlayMessage.DropWarm::pool).containsOnly(k.pool());
    }

    @Test
    void theHostsAnAbandonedExpansionGivesBackKeepItsJvmsWaitingAgain() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2, 2, 2, 2);
        int dvmJob = shrunk(h, "java", true);
        int sleeper = launched(h, "sleep").getFirst();
        h.ended(2, List.of(new OverlayMessage.RankExited(sleeper, 0, 0, ""))); // the job it shrank for ends
        h.ended(3, List.of(new OverlayMessage.RankExited(sleeper, 1, 0, "")));
        h.handle(new DvmEvent.Head(new org.banyan.core.head.HeadEvent.FromDaemon(0, new OverlayMessage.NameRequest(dvmJob, 0,
                org.banyan.core.tree.Topology.daemonOfVertex(0), 2, OverlayMessage.NameRequest.RESIZE_CHECK, "1,4,2,0", null))));
        assertThat(launched(h, "java")).as("the expansion, onto the hosts its JVMs wait on").hasSize(2);
        assertThat(kept(h)).hasSize(2);
        DvmEvent timeout = h.timers.stream().filter(DvmEvent.ResizeTimeout.class::isInstance).findFirst().orElseThrow();
        h.handle(timeout); // its new ranks (the waiting JVMs they took) did not join in time

        List<OverlayMessage.KeepWarm> kept = kept(h);
        assertThat(kept).as("the hosts it gave back, told again after its ranks there were ended").hasSize(4);
        assertThat(kept.subList(2, 4)).extracting(OverlayMessage.KeepWarm::to).containsExactlyInAnyOrder(2, 3);
        assertThat(kept.subList(2, 4)).extracting(OverlayMessage.KeepWarm::count).containsOnly(2);
        int abandoned = h.log.indexOf(h.log.stream().filter(a -> a instanceof DvmAction.Log(String line)
                && line.contains("was abandoned")).findFirst().orElseThrow());
        assertThat(h.log.subList(abandoned, h.log.size())).as("told after the expansion was given up")
                .filteredOn(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.KeepWarm k)).hasSize(2);
    }

    @Test
    void anOversubscribedJobKeepsNoMoreWaitingOnAHostThanItsSlots() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2, 2, 2, 2);
        ClientMessage.RunJob r = job("java", 1, 4, 4, true).run();
        ClientMessage.RunJob over = new ClientMessage.RunJob(r.apps(), r.mapping(), true, r.stdinRank(), r.launchDir(),
                r.modex(), r.timeoutMillis(), r.placement(), r.wireUp());
        shrunk(h, new ClientMessage.QueueJob(1, 4, 0, 2, 60_000, 4, 5_000, over, true), 4);
        assertThat(kept(h)).extracting(OverlayMessage.KeepWarm::to).containsExactlyInAnyOrder(2, 3);
        assertThat(kept(h)).extracting(OverlayMessage.KeepWarm::count).as("four ranks a host, two slots").containsOnly(2);
        assertThat(h.log).contains(new DvmAction.Log("job 1: 2 JVM(s) kept waiting on host(s) [n2, n3] for its expansions"));
    }

    @Test
    void aJobThatDidNotAskIsNoJvmOrIsBoundKeepsNone() {
        DvmCoreTest.Harness asked = new DvmCoreTest.Harness(2, 2, 2, 2);
        shrunk(asked, "java", false);
        assertThat(kept(asked)).isEmpty();
        DvmCoreTest.Harness notJava = new DvmCoreTest.Harness(2, 2, 2, 2);
        shrunk(notJava, "/usr/bin/python3", true);
        assertThat(kept(notJava)).isEmpty();
        assertThat(notJava.log).contains(new DvmAction.Log("job 1: no warm pool: /usr/bin/python3 does not start a JVM"));
        DvmCoreTest.Harness bound = new DvmCoreTest.Harness(2, 2, 2, 2);
        ClientMessage.QueueJob j = job("java", 1, 4, 2, true);
        ClientMessage.RunJob r = j.run();
        bound.say(1, new ClientMessage.QueueJob(1, 4, 0, 2, 60_000, 2, 5_000, new ClientMessage.RunJob(r.apps(), r.mapping(),
                r.oversubscribe(), r.stdinRank(), r.launchDir(), r.modex(), r.timeoutMillis(), new org.banyan.core.job.RankPlacement(
                org.banyan.topo.CpuBinding.Target.CORE, false, 1, false, null, null), r.wireUp()), true));
        assertThat(bound.log).contains(new DvmAction.Log("job 1: no warm pool: its ranks are bound to CPUs"));
    }

    /**
     * A 1:4 job of {@code executable} on the harness's four hosts, two ranks each, shrunk to two
     * hosts for a rigid job queued behind it; its DVM job.
     */
    static int shrunk(DvmCoreTest.Harness h, String executable, boolean warm) {
        return shrunk(h, job(executable, 1, 4, 2, warm), 2);
    }

    /** As above, for a job of {@code rpn} ranks a host. */
    static int shrunk(DvmCoreTest.Harness h, ClientMessage.QueueJob job, int rpn) {
        h.say(1, job);
        assertThat(kept(h)).as("at its maximum: nowhere to grow").isEmpty();
        int dvmJob = launched(h, job.run().apps().getFirst().executable()).getFirst();
        h.say(2, job("/bin/sleep", 2, 2, 1, false)); // waits for two hosts
        // rank 0 checks with the resource manager: shrink to 2 hosts for the queued job
        h.handle(new DvmEvent.Head(new org.banyan.core.head.HeadEvent.FromDaemon(0, new OverlayMessage.NameRequest(dvmJob, 0,
                org.banyan.core.tree.Topology.daemonOfVertex(0), 1, OverlayMessage.NameRequest.RESIZE_CHECK, "1,4,2,0", null))));
        assertThat(h.log).filteredOn(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.NameReply r)
                && r.portOrReason().startsWith("shrink")).hasSize(1);
        for (int rank = 2 * rpn; rank < 4 * rpn; rank++) { // the leaving ranks, on the last two hosts, end
            h.ended(rank / rpn, List.of(new OverlayMessage.RankExited(dvmJob, rank, 0, "")));
        }
        return dvmJob;
    }

    /** The DVM jobs launched of a program whose name ends with {@code name}. */
    static List<Integer> launched(DvmCoreTest.Harness h, String name) {
        return h.log.stream().filter(a -> a instanceof DvmAction.ToDaemon(int d, OverlayMessage.LaunchJob l)
                        && l.job().apps().getFirst().executable().endsWith(name))
                .map(a -> ((OverlayMessage.LaunchJob) ((DvmAction.ToDaemon) a).message()).job().jobId()).distinct().toList();
    }

}
