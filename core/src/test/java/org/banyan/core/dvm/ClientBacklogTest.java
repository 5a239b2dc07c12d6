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

    /** A job its user stopped (Ctrl-Z forwarded as SIGSTOP) is not continued by its client catching up. */
    @Test
    void aJobItsUserStoppedStaysStopped() {
        DvmCoreTest.Harness h = new DvmCoreTest.Harness(1);
        Client s = new Client(1, out::add);
        s.jobs.add(9);
        ClientBacklog.jobSignals(s, true, log::add);
        s.paused.remove(9); // what DvmCore does with the client's own SIGSTOP
        assertThat(ClientBacklog.jobSignals(s, false, log::add)).isEmpty();
        assertThat(h.core.handle(new DvmEvent.ClientBacklog(5, true))).as("an unknown client").isEmpty();
        assertThat(h.core.handle(new DvmEvent.ClientSaid(5, new ClientMessage.SignalJob(9, Signals.SIGSTOP))))
                .as("not its job: nothing").isEmpty();
    }
}
