package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-daemon runs on this machine ({@code --launcher local}): every daemon is a JVM of its own,
 * started by its parent in the tree, so tree spawn, relaying, fences over the tree and the
 * failure cascade run for real. Host names are labels here.
 */
class TreeLaunchTest {
    @TempDir
    Path dir;

    static String hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("h" + i);
        }
        return String.join(",", h);
    }

    static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    @Test
    void everyTreeShapeRunsOneRankPerDaemon() throws Exception {
        for (String[] shape : new String[][] {{"--spawn-degree", "1"}, {"--spawn-degree", "2"}, {"--spawn-degree", "3"},
            {"--launch", "star"}, {"--spawn-degree", "0", "--routing", "binomial"}}) {
            List<String> args = new ArrayList<>(List.of("run", "--launcher", "local", "--host", hosts(7)));
            args.addAll(List.of(shape));
            args.addAll(List.of("sh", "-c", "echo $PMI_RANK $BANYAN_NODE_RANK"));
            Banyan.Result r = Banyan.run(null, args);
            assertThat(r.exit()).as(String.join(" ", shape) + ": " + r.stderr()).isZero();
            assertThat(lines(r.stdout())).as(String.join(" ", shape)).containsExactlyInAnyOrder(
                    "0 0", "1 1", "2 2", "3 3", "4 4", "5 5", "6 6");
        }
    }

    @Test
    void mpiRanksOnDifferentDaemonsWireUpThroughTheTree() throws Exception {
        Path src = dir.resolve("ring.c");
        Files.writeString(src, MpichInteropTest.PROGRAMS.get("ring"));
        Path ring = dir.resolve("ring");
        Process cc = new ProcessBuilder("mpicc.mpich", "-std=c99", "-o", ring.toString(), src.toString())
                .redirectErrorStream(true).start();
        assertThat(cc.waitFor()).isZero();
        Banyan.Result r = Banyan.run("run", "--launcher", "local", "--host", "a:2,b:2,c:2,d:2", "--spawn-degree", "2",
                ring.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 24 after 3 laps\n");
    }

    @Test
    void stdinReachesItsRankThroughTheTree() throws Exception {
        Banyan.Result r = Banyan.runWithStdin("one\ntwo\nthree\n", "run", "--launcher", "local", "--host", hosts(5),
                "--spawn-degree", "2", "--stdin", "4", "sh", "-c", "echo $PMI_RANK $(wc -l)");
        assertThat(r.exit()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("0 0", "1 0", "2 0", "3 0", "4 3");
    }

    /**
     * mpirun's --stdin all (srun's default): every rank reads all of it, on every daemon of a
     * deep tree; 200,000 lines, so the head has read much of it before the last subtree could
     * have had the job. It was refused ("--stdin takes a rank number or 'none'").
     */
    @Test
    void stdinForEveryRankReachesEveryRankThroughTheTree() throws Exception {
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            input.append(i).append('\n');
        }
        Banyan.Result r = Banyan.runWithStdin(input.toString(), "run", "--launcher", "local", "--host", hosts(7),
                "--spawn-degree", "2", "--stdin", "all", "sh", "-c", "echo $PMI_RANK $(cksum)");
        assertThat(r.exit()).as(r.stderr()).isZero();
        String sum = cksum(input.toString());
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("0 " + sum, "1 " + sum, "2 " + sum, "3 " + sum, "4 " + sum,
                "5 " + sum, "6 " + sum);
    }

    private String cksum(String text) throws Exception {
        Process p = new ProcessBuilder("cksum").start();
        try (var in = p.getOutputStream()) {
            in.write(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
        assertThat(p.waitFor()).isZero();
        return out;
    }

    @Test
    void aFailingRankOnADeepDaemonEndsEveryRankEverywhere() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "--launcher", "local", "--host", hosts(7), "--spawn-degree", "2", "sh", "-c",
                "if [ $PMI_RANK = 5 ]; then exit 9; fi; sleep " + m);
        assertThat(r.exit()).isEqualTo(9);
        assertThat(r.stderr()).contains("banyan run: rank 5 on h5 exited with status 9; ending the job");
        Banyan.assertNothingLeft(m);
    }

    @Test
    void losingAnInteriorDaemonEndsItsSubtreeAndTheJob() throws Exception {
        String m = Banyan.marker();
        // Daemon 0 (vertex 1) is interior: daemons 2 and 3 hang below it.
        Banyan.assertLosingDaemonZeroEndsTheJob(Banyan.builder(List.of("run", "--launcher", "local", "--host", hosts(7),
                "--spawn-degree", "2", "sleep", m)), m, 7, "h0");
    }

    @Test
    void killingTheHeadTakesTheWholeTreeDown() throws Exception {
        String m = Banyan.marker();
        Banyan.assertKillingTheHeadLeavesNothing(Banyan.builder(List.of("run", "--launcher", "local", "--host",
                hosts(7), "--spawn-degree", "2", "sleep", m)), m, 7);
    }

    @Test
    void aDaemonThatCannotStartIsNamedWithTheAgentsReason() throws Exception {
        String m = Banyan.marker();
        Path agent = dir.resolve("broken-ssh");
        Files.writeString(agent, "#!/bin/sh\necho \"broken-ssh: connect to host $1 port 22: Connection refused\" >&2\nexit 255\n");
        agent.toFile().setExecutable(true);
        Banyan.Result r = Banyan.run("run", "--launch-agent", agent.toString(), "--host", "localhost,127.0.0.2",
                "sleep", m);
        assertThat(r.exit()).isEqualTo(1);
        // Both hosts' daemons fail at once: whichever loss reaches the head first is the one named.
        assertThat(lines(r.stderr())).anySatisfy(l -> assertThat(l).matches(
                "banyan run: lost the daemon on (localhost|127\\.0\\.0\\.2): daemon via " + java.util.regex.Pattern.quote(agent.toString())
                        + " ended, exit status 255: broken-ssh: connect to host \\1 port 22: Connection refused"));
        Banyan.assertNoProcessesWith(m);
    }
}
