package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code banyan dvm submit --warm}: the hosts a malleable Java job's shrink leaves keep JVMs of
 * its program started and waiting, its expansion back takes them instead of starting JVMs, and
 * they end with the job, with the DVM, with their daemon, or when killed, leaving nothing.
 */
class DvmWarmPoolTest {
    @TempDir
    static Path classes;

    static String classPath;

    @TempDir
    Path dir;

    Path uri;

    @BeforeAll
    static void compile() throws Exception {
        classPath = CommExamples.compile(classes);
    }

    @AfterEach
    void stopDvm() throws Exception {
        if (uri != null && Files.exists(uri)) {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNoProcessesWith("FlexibleSleep");
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    void startDvm() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--launcher", "local", "--host",
                "a:1,b:1,c:1,d:1");
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    Process submitWarmFlexible(Path out, int steps, double work) throws Exception {
        List<String> args = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:4", "--time", "60",
                "--warm"));
        args.addAll(List.of(JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                "FlexibleSleep", Integer.toString(steps), Double.toString(work), "100003"));
        return Banyan.builder(args).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(new java.io.File("/dev/null")).start();
    }

    /** The JVMs waiting for FlexibleSleep's expansions (their command line has the agent), by pid. */
    static List<Long> waiting() throws Exception {
        return Banyan.processesWith("FlexibleSleep").stream().filter(l -> l.contains("-javaagent:") && l.contains("/java "))
                .map(l -> Long.parseLong(l.split("\\s+")[0])).toList();
    }

    /** FlexibleSleep's JVMs, ranks and waiting ones. */
    static List<Long> jvms() throws Exception {
        return Banyan.processesWith("FlexibleSleep").stream().filter(l -> l.contains("/java ") && !l.contains("dvm submit"))
                .map(l -> Long.parseLong(l.split("\\s+")[0])).toList();
    }

    static List<Long> awaitWaiting(int count) throws Exception {
        for (int i = 0; i < 300; i++) {
            List<Long> w = waiting();
            if (w.size() == count) {
                return w;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("not " + count + " waiting JVMs: " + Banyan.processesWith("FlexibleSleep"));
    }

    @Test
    void anExpansionTakesTheJvmsKeptWaitingOnTheHostsItsShrinkLeftAndStartsOneForAWaitingJvmKilled() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitWarmFlexible(out, 20, 1.2);
        DvmResizeTest.awaitLine(out, "step 1: 4 rank(s)");
        assertThat(waiting()).as("at its maximum: nothing kept").isEmpty();
        Process queued = Banyan.builder(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sleep",
                "3")).redirectErrorStream(true).start();
        List<Long> kept = awaitWaiting(2);
        // one of them is killed as it waits: its rank gets a JVM of its own, the other takes the other rank
        long killed = kept.getFirst();
        long taken = kept.getLast();
        ProcessHandle.of(killed).orElseThrow().destroyForcibly();
        assertThat(queued.waitFor(60, TimeUnit.SECONDS)).isTrue();
        DvmResizeTest.awaitLine(out, "(expand from 2,");
        List<Long> after = jvms();
        assertThat(after).as("the expansion's ranks: the JVM that waited and one started, no JVM more").hasSize(4)
                .contains(taken).doesNotContain(killed);
        assertThat(waiting()).as("the one that waited is a rank now (the agent stays in its command line)")
                .containsExactly(taken);
        assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isZero();
        assertThat(text).contains("step 19: 4 rank(s)");
        for (int s = 0; s < 20; s++) {
            assertThat(text).as("every step ran once, its data checked").containsOnlyOnce("step " + s + ":");
        }
        assertThat(Files.readString(dir.resolve("dvm.uri.log")))
                .contains("job 1: 1 JVM(s) kept waiting on host(s) [c, d] for its expansions");
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    /**
     * The JVM of this DVM's daemon {@code id}, among its head's descendants: a daemon of the same
     * id from the DVM of a test before (still ending) would match {@link Banyan#daemonJvm} too.
     */
    ProcessHandle daemonOfThisDvm(int id) throws Exception {
        long head = Long.parseLong(Files.readAllLines(uri).get(1).trim());
        return ProcessHandle.of(head).orElseThrow().descendants().filter(h -> Banyan.isDaemonJvm(h, id))
                .findFirst().orElseThrow(() -> new AssertionError("no JVM of daemon " + id + " under head " + head));
    }

    /** The agents' jar directories in the temporary directory. */
    static List<Path> agentDirs() throws Exception {
        try (var all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("banyan-warm-")).toList();
        }
    }

    @Test
    void waitingJvmsEndWithTheirDaemonAndWithTheDvm() throws Exception {
        List<Path> before = agentDirs();
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitWarmFlexible(out, 200, 4); // stays shrunk while the long job below runs
        DvmResizeTest.awaitLine(out, "step 1: 4 rank(s)");
        Process queued = Banyan.builder(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "60", "sleep",
                "60")).redirectErrorStream(true).start();
        List<Long> kept = awaitWaiting(2);
        // the daemon of host d dies: its waiting JVM sees its stdin end and goes, at once
        ProcessHandle daemonOfD = daemonOfThisDvm(3);
        daemonOfD.destroyForcibly();
        for (int i = 0; i < 50 && waiting().size() > 1; i++) {
            Thread.sleep(100);
        }
        assertThat(waiting()).as("the one on d ended with its daemon; FlexibleSleep's processes then: %s",
                Banyan.processesWith("FlexibleSleep")).hasSize(1);
        // the DVM stops with a job running and a JVM waiting: nothing of either is left
        Banyan.Result stop = Banyan.run("dvm", "stop", "--dvm", uri.toString());
        assertThat(stop.exit()).as(stop.stderr()).isZero();
        assertThat(flexible.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(queued.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Banyan.assertNoProcessesWith("FlexibleSleep");
        assertThat(kept).noneMatch(Banyan::runs);
        for (int i = 0; i < 30 && !before.containsAll(agentDirs()); i++) {
            Thread.sleep(100);
        }
        assertThat(agentDirs()).as("the agents' jars went with their daemons, the killed one's too")
                .allMatch(before::contains);
    }

    @Test
    void aProgramThatIsNoJvmRunsAsWithoutWarmAndTheLogSaysWhy() throws Exception {
        startDvm();
        Banyan.Result r = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:4", "--time", "5", "--warm", "sh",
                "-c", "echo plain");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("plain");
        assertThat(Files.readString(dir.resolve("dvm.uri.log"))).contains("no warm pool: sh does not start a JVM");
    }
}
