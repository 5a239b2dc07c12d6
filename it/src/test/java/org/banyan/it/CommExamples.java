package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The banyan-comm examples (examples/java), compiled once, and the banyan run arguments that start them. */
final class CommExamples {
    static final String CLASS_PATH_JARS = Banyan.ROOT.resolve("client/target/banyan-client.jar") + ":"
            + Banyan.ROOT.resolve("comm/target/banyan-comm.jar");

    private CommExamples() {}

    static String compile(Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir);
        List<String> javac = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-cp", CLASS_PATH_JARS, "-d", dir.toString()));
        for (String c : List.of("Stencil", "Reduce", "PingPong", "FlexibleSleep", "Jacobi", "NBody", "CG", "Reorder", "Spawn")) {
            javac.add(Banyan.ROOT.resolve("examples/java/" + c + ".java").toString());
        }
        Process p = new ProcessBuilder(javac).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes())).isZero();
        return CLASS_PATH_JARS + ":" + dir;
    }

    /** {@code before} (banyan run options), then the JVM running {@code main} with {@code args}. */
    static List<String> command(List<String> before, String classPath, String main, String... args) {
        List<String> all = new ArrayList<>(List.of("run", "--oversubscribe"));
        all.addAll(before);
        all.addAll(List.of(JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                main));
        all.addAll(List.of(args));
        return all;
    }

    /** The residual the stencil prints: "... residual 1.234567890e-02 (0.1 s)". */
    static String residual(String stdout) {
        int at = stdout.indexOf("residual ");
        assertThat(at).as(stdout).isPositive();
        return stdout.substring(at + 9, stdout.indexOf(' ', at + 9));
    }
}
