import org.banyan.core.tree.TopologySpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.sim.CostModel;
import org.banyan.sim.LaunchResult;
import org.banyan.sim.LaunchSimulation;

/**
 * Launch time against hosts (log-log), simulated with the real protocol cores, for k = 2..64 and
 * the star: writes docs/img/launch-vs-hosts.png and .svg with the JDK alone; and, from the same
 * runs, the messages the busiest daemon and the head handle (docs/img/messages-vs-hosts).
 * Usage: bench/sim-plot
 */
public class SimPlot {
    static final int[] HOSTS = {10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000};

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/img");
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, List<double[]>> messages = new LinkedHashMap<>();
        for (String tree : List.of("radix:2", "radix:4", "radix:8", "radix:16", "radix:32", "radix:64", "direct")) {
            List<double[]> pts = new ArrayList<>();
            List<double[]> atDaemon = new ArrayList<>();
            List<double[]> atHead = new ArrayList<>();
            for (int n : HOSTS) {
                if (tree.equals("direct") && n > 30000) {
                    continue;
                }
                LaunchResult r = new LaunchSimulation(n, 1, TopologySpec.parse(tree), CostModel.SSH, List.of()).run(Long.MAX_VALUE);
                pts.add(new double[] {n, r.allUpMicros() / 1e6});
                atDaemon.add(new double[] {n, Math.max(1, r.maxMessagesAtDaemon())});
                atHead.add(new double[] {n, r.messagesAtHead()});
            }
            String name = tree.equals("direct") ? "star" : "k=" + tree.substring(6);
            series.put(name, pts);
            if (List.of("radix:2", "radix:32", "direct").contains(tree)) {
                messages.put(name + " daemon", atDaemon);
                messages.put(name + " head", atHead);
            }
            System.out.println(tree + " done");
        }
        LogLogChart.write(out, "launch-vs-hosts",
                "simulated launch time: all daemons up, contacts gathered (banyan sim launch, ssh costs)",
                "hosts (log scale)", new double[] {10, 100, 1000, 10000, 100000}, new double[] {0.3, 1, 10, 100, 1000}, "s",
                series);
        LogLogChart.write(out, "messages-vs-hosts",
                "simulated launch, one rank a host: messages sent + received by the busiest daemon and the head", "hosts (log scale)",
                new double[] {10, 100, 1000, 10000, 100000}, new double[] {1, 10, 100, 1000, 10000, 100000, 1000000},
                "", messages);
    }
}
