package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SendWindowTest {
    @Test
    void aSmallPilotHoldsTheLeastWindowABigOneTwoTasksPerCore() {
        SendWindow w = new SendWindow();
        assertThat(w.of(2)).isEqualTo(SendWindow.LEAST).isEqualTo(1024);
        assertThat(w.of(4096)).isEqualTo(8192);
        w.size(20);
        assertThat(w.of(4096)).as("the user's size, whatever the cores").isEqualTo(20);
        w.unbounded();
        assertThat(w.of(2)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void tasksGoWhenAThirdOfTheWindowIsFreeAndNeverOverfillIt() {
        SendWindow w = new SendWindow();
        assertThat(w.toSend(2, 0, 10_000)).as("an empty pilot is filled").isEqualTo(1024);
        assertThat(w.toSend(2, 1024, 10_000)).as("full").isZero();
        assertThat(w.toSend(2, 1024 - 340, 10_000)).as("less than a third free").isZero();
        assertThat(w.toSend(2, 1024 - 341, 10_000)).as("a third free: a batch").isEqualTo(341);
        assertThat(w.toSend(2, 1000, 5)).as("all that waits fits").isEqualTo(5);
        assertThat(w.toSend(2, 1020, 5)).isZero();
        assertThat(w.toSend(2, 0, 0)).as("nothing waits").isZero();
    }

    @Test
    void aBatchIsAtMostOneMessagesWorth() {
        SendWindow w = new SendWindow();
        assertThat(w.toSend(100_000, 0, 1_000_000)).isEqualTo(SendWindow.BATCH);
        w.unbounded();
        assertThat(w.toSend(2, 50_000, 1_000_000)).isEqualTo(SendWindow.BATCH);
    }

    @Test
    void aNegativeWindowIsRefused() {
        assertThatThrownBy(() -> new SendWindow().size(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a window of -1 tasks");
    }
}
