package org.banyan.core.head;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.wire.DaemonStats;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

class RunEndingTest {
    final List<Object> out = new ArrayList<>();
    Integer status;

    RunEnding ending(boolean reportLaunch) {
        return new RunEnding(out::add, m -> out.add("to all: " + m.getClass().getSimpleName()), s -> status = s,
                () -> status != null, reportLaunch);
    }

    static final DaemonStats S0 = new DaemonStats(1, 3, 4, 100, 110);
    static final DaemonStats S2 = new DaemonStats(1, 5, 6, 120, 130);

    @Test
    void theRunFinishesWithItsLastJobAndNotBefore() {
        RunEnding e = ending(false);
        e.jobEnded(0, true, null, List.of(0, 1));
        assertThat(status).as("a spawned job still runs").isNull();
        e.jobEnded(3, true, 3, List.of(0, 1));
        assertThat(status).isEqualTo(3);
        assertThat(out).isEmpty();
    }

    @Test
    void aLostDaemonWhileGatheringEndsTheWaitForItsSubtree() {
        RunEnding e = ending(true);
        e.jobEnded(0, true, 0, List.of(0, 2));
        assertThat(out).contains("to all: CollectStats", new HeadAction.ArmTimer(HeadTimer.STATS_DEADLINE, HeadSettings.STATS_MILLIS));
        assertThat(status).isNull();
        e.stats(0, Map.of(0, S0));
        assertThat(status).isNull();
        e.daemonLost(2);
        assertThat(out).contains(new HeadAction.LaunchReport(Map.of(0, S0)));
        assertThat(status).isZero();
    }

    @Test
    void theDeadlineReportsWhatCameAndTheFamilysStatus() {
        RunEnding e = ending(true);
        e.jobEnded(0, true, 5, List.of(0, 2));
        e.stats(2, Map.of(2, S2));
        e.deadline();
        assertThat(out).contains(new HeadAction.LaunchReport(Map.of(2, S2)));
        assertThat(status).isEqualTo(5);
    }

    @Test
    void noGatherWhenADaemonWasLostOrARankDidNotReport() {
        RunEnding lost = ending(true);
        lost.jobEnded(1, true, 1, List.of());
        assertThat(status).isEqualTo(1);
        assertThat(out).isEmpty();

        status = null;
        RunEnding unreported = ending(true);
        unreported.jobEnded(0, false, null, List.of(0));
        unreported.jobEnded(0, true, 0, List.of(0));
        assertThat(status).isZero();
        assertThat(out).isEmpty();
    }
}
