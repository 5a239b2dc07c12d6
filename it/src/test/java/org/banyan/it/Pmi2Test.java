package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PMI-2 end to end with a client library Banyan did not write: Slurm's libpmi2 (Debian's
 * libpmi2-0-dev), linked into examples/pmi2.c. It negotiates PMI-2 over PMI_PORT and uses
 * fullinit, job-getid, info-getjobattr, node attributes with wait, kvs-put/fence/get with the
 * source rank, and the name service.
 */
class Pmi2Test {
    @TempDir
    static Path dir;
    static Path pmi2;

    @BeforeAll
    static void compile() throws Exception {
        pmi2 = dir.resolve("pmi2");
        Process cc = new ProcessBuilder("mpicc.mpich", "-O2", "-o", pmi2.toString(), Banyan.ROOT.resolve("examples/pmi2.c").toString(),
                "-I/usr/include/slurm", "-lpmi2").redirectErrorStream(true).start();
        assertThat(cc.waitFor()).as(new String(cc.getInputStream().readAllBytes())).isZero();
    }

    static List<String> expected(int n) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            out.add("pmi2 rank " + r + " of " + n + " ok");
        }
        return out;
    }

    @Test
    void onOneHost() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", pmi2.toString());
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout().lines()).containsExactlyInAnyOrderElementsOf(expected(2));
    }

    @Test
    void acrossDaemonsWithEitherModexAndARoutingOfItsOwn() throws Exception {
        for (String modex : List.of("lazy", "full")) {
            Banyan.Result r = Banyan.run("run", "--launcher", "local", "--host", "a:2,b:2,c:2,d:1", "--spawn-degree", "1",
                    "--routing", "binomial", "--modex", modex, "-n", "7", pmi2.toString());
            assertThat(r.exit()).as(modex + ": " + r.stdout() + r.stderr()).isZero();
            assertThat(r.stdout().lines()).as(modex).containsExactlyInAnyOrderElementsOf(expected(7));
        }
    }
}
