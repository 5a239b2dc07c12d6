package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DVM's resource manager through the real commands: {@code banyan dvm submit} queues jobs for
 * whole hosts of a four-host DVM (daemons as local processes), first come, first served with
 * EASY backfill; what the user sees, and what ps sees, after each way a job leaves.
 */
class DvmQueueTest {
    @TempDir
    Path dir;

    Path uri;

    void startDvm() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--launcher", "local", "--host",
                "a:2,b:2,c:2,d:2");
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    @AfterEach
    void stopDvm() throws Exception {
        if (uri != null && Files.exists(uri)) {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNoProcessesWith("DaemonMain");
    }

    Process submit(Path output, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("dvm", "submit", "--dvm", uri.toString()));
        all.addAll(List.of(args));
        return Banyan.builder(all).redirectErrorStream(true).redirectOutput(output.toFile())
                .redirectInput(new java.io.File("/dev/null")).start();
    }

    String status() throws Exception {
        return Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout();
    }

    void awaitStatus(String pattern) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String s = "";
        while (System.nanoTime() < deadline) {
            s = status();
            if (java.util.regex.Pattern.compile(pattern, java.util.regex.Pattern.MULTILINE).matcher(s).find()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("dvm status never matched " + pattern + ":\n" + s);
    }

    static String finish(Process p, Path output) throws Exception {
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("banyan dvm submit finished").isTrue();
        return Files.readString(output, StandardCharsets.UTF_8);
    }

    @Test
    void queuedJobsTakeWholeHostsInTurnAndAShortJobIsBackfilled() throws Exception {
        startDvm();
        Path go = dir.resolve("go");
        // A: three hosts, two ranks each, until the test lets it end
        Process a = submit(dir.resolve("a.out"), "--nodes", "3", "--ranks-per-node", "2", "--time", "60", "sh", "-c",
                "echo A $BANYAN_RANK of $BANYAN_SIZE; while [ ! -e " + go + " ]; do sleep 0.1; done");
        awaitStatus("^a +2 +2 +up");
        assertThat(status()).containsPattern("b +2 +2 +up").containsPattern("c +2 +2 +up").containsPattern("d +2 +0 +up");

        // B needs two hosts: one is free, so it waits (first in line)
        Process b = submit(dir.resolve("b.out"), "--nodes", "2", "--time", "10", "--tag-output", "sh", "-c",
                "date +%s%N >> " + dir.resolve("b.started") + "; echo B ran");
        awaitStatus("^\\d+ +2  sh$");
        // C fits the free host and ends (by its estimate) before A: backfilled past B
        Process c = submit(dir.resolve("c.out"), "--nodes", "1", "--time", "5", "sh", "-c",
                "echo C ran; date +%s%N > " + dir.resolve("c.started"));
        String cOut = finish(c, dir.resolve("c.out"));
        assertThat(c.exitValue()).as(cOut).isZero();
        assertThat(cOut).contains("C ran").doesNotContain("waits");
        assertThat(Files.exists(dir.resolve("b.started"))).as("B still waits for A's hosts").isFalse();

        // the held hosts are not the agent's: run --dvm gets only what the queue leaves
        Banyan.Result tooBig = Banyan.run("run", "--dvm", uri.toString(), "-n", "3", "true");
        assertThat(tooBig.exit()).isEqualTo(2);
        assertThat(tooBig.stderr()).contains("3 ranks requested but only 2 of the DVM's 8 slots are free");

        Files.createFile(go);
        String aOut = finish(a, dir.resolve("a.out"));
        assertThat(a.exitValue()).as(aOut).isZero();
        for (int r = 0; r < 6; r++) {
            assertThat(aOut).contains("A " + r + " of 6");
        }
        String bOut = finish(b, dir.resolve("b.out"));
        assertThat(b.exitValue()).as(bOut).isZero();
        java.util.regex.Matcher waits = java.util.regex.Pattern.compile("banyan dvm submit: job (\\d+) waits for 2 hosts")
                .matcher(bOut);
        assertThat(waits.find()).as(bOut).isTrue();
        assertThat(bOut).as("its output under the id it waited with").contains("[" + waits.group(1) + ",0]<stdout>:B ran")
                .contains("[" + waits.group(1) + ",1]<stdout>:B ran");
        assertThat(Files.readAllLines(dir.resolve("b.started"))).as("one rank per host").hasSize(2);
        long cStarted = Long.parseLong(Files.readString(dir.resolve("c.started")).strip());
        long bStarted = Long.parseLong(Files.readAllLines(dir.resolve("b.started")).getFirst().strip());
        assertThat(cStarted).isLessThan(bStarted);
        String log = Files.readString(dir.resolve("dvm.uri.log"));
        assertThat(log).containsPattern("job \\d+ \\(queued\\) of client \\d+: 1 rank\\(s\\) of sh on host\\(s\\) \\[d\\]");
        assertThat(status()).contains("no job running").doesNotContain("queued");
        assertThat(status()).containsPattern("a +2 +0 +up");
    }

    @Test
    void aClientThatLeavesTakesItsQueuedJobAwayAndLeavesNothingRunning() throws Exception {
        startDvm();
        String marker = Banyan.marker();
        Process hog = submit(dir.resolve("hog.out"), "--nodes", "4", "sleep", marker);
        Banyan.awaitSleeps(marker, 4);
        Process waiting = submit(dir.resolve("w.out"), "--nodes", "1:2", "--time", "5", "sleep", marker);
        awaitStatus("^\\d+ +1:2  sleep$");
        java.util.regex.Matcher queued = java.util.regex.Pattern.compile("(?m)^(\\d+) +1:2  sleep$").matcher(status());
        assertThat(queued.find()).isTrue();
        String id = queued.group(1);
        waiting.destroy(); // the user's Ctrl-C before it started
        assertThat(waiting.waitFor(20, TimeUnit.SECONDS)).isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (status().contains("queued") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(status()).doesNotContain("queued");
        hog.destroy(); // its ranks go with it
        assertThat(hog.waitFor(20, TimeUnit.SECONDS)).isTrue();
        Banyan.assertNoProcessesWith(marker);
        awaitStatus("no job running");
        assertThat(Files.readString(dir.resolve("dvm.uri.log"))).contains("queued job " + id + " ")
                .doesNotContain("job " + id + " (queued)");
    }

    @Test
    void badRequestsAreOneLineAndStatusTwo() throws Exception {
        Banyan.Result noSize = Banyan.run("dvm", "submit", "--dvm", dir.resolve("none.uri").toString(), "true");
        assertThat(noSize.exit()).isEqualTo(2);
        assertThat(noSize.stderr().strip()).isEqualTo("banyan dvm: dvm submit needs --nodes N or --nodes MIN:MAX");
        Banyan.Result factor = Banyan.run("dvm", "submit", "--nodes", "3:5", "true");
        assertThat(factor.exit()).isEqualTo(2);
        assertThat(factor.stderr()).contains("5 is not 3 times a power of 2");
        Banyan.Result preferred = Banyan.run("dvm", "submit", "--nodes", "2:8", "--preferred", "9", "true");
        assertThat(preferred.exit()).isEqualTo(2);
        assertThat(preferred.stderr()).contains("--preferred 9 is outside --nodes 2:8");
        Banyan.Result time = Banyan.run("dvm", "submit", "--nodes", "2", "--time", "ten", "true");
        assertThat(time.exit()).isEqualTo(2);
        assertThat(time.stderr()).contains("--time takes seconds, M:SS or H:MM:SS, got 'ten'");

        startDvm();
        Banyan.Result ranks = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1", "-n", "2", "true");
        assertThat(ranks.exit()).isEqualTo(2);
        assertThat(ranks.stderr()).contains("drop -n");
        Banyan.Result tooMany = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "5", "true");
        assertThat(tooMany.exit()).isEqualTo(2);
        assertThat(tooMany.stderr().strip())
                .isEqualTo("banyan dvm submit: the DVM refused the job: the job asks for 5 hosts; the DVM has 4");
        Banyan.Result perNode = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "1", "--ranks-per-node",
                "3", "true");
        assertThat(perNode.exit()).isEqualTo(2);
        assertThat(perNode.stderr()).contains("--ranks-per-node 3 is more than the 2 slots of host a");
        assertThat(status()).contains("no job running").doesNotContain("queued");
    }
}
