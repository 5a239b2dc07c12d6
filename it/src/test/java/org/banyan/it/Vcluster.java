package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The project's test hosts (bin/testhosts) for tests: hosts up before a class, down after it. */
final class Vcluster {
    static final Path SCRIPT = Banyan.ROOT.resolve("bin/testhosts");

    private Vcluster() {}

    /**
     * Output goes to a file, not a pipe: the daemons vcluster starts (slurmctld, slurmd, sshd)
     * inherit its descriptors, and reading a pipe to its end would wait for them to exit. A failed
     * {@code up --slurm} once held a CI run for most of an hour that way.
     */
    static String run(String... cmd) throws Exception {
        Path log = java.nio.file.Files.createTempFile("vcluster", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            boolean ended = p.waitFor(300, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly();
            }
            String out = java.nio.file.Files.readString(log);
            assertThat(ended).as(String.join(" ", cmd) + " did not end within 300 s: " + out).isTrue();
            assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
            return out;
        } finally {
            java.nio.file.Files.deleteIfExists(log);
        }
    }

    /**
     * Brings up {@code hosts} hosts, after taking down any left from before (testhosts' down also
     * removes veths that outlived their namespace, and its up restarts a munged that died).
     */
    static void up(int hosts, boolean slurm) throws Exception {
        new ProcessBuilder(SCRIPT.toString(), "down").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
        List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString(), "up", Integer.toString(hosts)));
        if (slurm) {
            cmd.add("--slurm");
        }
        try {
            run(cmd.toArray(String[]::new));
        } catch (AssertionError first) {
            // Seen once in CI after the Slurm hosts went down: "Cannot open network namespace"
            // while the kernel was still releasing the old one. Take everything down and try once more.
            new ProcessBuilder(SCRIPT.toString(), "down").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
            Thread.sleep(2000);
            run(cmd.toArray(String[]::new));
        }
    }

    static void down() throws Exception {
        run(SCRIPT.toString(), "down");
    }
}
