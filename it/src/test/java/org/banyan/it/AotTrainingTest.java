package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The build's AOT training run goes through a job and a DVM's client side, and leaves nothing behind. */
class AotTrainingTest {
    @Test
    void theTrainingRunsAJobAndADvmAndLeavesNoProcessOrFile() throws Exception {
        Banyan.Result r = Banyan.run(Map.of("BANYAN_AOT_TRAINING", "1"), null, List.of("aot-training"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stderr()).doesNotContain("the DVM part failed").contains("300 tasks: 300 done, 0 failed")
                .contains("1 task: 1 done");
        assertThat(r.stdout()).contains("banyan dvm: ready").contains("banyan dvm: stopped");
        assertThat(r.stdout().lines().filter(l -> l.endsWith("ok"))).as("the job's two ranks").hasSize(2);
        Banyan.assertNoProcessesWith("banyan-aot-training");
        try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(tmp.filter(p -> p.getFileName().toString().startsWith("banyan-aot-training"))).isEmpty();
        }
    }

    @Test
    void withoutTheTrainingsVariableItIsAnUnknownCommand() throws Exception {
        Banyan.Result r = Banyan.run("aot-training");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr()).contains("unknown command 'aot-training'");
    }
}
