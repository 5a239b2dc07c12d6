package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a rank or task starts in a session of its own and leaves running (a {@code setsid}
 * helper that ignores SIGTERM and SIGHUP, and a child of it) ends with the job or the task, as
 * under Slurm's cgroups; under mpirun, and here before, it ran on, a child of init. While the
 * job or task runs it is left alone.
 */
class StrayTest {
    /** The daemon's bound from a rank's end to its strays' kill (StraySweeper.BOUND_MILLIS, 1.4 s) with a margin. */
    private static final long SWEEP_BOUND_MILLIS = 2000;

    @TempDir
    Path dir;

    /** A shell line that leaves a helper and its child, both sleeping {@code marker}, in a session of their own. */
    private static String leaveStray(String marker, String rankSeconds) {
        // in a subshell that ends at once: the helper is an orphan, the daemon's child, while the rank still runs
        return "(setsid sh -c 'trap \"\" TERM HUP; sleep " + marker + " & exec sleep " + marker + "' </dev/null >/dev/null 2>&1 &); "
                + "sleep " + rankSeconds;
    }

    @Test
    void whatARankLeftInASessionOfItsOwnEndsWithTheJob() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "2", "sh", "-c", leaveStray(m, "0.5"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Banyan.assertNoProcessesWith(m);
    }

    /** Under the ProcessBuilder fallback a rank leads no group, so even a plain {@code sleep &} was left running. */
    @Test
    void underTheJdkSpawnerWhatARankLeftEndsWithTheJobToo() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run(java.util.Map.of("BANYAN_SPAWN", "jdk"), null,
                List.of("run", "-n", "2", "sh", "-c", "sleep " + m + " </dev/null >/dev/null 2>&1 & exit 0"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void withSeparateDaemonsEachEndsWhatItsRanksLeft() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "2", "-H", "a,b", "--launcher", "local", "sh", "-c", leaveStray(m, "0.5"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Banyan.assertNothingLeft(m);
    }

    /**
     * banyan killed with SIGKILL takes its daemon with it, so no subreaper holds the strays: the
     * rank guard finds them by their mark and ends them with the ranks.
     */
    @Test
    void whatTheRanksLeftEndsWithThemWhenBanyanIsKilled() throws Exception {
        String m = Banyan.marker();
        // each rank: its shell sleeping, and the helper with its child in a session of their own
        ProcessBuilder job = Banyan.builder(List.of("run", "-n", "2", "sh", "-c", leaveStray(m, m)));
        Banyan.assertKillingTheHeadLeavesNothing(job, m, 6);
    }

    @Test
    void aDvmTaskKeepsItsStraysWhileItRunsAndTheyEndWithItAndNoZombieStays() throws Exception {
        Path uri = dir.resolve("dvm.uri");
        Banyan.Result start = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:4");
        assertThat(start.exit()).as(start.stderr()).isZero();
        try {
            long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
            String m = Banyan.marker();
            String n = Banyan.marker();
            Banyan.Result task = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("s").toString(),
                    "--", "sh", "-c", leaveStray(m, "8"));
            Banyan.Result mpiTask = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session",
                    dir.resolve("t").toString(), "-n", "2", "--mpi", "--", "sh", "-c", leaveStray(n, "8"));
            assertThat(task.exit()).as(task.stderr()).isZero();
            assertThat(mpiTask.exit()).as(mpiTask.stderr()).isZero();
            Banyan.awaitSleeps(m, 2);
            Banyan.awaitSleeps(n, 4);
            // another task's end makes the daemon look at its children: these strays' tasks still run
            Banyan.Result quick = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("q").toString(), "--",
                    "true");
            assertThat(quick.exit()).as(quick.stderr()).isZero();
            Thread.sleep(SWEEP_BOUND_MILLIS); // a pass and its second sighting, had they been strays
            assertThat(Banyan.processesWith(m)).as("the task still runs").filteredOn(l -> l.split("\\s+", 3)[2].startsWith("sleep " + m))
                    .hasSize(2);
            assertThat(Banyan.processesWith(n)).filteredOn(l -> l.split("\\s+", 3)[2].startsWith("sleep " + n)).hasSize(4);
            Banyan.Result wait = Banyan.run("wait", "--dvm", uri.toString(), task.stdout().strip(), mpiTask.stdout().strip());
            assertThat(wait.exit()).as(wait.stderr()).isZero();
            Banyan.assertNoProcessesWith(m);
            Banyan.assertNoProcessesWith(n);
            assertThat(zombiesOf(head)).as("the strays, reaped").isEmpty();
        } finally {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
            Banyan.assertNoProcessesWith(uri.toString());
        }
    }

    /** A helper that also cleared its environment: nothing names its job, only where it came from does. */
    private static String leaveUnmarkedStray(String marker, String rankSeconds) {
        return "(env -i setsid sh -c 'trap \"\" TERM HUP; sleep " + marker + " & exec sleep " + marker
                + "' </dev/null >/dev/null 2>&1 &); sleep " + rankSeconds;
    }

    /**
     * {@code env -i setsid ...} leaves no mark to attribute the helper by: it is a stray all the
     * same (it left the daemon's group, came after the daemon, is no helper of banyan's), and ends
     * once no rank runs here. Before, it ran on.
     */
    @Test
    void whatARankLeftWithItsEnvironmentClearedEndsWithTheJobToo() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "-n", "2", "sh", "-c", leaveUnmarkedStray(m, "0.5"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Banyan.assertNoProcessesWith(m);
    }

    /**
     * A script's background job from before it exec'd banyan (here in a group of its own, as
     * under job control) becomes banyan's child, unmarked: it is the user's, not a rank's, and is
     * left running.
     */
    @Test
    void aBackgroundJobFromBeforeBanyanWasStartedIsLeftAlone() throws Exception {
        String m = Banyan.marker();
        Process p = new ProcessBuilder("bash", "-c", "set -m; sleep " + m + " </dev/null >/dev/null 2>&1 & exec \"$0\" run -n 1 true",
                Banyan.SCRIPT.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        try {
            assertThat(p.waitFor()).as(out).isZero();
            Thread.sleep(SWEEP_BOUND_MILLIS);
            assertThat(Banyan.processesWith(m)).as("the user's own job").isNotEmpty();
        } finally {
            for (String line : Banyan.processesWith(m)) {
                ProcessHandle.of(Long.parseLong(line.strip().split("\\s+")[0])).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /**
     * Daemons a head starts itself (here with --launcher local) inherit the head's helper mark;
     * their ranks must not, or what those ranks leave would pass for the head's own helpers'.
     */
    @Test
    void ranksOfDaemonsTheHeadStartedCarryNoHelperMark() throws Exception {
        for (String spawn : List.of("native", "jdk")) {
            Banyan.Result r = Banyan.run(java.util.Map.of("BANYAN_SPAWN", spawn), null, List.of("run", "-n", "2", "-H", "a,b",
                    "--launcher", "local", "sh", "-c", "echo \"helper=${BANYAN_HELPER-unset}\""));
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stdout()).as(spawn).isEqualTo("helper=unset\nhelper=unset\n");
        }
    }

    /** On a DVM an unmarked stray cannot be given to a task: it ends once no task runs on its host. */
    @Test
    void aDvmEndsAnUnmarkedStrayOnceItIsIdle() throws Exception {
        Path uri = dir.resolve("dvm.uri");
        Banyan.Result start = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:4", "--warm-up", "0");
        assertThat(start.exit()).as(start.stderr()).isZero();
        try {
            String m = Banyan.marker();
            Banyan.Result task = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("s").toString(),
                    "--", "sh", "-c", leaveUnmarkedStray(m, "0.3"));
            Banyan.Result other = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("o").toString(),
                    "--", "sleep", "8");
            assertThat(task.exit()).as(task.stderr()).isZero();
            assertThat(other.exit()).as(other.stderr()).isZero();
            Banyan.awaitSleeps(m, 2);
            Thread.sleep(SWEEP_BOUND_MILLIS);
            assertThat(Banyan.processesWith(m)).as("another task runs: the stray may be its").isNotEmpty();
            Banyan.Result wait = Banyan.run("wait", "--dvm", uri.toString(), task.stdout().strip(), other.stdout().strip());
            assertThat(wait.exit()).as(wait.stderr()).isZero();
            Banyan.assertNoProcessesWith(m);
        } finally {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
            Banyan.assertNoProcessesWith(uri.toString());
        }
    }

    /** The zombie children of {@code parent} (waited for a few seconds: a sweep reaps them on its next pass). */
    private static List<String> zombiesOf(long parent) throws Exception {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            found.clear();
            try (var procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
                for (Path p : procs) {
                    try {
                        String stat = Files.readString(p.resolve("stat"));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        if (f[0].equals("Z") && Long.parseLong(f[1]) == parent) {
                            found.add(stat.strip());
                        }
                    } catch (java.io.IOException e) {
                        // gone
                    }
                }
            }
            if (found.isEmpty()) {
                return found;
            }
            Thread.sleep(100);
        }
        return found;
    }
}
