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
 * Malleable jobs for real: examples/java/FlexibleSleep (the DMR API of banyan-comm) queued on a
 * four-host DVM with {@code banyan dvm submit --nodes 1:4}, shrunk so that a queued job starts,
 * expanded again when its hosts come back, its data checked after every resize; and a rank dying
 * as a resize begins. Processes are looked for with ps after each.
 */
class DvmResizeTest {
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
                "a:2,b:2,c:2,d:2");
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    /** FlexibleSleep queued for 1 to 4 hosts: STEPS steps of WORK seconds over the hosts it has. */
    Process submitFlexible(Path out, List<String> runOptions, int steps, double work) throws Exception {
        List<String> args = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:4", "--time", "30"));
        args.addAll(runOptions);
        args.addAll(List.of(JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                "FlexibleSleep", Integer.toString(steps), Double.toString(work), "100003"));
        return Banyan.builder(args).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(new java.io.File("/dev/null")).start();
    }

    static void awaitLine(Path file, String text) throws Exception {
        for (int i = 0; i < 600; i++) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + text + "' in " + file + ":\n" + (Files.exists(file) ? Files.readString(file) : ""));
    }

    @Test
    void aMalleableJobShrinksSoAQueuedJobStartsThenGrowsBackWithItsDataIntact() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitFlexible(out, List.of(), 14, 1.2);
        awaitLine(out, "step 1: 4 rank(s)");

        Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh", "-c",
                "echo B ran");
        assertThat(queued.exit()).as(queued.stderr()).isZero();
        assertThat(queued.stdout()).contains("B ran");
        assertThat(queued.stderr()).contains("waits for 2 hosts");

        assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isZero();
        assertThat(text).containsPattern("step \\d+: 2 rank\\(s\\) \\(shrink from 4, [0-9.]+ ms\\)")
                .containsPattern("step \\d+: 4 rank\\(s\\) \\(expand from 2, [0-9.]+ ms\\)")
                .contains("step 13: 4 rank(s)");
        assertThat(text.indexOf("shrink from 4")).isLessThan(text.indexOf("expand from 2"));
        for (int s = 0; s < 14; s++) {
            assertThat(text).as("every step ran once, its data checked").containsOnlyOnce("step " + s + ":");
        }
        String log = Files.readString(dir.resolve("dvm.uri.log"));
        assertThat(log).containsPattern("job 1: shrink to 2 rank\\(s\\), generation 1")
                .containsPattern("job \\d+ \\(queued\\) of client \\d+: 2 rank\\(s\\) of sh on host\\(s\\) \\[c, d\\]")
                .containsPattern("job 1: expand to 4 rank\\(s\\), generation 2")
                .containsPattern("job \\d+ \\(expansion of job 1, its ranks 2 on\\)");
        Banyan.assertNoProcessesWith("FlexibleSleep");
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).contains("no job running");
    }

    /** With blocks prepared ahead for 2 ranks and replaced ones reused (Dmr.prepareBlocks), the data stays whole too. */
    @Test
    void withTheAsynchronousCheckTheJobActsAtTheNextStepOnWhatWasDecidedDuringThisOne() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitFlexible(out, List.of("-x", "FLEXIBLE_SLEEP_ASYNC=1", "-x", "FLEXIBLE_SLEEP_PREPARE=2"), 14, 1.2);
        awaitLine(out, "step 1: 4 rank(s)");
        String status = Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout();
        assertThat(status).as("one job, at its size now: its expansion was listed as a job of its own")
                .containsPattern("(?m)^1 +4  ").doesNotContainPattern("(?m)^[0-9]+ +2  ");
        Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh", "-c",
                "echo B ran");
        assertThat(queued.exit()).as(queued.stderr()).isZero();
        assertThat(queued.stdout()).contains("B ran");

        assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isZero();
        assertThat(text).containsPattern("step \\d+: 2 rank\\(s\\) \\(shrink from 4, [0-9.]+ ms\\)")
                .containsPattern("step \\d+: 4 rank\\(s\\) \\(expand from 2, [0-9.]+ ms\\)")
                .contains("step 13: 4 rank(s)");
        for (int s = 0; s < 14; s++) {
            assertThat(text).as("every step ran once, its data checked").containsOnlyOnce("step " + s + ":");
        }
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    @Test
    void anExpansionGrantedAsTheProgramEndsIsGivenUpAtOnceNotAfterTheResizeTimeout() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        List<String> args = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:2", "--time", "30",
                "--resize-timeout", "120", "-x", "FLEXIBLE_SLEEP_ASYNC=1"));
        // one step, asking for 4 hosts: the answer (expand) comes while the step runs and is never acted on
        args.addAll(List.of(JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                "FlexibleSleep", "1", "3", "1000", "4", "4", "1", "0"));
        long t0 = System.nanoTime();
        Banyan.Result r = Banyan.run(args.toArray(String[]::new));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("step 0: 2 rank(s)");
        assertThat(seconds).as("well before the 120 s resize timeout").isLessThan(60);
        assertThat(Files.readString(dir.resolve("dvm.uri.log")))
                .contains("job 1: expand to 4 rank(s), generation 1")
                .contains("job 1: the expansion to generation 1 was abandoned: the job's program ended before it acted on it");
        Banyan.assertNoProcessesWith("FlexibleSleep");
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).contains("no job running")
                .containsPattern("c +2 +0 +up");
    }

    @Test
    void aRankThatDiesAsAResizeBeginsEndsTheJobAndItsHostsGoToTheQueue() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitFlexible(out, List.of("-x", "FLEXIBLE_SLEEP_FAIL_ON=shrink"), 40, 1.2);
        awaitLine(out, "step 1: 4 rank(s)");
        String status = Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout();
        assertThat(status).as("one job, at its size now: its expansion was listed as a job of its own")
                .containsPattern("(?m)^1 +4  ").doesNotContainPattern("(?m)^[0-9]+ +2  ");
        Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh", "-c",
                "echo B ran");
        assertThat(queued.exit()).as(queued.stderr()).isZero();
        assertThat(queued.stdout()).contains("B ran");
        assertThat(flexible.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isEqualTo(7);
        assertThat(text).contains("banyan dvm submit: rank 3 on d exited with status 7").doesNotContain("step 39")
                .doesNotContain("banyan run:");
        assertThat(Files.readAllLines(dir.resolve("dvm.uri.log"))).as("every time to the second, :00 too")
                .allMatch(l -> !l.startsWith("[") || l.matches("\\[\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d] .*"));
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    /**
     * A shrunk job's new world (generation 1) holds ranks of DVM jobs whose job secrets differ: its
     * TCP connections prove the world's own secret, which the head gives with the join, so a
     * stranger at any port its ranks listen on is closed unread and said (until 2026-12-02 such a
     * world took any connection as a rank's). The job runs on to its end.
     */
    @Test
    void aResizedWorldsRanksRefuseAStrangerAtTheirPorts() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitFlexible(out, List.of(), 12, 1.2);
        awaitLine(out, "step 1: 4 rank(s)");
        Process queued = Banyan.builder(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh",
                "-c", "sleep 2")).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        awaitLine(out, "shrink from 4");
        List<String> ranks = Banyan.processesWith("FlexibleSleep").stream().map(l -> l.split("\\s+")[0]).toList();
        List<String[]> ports = new ArrayList<>();
        Process ss = new ProcessBuilder("ss", "-Htlnp").redirectErrorStream(true).start();
        for (String line : new String(ss.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("pid=(\\d+),").matcher(line);
            if (m.find() && ranks.contains(m.group(1))) {
                String local = line.strip().split("\\s+")[3];
                String host = local.substring(0, local.lastIndexOf(':')).replace("[", "").replace("]", "").replace("::ffff:", "");
                ports.add(new String[] {host.equals("*") || host.equals("0.0.0.0") ? "127.0.0.1" : host,
                        local.substring(local.lastIndexOf(':') + 1)});
            }
        }
        ss.waitFor();
        assertThat(ports).as("the ranks' TCP ports").isNotEmpty();
        for (String[] hostPort : ports) {
            try (java.net.Socket stranger = new java.net.Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
                byte[] hello = new byte[4 + 16 + 32 + 16]; // "rank 0", a guessed proof, and an empty message
                new java.util.Random(1).nextBytes(hello);
                java.nio.ByteBuffer.wrap(hello).putInt(0);
                stranger.getOutputStream().write(hello);
                stranger.setSoTimeout(15_000);
                boolean closed;
                try {
                    closed = stranger.getInputStream().read() < 0;
                } catch (java.net.SocketTimeoutException e) {
                    closed = false;
                } catch (java.net.SocketException e) { // reset: closed with our message unread
                    closed = true;
                }
                assertThat(closed).as("closed by the rank at " + String.join(":", hostPort)).isTrue();
            } catch (java.net.ConnectException e) {
                // a leaving rank closed its port meanwhile
            }
        }
        assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();
        queued.waitFor(30, TimeUnit.SECONDS);
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isZero();
        assertThat(text).containsPattern("banyan-comm: rank \\d refused a connection from .*: it did not prove the job's secret")
                .contains("step 11:");
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    @Test
    void anExpansionWhoseRanksDoNotJoinInTimeIsAbandonedAndTheJobGoesOn() throws Exception {
        startDvm();
        Path out = dir.resolve("flexible.out");
        Process flexible = submitFlexible(out, List.of("--resize-timeout", "2", "-x", "FLEXIBLE_SLEEP_STALL=1"), 12, 1.2);
        awaitLine(out, "step 1: 4 rank(s)");
        String status = Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout();
        assertThat(status).as("one job, at its size now: its expansion was listed as a job of its own")
                .containsPattern("(?m)^1 +4  ").doesNotContainPattern("(?m)^[0-9]+ +2  ");
        Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "5", "sh", "-c",
                "echo B ran");
        assertThat(queued.exit()).as(queued.stderr()).isZero();
        assertThat(flexible.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(flexible.exitValue()).as(text).isZero();
        assertThat(text).contains("shrink from 4").containsPattern("step \\d+: 2 rank\\(s\\) \\(expansion to 4 abandoned after")
                .contains("the expansion to generation 2 was abandoned: its new ranks did not join in time; going on at 2 rank(s)")
                .contains("step 11: 2 rank(s)");
        Banyan.assertNoProcessesWith("FlexibleSleep");
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).contains("no job running")
                .containsPattern("c +2 +0 +up");
    }

    /**
     * The result line of {@code main} run rigid under banyan run -n 2, then queued at 1:4 hosts
     * while a 2-host job comes and goes (a shrink, then an expansion): the same bit for bit.
     */
    void sameResultRigidAndResized(String main, String resultPrefix, String sizeLine, List<String> args) throws Exception {
        Banyan.Result rigid = Banyan.run(null, CommExamples.command(List.of("-n", "2"), classPath, main,
                args.toArray(String[]::new)));
        assertThat(rigid.exit()).as(rigid.stderr()).isZero();
        String result = rigid.stdout().lines().filter(l -> l.startsWith(resultPrefix)).findFirst().orElseThrow();
        assertThat(resizedOutput(main, sizeLine, args)).contains(result);
    }

    /** {@code main} queued at 1:4 hosts while a 2-host job comes and goes: its output, after a shrink and an expansion. */
    String resizedOutput(String main, String sizeLine, List<String> args) throws Exception {
        Path out = dir.resolve(main + ".out");
        List<String> submit = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1:4", "--time", "30",
                JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath, main));
        submit.addAll(args);
        submit.add("150");
        Process p = Banyan.builder(submit).redirectErrorStream(true).redirectOutput(out.toFile())
                .redirectInput(new java.io.File("/dev/null")).start();
        awaitLine(out, sizeLine + " 0: 4 rank(s)");
        Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--time", "3", "sleep",
                "1");
        assertThat(queued.exit()).as(queued.stderr()).isZero();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(p.exitValue()).as(text).isZero();
        assertThat(text).containsPattern(sizeLine + " \\d+: 2 rank\\(s\\)\\n(.|\\n)*" + sizeLine + " \\d+: 4 rank\\(s\\)");
        return text;
    }

    @Test
    void theSeedsThreeApplicationsGiveTheirResultsResized() throws Exception {
        startDvm();
        sameResultRigidAndResized("Jacobi", "jacobi:", "iteration", List.of("1024", "6000", "200"));
        sameResultRigidAndResized("NBody", "nbody:", "step", List.of("256", "2000", "40"));
        // CG's dot products are summed in another order at another size: converged and accurate, not bit for bit
        String cg = resizedOutput("CG", "iteration", List.of("2000", "20"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "cg: 2000 unknowns, converged after \\d+ iterations, relative residual (\\S+), relative error (\\S+)").matcher(cg);
        assertThat(m.find()).as(cg).isTrue();
        assertThat(Double.parseDouble(m.group(1))).isLessThan(1e-10);
        assertThat(Double.parseDouble(m.group(2))).isLessThan(1e-9);
    }
}
