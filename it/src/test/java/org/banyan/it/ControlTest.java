package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals to banyan run, and losing the head or a daemon: every case ends every process, which
 * {@code ps} checks after each one.
 */
class ControlTest {
    @TempDir
    Path dir;

    record Started(Process process, Path err) {
        String stderr() throws Exception {
            return Files.readString(err);
        }

        int await() throws Exception {
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            if (!ended) { // what it waits for, to see why
                Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(process.pid()), "Thread.print").redirectErrorStream(true).start();
                String threads = new String(dump.getInputStream().readAllBytes());
                assertThat(ended).as("banyan ended (stderr: %s; threads: %s)", stderr(), threads).isTrue();
            }
            return process.exitValue();
        }
    }

    /**
     * Starts banyan with SIGINT and SIGHUP at their default actions: a shell that starts a
     * background job, a CI runner, or {@code nohup} may hand them down ignored, an ignored signal
     * stays ignored across exec, and the JVM leaves a signal it found ignored so.
     */
    Started start(String... args) throws Exception {
        return startAfter(List.of(), args);
    }

    private Started startAfter(List<String> prefix, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of("perl", "-e", "$SIG{INT}='DEFAULT'; $SIG{HUP}='DEFAULT'; exec @ARGV or die",
                Banyan.SCRIPT.toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(environment());
        Process p = pb.redirectError(err.toFile()).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        return new Started(p, err);
    }

    /** Added to banyan's environment. */
    java.util.Map<String, String> environment() {
        return java.util.Map.of();
    }

    static void signal(Process p, String name) throws Exception {
        new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start().waitFor();
    }

    @Test
    void ctrlCIsForwardedAndTheJobEndsWithTheRanksStatus() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "sleep", m);
        Banyan.awaitSleeps(m, 2);
        signal(s.process(), "INT");
        assertThat(s.await()).isEqualTo(130);
        assertThat(s.stderr()).contains("was killed by signal 2 (SIGINT)");
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void secondCtrlCKillsRanksThatIgnoreTheFirst() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "sh", "-c", "trap '' INT TERM; sleep " + m);
        Banyan.awaitSleeps(m, 2);
        signal(s.process(), "INT");
        Thread.sleep(700);
        assertThat(s.process().isAlive()).as("ranks ignore SIGINT, so the job goes on").isTrue();
        signal(s.process(), "INT");
        assertThat(s.await()).isEqualTo(130);
        assertThat(s.stderr()).contains("banyan run: received SIGINT again; killing all ranks");
        Banyan.assertNoProcessesWith(m);
    }

    /**
     * Ctrl-Z (SIGTSTP to banyan alone: its ranks lead process groups of their own) stops the
     * ranks and then banyan, as a shell's job control expects; SIGCONT (fg) resumes both.
     */
    @Test
    void ctrlZStopsTheRanksAndBanyanAndContinueResumesThem() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "sleep", m);
        Banyan.awaitSleeps(m, 2);
        signal(s.process(), "TSTP");
        awaitStates(s.process(), m, true);
        signal(s.process(), "CONT");
        awaitStates(s.process(), m, false);
        signal(s.process(), "INT");
        assertThat(s.await()).isEqualTo(130);
        Banyan.assertNoProcessesWith(m);
    }

    /** Waits until banyan and both ranks are stopped (state T), or all running again. */
    private static void awaitStates(Process banyan, String marker, boolean stopped) throws Exception {
        String seen = "";
        for (int i = 0; i < 50; i++) {
            List<String> ranks = Banyan.processesWith(marker).stream()
                    .filter(l -> l.split("\\s+", 3)[2].startsWith("sleep " + marker)).toList();
            Process ps = new ProcessBuilder("ps", "-o", "stat=", "-p", Long.toString(banyan.pid())).start();
            String own = new String(ps.getInputStream().readAllBytes()).strip();
            ps.waitFor();
            long ranksStopped = ranks.stream().filter(l -> l.split("\\s+")[1].startsWith("T")).count();
            seen = "banyan " + own + ", ranks " + ranks;
            if (stopped ? own.startsWith("T") && ranksStopped == 2 : !own.startsWith("T") && ranksStopped == 0 && ranks.size() == 2) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError((stopped ? "not all stopped: " : "not all resumed: ") + seen);
    }

    @Test
    void sigtermAndSighupAreForwarded() throws Exception {
        for (String sig : List.of("TERM", "HUP")) {
            String m = Banyan.marker();
            Started s = start("run", "-n", "2", "sleep", m);
            Banyan.awaitSleeps(m, 2);
            signal(s.process(), sig);
            assertThat(s.await()).isEqualTo(sig.equals("TERM") ? 143 : 129);
            Banyan.assertNoProcessesWith(m);
        }
    }

    @Test
    void sigusr1ReachesTheRanksWithoutEndingTheJob() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "sh", "-c", "trap 'echo usr1 $PMI_RANK; exit 0' USR1; sleep " + m + " & wait");
        Banyan.awaitSleeps(m, 2);
        signal(s.process(), "USR1");
        assertThat(s.await()).isZero();
        assertThat(Files.readString(dir.resolve("out.txt")).split("\n")).containsExactlyInAnyOrder("usr1 0", "usr1 1");
        // The shells exited; their sleeps are children banyan must not leave behind either.
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void killingTheHeadWithSigkillLeavesNoRank() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "3", "--oversubscribe", "sleep", m);
        Banyan.awaitSleeps(m, 3);
        signal(s.process(), "KILL");
        assertThat(s.await()).isEqualTo(137);
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void killingTheHeadOfASeparateDaemonMakesTheDaemonEndItsRanksAndExit() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "--launcher", "local", "sleep", m);
        Banyan.awaitSleeps(m, 2);
        List<ProcessHandle> daemons = s.process().children().toList();
        assertThat(daemons).hasSize(1);
        signal(s.process(), "KILL");
        s.await();
        Banyan.assertNoProcessesWith(m);
        assertThat(daemons.getFirst().onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
    }

    @Test
    void losingTheDaemonEndsTheRunWithOneLineAndNoRankLeft() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "--launcher", "local", "sleep", m);
        Banyan.awaitSleeps(m, 2);
        ProcessHandle daemon = s.process().children().findFirst().orElseThrow();
        new ProcessBuilder("kill", "-KILL", Long.toString(daemon.pid())).start().waitFor();
        assertThat(s.await()).isEqualTo(1);
        assertThat(s.stderr()).contains("banyan run: lost the daemon on ");
        Banyan.assertNoProcessesWith(m);
    }

    /** A rank that says it got SIGTERM and exits 7 (its sleep with it), as a program that saves its state would. */
    static final String TERM_TRAP = "trap 'echo term $PMI_RANK; kill $!; exit 7' TERM; sleep %s & wait";

    /**
     * timeout(1) sends its SIGTERM to banyan and then to banyan's whole process group, which holds
     * the daemons of {@code --launcher local}; a batch system's end of a job does much the same.
     * Each rank gets one SIGTERM and the time to handle it; no "again" (the second delivery of the
     * same signal used to read as a user's second and kill the ranks at once, and a daemon died of
     * its SIGTERM, its guard killing its ranks with SIGKILL).
     */
    @Test
    void aSigtermToTheHeadAndItsProcessGroupGivesEachRankItsGrace() throws Exception {
        String m = Banyan.marker();
        Started s = startInOwnGroup("run", "-n", "2", "-H", "a,b", "--launcher", "local", "sh", "-c", TERM_TRAP.formatted(m));
        Banyan.awaitSleeps(m, 2);
        long pid = s.process().pid();
        // Back to back from one shell, as timeout(1) does: the head's copy and the daemon's own reach
        // the ranks' daemon in either order (CI saw the head's first, and rank 1 got SIGTERM twice).
        new ProcessBuilder("sh", "-c", "kill -TERM " + pid + "; kill -TERM -- -" + pid).start().waitFor();
        assertThat(s.await()).isEqualTo(7);
        assertThat(Files.readString(dir.resolve("out.txt")).split("\n")).containsExactlyInAnyOrder("term 0", "term 1");
        assertThat(s.stderr()).doesNotContain("again").doesNotContain("lost the daemon");
        Banyan.assertNoProcessesWith(m);
    }

    /** Ctrl-C in a terminal reaches banyan and its local daemons alike: the ranks end by SIGINT, as with one daemon in banyan. */
    @Test
    void aSigintToTheProcessGroupEndsTheRanksBySigint() throws Exception {
        String m = Banyan.marker();
        Started s = startInOwnGroup("run", "-n", "2", "-H", "a,b", "--launcher", "local", "sleep", m);
        Banyan.awaitSleeps(m, 2);
        new ProcessBuilder("kill", "-INT", "--", "-" + s.process().pid()).start().waitFor();
        assertThat(s.await()).isEqualTo(130);
        assertThat(s.stderr()).contains("was killed by signal 2 (SIGINT)").doesNotContain("again");
        Banyan.assertNoProcessesWith(m);
    }

    /** SIGUSR1 to the process group (Slurm's --signal reaches every process of a step) is for the ranks: the daemons live on. */
    @Test
    void aSigusr1ToTheProcessGroupLeavesTheDaemonsRunning() throws Exception {
        String m = Banyan.marker();
        Started s = startInOwnGroup("run", "-n", "2", "-H", "a,b", "--launcher", "local", "sh", "-c",
                "trap 'echo usr1 $PMI_RANK; kill $!; exit 0' USR1; sleep " + m + " & wait");
        Banyan.awaitSleeps(m, 2);
        new ProcessBuilder("kill", "-USR1", "--", "-" + s.process().pid()).start().waitFor();
        assertThat(s.await()).isZero();
        assertThat(Files.readString(dir.resolve("out.txt")).split("\n")).contains("usr1 0", "usr1 1");
        assertThat(s.stderr()).doesNotContain("lost the daemon");
        Banyan.assertNoProcessesWith(m);
    }

    /** An administrator's SIGTERM to one daemon: its rank handles it, and the job ends with the rank's status. */
    @Test
    void aSigtermToOneDaemonEndsItsRankWithGraceAndThenTheJob() throws Exception {
        String m = Banyan.marker();
        Started s = start("run", "-n", "2", "-H", "a,b", "--launcher", "local", "sh", "-c", TERM_TRAP.formatted(m));
        Banyan.awaitSleeps(m, 2);
        List<ProcessHandle> daemons = s.process().children().filter(c -> c.info().commandLine().orElse("")
                .contains("DaemonMain")).toList();
        assertThat(daemons).hasSize(2);
        new ProcessBuilder("kill", "-TERM", Long.toString(daemons.get(1).pid())).start().waitFor();
        assertThat(s.await()).isEqualTo(7);
        assertThat(Files.readString(dir.resolve("out.txt"))).contains("term ");
        assertThat(s.stderr()).contains("exited with status 7").doesNotContain("lost the daemon");
        Banyan.assertNoProcessesWith(m);
    }

    /** As {@link #start}, leading a process group (and session) of its own, as a shell's job or timeout(1)'s child. */
    Started startInOwnGroup(String... args) throws Exception {
        return startAfter(List.of("setsid"), args); // not a group leader here, so setsid execs: the same pid
    }

    @Test
    void aSeparateDaemonRunsJobsLikeTheInProcessOne() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--launcher", "local", "sh", "-c", "echo $PMI_RANK; exit $PMI_RANK");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stdout().split("\n")).containsExactlyInAnyOrder("0", "1");
    }

    /**
     * SIGKILL to banyan and its rank guard together leaves the process table in /dev/shm (no one
     * is left to remove it); the next banyan run on the host sweeps it.
     */
    @Test
    void theNextRunSweepsTheTableOfAHeadKilledWithItsGuard() throws Exception {
        String m = Banyan.marker();
        Process p = Banyan.builder(List.of("run", "-n", "2", "--oversubscribe", "sleep", m)).redirectErrorStream(true).start();
        Banyan.awaitSleeps(m, 2);
        ProcessHandle head = p.toHandle().descendants().filter(h -> h.info().command().orElse("").endsWith("/java"))
                .findFirst().orElse(p.toHandle());
        List<ProcessHandle> guards = head.children().filter(h -> h.info().command().orElse("").endsWith("awk")).toList();
        assertThat(guards).as("the rank guard").hasSize(1);
        Path table;
        try (var files = Files.list(Path.of("/dev/shm"))) {
            table = files.filter(f -> f.getFileName().toString().startsWith("banyan-" + head.pid() + "-")).findFirst()
                    .orElseThrow(() -> new AssertionError("no process table of " + head.pid() + " in /dev/shm"));
        }
        new ProcessBuilder("kill", "-KILL", Long.toString(head.pid()), Long.toString(guards.getFirst().pid())).start().waitFor();
        p.waitFor(10, TimeUnit.SECONDS);
        new ProcessBuilder("pkill", "-KILL", "-f", "sleep " + m).start().waitFor();
        assertThat(table).as("left behind, no one to remove it").exists();
        assertThat(Banyan.run("run", "-n", "1", "true").exit()).isZero();
        for (int i = 0; i < 100 && Files.exists(table); i++) {
            Thread.sleep(50);
        }
        assertThat(table).as("swept by the next run").doesNotExist();
        Banyan.assertNoProcessesWith(m);
    }
}
