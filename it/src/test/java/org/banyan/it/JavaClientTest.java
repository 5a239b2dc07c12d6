package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java client library in real ranks: examples/java/KeyExchange.java across daemons. */
class JavaClientTest {
    @TempDir
    Path dir;

    @Test
    void javaRanksExchangeKeysAcrossDaemons() throws Exception {
        String cp = JavaClient.compile(dir);
        Banyan.Result r = Banyan.run(null, JavaClient.command(List.of("run", "--launcher", "local", "--host",
                "a:2,b:1,c:1", "--spawn-degree", "1", "--routing", "binomial", "-n", "4"), cp));
        assertThat(r.exit()).as(r.stderr()).isZero();
        String[] hosts = {"a", "a", "b", "c"};
        JavaClient.assertEveryRankSawItsNeighbour(r.stdout(), 4, rank -> hosts[rank]);
        assertThat(r.stdout()).contains("rank 1 of 4 (local 1 on node 0): rank 2 is ");
    }

    @Test
    void outsideBanyanTheProgramSaysHowToStartIt() throws Exception {
        String cp = JavaClient.compile(dir);
        Process p = new ProcessBuilder(JavaClient.JAVA, "-cp", cp, "KeyExchange").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).isEqualTo(1);
        assertThat(out).contains("NotUnderBanyanException: not started by banyan run");
    }
}
