package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java ranks passing messages with banyan-comm under banyan run, monitored or not, on this host. */
class CommTest {
    @TempDir
    static Path dir;
    static String classPath;

    @BeforeAll
    static void compile() throws Exception {
        classPath = CommExamples.compile(dir.resolve("classes"));
    }

    @Test
    void theStencilOnEightRanksGetsTheResidualOfOne() throws Exception {
        Banyan.Result one = Banyan.run(CommExamples.command(List.of("-n", "1"), classPath, "Stencil", "64", "40")
                .toArray(String[]::new));
        Banyan.Result eight = Banyan.run(CommExamples.command(List.of("-n", "8"), classPath, "Stencil", "64", "40")
                .toArray(String[]::new));
        assertThat(eight.exit()).as(eight.stderr()).isZero();
        assertThat(eight.stdout()).contains("on 8 ranks (2x4)");
        assertThat(CommExamples.residual(eight.stdout())).isEqualTo(CommExamples.residual(one.stdout()));
    }

    /** The reduce's matrix is its binomial tree, counted exactly, and profile2mat reads our profiles as we do. */
    @Test
    void monitoringAReduceShowsItsBinomialTree() throws Exception {
        Path mon = dir.resolve("mon");
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "8", "--monitor-out", mon.toString()), classPath,
                "Reduce", "128", "10").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("(correct)");
        try (Stream<Path> files = Files.list(mon)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".prof")).sorted()).containsExactly(
                    "banyan.0.prof", "banyan.1.prof", "banyan.2.prof", "banyan.3.prof", "banyan.4.prof", "banyan.5.prof",
                    "banyan.6.prof", "banyan.7.prof");
        }
        // the head gathered them at the end of the run
        assertThat(r.stderr()).contains("banyan run: monitoring profiles of 8 of 8 ranks gathered into matrices and heat maps in "
                + mon);
        assertThat(mon.resolve("matrix_internal_msgs.csv")).isNotEmptyFile();
        Files.delete(mon.resolve("matrix_internal_msgs.csv"));
        Banyan.Result m = Banyan.run("monitor", mon.toString());
        assertThat(m.exit()).as(m.stderr()).isZero();
        assertThat(m.stdout()).contains("internal            71,680 bytes           70 messages");
        // rank r sends to r minus its lowest set bit, 10 times 128 doubles
        assertThat(Files.readAllLines(mon.resolve("matrix_internal_msgs.csv"))).containsExactly(
                "from\\to,0,1,2,3,4,5,6,7",
                "0,0,0,0,0,0,0,0,0",
                "1,10,0,0,0,0,0,0,0",
                "2,10,0,0,0,0,0,0,0",
                "3,0,0,10,0,0,0,0,0",
                "4,10,0,0,0,0,0,0,0",
                "5,0,0,0,0,10,0,0,0",
                "6,0,0,0,0,10,0,0,0",
                "7,0,0,0,0,0,0,10,0");
        assertThat(Files.readString(mon.resolve("matrix_internal_bytes.csv"))).contains("\n7,0,0,0,0,0,0,10240,0\n");
        assertThat(mon.resolve("heatmap_all.png")).isNotEmptyFile();
        assertThat(mon.resolve("heatmap_all.svg")).isNotEmptyFile();
    }

    /** Open MPI's own profile2mat (openmpi-bin, which .ci/run installs) writes our .mat files from our profiles. */
    @Test
    void openMpisProfile2matReadsOurProfilesAsWeDo() throws Exception {
        Path profile2mat = Path.of("/usr/bin/profile2mat");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(profile2mat),
                "profile2mat is not installed (apt-get install openmpi-bin)");
        Path mon = dir.resolve("mon-p2m");
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "8", "--monitor-out", mon.toString()), classPath,
                "Reduce", "128", "10").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Path agg = dir.resolve("agg.prof");
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            all.append(Files.readString(mon.resolve("banyan." + i + ".prof")));
        }
        Files.writeString(agg, all);
        Process p = new ProcessBuilder(profile2mat.toString(), agg.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        for (String kind : List.of("size", "msg", "avg")) {
            assertThat(dir.resolve("agg_" + kind + "_all.mat")).hasSameTextualContentAs(mon.resolve("banyan_" + kind + "_all.mat"));
        }
    }

    @Test
    void aSecondRunInTheSameDirectoryLeavesNoProfileOfTheFirst() throws Exception {
        Path mon = dir.resolve("again");
        for (int n : new int[] {4, 2}) {
            Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", Integer.toString(n), "--monitor-out", mon.toString()),
                    classPath, "Reduce", "16", "2").toArray(String[]::new));
            assertThat(r.exit()).as(r.stderr()).isZero();
        }
        try (Stream<Path> files = Files.list(mon)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".prof")).sorted())
                    .containsExactly("banyan.0.prof", "banyan.1.prof");
        }
        assertThat(Files.readAllLines(mon.resolve("matrix_internal_msgs.csv"))).containsExactly("from\\to,0,1", "0,0,0", "1,2,0");
    }

    @Test
    void monitorOfADirectoryWithoutProfilesIsOneLineAndStatusTwo() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        Banyan.Result r = Banyan.run("monitor", dir.resolve("empty").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr().strip()).startsWith("banyan monitor: ").endsWith("holds no .prof file (run with banyan run --monitor-out "
                + dir.resolve("empty") + ")").doesNotContain("\n");
    }

    /**
     * The documented idiom, try-with-resources around the world, with one rank failing: rank 2
     * calls a bcast of another size than the others. It hung the job (its close waited in a
     * barrier for ranks stuck in the bcast). Now every rank's wait on a rank that closed ends with
     * an exception, every rank exits, and banyan names the first failure, in seconds.
     */
    @Test
    void aRankThatThrowsInsideTryWithResourcesEndsTheJob() throws Exception {
        Path src = dir.resolve("fail-src/Mismatch.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                import org.banyan.client.Banyan;
                import org.banyan.comm.Comm;
                public class Mismatch {
                    public static void main(String[] args) {
                        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                            double[] b = new double[world.rank() == 2 ? 8 : 4];
                            world.bcast(b, 0);
                            world.barrier();
                            System.out.println("rank " + world.rank() + " done");
                        }
                    }
                }
                """);
        Path out = dir.resolve("fail-classes");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                CommExamples.CLASS_PATH_JARS, "-d", out.toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(javac.waitFor()).as(new String(javac.getInputStream().readAllBytes())).isZero();
        long t0 = System.nanoTime();
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "4", "--timeout", "60"),
                CommExamples.CLASS_PATH_JARS + ":" + out, "Mismatch").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("bcast").contains("exited with status 1").doesNotContain("timeout");
        assertThat((System.nanoTime() - t0) / 1e9).as("not the 60 s timeout").isLessThan(45);
    }

    /**
     * A rank whose process ends with status 0 before its world's close (a library's
     * System.exit(0), Runtime.halt): the others waited in their barrier for ever; now its daemon,
     * which saw it wire up and never finalize, has the job end, as mpirun would.
     */
    @Test
    void aRankThatHaltsBeforeClosingItsWorldEndsTheJob() throws Exception {
        Path src = dir.resolve("halt-src/Halts.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                import org.banyan.client.Banyan;
                import org.banyan.comm.Comm;
                public class Halts {
                    public static void main(String[] args) {
                        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                            if (world.rank() == 1) {
                                Runtime.getRuntime().halt(0);
                            }
                            world.barrier();
                            System.out.println("rank " + world.rank() + " went on");
                        }
                    }
                }
                """);
        Path out = dir.resolve("halt-classes");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                CommExamples.CLASS_PATH_JARS, "-d", out.toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(javac.waitFor()).as(new String(javac.getInputStream().readAllBytes())).isZero();
        long t0 = System.nanoTime();
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "3", "--timeout", "60"),
                CommExamples.CLASS_PATH_JARS + ":" + out, "Halts").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("rank 1 on ").contains("exited with status 0 without finalizing");
        assertThat(r.stdout()).doesNotContain("went on");
        assertThat((System.nanoTime() - t0) / 1e9).as("not the 60 s timeout").isLessThan(45);
        Banyan.assertNothingLeft("Halts");
    }

    /**
     * MPI_Abort: rank 1 of 3 aborts with a code and a message while the others wait in a
     * barrier; the whole job ends at once with that code, the launcher naming the rank and the
     * message, and no rank is left.
     */
    @Test
    void abortEndsEveryRankWithItsCode() throws Exception {
        Path src = dir.resolve("abort-src/Aborts.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                import org.banyan.client.Banyan;
                import org.banyan.comm.Comm;
                public class Aborts {
                    public static void main(String[] args) {
                        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                            if (world.rank() == 1) {
                                world.abort(7, "the input is wrong");
                            }
                            world.barrier();
                            System.out.println("rank " + world.rank() + " went on");
                        }
                    }
                }
                """);
        Path out = dir.resolve("abort-classes");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                CommExamples.CLASS_PATH_JARS, "-d", out.toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(javac.waitFor()).as(new String(javac.getInputStream().readAllBytes())).isZero();
        long t0 = System.nanoTime();
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "3", "--timeout", "60"),
                CommExamples.CLASS_PATH_JARS + ":" + out, "Aborts").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(7);
        assertThat(r.stderr()).contains("rank 1 on ").contains("called abort (MPI_Abort) with exit code 7: the input is wrong");
        assertThat(r.stdout()).doesNotContain("went on");
        assertThat((System.nanoTime() - t0) / 1e9).as("not the 60 s timeout").isLessThan(45);
        Banyan.assertNothingLeft("Aborts");
    }

    /**
     * Flow control, as the issue tried it: rank 0 starts 1,000 sends of 1 MiB before rank 1 has
     * posted a receive (they are queued ahead of a barrier), rank 1 runs in a 256 MiB heap. When
     * every message went eagerly, rank 1 had to take all 1,000 MiB into its heap to reach the
     * barrier (OutOfMemoryError); announced, they wait at the sender until asked for.
     */
    @Test
    void aThousandUnpostedOneMebibyteSendsFitInASmallHeap() throws Exception {
        Path src = dir.resolve("flow-src/Flood.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                import java.util.ArrayList;
                import java.util.List;
                import org.banyan.client.Banyan;
                import org.banyan.comm.Comm;
                import org.banyan.comm.Request;
                public class Flood {
                    public static void main(String[] args) {
                        try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                            byte[] buffer = new byte[1 << 20];
                            if (world.rank() == 0) {
                                for (int i = 0; i < 1000; i++) {
                                    buffer[i] = (byte) i;
                                }
                                List<Request> sends = new ArrayList<>();
                                for (int i = 0; i < 1000; i++) {
                                    sends.add(world.isend(buffer, 1, i)); // one buffer, read by every send
                                }
                                world.barrier();
                                Request.awaitAll(sends);
                            } else {
                                world.barrier();
                                long sum = 0;
                                for (int i = 0; i < 1000; i++) {
                                    world.recv(buffer, 0, i);
                                    sum += buffer[i];
                                }
                                System.out.println("received 1000, sum " + sum);
                            }
                        }
                    }
                }
                """);
        Path out = dir.resolve("flow-classes");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                CommExamples.CLASS_PATH_JARS, "-d", out.toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(javac.waitFor()).as(new String(javac.getInputStream().readAllBytes())).isZero();
        List<String> command = new java.util.ArrayList<>(CommExamples.command(List.of("-n", "2", "--timeout", "120"),
                CommExamples.CLASS_PATH_JARS + ":" + out, "Flood"));
        command.add(command.indexOf("-cp"), "-Xmx256m");
        Banyan.Result r = Banyan.run(command.toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        long expected = 0;
        for (int i = 0; i < 1000; i++) {
            expected += (byte) i;
        }
        assertThat(r.stdout()).contains("received 1000, sum " + expected);
        assertThat(r.stderr()).doesNotContain("OutOfMemoryError");
    }
}
