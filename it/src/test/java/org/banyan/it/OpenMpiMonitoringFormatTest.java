package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our .prof files against Open MPI 4.1's own (Debian's openmpi-bin with pml_monitoring_enable 2):
 * the same program in C and in Java (two point-to-point messages, a reduce and a bcast, a put
 * and a get in a fence epoch), both profiles in one grammar, and the lines that describe the
 * program rather than a library's internals equal.
 */
class OpenMpiMonitoringFormatTest {
    static final String C = """
            #include <mpi.h>
            int main(int argc, char **argv) {
                MPI_Init(&argc, &argv);
                int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
                char buf[100] = {0};
                if (r == 0) { MPI_Send(buf, 100, MPI_CHAR, 1, 0, MPI_COMM_WORLD); MPI_Send(buf, 0, MPI_CHAR, 1, 0, MPI_COMM_WORLD); }
                if (r == 1) { MPI_Recv(buf, 100, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                              MPI_Recv(buf, 100, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
                double d[16] = {0}, s[16];
                MPI_Reduce(d, s, 16, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
                MPI_Bcast(d, 16, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                MPI_Win win; MPI_Win_create(d, sizeof d, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
                MPI_Win_fence(0, win);
                if (r == 0) MPI_Put(s, 4, MPI_DOUBLE, 1, 0, 4, MPI_DOUBLE, win);
                if (r == 2) MPI_Get(s, 2, MPI_DOUBLE, 1, 0, 2, MPI_DOUBLE, win);
                MPI_Win_fence(0, win);
                MPI_Win_free(&win);
                MPI_Finalize();
                return 0;
            }
            """;
    static final String JAVA = """
            import java.lang.foreign.MemorySegment;
            import org.banyan.client.Banyan;
            import org.banyan.comm.*;
            public class Twin {
                public static void main(String[] a) {
                    try (Banyan job = Banyan.init(); Comm w = Comm.world(job)) {
                        int r = w.rank();
                        if (r == 0) { w.send(new byte[100], 1, 0); w.send(new byte[0], 1, 0); }
                        if (r == 1) { w.recv(new byte[100], 0, 0); w.recv(new byte[100], 0, 0); }
                        double[] d = new double[16], s = new double[16];
                        w.reduce(d, s, Op.SUM, 0);
                        w.bcast(d, 0);
                        try (Window win = Window.create(w, MemorySegment.ofArray(d))) {
                            win.fence();
                            if (r == 0) win.put(MemorySegment.ofArray(s).asSlice(0, 32), 1, 0);
                            if (r == 2) win.get(MemorySegment.ofArray(s).asSlice(0, 16), 1, 0);
                            win.fence();
                        }
                    }
                }
            }
            """;
    static final String COUNTS = "\\t\\d+ bytes\\t\\d+ msgs sent";
    static final Pattern GRAMMAR = Pattern.compile(String.join("|",
            "# POINT TO POINT", "# OSC", "# COLLECTIVES",
            "E\\t\\d+\\t\\d+" + COUNTS + "\\t(\\d+,){65}\\d+",
            "I\\t\\d+\\t\\d+" + COUNTS + "(\\t(\\d+,){65}\\d+)?",
            "[SRC]\\t\\d+\\t\\d+" + COUNTS,
            "D\\t[^\\t]+\\tprocs: \\d+(,\\d+)*",
            "(O2A|A2O|A2A)\\t\\d+" + COUNTS));

    @TempDir
    static Path dir;

    @BeforeAll
    static void openMpiIsThere() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.openmpi")),
                "Open MPI (libopenmpi-dev) is not installed; .ci/run installs it");
    }

    static List<String> run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + out).isZero();
        return out.lines().toList();
    }

    @Test
    void ourProfilesFollowOpenMpisAndAgreeOnTheProgramsTraffic() throws Exception {
        Files.writeString(dir.resolve("twin.c"), C);
        run(List.of("mpicc.openmpi", "-o", dir.resolve("twin").toString(), dir.resolve("twin.c").toString()));
        Path ompi = Files.createDirectories(dir.resolve("ompi"));
        run(List.of("mpirun.openmpi", "--allow-run-as-root", "--oversubscribe", "-n", "4", "--mca", "pml_monitoring_enable",
                "2", "--mca", "pml_monitoring_enable_output", "3", "--mca", "pml_monitoring_filename",
                ompi.resolve("prof").toString(), dir.resolve("twin").toString()));

        Files.writeString(dir.resolve("Twin.java"), JAVA);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        run(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp", CommExamples.CLASS_PATH_JARS,
                "-d", classes.toString(), dir.resolve("Twin.java").toString()));
        Path ours = dir.resolve("ours");
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "4", "--monitor-out", ours.toString()),
                CommExamples.CLASS_PATH_JARS + ":" + classes, "Twin").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();

        for (int rank = 0; rank < 4; rank++) {
            List<String> theirs = Files.readAllLines(ompi.resolve("prof." + rank + ".prof"));
            List<String> mine = Files.readAllLines(ours.resolve("banyan." + rank + ".prof"));
            for (List<String> file : List.of(theirs, mine)) {
                assertThat(file).as("rank %d", rank).allMatch(l -> GRAMMAR.matcher(l).matches());
                assertThat(file.stream().filter(l -> l.startsWith("#"))).containsExactly("# POINT TO POINT", "# OSC", "# COLLECTIVES");
            }
            assertThat(programLines(mine)).as("rank %d", rank).isEqualTo(programLines(theirs));
        }
        assertThat(programLines(Files.readAllLines(ours.resolve("banyan.0.prof")))).containsExactly(
                "E\t0\t1\t100 bytes\t2 msgs sent", "S\t0\t1\t32 bytes\t1 msgs sent",
                "O2A\t0\t384 bytes\t1 msgs sent", "A2O\t0\t384 bytes\t1 msgs sent");
    }

    /**
     * What the program did, whatever the library: user messages (E, without the histogram, which
     * counts the library's own messages too), one-sided (S, R), and MPI_COMM_WORLD's one-to-all
     * and all-to-one lines (bcast and reduce; Open MPI's all-to-all lines also count its window
     * set-up).
     */
    static List<String> programLines(List<String> file) {
        List<String> out = new ArrayList<>();
        boolean world = false;
        for (String l : file) {
            if (l.startsWith("E\t")) {
                out.add(l.substring(0, l.indexOf("msgs sent") + 9));
            } else if (l.startsWith("S\t") || l.startsWith("R\t")) {
                out.add(l);
            } else if (l.startsWith("D\t")) {
                world = l.startsWith("D\tMPI_COMM_WORLD\t");
            } else if (world && (l.startsWith("O2A\t") || l.startsWith("A2O\t"))) {
                out.add(l);
            }
        }
        return out;
    }
}
