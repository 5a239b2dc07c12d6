import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** What the benchmarks share: running a command quietly, timing it, medians. */
final class BenchSupport {
    private BenchSupport() {}

    /** {@code --runs R --sizes a,b,c}: what the vcluster benchmarks take. */
    record Options(int runs, int[] sizes) {
        static Options parse(String[] args, int runs, int[] sizes) {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--runs" -> runs = Integer.parseInt(args[++i]);
                    case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(runs, sizes);
        }
    }

    /** A new temporary directory, removed with what it holds when this JVM exits. */
    static Path scratch(String prefix) throws java.io.IOException {
        Path dir = java.nio.file.Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (var files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (java.io.IOException e) {
                // left in the temporary directory
            }
        }));
        return dir;
    }

    /** The checkout the bench scripts run from (they pass -Dbanyan.root). */
    static Path root() {
        return Path.of(System.getProperty("banyan.root", ".")).toAbsolutePath();
    }

    static String banyan() {
        return root().resolve("banyan").toString();
    }

    static String vcluster() {
        return root().resolve("bin/testhosts").toString();
    }

    /** Runs a command with no output and no input; returns its exit status. */
    static int run(List<String> cmd) throws Exception {
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(new File("/dev/null")).start().waitFor();
    }

    /** Wall time of one run in milliseconds; a non-zero exit is reported, not hidden. */
    static double time(List<String> cmd) throws Exception {
        long t0 = System.nanoTime();
        int rc = run(cmd);
        double ms = (System.nanoTime() - t0) / 1e6;
        if (rc != 0) {
            System.err.println("warning: " + String.join(" ", cmd) + " exited with " + rc);
        }
        return ms;
    }

    static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " exited with " + rc);
        }
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
