package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** ../shared/vcluster for tests: hosts up before a class, down after it. */
final class Vcluster {
    static final Path SCRIPT = Banyan.ROOT.resolve("../shared/vcluster").normalize();

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
     * Brings up {@code hosts} hosts, after taking down any left from before. A veth whose network
     * namespace the kernel is still tearing down can outlive {@code vcluster down} and make the
     * next {@code up} fail with "File exists"; deleting one end of a veth removes both.
     */
    static void up(int hosts, boolean slurm) throws Exception {
        new ProcessBuilder(SCRIPT.toString(), "down").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
        Process links = new ProcessBuilder("ip", "-o", "link", "show").redirectErrorStream(true).start();
        for (String line : new String(links.getInputStream().readAllBytes()).split("\n")) {
            String[] f = line.split(": ", 3);
            if (f.length > 1) {
                String name = f[1].split("@")[0];
                if (name.matches("vcv\\d+")) {
                    new ProcessBuilder("ip", "link", "del", name).start().waitFor();
                }
            }
        }
        List<String> cmd = new ArrayList<>(List.of(SCRIPT.toString(), "up", Integer.toString(hosts)));
        if (slurm) {
            cmd.add("--slurm");
            restartStaleMunge();
        }
        try {
            run(cmd.toArray(String[]::new));
        } catch (AssertionError first) {
            // Seen once in CI after the Slurm hosts went down: "Cannot open network namespace vc2"
            // while the kernel was still releasing the old one. Take everything down and try once more.
            new ProcessBuilder(SCRIPT.toString(), "down").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(120, TimeUnit.SECONDS);
            Thread.sleep(2000);
            run(cmd.toArray(String[]::new));
        }
    }

    /**
     * vcluster starts munged only when its socket is missing; a munged that died (a session that
     * ended, a reboot of the container without /run cleared) leaves the socket behind, and Slurm
     * then fails with "Munge encode failed: Connection refused". Start it again when that is so.
     */
    private static void restartStaleMunge() throws Exception {
        new ProcessBuilder("sh", "-c",
                        "command -v munge >/dev/null || exit 0; "
                                + "munge -n </dev/null >/dev/null 2>&1 && exit 0; "
                                + "rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock; "
                                + "mkdir -p /run/munge; chown munge:munge /run/munge 2>/dev/null; "
                                + "munged --force")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    static void down() throws Exception {
        run(SCRIPT.toString(), "down");
    }
}
