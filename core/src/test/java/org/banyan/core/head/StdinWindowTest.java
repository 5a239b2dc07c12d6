package org.banyan.core.head;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StdinWindowTest {
    @Test
    void theSlowestReaderSetsTheLimitAndEndedReadersCountAsCaughtUp() {
        StdinWindow w = new StdinWindow(List.of(0, 1, 2));
        assertThat(w.limit()).isEqualTo(StdinWindow.WINDOW);
        assertThat(w.taken(0, 5_000_000)).as("rank 1 and 2 still at 0").isFalse();
        assertThat(w.taken(1, 3_000_000)).isFalse();
        assertThat(w.taken(2, 1_000_000)).isTrue();
        assertThat(w.limit()).isEqualTo(1_000_000 + StdinWindow.WINDOW);
        assertThat(w.taken(2, 900_000)).as("counts only grow").isFalse();
        assertThat(w.ended(2)).isTrue();
        assertThat(w.limit()).isEqualTo(3_000_000 + StdinWindow.WINDOW);
        assertThat(w.taken(1, -1)).as("closed its stdin").isTrue();
        assertThat(w.taken(7, 100)).as("not a reader").isFalse();
        assertThat(w.ended(0)).isTrue();
        assertThat(w.limit()).as("no rank reads: stop").isEqualTo(StdinWindow.STOP);
    }

    @Test
    void noReaderAtAllStopsAtOnce() {
        assertThat(new StdinWindow(List.of()).limit()).isEqualTo(StdinWindow.STOP);
    }
}
