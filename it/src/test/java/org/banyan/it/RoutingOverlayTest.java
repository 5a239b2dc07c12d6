package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A routing topology that differs from the spawn tree, with real daemon JVMs on this machine:
 * seven daemons spawned radix:2, routed binomial. Binomial routing parents (by vertex, 0 the
 * head): 1-0, 2-0, 3-1, 4-0, 5-1, 6-2, 7-3. So daemon 0 (vertex 1) keeps its spawn links (head,
 * daemons 2 and 3) and gains one to daemon 4 (vertex 5), which dials it; daemon 3 (vertex 4)
 * dials the head.
 */
class RoutingOverlayTest {
    static final List<String> SEVEN = List.of("run", "--launcher", "local", "--host", "a:2,b:2,c:2,d:2,e:2,f:2,g:2",
            "--spawn-degree", "2", "--routing", "binomial");
    static final Pattern DAEMON_LINE = Pattern.compile(
            "banyan run:\\s+(\\d+)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)");

    @TempDir
    static Path dir;
    static Path modex;
    static Path ring;

    @BeforeAll
    static void compile() throws Exception {
        modex = dir.resolve("modex");
        Process cc = new ProcessBuilder("mpicc.mpich", "-O2", "-o", modex.toString(),
                Banyan.ROOT.resolve("examples/modex.c").toString()).redirectErrorStream(true).start();
        assertThat(cc.waitFor()).as(new String(cc.getInputStream().readAllBytes())).isZero();
        Path src = dir.resolve("ring.c");
        Files.writeString(src, MpichInteropTest.PROGRAMS.get("ring"));
        ring = dir.resolve("ring");
        cc = new ProcessBuilder("mpicc.mpich", "-std=c99", "-o", ring.toString(), src.toString())
                .redirectErrorStream(true).start();
        assertThat(cc.waitFor()).isZero();
    }

    static Banyan.Result run(List<String> extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(SEVEN);
        args.addAll(extra);
        return Banyan.run(null, args);
    }

    /** Per daemon id: links, bytes out, bytes in, from --report-launch. */
    static Map<Integer, long[]> report(String stderr) {
        Map<Integer, long[]> out = new TreeMap<>();
        for (String line : stderr.split("\n")) {
            Matcher m = DAEMON_LINE.matcher(line);
            if (m.matches()) {
                out.put(Integer.parseInt(m.group(1)), new long[] {Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(6)), Long.parseLong(m.group(7))});
            }
        }
        return out;
    }

    @Test
    void mpiRunsWithEitherModexOverRoutingLinksOfTheirOwn() throws Exception {
        for (String mode : List.of("full", "lazy")) {
            Banyan.Result r = run(List.of("--modex", mode, "--report-launch", ring.toString()));
            assertThat(r.exit()).as(mode + ": " + r.stderr()).isZero();
            assertThat(r.stdout()).isEqualTo("token 42 after 3 laps\n");
            Map<Integer, long[]> links = report(r.stderr());
            assertThat(links).hasSize(7);
            assertThat(links.get(0)[0]).as("daemon 0: head, two spawn children, one routing child").isEqualTo(4);
            assertThat(links.get(3)[0]).as("daemon 3: its spawn parent and the head").isEqualTo(2);
            for (long[] l : links.values()) {
                assertThat(l[0]).isLessThanOrEqualTo(2 + 3 + 2);
            }
        }
    }

    /** Each rank puts 1000 bytes and reads its two neighbours': lazy moves a fraction of full's bytes. */
    @Test
    void lazyModexMovesOnlyWhatRanksAskFor() throws Exception {
        long[] bytesIn = new long[2];
        List<String> modes = List.of("full", "lazy");
        for (int i = 0; i < 2; i++) {
            Banyan.Result r = run(List.of("--modex", modes.get(i), "--report-launch", modex.toString(), "--bytes", "1000"));
            assertThat(r.exit()).as(modes.get(i) + ": " + r.stderr()).isZero();
            assertThat(r.stdout().lines().filter(l -> l.matches("modex rank \\d+ fence_us \\d+ gets_us \\d+ ok")))
                    .as(r.stdout()).hasSize(14);
            bytesIn[i] = report(r.stderr()).values().stream().mapToLong(l -> l[2]).sum();
        }
        // Full: every daemon receives all 14 values (14 KB each, 98 KB in all). Lazy: the values
        // of remote neighbours (about one per rank), counted at every hop they cross, and a
        // directory of key names. Both counts include the launch's own traffic (~2 KB a daemon).
        assertThat(bytesIn[0]).isGreaterThan(7 * 14 * 1000);
        assertThat(bytesIn[1]).as("lazy vs full bytes in: " + bytesIn[1] + " vs " + bytesIn[0])
                .isLessThan(bytesIn[0] / 2);
    }

    @Test
    void losingADaemonWithARoutingLinkEndsTheJobEverywhere() throws Exception {
        String m = Banyan.marker();
        List<String> args = new java.util.ArrayList<>(SEVEN);
        args.set(4, "a,b,c,d,e,f,g");
        args.addAll(List.of("sleep", m));
        Banyan.assertLosingDaemonZeroEndsTheJob(Banyan.builder(args), m, 7, "a");
    }
}
