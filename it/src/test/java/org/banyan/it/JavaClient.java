package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** examples/java/KeyExchange.java, compiled against the client jar, and how to run it. */
final class JavaClient {
    static final Path JAR = Banyan.ROOT.resolve("client/target/banyan-client.jar");
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private JavaClient() {}

    /** Compiles the example into {@code dir}; returns the class path to run it with. */
    static String compile(Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir);
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                JAR.toString(), "-d", dir.toString(), Banyan.ROOT.resolve("examples/java/KeyExchange.java").toString())
                .redirectErrorStream(true).start();
        assertThat(javac.waitFor()).as(new String(javac.getInputStream().readAllBytes())).isZero();
        return JAR + ":" + dir;
    }

    /** The banyan run arguments that start the example, after {@code before}. */
    static List<String> command(List<String> before, String classPath) {
        List<String> args = new ArrayList<>(before);
        args.addAll(List.of("--tag-output", JAVA, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                "KeyExchange"));
        return args;
    }

    /**
     * Each rank's line, tag removed: "rank R of N (local L on node D): rank R+1 is HOST/pid P, host
     * H local rank LR". {@code hostOf} gives each rank's host name as the job lists it.
     */
    static void assertEveryRankSawItsNeighbour(String stdout, int n, java.util.function.IntFunction<String> hostOf) {
        List<String> lines = stdout.lines().map(l -> l.substring(l.indexOf(':') + 1)).toList();
        assertThat(lines).as(stdout).hasSize(n);
        for (int r = 0; r < n; r++) {
            int next = (r + 1) % n;
            String prefix = "rank " + r + " of " + n + " ";
            String line = lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow(
                    () -> new AssertionError("no line from rank " + prefix + " in " + stdout));
            assertThat(line).contains("): rank " + next + " is ").endsWith(", host " + hostOf.apply(next)
                    + " local rank " + line.substring(line.lastIndexOf(' ') + 1));
        }
    }
}
