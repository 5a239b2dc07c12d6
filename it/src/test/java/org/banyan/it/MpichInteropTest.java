package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified MPICH programs, compiled here with Debian's mpicc.mpich, wired up by Banyan's PMI-1
 * server. These fail (never skip) when MPICH is missing: .ci/run installs it.
 */
class MpichInteropTest {
    @TempDir
    static Path dir;

    static final Map<String, String> PROGRAMS = Map.of(
            "universe", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int *u, flag, size;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_size(MPI_COMM_WORLD, &size);
                        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &u, &flag);
                        printf("size %d universe %d\\n", size, flag ? *u : -1);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "hello", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank, size, len; char name[MPI_MAX_PROCESSOR_NAME];
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        MPI_Comm_size(MPI_COMM_WORLD, &size);
                        MPI_Get_processor_name(name, &len);
                        printf("hello from rank %d of %d\\n", rank, size);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "allreduce", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank, size; long sum = 0, mine;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        MPI_Comm_size(MPI_COMM_WORLD, &size);
                        mine = rank + 1;
                        MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                        printf("rank %d sum %ld\\n", rank, sum);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "ring", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank, size, token, laps = 3;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        MPI_Comm_size(MPI_COMM_WORLD, &size);
                        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
                        for (int lap = 0; lap < laps; lap++) {
                            if (rank == 0) {
                                token = lap == 0 ? 0 : token;
                                token += 1;
                                MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
                                MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                            } else {
                                MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                                token += 1;
                                MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
                            }
                        }
                        if (rank == 0) printf("token %d after %d laps\\n", token, laps);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "abort", """
                    #include <mpi.h>
                    #include <stdlib.h>
                    #include <unistd.h>
                    int main(int argc, char **argv) {
                        int rank;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        MPI_Barrier(MPI_COMM_WORLD);
                        if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
                        sleep(atoi(argv[1]));
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "bigout", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        for (int i = 0; i < 100000; i++) printf("rank %d line %06d of output\\n", rank, i);
                        fflush(stdout);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "lines", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        for (int i = 0; i < 20000; i++)
                            printf("r%d line %d xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n", rank, i);
                        MPI_Finalize();
                        return 0;
                    }
                    """,
            "readstdin", """
                    #include <mpi.h>
                    #include <stdio.h>
                    int main(int argc, char **argv) {
                        int rank; long count = 0, sum = 0; int c;
                        MPI_Init(&argc, &argv);
                        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                        if (rank == 0) { while ((c = getchar()) != EOF) { count++; sum += c; } }
                        MPI_Bcast(&count, 1, MPI_LONG, 0, MPI_COMM_WORLD);
                        MPI_Bcast(&sum, 1, MPI_LONG, 0, MPI_COMM_WORLD);
                        printf("rank %d got %ld bytes sum %ld\\n", rank, count, sum);
                        MPI_Finalize();
                        return 0;
                    }
                    """);

    @BeforeAll
    static void compile() throws Exception {
        for (Map.Entry<String, String> e : PROGRAMS.entrySet()) {
            Path src = dir.resolve(e.getKey() + ".c");
            Files.writeString(src, e.getValue());
            Process cc = new ProcessBuilder("mpicc.mpich", "-std=c99", "-O1", "-o", dir.resolve(e.getKey()).toString(),
                    src.toString()).redirectErrorStream(true).start();
            String out = new String(cc.getInputStream().readAllBytes());
            assertThat(cc.waitFor()).as("mpicc.mpich " + e.getKey() + ": " + out).isZero();
        }
    }

    static String prog(String name) {
        return dir.resolve(name).toString();
    }

    static List<String> lines(String s) {
        return Arrays.asList(s.split("\n"));
    }

    /**
     * MPI_UNIVERSE_SIZE is the slots of the job's hosts, as mpirun gives it: a manager started
     * alone learns how many workers it may spawn. It was the job's size (1 here); Hydra leaves it
     * unset unless -usize says.
     */
    @Test
    void theUniverseIsTheHostsSlots() throws Exception {
        Banyan.Result r = Banyan.run("run", "-H", "localhost:4", "-n", "1", prog("universe"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("size 1 universe 4\n");
    }

    @Test
    void helloWorld() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", prog("hello"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("hello from rank 0 of 4", "hello from rank 1 of 4",
                "hello from rank 2 of 4", "hello from rank 3 of 4");
    }

    /** --monitor of an MPICH program: one line, status 2, nothing run (it ran, and said only at its end that nothing was counted). */
    @Test
    void monitoringAnMpichProgramIsRefusedBeforeItRuns() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--monitor", "--monitor-out", dir.resolve("mon").toString(), prog("hello"));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEqualTo("banyan run: --monitor counts the messages of Java ranks (banyan-comm) and of Open MPI "
                + "programs; '" + prog("hello") + "' is built with MPICH (libmpich.so.12), whose messages Banyan cannot count\n");
    }

    @Test
    void allreduceAddsEveryRanksValue() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "6", "--oversubscribe", prog("allreduce"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).hasSize(6).allMatch(l -> l.endsWith(" sum 21"));
    }

    @Test
    void ringPassesTheTokenAroundThreeTimes() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "5", "--oversubscribe", prog("ring"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 15 after 3 laps\n");
    }

    @Test
    void mpiAbortEndsTheJobWithItsCodeAndLeavesNothing() throws Exception {
        String m = Banyan.marker();
        int seconds = (int) Double.parseDouble(m);
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", prog("abort"), Integer.toString(seconds));
        assertThat(r.exit()).isEqualTo(7);
        assertThat(r.stderr()).contains("banyan run: rank 1 on ").contains("called abort (MPI_Abort) with exit code 7");
        Banyan.assertNoProcessesWith(prog("abort") + " " + seconds);
    }

    @Test
    void largeOutputOfEveryRankArrivesInOrderPerRank() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "3", "--oversubscribe", "--tag-output", prog("bigout"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> lines = lines(r.stdout());
        assertThat(lines).hasSize(300_000);
        for (int rank = 0; rank < 3; rank++) {
            String prefix = "[1," + rank + "]<stdout>:";
            List<String> mine = lines.stream().filter(l -> l.startsWith(prefix)).toList();
            assertThat(mine).hasSize(100_000);
            for (int i = 0; i < mine.size(); i += 9973) {
                assertThat(mine.get(i)).isEqualTo(prefix + String.format("rank %d line %06d of output", rank, i));
            }
        }
    }

    /** Untagged output too: a line of one rank is never cut by another's (stdio writes 4 KiB blocks). */
    @Test
    void linesOfDifferentRanksAreNeverSplicedWithoutTagging() throws Exception {
        for (int run = 0; run < 3; run++) {
            Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", prog("lines"));
            assertThat(r.exit()).as(r.stderr()).isZero();
            List<String> lines = lines(r.stdout());
            List<String> broken = lines.stream().filter(l -> !l.matches("r[0-3] line [0-9]+ x{40}")).limit(5).toList();
            assertThat(broken).as("run " + run + ": lines cut by another rank's").isEmpty();
            assertThat(lines).hasSize(80_000);
        }
    }

    @Test
    void rankZeroReadsStdin() throws Exception {
        String input = "x".repeat(100_000) + "\n";
        Banyan.Result r = Banyan.runWithStdin(input, "run", "-n", "3", "--oversubscribe", prog("readstdin"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        long sum = 100_000L * 'x' + '\n';
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("rank 0 got 100001 bytes sum " + sum,
                "rank 1 got 100001 bytes sum " + sum, "rank 2 got 100001 bytes sum " + sum);
    }
}
