import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Launch benchmark (prints figures; not a test): `banyan run -n N` against `mpiexec.hydra -n N`
 * for /bin/true and an empty MPI program, in the same run, runs interleaved so that drift in the
 * machine's load hits both alike. Prints a Markdown table of medians and Banyan/Hydra ratios.
 *
 * For each program it also prints the per-rank slope of each launcher (least squares over the
 * sizes' medians) and their ratio: issue 17's measure is the slope of /bin/true at 16, 64, 256.
 *
 * Usage: bench/launch [--runs R] [--sizes 1,16,64] [--true-only]   (the slope: --sizes 16,64,256 --true-only)
 */
public class LaunchBenchmark {
    public static void main(String[] args) throws Exception {
        boolean trueOnly = List.of(args).contains("--true-only");
        args = java.util.Arrays.stream(args).filter(a -> !a.equals("--true-only")).toArray(String[]::new);
        BenchSupport.Options options = BenchSupport.Options.parse(args, 11, new int[] {1, 16, 64});
        int runs = options.runs();
        int[] sizes = options.sizes();
        String banyan = BenchSupport.banyan();
        Path tmp = BenchSupport.scratch("banyan-bench");
        Path src = tmp.resolve("empty.c");
        Files.writeString(src, "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n");
        String empty = tmp.resolve("empty").toString();
        BenchSupport.check(BenchSupport.run(List.of("mpicc.mpich", "-o", empty, src.toString())), "mpicc.mpich");
        BenchSupport.check(BenchSupport.run(List.of(banyan, "run", "-n", "1", "true")), "banyan warm-up (builds the AOT cache if needed)");

        System.out.println("| program | N | Banyan median (ms) | Hydra median (ms) | Banyan/Hydra |");
        System.out.println("|---|---:|---:|---:|---:|");
        List<String> slopes = new ArrayList<>();
        for (String program : trueOnly ? List.of("/bin/true") : List.of("/bin/true", empty)) {
            double[] mbs = new double[sizes.length];
            double[] mhs = new double[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                int n = sizes[k];
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
                mbs[k] = mb;
                mhs[k] = mh;
                System.out.printf("| %s | %d | %.1f | %.1f | %.2f |%n", program.equals(empty) ? "empty MPI program" : "/bin/true",
                        n, mb, mh, mb / mh);
            }
            if (sizes.length > 1) {
                double sb = slope(sizes, mbs);
                double sh = slope(sizes, mhs);
                slopes.add(String.format("%s: slope %.2f ms/rank (banyan) against %.2f ms/rank (Hydra), ratio %.2f; "
                        + "intercepts %.0f and %.0f ms", program.equals(empty) ? "empty MPI program" : "/bin/true", sb, sh,
                        sb / sh, intercept(sizes, mbs, sb), intercept(sizes, mhs, sh)));
            }
        }
        System.out.println();
        slopes.forEach(System.out::println);
    }

    /** Least-squares slope of ys over xs. */
    static double slope(int[] xs, double[] ys) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < xs.length; i++) {
            mx += xs[i];
            my += ys[i];
        }
        mx /= xs.length;
        my /= xs.length;
        double num = 0;
        double den = 0;
        for (int i = 0; i < xs.length; i++) {
            num += (xs[i] - mx) * (ys[i] - my);
            den += (xs[i] - mx) * (xs[i] - mx);
        }
        return num / den;
    }

    static double intercept(int[] xs, double[] ys, double slope) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < xs.length; i++) {
            mx += xs[i];
            my += ys[i];
        }
        return my / xs.length - slope * mx / xs.length;
    }
}
