import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import org.banyan.core.pilot.AgentScheduler;
import org.banyan.core.pilot.ConstantTimeScheduler;
import org.banyan.core.pilot.GeneralScheduler;
import org.banyan.core.pilot.NodeResources;
import org.banyan.core.pilot.SlotRequest;
import org.banyan.core.pilot.AgentAction;
import org.banyan.core.pilot.TaskAgent;
import org.banyan.core.pilot.TaskRequest;

/**
 * The seed's experiment, simulated: three generations of single-core tasks (3 × cores tasks of T
 * seconds, all submitted at once) on 2,048 to 16,384 cores of 32-core nodes, with the real
 * agent (TaskAgent and either scheduler). The head is one thread: every agent call advances its
 * clock by the wall time the call really took here. Each node's daemon starts one process at a
 * time at a calibrated rate; messages take a LAN latency each way. Prints, per size and
 * scheduler, when every core was first busy, the TTX against the ideal 3T, and the agent's
 * own time; and the concurrency curve as CSV with --csv. {@code --head-ms X} charges the head X ms
 * more per task (half at launch, half at the end): 1.16 is the CPU per task measured for a whole
 * local DVM (head and its in-process daemon) in bench/tasks, an upper bound for the head alone.
 */
public class GenerationsBenchmark {
    static final int CORES_PER_NODE = 32;
    static double headPerTask;

    record Ev(double t, long seq, int kind, int node, int task) {}

    public static void main(String[] args) {
        double taskSeconds = 60;
        double spawnsPerNodePerSecond = 1_000; // posix_spawn from one daemon thread, measured: 1,322/s
        double latency = 100e-6;
        boolean csv = List.of(args).contains("--csv");
        int h = List.of(args).indexOf("--head-ms");
        headPerTask = h >= 0 ? Double.parseDouble(args[h + 1]) / 1000 : 0;
        System.out.println("| cores | scheduler | all cores busy at | TTX | ideal 3T | agent time |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        for (int cores : new int[] {2_048, 4_096, 8_192, 16_384}) {
            for (String kind : List.of("constant-time", "general")) {
                run(cores, kind, taskSeconds, spawnsPerNodePerSecond, latency, csv);
            }
        }
    }

    static void run(int cores, String kind, double t, double rate, double latency, boolean csv) {
        int nodes = cores / CORES_PER_NODE;
        List<NodeResources> res = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            res.add(new NodeResources("n" + i, CORES_PER_NODE, 0));
            names.add("n" + i);
        }
        AgentScheduler s = kind.equals("general") ? new GeneralScheduler(res) : new ConstantTimeScheduler(res);
        TaskAgent agent = new TaskAgent(s, names);
        List<TaskRequest> work = new ArrayList<>(3 * cores);
        for (int i = 0; i < 3 * cores; i++) {
            work.add(new TaskRequest("t" + i, "/bin/sleep", List.of("60"), Map.of(), "/tmp/t" + i, "o", "e", null, List.of(), List.of(),
                    new SlotRequest(1, 1, 0, null, false), 0, false, 0, false, List.of()));
        }
        PriorityQueue<Ev> q = new PriorityQueue<>((a, b) -> a.t != b.t ? Double.compare(a.t, b.t) : Long.compare(a.seq, b.seq));
        long[] seq = {0};
        double[] nodeFree = new double[nodes];
        double head = 0;
        double agentSeconds = 0;
        long t0 = System.nanoTime();
        List<AgentAction> actions = agent.submit(work);
        double took = (System.nanoTime() - t0) / 1e9;
        head += took + work.size() * headPerTask / 2;
        agentSeconds += took;
        enqueue(q, seq, actions, head + latency);
        int running = 0;
        int ended = 0;
        double fullAt = -1;
        double lastEnd = 0;
        StringBuilder curve = new StringBuilder();
        while (!q.isEmpty()) {
            Ev e = q.poll();
            switch (e.kind) {
                case 0 -> { // a launch reaches its daemon: one spawn at a time per node
                    double start = Math.max(e.t, nodeFree[e.node]) + 1 / rate;
                    nodeFree[e.node] = start;
                    q.add(new Ev(start, seq[0]++, 1, e.node, e.task));
                }
                case 1 -> { // the task runs
                    running++;
                    if (running == cores && fullAt < 0) {
                        fullAt = e.t;
                    }
                    if (csv) {
                        curve.append(String.format(Locale.ROOT, "%d,%s,%.4f,%d%n", cores, kind, e.t, running));
                    }
                    q.add(new Ev(e.t + t, seq[0]++, 2, e.node, e.task));
                }
                case 2 -> { // it ends; the end reaches the head
                    running--;
                    lastEnd = e.t;
                    q.add(new Ev(e.t + latency, seq[0]++, 3, e.node, e.task));
                    if (csv) {
                        curve.append(String.format(Locale.ROOT, "%d,%s,%.4f,%d%n", cores, kind, e.t, running));
                    }
                }
                default -> { // the head handles the end: the agent places what waits
                    head = Math.max(head, e.t);
                    long a = System.nanoTime();
                    List<AgentAction> next = agent.ended(e.task, 0, "");
                    double d = (System.nanoTime() - a) / 1e9;
                    head += d + headPerTask;
                    agentSeconds += d;
                    ended++;
                    enqueue(q, seq, next, head + latency);
                }
            }
        }
        System.out.printf(Locale.ROOT, "| %,d | %s | %.2f s | %.2f s | %.0f s | %.3f s |%n", cores, kind, fullAt, lastEnd,
                3 * t, agentSeconds);
        if (csv) {
            System.err.print(curve);
        }
    }

    static void enqueue(PriorityQueue<Ev> q, long[] seq, List<AgentAction> actions, double at) {
        for (AgentAction a : actions) {
            if (a instanceof AgentAction.Launch(int node, var spec)) {
                q.add(new Ev(at, seq[0]++, 0, node, spec.taskId()));
            }
        }
    }
}
