package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The guard kills what the daemon told it of when the daemon dies, and nothing it was told has ended. */
class RankGuardTest {
    private final java.util.List<Process> sleepers = new java.util.ArrayList<>();

    @AfterEach
    void killLeftovers() {
        sleepers.forEach(Process::destroyForcibly);
    }

    private Process sleeper() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        sleepers.add(p);
        return p;
    }

    @Test
    void aDaemonsDeathKillsItsRunningRanksButNotOnesItReportedEnded() throws Exception {
        RankGuard guard = RankGuard.start();
        Process running = sleeper();
        Process endedLongAgo = sleeper();
        Process endedJustNow = sleeper();
        Process startedAfter = sleeper();
        guard.started(running.pid());
        guard.ended(endedLongAgo.pid(), guard.started(endedLongAgo.pid()));
        Thread.sleep(100);
        guard.ended(endedJustNow.pid(), guard.started(endedJustNow.pid())); // just before the daemon dies
        guard.started(startedAfter.pid());
        guard.dropPipe();

        assertThat(running.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(startedAfter.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(Duration.ofMillis(300));
        assertThat(endedLongAgo.isAlive()).isTrue();
        assertThat(endedJustNow.isAlive()).isTrue();
    }

    /** Signals a terminal or `timeout` sends a whole process group do not end the guard before the daemon. */
    @Test
    void theGuardOutlivesSignalsSentToItsDaemonsGroup() throws Exception {
        RankGuard guard = RankGuard.start();
        Process running = sleeper();
        guard.started(running.pid());
        Thread.sleep(200); // the shell has set its traps and become awk
        for (String signal : new String[] {"INT", "TERM", "HUP", "QUIT", "USR1", "USR2", "PIPE", "ALRM"}) {
            assertThat(new ProcessBuilder("kill", "-" + signal, String.valueOf(guard.pid())).start().waitFor()).isZero();
        }
        Thread.sleep(300);
        assertThat(ProcessHandle.of(guard.pid()).map(ProcessHandle::isAlive)).as("the guard").contains(true);
        guard.dropPipe();
        assertThat(running.waitFor(10, TimeUnit.SECONDS)).as("its rank, once the daemon is gone").isTrue();
    }

    /**
     * What the ranks left in sessions of their own carries the daemon's mark (Subreaper.MARK) and
     * goes with them; what carries another daemon's, here one whose pid begins with this one's, stays.
     */
    @Test
    void aDaemonsDeathKillsWhatItsRanksLeftButNotWhatAnotherDaemonsDid() throws Exception {
        RankGuard guard = RankGuard.start();
        long self = ProcessHandle.current().pid();
        Process ours = marked(self + ":3:0");
        Process anothers = marked(self + "1:3:0");
        guard.dropPipe();

        assertThat(ours.waitFor(10, TimeUnit.SECONDS)).as("a stray of this daemon's").isTrue();
        Thread.sleep(Duration.ofMillis(500));
        assertThat(anothers.isAlive()).as("another daemon's").isTrue();
    }

    private Process marked(String origin) throws Exception {
        ProcessBuilder b = new ProcessBuilder("setsid", "sleep", "60");
        b.environment().put(org.banyan.runtime.os.Subreaper.MARK, origin);
        Process p = b.start();
        sleepers.add(p);
        return p;
    }

    @Test
    void doneMeansTheDaemonEndedItsRanksItself() throws Exception {
        RankGuard guard = RankGuard.start();
        Process p = sleeper();
        guard.started(p.pid());
        guard.close();
        Thread.sleep(Duration.ofMillis(300));
        assertThat(p.isAlive()).isTrue();
    }

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    @Test
    void withAPidTableADaemonsDeathKillsWhatTheTableHoldsAndTheTableGoes() throws Exception {
        RankGuard guard = RankGuard.start(dir);
        Process running = sleeper();
        Process ended = sleeper();
        Process runningToo = sleeper();
        guard.started(running.pid());
        guard.ended(ended.pid(), guard.started(ended.pid()));
        guard.started(runningToo.pid()); // takes the slot the ended one freed
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files.toList()).singleElement().satisfies(f -> assertThat(java.nio.file.Files.readString(f))
                    .startsWith(String.format("%7d%n%7d%n", running.pid(), runningToo.pid())));
        }
        guard.dropPipe();

        assertThat(running.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runningToo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(Duration.ofMillis(300));
        assertThat(ended.isAlive()).isTrue();
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files.toList()).as("the guard removes the table").isEmpty();
        }
    }

    @Test
    void aPidTakenAgainBeforeItsFirstEndIsRecordedStaysGuarded() throws Exception {
        RankGuard guard = RankGuard.start(dir);
        Process reused = sleeper();
        int first = guard.started(reused.pid());
        int second = guard.started(reused.pid()); // a new process with the pid the first one had
        assertThat(second).isNotEqualTo(first);
        guard.ended(reused.pid(), first);
        guard.ended(reused.pid(), first); // once too often: the second entry stays
        guard.dropPipe();

        assertThat(reused.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aPidIsOneAlignedSlotOfSevenCharactersAndANewline() {
        assertThat(PidTable.encode(4194304)).isEqualTo(PidTable.encode("4194304\n"));
        assertThat(PidTable.encode(7)).isEqualTo(PidTable.encode("      7\n"));
    }
}
