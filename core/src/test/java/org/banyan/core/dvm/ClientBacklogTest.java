package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadEvent;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;

/** A client that stops reading: its jobs stop until it has caught up, and only those are continued. */
class ClientBacklogTest {
    final List<DvmAction> out = new ArrayList<>();
    final List<String> log = new ArrayList<>();
    final Client c = new Client(7, out::add);

    @Test
    void itsJobsStopWhileItIsBehindAndGoOnOnceItCaughtUp() {
        c.jobs.addAll(List.of(3, 4));
        assertThat(ClientBacklog.jobSignals(c, true, log::add)).containsExactlyInAnyOrder(
                new HeadEvent.SignalJob(3, Signals.SIGSTOP), new HeadEvent.SignalJob(4, Signals.SIGSTOP));
        assertThat(ClientBacklog.jobSignals(c, true, log::add)).as("stopped already").isEmpty();
        c.jobs.remove(4); // ended meanwhile
        assertThat(ClientBacklog.jobSignals(c, false, log::add)).containsExactly(new HeadEvent.SignalJob(3, Signals.SIGCONT));
        assertThat(ClientBacklog.jobSignals(c, false, log::add)).isEmpty();
        ClientBacklog.jobSignals(c, true, log::add);
        assertThat(log).as("said once, not at every pause of a slow reader").hasSize(1)
                .allMatch(l -> l.startsWith("client 7 reads slower than its jobs write"));
    }

    /**
     * A job stopped for its client still ends as users end it: Ctrl-C (SIGINT) is followed by
     * SIGCONT, and a client that goes away has its stopped jobs continued after their end's
     * SIGTERM, so that the ranks handle it in their grace (stopped, they only saw the SIGKILL
     * after it, or nothing until the client caught up).
     */
    @Test
    void aStoppedJobStillSeesItsEndingSignal() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2);
        h.say(1, new ClientMessage.RunJob(List.of(new org.banyan.core.job.AppContext("./app", List.of(), 1, java.util.Map.of(),
                null)), org.banyan.core.job.MappingPolicy.SLOT, false, 0, "/", org.banyan.core.job.Modex.LAZY, 0));
        int job = h.inbox.get(1).stream().filter(ClientMessage.JobAccepted.class::isInstance)
                .mapToInt(m -> ((ClientMessage.JobAccepted) m).jobId()).findFirst().orElseThrow();
        h.handle(new DvmEvent.ClientBacklog(1, true));
        assertThat(signalsTo(h, job)).containsExactly(Signals.SIGSTOP);
        h.log.clear();
        h.say(1, new ClientMessage.SignalJob(job, Signals.SIGINT));
        assertThat(signalsTo(h, job)).containsExactly(Signals.SIGINT, Signals.SIGCONT);

        h.handle(new DvmEvent.ClientBacklog(1, false));
        h.handle(new DvmEvent.ClientBacklog(1, true));
        h.log.clear();
        h.handle(new DvmEvent.ClientGone(1));
        List<String> toDaemons = h.log.stream().filter(DvmAction.ToDaemon.class::isInstance)
                .map(a -> ((DvmAction.ToDaemon) a).message().getClass().getSimpleName()
                        + (((DvmAction.ToDaemon) a).message() instanceof org.banyan.core.wire.OverlayMessage.SignalRanks r ? r.signal() : ""))
                .toList();
        assertThat(toDaemons).as("the end first, then SIGCONT").containsSubsequence("TerminateJob", "SignalRanks" + Signals.SIGCONT);
    }

    /**
     * A client that asks (past its command's own check) for more ranks than a job may have, their
     * counts overflowing an int, is refused with the reason, and the DVM goes on serving it.
     */
    @Test
    void aJobOfMoreRanksThanAJobMayHaveIsRejectedAndTheDvmGoesOn() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(2);
        org.banyan.core.job.AppContext huge = new org.banyan.core.job.AppContext("./app", List.of(), Integer.MAX_VALUE,
                java.util.Map.of(), null);
        h.say(1, new ClientMessage.RunJob(List.of(huge, huge), org.banyan.core.job.MappingPolicy.SLOT, true, 0, "/",
                org.banyan.core.job.Modex.LAZY, 0));
        assertThat(h.inbox.get(1)).contains(new ClientMessage.JobRejected(
                "a job of 4294967294 ranks is more than Banyan runs as one job (at most 16777216)"));
        h.say(1, new ClientMessage.RunJob(List.of(new org.banyan.core.job.AppContext("./app", List.of(), 1, java.util.Map.of(),
                null)), org.banyan.core.job.MappingPolicy.SLOT, false, 0, "/", org.banyan.core.job.Modex.LAZY, 0));
        assertThat(h.inbox.get(1)).anyMatch(ClientMessage.JobAccepted.class::isInstance);
    }

    /** The signals the head sent job {@code job}'s ranks, in order, from the harness's log. */
    private static List<Integer> signalsTo(DvmCoreTest.Harness h, int job) {
        return h.log.stream().filter(a -> a instanceof DvmAction.ToDaemon(int d, org.banyan.core.wire.OverlayMessage.SignalRanks r)
                && r.jobId() == job).map(a -> ((org.banyan.core.wire.OverlayMessage.SignalRanks) ((DvmAction.ToDaemon) a).message())
                .signal()).distinct().toList();
    }

    /** A job its user stopped (Ctrl-Z forwarded as SIGSTOP) is not continued by its client catching up. */
    @Test
    void aJobItsUserStoppedStaysStopped() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(1);
        Client s = new Client(1, out::add);
        s.jobs.add(9);
        ClientBacklog.jobSignals(s, true, log::add);
        s.paused.forget(9); // what DvmCore does with the client's own SIGSTOP
        assertThat(ClientBacklog.jobSignals(s, false, log::add)).isEmpty();
        assertThat(h.core.handle(new DvmEvent.ClientBacklog(5, true))).as("an unknown client").isEmpty();
        assertThat(h.core.handle(new DvmEvent.ClientSaid(5, new ClientMessage.SignalJob(9, Signals.SIGSTOP))))
                .as("not its job: nothing").isEmpty();
    }
}
