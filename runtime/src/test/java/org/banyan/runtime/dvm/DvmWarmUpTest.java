package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.banyan.core.pilot.TaskRequest;
import org.junit.jupiter.api.Test;

class DvmWarmUpTest {
    @Test
    void perHostTasksThatRunInTmpAndWriteNothing() {
        List<TaskRequest> tasks = DvmWarmUp.tasks(3, 4);
        assertThat(tasks).hasSize(12);
        assertThat(tasks).extracting(TaskRequest::uid).doesNotHaveDuplicates();
        assertThat(tasks).allSatisfy(t -> {
            assertThat(t.executable()).isEqualTo("/bin/true");
            assertThat(t.sandbox()).isEqualTo("/tmp");
            assertThat(t.stdout()).isEqualTo("/dev/null");
            assertThat(t.stderr()).isEqualTo("/dev/null");
            assertThat(t.slots().ranks() * t.slots().coresPerRank()).isEqualTo(1);
            assertThat(t.mpi()).isFalse();
        });
    }

    @Test
    void manyHostsShareACapAndNoneMeansNoTask() {
        assertThat(DvmWarmUp.tasks(1_000, DvmWarmUp.DEFAULT_PER_HOST)).hasSize(DvmWarmUp.MAX_TASKS);
        assertThat(DvmWarmUp.tasks(4, 0)).isEmpty();
    }
}
