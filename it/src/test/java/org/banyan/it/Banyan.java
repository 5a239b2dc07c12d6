package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code banyan} command as a user would, and looks for processes it left behind. */
final class Banyan {
    static final Path ROOT = Path.of(System.getProperty("banyan.root", "..")).toAbsolutePath().normalize();
    static final Path SCRIPT = ROOT.resolve("banyan");

    record Result(int exit, String stdout, String stderr) {}

    private Banyan() {}

    static ProcessBuilder builder(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(SCRIPT.toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("BANYAN_PMI_TRACE");
        // as from a user's shell: the variables the command sets for its JVMs are not set yet
        pb.environment().remove("_JAVA_SR_SIGNUM");
        pb.environment().remove("BANYAN_LAUNCHER_ENV");
        pb.environment().remove("PMIX_MCA_psec");
        pb.environment().remove("HWLOC_COMPONENTS");
        return pb;
    }

    static Result run(String... args) throws Exception {
        return run(null, List.of(args));
    }

    static Result runWithStdin(String stdin, String... args) throws Exception {
        return run(stdin, List.of(args));
    }

    static Result run(String stdin, List<String> args) throws Exception {
        return run(java.util.Map.of(), stdin, args);
    }

    /** Runs banyan with {@code env} added to this JVM's environment. */
    static Result run(java.util.Map<String, String> env, String stdin, List<String> args) throws Exception {
        return run(env, stdin, args, null);
    }

    /** Runs banyan from the directory {@code cwd}, as a user in it would. */
    static Result runIn(Path cwd, java.util.Map<String, String> env, List<String> args) throws Exception {
        return run(env, null, args, cwd);
    }

    private static Result run(java.util.Map<String, String> env, String stdin, List<String> args, Path cwd) throws Exception {
        Path out = Files.createTempFile("banyan-out", ".txt");
        Path err = Files.createTempFile("banyan-err", ".txt");
        try {
            ProcessBuilder pb = builder(args).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (cwd != null) {
                pb.directory(cwd.toFile());
            }
            pb.environment().putAll(env);
            if (stdin == null) {
                pb.redirectInput(new File("/dev/null"));
            }
            Process p = pb.start();
            if (stdin != null) {
                try (var os = p.getOutputStream()) {
                    os.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                fail("banyan " + String.join(" ", args) + " did not finish within 120 s");
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** A unique sleep duration, so that ps can find exactly the processes of one test. */
    static String marker() {
        return "1000." + ThreadLocalRandom.current().nextInt(100_000, 999_999);
    }

    /** Processes whose command line contains {@code marker}, other than ps and this JVM. */
    static List<String> processesWith(String marker) throws IOException, InterruptedException {
        Process ps = new ProcessBuilder("ps", "-eo", "pid=,stat=,args=").redirectErrorStream(true).start();
        String text = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        ps.waitFor();
        List<String> found = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] f = line.strip().split("\\s+", 3);
            if (f.length == 3 && f[2].contains(marker) && !f[1].startsWith("Z") && !f[2].startsWith("ps ")) {
                found.add(line.strip());
            }
        }
        return found;
    }

    /**
     * Whether process {@code pid} runs: it exists and has not exited. A process that exited and
     * was not reaped yet (a zombie, which an init may leave for seconds) does not run, though the
     * JDK's {@code isAlive} says it is alive.
     */
    static boolean runs(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException e) {
            return false; // no such process
        }
    }

    /**
     * Fails if any process with {@code marker} is still alive 3 s from now (killing is
     * asynchronous; an orphan would live for 1000 s), and kills those it finds.
     */
    static void assertNoProcessesWith(String marker) throws Exception {
        List<String> left = List.of();
        for (int i = 0; i < 30; i++) {
            left = processesWith(marker);
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(100);
        }
        for (String line : left) {
            ProcessHandle.of(Long.parseLong(line.split("\\s+")[0])).ifPresent(ProcessHandle::destroyForcibly);
        }
        fail("processes left behind:\n" + String.join("\n", left));
    }

    /** No rank with {@code marker} and no daemon is left on any host (they share this PID namespace). */
    static void assertNothingLeft(String marker) throws Exception {
        assertNoProcessesWith(marker);
        assertNoProcessesWith("DaemonMain");
    }

    /**
     * Starts a job of {@code sleepers} ranks sleeping {@code marker}, kills the JVM of daemon 0 (an
     * interior daemon in the trees the tests use), and checks what the user sees: status 1, one
     * line naming {@code host}, and nothing left anywhere.
     */
    static void assertLosingDaemonZeroEndsTheJob(ProcessBuilder job, String marker, int sleepers, String host)
            throws Exception {
        assertLosingADaemonEndsTheJob(job, marker, sleepers, host, () -> daemonJvm(0, marker));
    }

    /** As above, with the daemon to kill found by {@code daemon} once every rank runs. */
    static void assertLosingADaemonEndsTheJob(ProcessBuilder job, String marker, int sleepers, String host,
                                              java.util.function.Supplier<ProcessHandle> daemon) throws Exception {
        Process p = job.redirectErrorStream(true).start();
        awaitSleeps(marker, sleepers);
        daemon.get().destroyForcibly();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("banyan ended").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("banyan run: lost the daemon on " + host + ": ");
        assertNothingLeft(marker);
    }

    /** Starts the job, kills banyan itself with SIGKILL once every rank runs, and checks nothing is left. */
    static void assertKillingTheHeadLeavesNothing(ProcessBuilder job, String marker, int sleepers) throws Exception {
        Process p = job.redirectErrorStream(true).start();
        awaitSleeps(marker, sleepers);
        p.destroyForcibly();
        p.waitFor();
        assertNothingLeft(marker);
    }

    /**
     * The JVM of daemon {@code id} (not the ssh or srun that carries it) that runs a process with
     * {@code marker}: a daemon of an earlier test's job or DVM, still ending, has the same id.
     */
    static ProcessHandle daemonJvm(int id, String marker) {
        return ProcessHandle.allProcesses().filter(h -> isDaemonJvm(h, id))
                .filter(h -> h.descendants().anyMatch(d -> d.info().commandLine().orElse("").contains(marker)))
                .findFirst().orElseThrow(() -> new AssertionError("no JVM of daemon " + id + " running " + marker));
    }

    /** Whether {@code h} is the JVM of daemon {@code id}. */
    static boolean isDaemonJvm(ProcessHandle h, int id) {
        return h.info().command().orElse("").endsWith("/java") && h.info().commandLine().orElse("").contains("DaemonMain")
                && h.info().commandLine().orElse("").contains("--id " + id + " ");
    }

    /** The JVM of the daemon a Slurm step started on {@code node} (its task's SLURMD_NODENAME). */
    static ProcessHandle daemonJvmOnNode(String node) {
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().command().orElse("").endsWith("/java")
                        && h.info().commandLine().orElse("").contains("DaemonMain"))
                .filter(h -> {
                    try {
                        String env = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(h.pid()),
                                "environ")), StandardCharsets.UTF_8);
                        return java.util.Arrays.asList(env.split("\0")).contains("SLURMD_NODENAME=" + node);
                    } catch (IOException e) {
                        return false;
                    }
                })
                .findFirst().orElseThrow(() -> new AssertionError("no daemon JVM on " + node));
    }

    /**
     * Waits until {@code count} {@code sleep MARKER} processes run (the marker also appears in
     * banyan's own command line and in shells, which must not count).
     */
    static void awaitSleeps(String marker, int count) throws Exception {
        for (int i = 0; i < 200; i++) {
            if (processesWith(marker).stream().filter(l -> l.split("\\s+", 3)[2].startsWith("sleep " + marker)).count()
                    >= count) {
                return;
            }
            Thread.sleep(50);
        }
        fail("expected " + count + " sleep " + marker + " processes, found " + processesWith(marker));
    }
}
