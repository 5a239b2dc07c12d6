package org.banyan.core.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadEvent;
import org.junit.jupiter.api.Test;

class PausedJobsTest {
    final PausedJobs paused = new PausedJobs();
    final List<HeadEvent> events = new ArrayList<>();

    @Test
    void onlyJobsStoppedHereAreContinuedOnce() {
        assertThat(paused.stop(3, events)).isTrue();
        assertThat(paused.stop(3, events)).as("stopped already").isFalse();
        paused.stop(4, events);
        paused.forget(4); // the user's own SIGCONT
        paused.resume(4, events);
        paused.resume(3, events);
        paused.resume(3, events);
        assertThat(events).containsExactly(new HeadEvent.SignalJob(3, Signals.SIGSTOP), new HeadEvent.SignalJob(4, Signals.SIGSTOP),
                new HeadEvent.SignalJob(3, Signals.SIGCONT));
    }

    @Test
    void anEndedStoppedJobIsContinuedAfterItsEndAndOnlyJobsStillRunningAreResumed() {
        paused.stop(5, events);
        paused.stop(6, events);
        paused.stop(7, events);
        events.clear();
        paused.end(5, new HeadEvent.CancelJob(5, "why"), events);
        paused.end(8, new HeadEvent.CancelJob(8, "not stopped"), events);
        assertThat(events).containsExactly(new HeadEvent.CancelJob(5, "why"), new HeadEvent.SignalJob(5, Signals.SIGCONT),
                new HeadEvent.CancelJob(8, "not stopped"));
        events.clear();
        paused.resumeAll(job -> job == 7, events);
        assertThat(events).containsExactly(new HeadEvent.SignalJob(7, Signals.SIGCONT));
        assertThat(paused.jobs()).isEmpty();
    }
}
