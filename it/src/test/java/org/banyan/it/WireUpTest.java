package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way of starting an MPI program under {@code --mpi auto} wires its ranks up, whatever
 * stands between banyan and the MPI library: Python with Debian's mpi4py (built on Open MPI), an
 * OpenSHMEM program, a shell script that execs the program, {@code env VAR=1 prog}, for Open MPI
 * and MPICH alike, on a DVM too; and where a rank still runs MPI on its own, the job fails in one
 * line instead of printing N singletons' answers.
 */
class WireUpTest {
    static final String PYTHON = "/usr/bin/python3";
    static final String HELLO = """
            #include <mpi.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <unistd.h>
            int main(int argc, char **argv) {
                int rank, size;
                MPI_Init(&argc, &argv);
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                MPI_Comm_size(MPI_COMM_WORLD, &size);
                printf("hello %d of %d\\n", rank, size);
                fflush(stdout);
                if (argc > 1) {
                    usleep(1000 * atoi(argv[1]));
                }
                MPI_Finalize();
                return 0;
            }
            """;
    static final String SHMEM = """
            #include <shmem.h>
            #include <stdio.h>
            int main(void) {
                shmem_init();
                printf("PE %d of %d\\n", shmem_my_pe(), shmem_n_pes());
                fflush(stdout);
                shmem_finalize();
                return 0;
            }
            """;

    @TempDir
    static Path dir;
    static Path wrapper;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.openmpi")) && Files.isExecutable(Path.of("/usr/bin/mpicc.mpich")),
                "mpicc.openmpi and mpicc.mpich are needed (apt-get install libopenmpi-dev libmpich-dev)");
        compile("mpicc.openmpi", "hello-ompi", HELLO);
        compile("mpicc.mpich", "hello-mpich", HELLO);
        wrapper = dir.resolve("wrap.sh");
        Files.writeString(wrapper, "#!/bin/sh\n# what a site's wrapper does before the real program\nexport WRAPPED=1\nexec \"$@\"\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    static void compile(String compiler, String name, String source) throws Exception {
        Path src = dir.resolve(name + ".c");
        Files.writeString(src, source);
        Process cc = new ProcessBuilder(compiler, "-O1", "-o", dir.resolve(name).toString(), src.toString())
                .redirectErrorStream(true).start();
        String text = new String(cc.getInputStream().readAllBytes());
        assertThat(cc.waitFor()).as(compiler + " " + name + ": " + text).isZero();
    }

    static String prog(String name) {
        return dir.resolve(name).toString();
    }

    static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    static void assumeMpi4py() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/mpi4py")),
                "Debian's mpi4py is not installed (apt-get install python3-mpi4py)");
    }

    @Test
    void mpi4pysHelloAndRingRunAsOneJob() throws Exception {
        assumeMpi4py();
        Banyan.Result hello = Banyan.run("run", "-n", "3", "--oversubscribe", PYTHON, "-m", "mpi4py.bench", "helloworld");
        assertThat(hello.exit()).as(hello.stderr()).isZero();
        assertThat(lines(hello.stdout())).hasSize(3).allMatch(l -> l.matches("Hello, World! I am process [012] of 3 on .*\\."))
                .doesNotHaveDuplicates();
        Banyan.Result ring = Banyan.run("run", "-n", "3", "--oversubscribe", PYTHON, "-m", "mpi4py.bench", "ringtest", "-l", "20");
        assertThat(ring.exit()).as(ring.stderr()).isZero();
        assertThat(ring.stdout()).contains("(3 processes,");
    }

    static final String EXIT_EARLY = """
            #include <mpi.h>
            #include <stdio.h>
            #include <stdlib.h>
            int main(int argc, char **argv) {
                int rank;
                MPI_Init(&argc, &argv);
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                if (rank == 1) {
                    exit(0); /* before MPI_Finalize: the others wait in the barrier for it */
                }
                MPI_Barrier(MPI_COMM_WORLD);
                MPI_Finalize();
                return 0;
            }
            """;

    /**
     * A rank that exits 0 between MPI_Init and MPI_Finalize: mpirun and Hydra end the job; under
     * banyan its other ranks waited in their barrier for ever (until --timeout).
     */
    @Test
    void aRankThatExitsWithoutMpiFinalizeEndsTheJobInsteadOfHangingIt() throws Exception {
        compile("mpicc.openmpi", "exit-early-ompi", EXIT_EARLY);
        compile("mpicc.mpich", "exit-early-mpich", EXIT_EARLY);
        List<List<String>> programs = new java.util.ArrayList<>(List.of(List.of(prog("exit-early-ompi")),
                List.of(prog("exit-early-mpich"))));
        if (Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/mpi4py"))) {
            programs.add(List.of(PYTHON, "-c", "import os\nfrom mpi4py import MPI\nc = MPI.COMM_WORLD\n"
                    + "if c.Get_rank() == 1:\n    os._exit(0)\nc.Barrier()\n"));
        }
        for (List<String> program : programs) {
            String marker = Banyan.marker();
            List<String> args = new java.util.ArrayList<>(List.of("run", "-n", "3", "--oversubscribe", "--timeout", "60"));
            args.addAll(program);
            args.add(marker);
            long t0 = System.nanoTime();
            Banyan.Result r = Banyan.run(Map.of(), null, args);
            assertThat(r.exit()).as("%s: %s", program, r.stderr()).isEqualTo(1);
            assertThat(r.stderr()).as("%s", program).contains("banyan run: rank 1 on ")
                    .contains(" exited with status 0 without finalizing: it wired up (MPI_Init) and never reached MPI_Finalize");
            assertThat((System.nanoTime() - t0) / 1e9).as("%s: ended, not timed out", program).isLessThan(50);
            Banyan.assertNoProcessesWith(marker);
        }
    }

    @Test
    void anOpenShmemProgramRunsAsOneJob() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/oshcc")), "oshcc comes with libopenmpi-dev");
        compile("oshcc", "hello-shmem", SHMEM);
        Banyan.Result r = Banyan.run("run", "-n", "2", prog("hello-shmem"));
        // Debian 12's OpenSHMEM (Open MPI 4.1.4 over UCX) crashes in shmem_finalize under mpirun as
        // well: what the PEs printed is the measure, not the status
        assertThat(lines(r.stdout())).as(r.stderr()).containsExactlyInAnyOrder("PE 0 of 2", "PE 1 of 2");
    }

    @Test
    void wrappersInFrontOfOpenMpiAndMpichProgramsDoNotMakeSingletons() throws Exception {
        for (String prog : List.of(prog("hello-ompi"), prog("hello-mpich"))) {
            for (List<String> command : List.of(List.of(wrapper.toString(), prog), List.of("env", "VAR=1", prog),
                    List.of("sh", "-c", "exec " + prog))) {
                List<String> args = new java.util.ArrayList<>(List.of("run", "-n", "2"));
                args.addAll(command);
                Banyan.Result r = Banyan.run(Map.of(), null, args);
                assertThat(r.exit()).as("%s: %s", command, r.stderr()).isZero();
                assertThat(lines(r.stdout())).as("%s", command).containsExactlyInAnyOrder("hello 0 of 2", "hello 1 of 2");
            }
        }
    }

    @Test
    void pythonWithMpi4pyIsAnMpiTaskOnADvm() throws Exception {
        assumeMpi4py();
        Path uri = dir.resolve("dvm.uri");
        Banyan.Result up = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--launcher", "local", "--host", "a:2,b:2");
        assertThat(up.exit()).as(up.stderr()).isZero();
        try {
            Path session = dir.resolve("tasks");
            Banyan.Result task = Banyan.run("submit", "--dvm", uri.toString(), "--session", session.toString(), "--ranks", "3",
                    "--mpi", "--", PYTHON, "-m", "mpi4py.bench", "helloworld");
            assertThat(task.exit()).as(task.stderr()).isZero();
            assertThat(Files.readAllLines(session.resolve("task.000000/task.000000.out"))).hasSize(3)
                    .allMatch(l -> l.matches("Hello, World! I am process [012] of 3 on .*\\.")).doesNotHaveDuplicates();
            // rank 0 reads the task's stdin, as under mpirun < file; it was refused ("for executable tasks")
            Files.writeString(dir.resolve("numbers.txt"), "1\n2\n39\n");
            Banyan.Result input = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("in").toString(), "--ranks", "3",
                    "--mpi", "--input", dir.resolve("numbers.txt").toString(), "--", PYTHON, "-c", "import sys; from mpi4py import MPI; "
                            + "c = MPI.COMM_WORLD; s = sum(map(int, sys.stdin)) if c.rank == 0 else None; "
                            + "print(c.rank, 'of', c.size, 'got', c.bcast(s), 'read', len(sys.stdin.read()))");
            assertThat(input.exit()).as(input.stderr()).isZero();
            assertThat(Files.readAllLines(dir.resolve("in/task.000000/task.000000.out"))).containsExactlyInAnyOrder(
                    "0 of 3 got 42 read 0", "1 of 3 got 42 read 0", "2 of 3 got 42 read 0");
            Banyan.Result run = Banyan.run("run", "--dvm", uri.toString(), "-n", "2", "env", "VAR=1", prog("hello-ompi"));
            assertThat(run.exit()).as(run.stderr()).isZero();
            assertThat(lines(run.stdout())).containsExactlyInAnyOrder("hello 0 of 2", "hello 1 of 2");
        } finally {
            Banyan.run("dvm", "stop", "--uri-file", uri.toString());
        }
    }

    /** Open MPI told not to start its helper: the rank is seen with libmpi loaded, and ends without wiring up. */
    @Test
    void aSingletonWithoutOpenMpisHelperIsCaughtAtItsEnd() throws Exception {
        assumeMpi4py();
        String marker = Banyan.marker();
        Banyan.Result r = Banyan.run(Map.of(), null, List.of("run", "-n", "2", "--mpi", "pmi", "-x",
                "OMPI_MCA_ess_singleton_isolated=1", PYTHON, "-c",
                "from mpi4py import MPI; import time; print(MPI.COMM_WORLD.Get_size()); time.sleep(0.3)", marker));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(lines(r.stderr())).filteredOn(l -> l.startsWith("banyan run:")).singleElement().asString()
                .matches("banyan run: rank [01] on \\S+ started MPI on its own, a singleton outside the job's 2 ranks: "
                        + "it loaded libmpi\\.so\\.40\\S*, ended and never reached banyan's PMI or PMIx server; ending the job");
        Banyan.assertNoProcessesWith(marker);
    }

    /** An MPICH program forced onto PMIx: MPICH (Debian's speaks PMI only) starts alone, whatever its MPI. */
    @Test
    void anMpichSingletonIsCaughtToo() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--mpi", "pmix", prog("hello-mpich"));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("started MPI on its own").contains("it loaded libmpich.so.12");
    }

    @Test
    void programsWithoutMpiAreNotSingletons() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "sh", "-c", "sleep 0.2; echo done");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("done\ndone\n");
    }
}
