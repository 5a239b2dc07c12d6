package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RefusalLogTest {
    @Test
    void aFloodGetsItsFirstLinesAndThenACount() {
        List<String> log = new ArrayList<>();
        long[] now = {0};
        RefusalLog r = new RefusalLog(log::add, () -> now[0]);
        for (int i = 0; i < 1000; i++) {
            r.refused("refused " + i);
        }
        assertThat(log).hasSize(RefusalLog.PER_WINDOW).last().isEqualTo("refused 19");
        now[0] += RefusalLog.WINDOW_NANOS;
        r.refused("refused later");
        assertThat(log.subList(RefusalLog.PER_WINDOW, log.size()))
                .containsExactly("980 more refused connection(s) were not logged one by one", "refused later");
    }
}
