import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.banyan.core.pilot.AgentScheduler;
import org.banyan.core.pilot.ConstantTimeScheduler;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.Placement;
import org.banyan.core.pilot.SlotRequest;

/**
 * Scheduler decisions per second (a place and its release are two decisions) for both agent
 * schedulers, on pilots of 1,000 to 100,000 cores (32-core nodes), kept full: each decision
 * releases the oldest task and places a new one, as a pilot at steady state does.
 */
public class SchedulerBenchmark {
    public static void main(String[] args) {
        System.out.println("| cores | scheduler | decisions/s |");
        System.out.println("|---:|---|---:|");
        for (int cores : new int[] {1_000, 10_000, 100_000}) {
            List<NodeResources> nodes = new ArrayList<>();
            for (int i = 0; i < cores / 32; i++) {
                nodes.add(new NodeResources("n" + i, 32, 0));
            }
            for (String kind : List.of("constant-time", "general")) {
                double best = 0;
                for (int run = 0; run < 3; run++) {
                    AgentScheduler s = kind.equals("general") ? new GeneralScheduler(nodes) : new ConstantTimeScheduler(nodes);
                    best = Math.max(best, rate(s));
                }
                System.out.printf(Locale.ROOT, "| %,d | %s | %,.0f |%n", cores, kind, best);
            }
        }
    }

    static double rate(AgentScheduler s) {
        SlotRequest one = SlotRequest.cores(1);
        ArrayDeque<Placement> held = new ArrayDeque<>();
        Placement p;
        while ((p = s.place(one)) != null) {
            held.add(p);
        }
        int n = 2_000_000;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s.release(held.poll());
            held.add(s.place(one));
        }
        return 2.0 * n / ((System.nanoTime() - t0) / 1e9);
    }
}
