import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wire-up benchmark (prints figures; not a test). Every rank of examples/modex.c (a PMI-1
 * client) puts 1000 bytes, fences, then reads its two ring neighbours' values or everyone's.
 *
 * Real runs on bin/testhosts hosts (hosts up and down here): Banyan with --modex full and
 * --modex lazy, and MPICH's Hydra, interleaved in the same run. Per run: the fence's own time
 * (the shortest fence_us any rank saw: the last rank to enter waits only for the fence itself),
 * the slowest rank's gets, and the wall time of the whole run; medians over the runs.
 *
 * Then the simulator with the same workload (real cores, 10 Gb/s links): fence and modex times
 * and fence+fetch bytes per daemon, full vs lazy, up to 100,000 hosts.
 *
 * Usage: bench/modex [--runs R] [--sizes 2,4,8] [--ppn 1,4] [--sim 1000,10000,100000] [--sim-ppn 1,8]
 */
public class ModexBenchmark {
    record Outcome(double fenceUs, double getsUs, double wallMs, boolean ok) {}

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int[] sizes = {2, 4, 8};
        int[] ppns = {1, 4};
        int[] simSizes = {1000, 10000, 100000};
        int[] simPpn = {1, 8};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--sizes" -> sizes = ints(args[++i]);
                case "--ppn" -> ppns = ints(args[++i]);
                case "--sim" -> simSizes = ints(args[++i]);
                case "--sim-ppn" -> simPpn = ints(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Path root = Path.of(System.getProperty("banyan.root", ".")).toAbsolutePath();
        String banyan = root.resolve("banyan").toString();
        String vcluster = BenchSupport.vcluster();
        Path tmp = Files.createTempDirectory("banyan-modex");
        String modex = tmp.resolve("modex").toString();
        BenchSupport.check(BenchSupport.run(List.of("mpicc.mpich", "-O2", "-o", modex,
                root.resolve("examples/modex.c").toString())), "compiling examples/modex.c");
        if (sizes.length > 0) {
            int max = Arrays.stream(sizes).max().orElse(2);
            BenchSupport.run(List.of(vcluster, "down"));
            BenchSupport.check(BenchSupport.run(List.of(vcluster, "up", Integer.toString(max))), "vcluster up");
            try {
                real(banyan, modex, sizes, ppns, runs);
            } finally {
                BenchSupport.run(List.of(vcluster, "down"));
            }
        }
        if (simSizes.length > 0) {
            simulated(banyan, simSizes, simPpn);
        }
    }

    static void real(String banyan, String modex, int[] sizes, int[] ppns, int runs) throws Exception {
        BenchSupport.check(BenchSupport.run(List.of(banyan, "run", "-n", "1", "true")), "banyan warm-up");
        System.out.println("Real, vcluster (medians of " + runs + " runs; fence and gets in ms, wall in ms):");
        System.out.println();
        System.out.println("| hosts | ranks | gets | Banyan full fence / gets / wall | Banyan lazy fence / gets / wall | Hydra fence / gets / wall | lazy/Hydra wall |");
        System.out.println("|---:|---:|---|---|---|---|---:|");
        for (int h : sizes) {
            List<String> hosts = new ArrayList<>();
            for (int i = 1; i <= h; i++) {
                hosts.add("node" + i);
            }
            for (int ppn : ppns) {
                int n = h * ppn;
                String banyanHosts = String.join(",", hosts.stream().map(x -> x + ":" + ppn).toList());
                for (String gets : List.of("neighbours", "all")) {
                    Map<String, List<String>> cmds = new LinkedHashMap<>();
                    for (String mode : List.of("full", "lazy")) {
                        cmds.put(mode, List.of(banyan, "run", "--host", banyanHosts, "--spawn-degree", "4", "--modex", mode,
                                "-n", Integer.toString(n), modex, "--gets", gets));
                    }
                    cmds.put("hydra", List.of("mpiexec.hydra", "-launcher", "ssh", "-iface", "bnybr0", "-hosts",
                            String.join(",", hosts), "-ppn", Integer.toString(ppn), "-n", Integer.toString(n), modex,
                            "--gets", gets));
                    Map<String, List<Outcome>> out = new LinkedHashMap<>();
                    cmds.keySet().forEach(k -> out.put(k, new ArrayList<>()));
                    for (int r = 0; r < runs; r++) {
                        for (var e : cmds.entrySet()) {
                            out.get(e.getKey()).add(measure(e.getValue(), n));
                        }
                    }
                    StringBuilder row = new StringBuilder(String.format("| %d | %d | %s |", h, n, gets));
                    for (String k : cmds.keySet()) {
                        List<Outcome> os = out.get(k);
                        boolean ok = os.stream().allMatch(Outcome::ok);
                        row.append(String.format(" %.1f / %.1f / %.0f%s |",
                                BenchSupport.median(os.stream().map(o -> o.fenceUs() / 1000).toList()),
                                BenchSupport.median(os.stream().map(o -> o.getsUs() / 1000).toList()),
                                BenchSupport.median(os.stream().map(Outcome::wallMs).toList()), ok ? "" : " (failed runs)"));
                    }
                    double lazy = BenchSupport.median(out.get("lazy").stream().map(Outcome::wallMs).toList());
                    double hydra = BenchSupport.median(out.get("hydra").stream().map(Outcome::wallMs).toList());
                    row.append(String.format(" %.2f |", lazy / hydra));
                    System.out.println(row);
                }
            }
        }
        System.out.println();
    }

    /** Runs one job; the fence is the shortest fence_us any rank reports, the gets the longest gets_us. */
    static Outcome measure(List<String> cmd, int n) throws Exception {
        File out = File.createTempFile("modex", ".out");
        try {
            long t0 = System.nanoTime();
            int rc = new ProcessBuilder(cmd).redirectOutput(out).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(new File("/dev/null")).start().waitFor();
            double wall = (System.nanoTime() - t0) / 1e6;
            double fence = Double.MAX_VALUE;
            double gets = 0;
            int ok = 0;
            for (String line : Files.readAllLines(out.toPath())) {
                String[] f = line.split(" ");
                if (f.length == 8 && f[0].equals("modex") && f[7].equals("ok")) {
                    fence = Math.min(fence, Double.parseDouble(f[4]));
                    gets = Math.max(gets, Double.parseDouble(f[6]));
                    ok++;
                }
            }
            return new Outcome(ok == 0 ? -1 : fence, gets, wall, rc == 0 && ok == n);
        } finally {
            out.delete();
        }
    }

    static void simulated(String banyan, int[] simSizes, int[] simPpn) throws Exception {
        System.out.println("Simulated (same workload, gets of neighbours, 1000-byte values, radix:32, 10 Gb/s):");
        System.out.println();
        System.out.println("| hosts | ranks/host | full fence (s) | full modex (s) | full bytes/daemon (mean) | lazy fence (s) | lazy modex (s) | lazy bytes/daemon (mean) | wall (s) |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int h : simSizes) {
            for (int ppn : simPpn) {
                // A full release carries every value: beyond 256 MB its encoding alone outgrows the heap.
                Map<String, String> full = (long) h * ppn * 1000 > (256L << 20)
                        ? Map.of("fence", "(too big)", "modex", "-", "bytes", String.format("> %d", (long) h * ppn * 1000))
                        : sim(banyan, h, ppn, "full");
                Map<String, String> lazy = sim(banyan, h, ppn, "lazy");
                System.out.printf("| %d | %d | %s | %s | %s | %s | %s | %s | %s |%n", h, ppn,
                        full.get("fence"), full.get("modex"), full.get("bytes"), lazy.get("fence"), lazy.get("modex"),
                        lazy.get("bytes"), lazy.get("wall"));
            }
        }
    }

    static Map<String, String> sim(String banyan, int hosts, int ppn, String mode) throws Exception {
        Process p = new ProcessBuilder(banyan, "sim", "launch", "--hosts", Integer.toString(hosts), "--ranks-per-host",
                Integer.toString(ppn), "--modex", mode, "--modex-bytes", "1000").redirectErrorStream(true).start();
        Map<String, String> m = new LinkedHashMap<>(Map.of("fence", "n/a", "modex", "n/a", "bytes", "n/a", "wall", "n/a"));
        for (String line : new String(p.getInputStream().readAllBytes()).split("\n")) {
            String v = line.length() > 43 ? line.substring(43).strip() : "";
            if (line.startsWith("fence (")) {
                m.put("fence", v.replace(" s", ""));
            } else if (line.startsWith("modex (")) {
                m.put("modex", v.replace(" s", ""));
            } else if (line.startsWith("fence+fetch bytes per daemon")) {
                m.put("bytes", String.format("%.0f", Double.parseDouble(v.split(" / ")[0])));
            } else if (line.startsWith("wall time")) {
                m.put("wall", v.replace(" s", ""));
            }
        }
        p.waitFor();
        return m;
    }

    static int[] ints(String s) {
        return s.isEmpty() ? new int[0] : Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
