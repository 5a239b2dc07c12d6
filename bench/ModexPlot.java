import org.banyan.core.tree.TopologySpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.job.Modex;
import org.banyan.sim.CostModel;
import org.banyan.sim.LaunchResult;
import org.banyan.sim.LaunchSimulation;
import org.banyan.sim.ModexWorkload;

/**
 * Fence time against hosts (log-log), full against lazy modex, 1 and 8 ranks per host, each
 * rank putting 1000 bytes and reading its neighbours': simulated with the real cores, 10 Gb/s.
 * Writes docs/img/fence-vs-hosts.png and .svg. Usage: bench/modex-plot (a few minutes)
 */
public class ModexPlot {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/img");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (int ppn : new int[] {1, 8}) {
            for (Modex mode : Modex.values()) {
                List<double[]> pts = new ArrayList<>();
                for (int hosts : new int[] {100, 300, 1000, 3000, 10000, 30000, 100000}) {
                    if (mode == Modex.FULL && (long) hosts * ppn * 1000 > (256L << 20)) {
                        continue; // the release alone would outgrow the heap
                    }
                    LaunchResult r = new LaunchSimulation(hosts, ppn, TopologySpec.parse("radix:32"), TopologySpec.parse("radix:32"), CostModel.SSH,
                            List.of()).withModex(new ModexWorkload(mode, 1000, ModexWorkload.Gets.NEIGHBOURS))
                            .run(Long.MAX_VALUE);
                    pts.add(new double[] {hosts, Math.max(r.modex().fenceMicros(), 1) / 1e6});
                    System.out.println(mode + " " + ppn + " " + hosts + ": fence " + r.modex().fenceMicros() / 1e6 + " s");
                }
                series.put(mode.name().toLowerCase() + ", " + ppn + " rank" + (ppn > 1 ? "s" : "") + "/host", pts);
            }
        }
        LogLogChart.write(out, "fence-vs-hosts",
                "simulated fence: last rank in to last out (1000-byte values, radix 32, 10 Gb/s)", "hosts (log scale)",
                new double[] {100, 1000, 10000, 100000}, new double[] {0.001, 0.01, 0.1, 1, 10, 100}, "s", series);
    }
}
