import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Open MPI under banyan run and under mpirun (prints figures; not a test), runs interleaved so
 * that drift in the machine's load hits both alike, both with {@code PMIX_MCA_psec=native}
 * (mpirun's munge wait where munge is installed is not the launcher's):
 * <ul>
 * <li>start-up: an Open MPI hello ({@code MPI_Init}, rank and size, {@code MPI_Finalize}) at
 * each size, wall time of the whole command;</li>
 * <li>oversubscribed: 2,000 barrier+allreduce rounds on twice as many ranks as cores, in C and
 * in Python with Debian's mpi4py (skipped when it is not installed).</li>
 * </ul>
 * Prints a Markdown table of medians and banyan/mpirun ratios.
 *
 * Usage: bench/ompi [--runs R] [--sizes 1,4,16]
 */
public class OpenMpiBenchmark {
    static final String HELLO = """
            #include <mpi.h>
            #include <stdio.h>
            int main(int c, char **v) {
                int r, s;
                MPI_Init(&c, &v);
                MPI_Comm_rank(MPI_COMM_WORLD, &r);
                MPI_Comm_size(MPI_COMM_WORLD, &s);
                printf("%d of %d\\n", r, s);
                MPI_Finalize();
                return 0;
            }
            """;
    static final String ROUNDS = """
            #include <mpi.h>
            int main(int c, char **v) {
                MPI_Init(&c, &v);
                int x = 1, y;
                for (int i = 0; i < 2000; i++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                }
                MPI_Finalize();
                return 0;
            }
            """;
    static final String PY_ROUNDS = "from mpi4py import MPI\nc = MPI.COMM_WORLD\nfor i in range(2000):\n    c.Barrier()\n"
            + "    c.allreduce(1)\n";

    public static void main(String[] args) throws Exception {
        BenchSupport.Options options = BenchSupport.Options.parse(args, 11, new int[] {1, 4, 16});
        String banyan = BenchSupport.banyan();
        Path tmp = BenchSupport.scratch("banyan-ompi-bench");
        String hello = compile(tmp, "hello", HELLO);
        String rounds = compile(tmp, "rounds", ROUNDS);
        Path py = tmp.resolve("rounds.py");
        Files.writeString(py, PY_ROUNDS);
        int cores = Runtime.getRuntime().availableProcessors();
        String over = Integer.toString(2 * cores);

        System.out.println("| program | ranks | banyan median (ms) | mpirun median (ms) | banyan/mpirun |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int n : options.sizes()) {
            compare("Open MPI hello", Integer.toString(n), hello, List.of(), options.runs(), banyan);
        }
        int longRuns = Math.max(3, options.runs() / 2);
        compare("2,000 barrier+allreduce, C, oversubscribed", over, rounds, List.of(), longRuns, banyan);
        if (Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/mpi4py"))) {
            compare("2,000 barrier+allreduce, mpi4py, oversubscribed", over, "/usr/bin/python3", List.of(py.toString()),
                    longRuns, banyan);
        }
    }

    static String compile(Path dir, String name, String source) throws Exception {
        Path src = dir.resolve(name + ".c");
        Files.writeString(src, source);
        String out = dir.resolve(name).toString();
        BenchSupport.check(run(List.of("mpicc.openmpi", "-O2", "-o", out, src.toString())), "mpicc.openmpi " + name);
        return out;
    }

    static void compare(String what, String n, String program, List<String> args, int runs, String banyan) throws Exception {
        List<String> b = new ArrayList<>(List.of(banyan, "run", "--oversubscribe", "-n", n, program));
        List<String> m = new ArrayList<>(List.of("mpirun.openmpi", "--oversubscribe", "-n", n, program));
        b.addAll(args);
        m.addAll(args);
        run(b); // warm both: page cache, AOT cache
        run(m);
        List<Double> tb = new ArrayList<>();
        List<Double> tm = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            tb.add(time(b));
            tm.add(time(m));
        }
        double mb = BenchSupport.median(tb);
        double mm = BenchSupport.median(tm);
        System.out.printf("| %s | %s | %.0f | %.0f | %.2f |%n", what, n, mb, mm, mb / mm);
    }

    static int run(List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(new File("/dev/null"));
        pb.environment().put("PMIX_MCA_psec", "native");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        return pb.start().waitFor();
    }

    static double time(List<String> cmd) throws Exception {
        long t0 = System.nanoTime();
        int rc = run(cmd);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (rc != 0) {
            System.err.println("warning: " + String.join(" ", cmd) + " exited with " + rc);
        }
        return ms;
    }
}
