package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One DVM per URI file: starts at the same moment take turns, and all but one are refused. */
class DvmStartRaceTest {
    @TempDir
    Path dir;

    @Test
    void fourStartsAtOnceMakeOneDvm() throws Exception {
        Path uri = dir.resolve("race.uri");
        List<Process> starts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starts.add(Banyan.builder(List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2"))
                    .redirectErrorStream(true).start());
        }
        List<Integer> codes = new ArrayList<>();
        List<String> said = new ArrayList<>();
        for (Process p : starts) {
            said.add(new String(p.getInputStream().readAllBytes()));
            codes.add(p.waitFor());
        }
        try {
            assertThat(codes).as("%s", said).containsOnlyOnce(0).filteredOn(c -> c != 0).containsOnly(2);
            assertThat(said).filteredOn(s -> !s.contains("banyan dvm: ready")).hasSize(3)
                    .allMatch(s -> s.contains("a DVM is running already with " + uri));
            assertThat(Banyan.processesWith("dvm serve")).filteredOn(l -> l.contains(uri.toString())).hasSize(1);
        } finally {
            Banyan.Result stop = Banyan.run("dvm", "stop", "--uri-file", uri.toString());
            assertThat(stop.exit()).as(stop.stderr()).isZero();
        }
        Banyan.assertNoProcessesWith("--uri-file " + uri);
        // the file is free again: a new DVM starts on it
        Banyan.Result again = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2");
        assertThat(again.exit()).as(again.stderr()).isZero();
        Banyan.run("dvm", "stop", "--uri-file", uri.toString());
        Banyan.assertNoProcessesWith("--uri-file " + uri);
    }
}
