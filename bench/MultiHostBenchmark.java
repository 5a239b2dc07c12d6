import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Multi-host launch benchmark on bin/testhosts hosts (prints figures; not a test): one
 * process per host, `hostname` and an empty MPI program, launched by Banyan (tree of degree 4,
 * and star) and by MPICH's Hydra and Open MPI's mpirun over ssh, runs interleaved in the same
 * run. Prints a Markdown table of medians and the Banyan/Hydra ratios. Brings the hosts up
 * (the largest size) and takes them down.
 *
 * Usage: bench/multihost [--runs R] [--sizes 4,8,16,32]
 */
public class MultiHostBenchmark {
    public static void main(String[] args) throws Exception {
        BenchSupport.Options options = BenchSupport.Options.parse(args, 3, new int[] {4, 8, 16, 32});
        int runs = options.runs();
        int[] sizes = options.sizes();
        String banyan = BenchSupport.banyan();
        String vcluster = BenchSupport.vcluster();
        Path tmp = Files.createTempDirectory("banyan-mbench");
        Path src = tmp.resolve("empty.c");
        Files.writeString(src, "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n");
        String emptyMpich = tmp.resolve("empty-mpich").toString();
        String emptyOmpi = tmp.resolve("empty-ompi").toString();
        BenchSupport.check(BenchSupport.run(List.of("mpicc.mpich", "-o", emptyMpich, src.toString())), "mpicc.mpich");
        boolean ompi = BenchSupport.run(List.of("mpicc.openmpi", "-o", emptyOmpi, src.toString())) == 0;
        int max = Arrays.stream(sizes).max().orElse(4);
        BenchSupport.run(List.of(vcluster, "down"));
        BenchSupport.check(BenchSupport.run(List.of(vcluster, "up", Integer.toString(max))), "vcluster up");
        try {
            BenchSupport.check(BenchSupport.run(List.of(banyan, "run", "-n", "1", "true")), "banyan warm-up");
            System.out.println("| hosts | program | Banyan tree k=4 (ms) | Banyan star (ms) | Hydra ssh (ms) | Open MPI (ms) | tree/Hydra | star/Hydra |");
            System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|");
            for (int h : sizes) {
                List<String> hosts = new ArrayList<>();
                for (int i = 1; i <= h; i++) {
                    hosts.add("node" + i);
                }
                String list = String.join(",", hosts);
                for (boolean mpi : new boolean[] {false, true}) {
                    String prog = mpi ? emptyMpich : "hostname";
                    Map<String, List<String>> cmds = new LinkedHashMap<>();
                    cmds.put("tree", List.of(banyan, "run", "--host", list, "--spawn-degree", "4", prog));
                    cmds.put("star", List.of(banyan, "run", "--host", list, "--launch", "star", prog));
                    cmds.put("hydra", List.of("mpiexec.hydra", "-launcher", "ssh", "-iface", "bnybr0", "-hosts", list, "-n", Integer.toString(h),
                            "-ppn", "1", prog));
                    if (ompi) {
                        cmds.put("ompi", List.of("mpirun.openmpi", "--allow-run-as-root", "--host", list, "-np",
                                Integer.toString(h), "--map-by", "node", "--mca", "btl", "self,tcp", "--mca",
                                "btl_tcp_if_include", "10.77.0.0/24", "--mca", "oob_tcp_if_include", "10.77.0.0/24",
                                mpi ? emptyOmpi : "hostname"));
                    }
                    Map<String, List<Double>> times = new LinkedHashMap<>();
                    for (String k : cmds.keySet()) {
                        times.put(k, new ArrayList<>());
                    }
                    for (int r = 0; r < runs; r++) {
                        for (var e : cmds.entrySet()) {
                            times.get(e.getKey()).add(BenchSupport.time(e.getValue()));
                        }
                    }
                    double tree = BenchSupport.median(times.get("tree"));
                    double star = BenchSupport.median(times.get("star"));
                    double hydra = BenchSupport.median(times.get("hydra"));
                    String om = ompi ? String.format("%.0f", BenchSupport.median(times.get("ompi"))) : "n/a";
                    System.out.printf("| %d | %s | %.0f | %.0f | %.0f | %s | %.2f | %.2f |%n", h, mpi ? "empty MPI" : "hostname",
                            tree, star, hydra, om, tree / hydra, star / hydra);
                }
            }
        } finally {
            BenchSupport.run(List.of(vcluster, "down"));
        }
    }
}
