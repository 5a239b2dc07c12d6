package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.banyan.core.wire.OverlayCodec;
import org.banyan.core.wire.OverlayMessage;
import org.junit.jupiter.api.Test;

/**
 * The daemons' overlay takes only links that prove the job's secret. A stranger who connects to
 * the head's listener and says DAEMON_HELLO (which once got it the job, environment and all, and
 * let it report exits) is refused before its first frame is read, and said; the job goes on.
 * The secret is in no daemon's arguments or environment.
 */
class OverlayAuthTest {
    private static final Pattern SECRET_LIKE = Pattern.compile("[0-9a-f]{64}");

    @Test
    void aStrangerPosingAsADaemonIsRefusedAndTheJobGoesOn() throws Exception {
        String m = Banyan.marker();
        Process job = Banyan.builder(List.of("run", "--launcher", "local", "-H", "ha,hb", "-n", "2", "sh", "-c",
                "sleep 3; echo done " + m)).start();
        ProcessHandle daemon = null;
        for (int i = 0; i < 300 && daemon == null; i++) {
            daemon = job.toHandle().descendants().filter(h -> h.info().commandLine().orElse("").contains("DaemonMain"))
                    .findFirst().orElse(null);
            Thread.sleep(20);
        }
        assertThat(daemon).as("a daemon process").isNotNull();
        String cmdline = Files.readString(Path.of("/proc", Long.toString(daemon.pid()), "cmdline")).replace('\0', ' ');
        String environ = Files.readString(Path.of("/proc", Long.toString(daemon.pid()), "environ"));
        assertThat(SECRET_LIKE.matcher(cmdline).find()).as("a secret in the daemon's arguments: " + cmdline).isFalse();
        assertThat(SECRET_LIKE.matcher(environ).find()).as("a secret in the daemon's environment").isFalse();
        String[] parent = cmdline.replaceAll(".*--parent (\\S+).*", "$1").strip().split(":");

        byte[] said;
        try (Socket s = new Socket(parent[0], Integer.parseInt(parent[1]))) {
            s.setSoTimeout(15_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(OverlayCodec.encode(new OverlayMessage.DaemonHello(1, "hb", 4242, "127.0.0.1:1")));
            out.write(new byte[64]); // and more, as a stranger's next frames would be
            out.flush();
            said = new DataInputStream(s.getInputStream()).readAllBytes();
        }
        assertThat(new String(said, 0, 4, StandardCharsets.US_ASCII)).as("the challenge").isEqualTo("BNY1");
        assertThat(said).as("the challenge and nothing more: no Adopt, no job").hasSize(4 + 16);

        assertThat(job.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(job.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(job.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(job.exitValue()).as(err).isZero();
        assertThat(out).isEqualTo(("done " + m + "\n").repeat(2));
        assertThat(err).startsWith("banyan: refused an overlay connection from /127.0.0.1:")
                .contains(": it did not prove the job's secret");
        Banyan.assertNoProcessesWith(m);
    }
}
