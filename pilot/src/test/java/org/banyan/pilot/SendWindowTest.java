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

    /**
     * With other pilots to give tasks to, a pilot holds half a second of its own ends, at least
     * two per core: the first pilot up took a whole window and the others idled.
     */
    @Test
    void aPilotSharingTheTasksHoldsHalfASecondOfItsEnds() {
        SendWindow w = new SendWindow();
        assertThat(w.of(1, 0)).as("nothing ended yet: two per core").isEqualTo(2);
        assertThat(w.of(1, 1.0)).as("one-second tasks on one core").isEqualTo(2);
        assertThat(w.of(2, 1200)).isEqualTo(600);
        assertThat(w.of(2, 50_000)).as("never more than alone").isEqualTo(1024);
        assertThat(w.of(4096, 10)).isEqualTo(8192);
        assertThat(w.toSend(1, 0, 6, 0)).as("the first pilot up takes two of six").isEqualTo(2);
        assertThat(w.toSend(1, 2, 4, 0)).isZero();
        assertThat(w.toSend(1, 1, 4, 0)).as("one ended: one more").isEqualTo(1);
        assertThat(w.toSend(2, 0, 10_000, SendWindow.ALONE)).as("alone, as before").isEqualTo(1024);
        w.size(20);
        assertThat(w.of(1, 0)).as("the user's size wins").isEqualTo(20);
    }
}
