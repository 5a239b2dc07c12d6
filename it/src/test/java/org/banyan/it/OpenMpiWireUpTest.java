package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open MPI programs wire up through PMIx, which Banyan does not serve yet (issue 15): a job of
 * several ranks of one is refused before launch instead of running as that many singletons,
 * each "rank 0 of 1"; one rank (a singleton) runs, and MPICH's build of the same source is not
 * touched.
 */
class OpenMpiWireUpTest {
    static final String HELLO = """
            #include <mpi.h>
            #include <stdio.h>
            int main(int argc, char **argv) {
                int r, n;
                MPI_Init(&argc, &argv);
                MPI_Comm_rank(MPI_COMM_WORLD, &r);
                MPI_Comm_size(MPI_COMM_WORLD, &n);
                printf("rank %d of %d\\n", r, n);
                MPI_Finalize();
                return 0;
            }
            """;

    @TempDir
    static Path dir;

    static Path compile(String compiler, String name) throws Exception {
        Path src = dir.resolve("hello.c");
        Files.writeString(src, HELLO);
        Path out = dir.resolve(name);
        Process p = new ProcessBuilder(compiler, "-o", out.toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes())).isZero();
        return out;
    }

    @BeforeAll
    static void needsOpenMpi() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.openmpi")),
                "mpicc.openmpi is not installed (apt-get install libopenmpi-dev)");
    }

    @Test
    void severalRanksOfAnOpenMpiProgramAreRefusedBeforeLaunch() throws Exception {
        Path hello = compile("mpicc.openmpi", "hello-ompi");
        Banyan.Result r = Banyan.run("run", "-n", "3", hello.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).startsWith("banyan run: '" + hello + "' wires up through PMIx (it needs libmpi.so.40")
                .endsWith("(--mpi pmi starts it anyway)\n").doesNotContain("\n\n");
        assertThat(Banyan.processesWith(hello.toString())).isEmpty();
        Banyan.Result one = Banyan.run("run", "-n", "1", hello.toString());
        assertThat(one.exit()).as(one.stderr()).isZero();
        assertThat(one.stdout()).isEqualTo("rank 0 of 1\n");
        Banyan.Result forced = Banyan.run(Map.of(), null, List.of("run", "-n", "2", "--mpi", "pmi", hello.toString()));
        assertThat(forced.stdout()).as("what --mpi pmi knowingly asks for").isEqualTo("rank 0 of 1\nrank 0 of 1\n");
        assertThat(Banyan.run("run", "-n", "1", "--mpi", "pmix", hello.toString()).stderr())
                .isEqualTo("banyan run: --mpi pmix: banyan does not serve PMIx yet; Open MPI programs run with -n 1 (a singleton) "
                        + "or under Open MPI's mpirun\n");
    }

    @Test
    void mpichBuildsOfTheSameSourceRunAsBefore() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.mpich")), "mpicc.mpich is not installed");
        Path hello = compile("mpicc.mpich", "hello-mpich");
        Banyan.Result r = Banyan.run("run", "-n", "2", hello.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines().sorted().toList()).containsExactly("rank 0 of 2", "rank 1 of 2");
    }
}
