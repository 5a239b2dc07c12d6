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
 * Each is run three ways: {@code banyan run} (its own daemon, a JVM start), {@code banyan run
 * --dvm} on a DVM started here (its quick client: no JVM of its own, the DVM's PMIx servers
 * ready), and {@code mpirun}. Prints a Markdown table of medians and ratios to mpirun's.
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

        // a slot per core, as banyan run and mpirun count them here: all three run --oversubscribe alike
        Path uri = tmp.resolve("dvm.uri");
        BenchSupport.check(run(List.of(banyan, "dvm", "start", "--uri-file", uri.toString())), "banyan dvm start");
        try {
            System.out.println("| program | ranks | banyan run (ms) | banyan run --dvm (ms) | mpirun (ms) | run/mpirun | --dvm/mpirun |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|");
            for (int n : options.sizes()) {
                compare("Open MPI hello", Integer.toString(n), hello, List.of(), options.runs(), banyan, uri);
            }
            int longRuns = Math.max(3, options.runs() / 2);
            compare("2,000 barrier+allreduce, C, oversubscribed", over, rounds, List.of(), longRuns, banyan, uri);
            if (Files.isDirectory(Path.of("/usr/lib/python3/dist-packages/mpi4py"))) {
                compare("2,000 barrier+allreduce, mpi4py, oversubscribed", over, "/usr/bin/python3", List.of(py.toString()),
                        longRuns, banyan, uri);
            }
        } finally {
            run(List.of(banyan, "dvm", "stop", "--uri-file", uri.toString()));
        }
    }

    static String compile(Path dir, String name, String source) throws Exception {
        Path src = dir.resolve(name + ".c");
        Files.writeString(src, source);
        String out = dir.resolve(name).toString();
        BenchSupport.check(run(List.of("mpicc.openmpi", "-O2", "-o", out, src.toString())), "mpicc.openmpi " + name);
        return out;
    }

    static void compare(String what, String n, String program, List<String> args, int runs, String banyan, Path uri)
            throws Exception {
        List<String> b = new ArrayList<>(List.of(banyan, "run", "--oversubscribe", "-n", n, program));
        List<String> d = new ArrayList<>(List.of(banyan, "run", "--dvm", uri.toString(), "--oversubscribe", "-n", n, program));
        List<String> m = new ArrayList<>(List.of("mpirun.openmpi", "--oversubscribe", "-n", n, program));
        b.addAll(args);
        d.addAll(args);
        m.addAll(args);
        run(b); // warm all three: page cache, AOT cache, the DVM's JVM
        run(d);
        run(m);
        List<Double> tb = new ArrayList<>();
        List<Double> td = new ArrayList<>();
        List<Double> tm = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            tb.add(time(b));
            td.add(time(d));
            tm.add(time(m));
        }
        double mb = BenchSupport.median(tb);
        double md = BenchSupport.median(td);
        double mm = BenchSupport.median(tm);
        System.out.printf("| %s | %s | %.0f | %.0f | %.0f | %.2f | %.2f |%n", what, n, mb, md, mm, mb / mm, md / mm);
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
