import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Launch benchmark (prints figures; not a test): `banyan run -n N` against `mpiexec.hydra -n N`
 * for /bin/true and an empty MPI program, in the same run, runs interleaved so that drift in the
 * machine's load hits both alike. Prints a Markdown table of medians and Banyan/Hydra ratios.
 *
 * Usage: bench/launch [--runs R] [--sizes 1,16,64]
 */
public class LaunchBenchmark {
    public static void main(String[] args) throws Exception {
        BenchSupport.Options options = BenchSupport.Options.parse(args, 11, new int[] {1, 16, 64});
        int runs = options.runs();
        int[] sizes = options.sizes();
        String banyan = BenchSupport.banyan();
        Path tmp = Files.createTempDirectory("banyan-bench");
        Path src = tmp.resolve("empty.c");
        Files.writeString(src, "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n");
        String empty = tmp.resolve("empty").toString();
        BenchSupport.check(BenchSupport.run(List.of("mpicc.mpich", "-o", empty, src.toString())), "mpicc.mpich");
        BenchSupport.check(BenchSupport.run(List.of(banyan, "run", "-n", "1", "true")), "banyan warm-up (builds the AOT cache if needed)");

        System.out.println("| program | N | Banyan median (ms) | Hydra median (ms) | Banyan/Hydra |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (String program : List.of("/bin/true", empty)) {
            for (int n : sizes) {
                List<String> b = List.of(banyan, "run", "--oversubscribe", "-n", Integer.toString(n), program);
                List<String> h = List.of("mpiexec.hydra", "-n", Integer.toString(n), program);
                int r = program.equals(empty) && n >= 16 ? Math.max(3, runs / 2) : runs;
                BenchSupport.run(b);
                BenchSupport.run(h);
                List<Double> tb = new ArrayList<>();
                List<Double> th = new ArrayList<>();
                for (int i = 0; i < r; i++) {
                    tb.add(BenchSupport.time(b));
                    th.add(BenchSupport.time(h));
                }
                double mb = BenchSupport.median(tb);
                double mh = BenchSupport.median(th);
                System.out.printf("| %s | %d | %.1f | %.1f | %.2f |%n", program.equals(empty) ? "empty MPI program" : "/bin/true",
                        n, mb, mh, mb / mh);
            }
        }
    }
}
