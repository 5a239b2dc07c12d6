package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ranks created by {@code posix_spawn} (the default, asked for explicitly here; {@code
 * BANYAN_SPAWN=jdk} uses ProcessBuilder) behave as ProcessBuilder's did: output, stdin, exit statuses, a program
 * that cannot start; and they inherit nothing of the daemon but their three streams.
 */
class NativeSpawnTest {
    static final Map<String, String> NATIVE = Map.of("BANYAN_SPAWN", "native");

    static Banyan.Result run(String stdin, String... args) throws Exception {
        return Banyan.run(NATIVE, stdin, List.of(args));
    }

    @Test
    void outputAndStatusComeBack() throws Exception {
        Banyan.Result r = run(null, "run", "-n", "2", "--tag-output", "sh", "-c", "echo out $PMI_RANK; echo err $PMI_RANK >&2; exit 3");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.stdout().lines()).containsExactlyInAnyOrder("[1,0]<stdout>:out 0", "[1,1]<stdout>:out 1");
        assertThat(r.stderr()).contains("[1,0]<stderr>:err 0").contains("[1,1]<stderr>:err 1");
    }

    @Test
    void stdinReachesRankZero() throws Exception {
        Banyan.Result r = run("one\ntwo\n", "run", "-n", "1", "cat");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("one\ntwo\n");
    }

    @Test
    void aRankSeesOnlyItsThreeStreamsAndDefaultSignals() throws Exception {
        // /proc/self/fd of ls lists 0, 1, 2 and the directory ls itself opened. Of the ignored
        // signals only glibc's two internal ones (32, 33) may show, as under ProcessBuilder.
        Banyan.Result r = run(null, "run", "-n", "1", "sh", "-c", "ls /proc/self/fd | wc -l; grep -E 'Sig(Blk|Ign)' /proc/self/status");
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines.get(0)).isEqualTo("4");
        assertThat(lines.get(1)).isEqualTo("SigBlk:\t0000000000000000");
        assertThat(Long.parseLong(lines.get(2).substring("SigIgn:\t".length()), 16) & 0x7fffffffL).isZero();
    }

    @Test
    void aRankDoesNotInheritTheLaunchersOwnVariables() throws Exception {
        RunCommandTest.launcherVariablesStayOut(NATIVE);
    }

    /**
     * A process the rank left behind holding its stdout ({@code sleep &}) does not hold the
     * rank's end back: what the rank wrote comes, and the job ends, as ProcessBuilder's streams
     * end at the child's exit (before, the end waited 2 s per stream for the pipe to close).
     */
    @Test
    void aDescendantHoldingThePipeDoesNotHoldTheEndBack() throws Exception {
        for (Map<String, String> env : List.of(NATIVE, Map.of("BANYAN_SPAWN", "jdk"))) {
            long t0 = System.nanoTime();
            Banyan.Result r = Banyan.run(env, null, List.of("run", "-n", "2", "sh", "-c", "sleep 7.25 & echo started $PMI_RANK"));
            double seconds = (System.nanoTime() - t0) / 1e9;
            new ProcessBuilder("pkill", "-f", "sleep 7.25").start().waitFor();
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stdout().lines()).containsExactlyInAnyOrder("started 0", "started 1");
            assertThat(seconds).as("%s", env).isLessThan(3.5);
        }
    }

    /**
     * What a rank leaves running in its process group when it ends ({@code sleep &}, a helper)
     * is killed with it, as Slurm kills what a step leaves: a job that ends normally leaves no
     * process behind. A rank that fails takes its leftovers too.
     */
    @Test
    void whatARankLeavesRunningEndsWithIt() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result r = run(null, "run", "-n", "2", "sh", "-c", "sleep " + marker + " & (sleep " + marker + " &) ; echo started $PMI_RANK");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines()).containsExactlyInAnyOrder("started 0", "started 1");
        Banyan.assertNoProcessesWith(marker);
        Banyan.Result failed = run(null, "run", "-n", "1", "sh", "-c", "sleep " + marker + " & exit 4");
        assertThat(failed.exit()).isEqualTo(4);
        Banyan.assertNoProcessesWith(marker);
    }

    @Test
    void aSignalledRankAndAProgramThatCannotStartAreReported(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Banyan.Result killed = run(null, "run", "-n", "1", "sh", "-c", "kill -9 $$");
        assertThat(killed.exit()).isEqualTo(137);
        assertThat(killed.stderr()).contains("killed by signal 9 (SIGKILL)");
        java.nio.file.Path script = dir.resolve("bad-interpreter");
        java.nio.file.Files.writeString(script, "#!/no/such/interpreter\n");
        script.toFile().setExecutable(true);
        Banyan.Result bad = run(null, "run", "-n", "1", script.toString());
        assertThat(bad.exit()).isEqualTo(127);
        assertThat(bad.stderr()).contains("rank 0 on").contains("could not start: " + script + ": No such file or directory");
    }
}
