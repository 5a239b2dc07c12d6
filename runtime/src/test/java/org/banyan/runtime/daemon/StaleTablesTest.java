package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files of daemons that died with their guard go when the next guard starts; nothing else does. */
class StaleTablesTest {
    @TempDir
    Path dir;

    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test
    void onlyTheFilesOfDeadDaemonsGo() throws Exception {
        long dead = deadPid();
        long live = ProcessHandle.current().pid();
        Path[] stale = {dir.resolve("banyan-pids-" + dead + "-8123"), dir.resolve("banyan-" + dead + "-0.proctable"),
                dir.resolve("banyan-" + dead + "-2-job7.proctable"),
                // a banyan-comm rank's shared-memory rings and shared window (ShmTransport, SharedWindowMemory)
                dir.resolve("banyan-" + dead + "-comm-3-9f2c.shm"), dir.resolve("banyan-" + dead + "-window-77ab.shm")};
        Path[] kept = {dir.resolve("banyan-pids-" + live + "-77"), dir.resolve("banyan-" + live + "-0.proctable"),
                dir.resolve("banyan-pids-4411"), dir.resolve("banyan-" + dead + "-notes.txt"), dir.resolve("other-" + dead + "-1"),
                dir.resolve("banyan-" + live + "-0-job2.shm"), dir.resolve("banyan-" + live + "-comm-0-1a.shm")};
        for (Path p : stale) {
            Files.writeString(p, "x");
        }
        for (Path p : kept) {
            Files.writeString(p, "x");
        }
        Path deadJobDir = Files.createDirectories(dir.resolve("banyan-" + dead + "-0-job3.shm"));
        Files.writeString(deadJobDir.resolve("seg"), "x");
        RankGuard guard = RankGuard.start(null, dir);
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((Files.exists(deadJobDir) || java.util.Arrays.stream(stale).anyMatch(Files::exists))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            guard.close();
        }
        for (Path p : stale) {
            assertThat(p).doesNotExist();
        }
        assertThat(deadJobDir).doesNotExist();
        for (Path p : kept) {
            assertThat(p).exists();
        }
    }

    /** A PMIx server's directory (banyan-pmix-PID-*) whose process is gone is swept from the temporary directory too. */
    @Test
    void deadProcessesPmixDirectoriesAreSwept() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path gone = Files.createDirectories(tmp.resolve("banyan-pmix-" + deadPid() + "-123"));
        Files.writeString(gone.resolve("pmix_dstor_ds12_1"), "x");
        Path mine = Files.createDirectories(tmp.resolve("banyan-pmix-" + ProcessHandle.current().pid() + "-456"));
        Path other = Files.createDirectories(tmp.resolve("banyan-pmix-789"));
        RankGuard guard = RankGuard.start(null, dir, tmp);
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Files.exists(gone) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            guard.close();
        }
        assertThat(gone).doesNotExist();
        assertThat(mine).as("a live process's").exists();
        assertThat(other).as("not named after a process").exists();
    }

    /** The sweep runs beside the daemon's start, not in its way: it is done within moments. */
    @Test
    void aGuardSweepsStaleTablesAndKeepsItsOwn() throws Exception {
        Path stale = Files.writeString(dir.resolve("banyan-pids-" + deadPid() + "-1"), "x");
        RankGuard guard = RankGuard.start(dir);
        try {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Files.exists(stale) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(stale).doesNotExist();
            try (var files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString()).toList()).as("its own table, named after this JVM")
                        .singleElement().asString().startsWith("banyan-pids-" + ProcessHandle.current().pid() + "-");
            }
        } finally {
            guard.close();
        }
    }
}
