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

    /**
     * A start stopped while it holds its turn (Ctrl-Z, or here the test holding the turn's lock)
     * does not hang the next start: it waits 20 s, then says why, status 1, nothing started.
     */
    @Test
    void aStartStoppedHalfWayDoesNotHangTheNext() throws Exception {
        Path uri = dir.resolve("held.uri");
        try (var turn = java.nio.channels.FileChannel.open(dir.resolve("held.uri.start"),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             var lock = turn.lock()) {
            long t0 = System.nanoTime();
            Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2");
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
            assertThat(r.stderr()).contains("another 'banyan dvm start' with this URI file has not finished in 20 s");
            assertThat(seconds).isLessThan(60);
        }
        assertThat(Banyan.processesWith("dvm serve")).filteredOn(l -> l.contains(uri.toString())).isEmpty();
    }
}
