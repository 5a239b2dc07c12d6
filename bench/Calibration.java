import org.banyan.core.tree.TopologySpec;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.banyan.sim.CostModel;
import org.banyan.sim.LaunchResult;
import org.banyan.sim.LaunchSimulation;

/**
 * Simulator calibration against real launches on vcluster hosts (prints figures; not a test).
 *
 * Everything in one run, because this shared machine drifts by tens of per cent between runs:
 * 1. measures the costs: an ssh session's CPU (all processes, from /proc/stat), the network's
 *    round trip (a TCP connect), a lone daemon's start and its first rank (a one-host banyan run), the CPU
 *    per host of a launch (slope of the star's CPU against hosts), and what a daemon pays beyond
 *    the head per child it spawns (tree CPU minus star CPU);
 * 2. runs real `banyan run --report-launch true` for the star and a k=4 tree at every size;
 *    and, at the largest size, the CPU of dialing a routing link (the tree with and without
 *    routing links to dial);
 * 3. fits the one scheduling parameter (how many CPU-heavy steps the kernel interleaves) on the
 *    star only, leaving the tree to validate it;
 * 4. simulates every shape and size with those costs on two shared CPUs and prints, per phase,
 *    measured (median of the runs) against predicted and the error.
 *
 * Usage: bench/calibrate [--runs R] [--sizes 4,8,16,32]
 */
public class Calibration {
    /** One real launch, in milliseconds after the head started; busy is CPU of all processes. */
    record Phases(double firstUp, double allUp, double ranksEnded, double daemonStart, double rankStart, double busy) {}

    static final Pattern MILESTONE = Pattern.compile("banyan run:\\s+(.+?)\\s+(\\d+) ms after the head started");
    static final Pattern DAEMON_ROW = Pattern.compile(
            "banyan run:\\s+(\\d+)\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s*");
    /** Phases as durations (what each costs on its own), then the whole launch. */
    static final String[] PHASES = {"head start → first daemon up", "→ all daemons up, contacts gathered",
            "→ all ranks ended", "one daemon's start (median)", "whole launch (head start → all ranks ended)"};

    public static void main(String[] args) throws Exception {
        BenchSupport.Options options = BenchSupport.Options.parse(args, 3, new int[] {4, 8, 16, 32});
        int runs = options.runs();
        int[] sizes = options.sizes();
        String banyan = BenchSupport.banyan();
        String vcluster = BenchSupport.vcluster();
        int max = Arrays.stream(sizes).max().orElse(4);
        BenchSupport.run(List.of(vcluster, "down"));
        BenchSupport.check(BenchSupport.run(List.of(vcluster, "up", Integer.toString(max))), "vcluster up");
        try {
            calibrate(banyan, sizes, runs);
        } finally {
            BenchSupport.run(List.of(vcluster, "down"));
        }
    }

    static void calibrate(String banyan, int[] sizes, int runs) throws Exception {
        BenchSupport.run(List.of(banyan, "run", "--host", "node1", "true")); // warm the page cache
        // 1. Costs.
        long b0 = busyMillis();
        int sessions = 10;
        for (int i = 0; i < sessions; i++) {
            BenchSupport.check(BenchSupport.run(List.of("ssh", "-x", "node" + (1 + i % 4), "true")), "ssh");
        }
        double sshCpu = (busyMillis() - b0) / (double) sessions;
        double latencyUs = halfRoundTripMicros("node2");
        List<Phases> lone = new ArrayList<>();
        for (int i = 0; i < Math.max(5, runs); i++) {
            lone.add(real(banyan, 1, "star"));
        }
        Map<String, Map<Integer, List<Phases>>> measured = new LinkedHashMap<>();
        for (String shape : List.of("star", "tree")) {
            measured.put(shape, new LinkedHashMap<>());
            for (int n : sizes) {
                List<Phases> ps = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    ps.add(real(banyan, n, shape));
                }
                measured.get(shape).put(n, ps);
            }
        }
        // The CPU of dialing a routing link: the k=4 tree at the largest size with routing along
        // the spawn tree (nothing to dial) against the default routing (radix:32: every daemon
        // not a child of the head dials the head), phase 3 (all up → ranks ended) on two CPUs.
        int largest = sizes[sizes.length - 1];
        List<Phases> undialed = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            undialed.add(real(banyan, largest, "tree", "radix:4"));
        }
        double dialed = BenchSupport.median(measured.get("tree").get(largest).stream().map(p -> p.ranksEnded() - p.allUp()).toList());
        double notDialed = BenchSupport.median(undialed.stream().map(p -> p.ranksEnded() - p.allUp()).toList());
        double dial = largest > 4 ? Math.max(0, (dialed - notDialed) * 2 / (largest - 4)) : 0;
        // CPU per host: least squares of CPU against hosts over the star runs (the lone ones too).
        List<double[]> points = new ArrayList<>();
        lone.forEach(p -> points.add(new double[] {1, p.busy()}));
        measured.get("star").forEach((n, ps) -> ps.forEach(p -> points.add(new double[] {n, p.busy()})));
        double perHost = slope(points);
        double rankStart = BenchSupport.median(lone.stream().map(Phases::rankStart).toList());
        double daemonStart = Math.max(10, perHost - sshCpu - rankStart);
        double loneUp = BenchSupport.median(lone.stream().map(Phases::firstUp).toList());
        double spawnLatency = Math.max(0, loneUp - sshCpu - daemonStart);
        // A daemon's extra CPU per child: tree minus star CPU at the same size, per daemon-spawned host.
        List<Double> extras = new ArrayList<>();
        for (int n : sizes) {
            if (n > 4) {
                double tree = BenchSupport.median(measured.get("tree").get(n).stream().map(Phases::busy).toList());
                double star = BenchSupport.median(measured.get("star").get(n).stream().map(Phases::busy).toList());
                extras.add(Math.max(0, (tree - star) / (n - 4)));
            }
        }
        double daemonSpawnExtra = extras.isEmpty() ? 0 : BenchSupport.median(extras);
        System.out.println("## Measured costs (this run)");
        System.out.println();
        System.out.println("| cost | measured | how |");
        System.out.println("|---|---:|---|");
        System.out.printf("| CPU of one ssh session (client + server) | %.0f ms | %d × `ssh -x nodeK true`, /proc/stat |%n",
                sshCpu, sessions);
        System.out.printf("| network latency (half a round trip) | %.0f µs | TCP connect to sshd, median of 21 |%n", latencyUs);
        System.out.printf("| CPU per host of a launch | %.0f ms | slope of CPU against hosts, star runs |%n", perHost);
        System.out.printf("| a lone daemon up (head start to hello) | %.0f ms | median of %d one-host runs |%n", loneUp,
                lone.size());
        System.out.printf("| a daemon's first rank (up to started) | %.0f ms | same runs, `--report-launch` |%n", rankStart);
        System.out.printf("| → daemon start-up CPU | %.0f ms | per host − ssh − rank |%n", daemonStart);
        System.out.printf("| → spawn latency (no CPU) | %.0f ms | lone daemon up − ssh − start-up |%n", spawnLatency);
        System.out.printf("| → a daemon's extra CPU per child | %.0f ms | (tree − star CPU) / daemon-spawned hosts |%n",
                daemonSpawnExtra);
        System.out.printf("| → CPU to dial one routing link | %.1f ms | tree, %d hosts, routing radix:32 − radix:4, phase 3"
                + " × 2 CPUs / %d links |%n", dial, largest, Math.max(0, largest - 4));
        // 3. Fit the interleave on the star only (the tree is left to validate it): the least mean
        // relative error of its first daemon up and median daemon start over every size.
        int bestM = 0;
        double bestErr = Double.MAX_VALUE;
        for (int m : new int[] {2, 3, 4, 6, 8, 12, 16, 24, 32, 0}) {
            CostModel c = costs(sshCpu, daemonStart, latencyUs, rankStart, spawnLatency, daemonSpawnExtra, m, dial);
            double err = 0;
            for (var e : measured.get("star").entrySet()) {
                double[] sim = simulate(e.getKey(), "star", c);
                err += Math.abs(sim[0] / BenchSupport.median(e.getValue().stream().map(Phases::firstUp).toList()) - 1);
                err += Math.abs(sim[3] / BenchSupport.median(e.getValue().stream().map(Phases::daemonStart).toList()) - 1);
            }
            if (err < bestErr) {
                bestErr = err;
                bestM = m;
            }
        }
        System.out.printf("| → CPU-heavy steps interleaved | %s | fitted on the star: first daemon up, daemon start |%n",
                bestM == 0 ? "all" : Integer.toString(bestM));
        CostModel c = costs(sshCpu, daemonStart, latencyUs, rankStart, spawnLatency, daemonSpawnExtra, bestM, dial);
        System.out.println();
        System.out.printf("Simulator options: `--shared-cpus 2 --spawn-concurrency 1000 --spawn-ms %.0f --start-ms %.0f"
                        + " --latency-us %.0f --rank-start-ms %.0f --spawn-latency-ms %.0f --daemon-spawn-ms %.0f"
                        + " --interleave %s --dial-ms %.1f`%n", sshCpu, daemonStart, latencyUs, rankStart, spawnLatency,
                daemonSpawnExtra, bestM == 0 ? "all" : Integer.toString(bestM), dial);
        // 4. Per phase.
        System.out.println();
        System.out.printf("## Per phase, measured (median of %d) against simulated%n", runs);
        System.out.println();
        System.out.println("| hosts | shape | phase | real (ms) | simulated (ms) | error | error (%) |");
        System.out.println("|---:|---|---|---:|---:|---:|---:|");
        double[] worstMs = new double[PHASES.length];
        double[] sumMs = new double[PHASES.length];
        double[] sumPct = new double[PHASES.length];
        double[] worstPct = new double[PHASES.length];
        int[] pctRows = new int[PHASES.length];
        int count = 0;
        for (var shape : measured.entrySet()) {
            for (var e : shape.getValue().entrySet()) {
                int n = e.getKey();
                List<Phases> ps = e.getValue();
                double[] real = durations(BenchSupport.median(ps.stream().map(Phases::firstUp).toList()),
                        BenchSupport.median(ps.stream().map(Phases::allUp).toList()),
                        BenchSupport.median(ps.stream().map(Phases::ranksEnded).toList()),
                        BenchSupport.median(ps.stream().map(Phases::daemonStart).toList()));
                double[] s = simulate(n, shape.getKey(), c);
                double[] sim = durations(s[0], s[1], s[2], s[3]);
                for (int p = 0; p < PHASES.length; p++) {
                    double ms = sim[p] - real[p];
                    worstMs[p] = Math.max(worstMs[p], Math.abs(ms));
                    sumMs[p] += Math.abs(ms);
                    // A per cent of a few milliseconds says nothing: phases under 100 ms get none.
                    String pct = "";
                    if (real[p] >= 100) {
                        double err = ms * 100 / real[p];
                        sumPct[p] += Math.abs(err);
                        worstPct[p] = Math.max(worstPct[p], Math.abs(err));
                        pctRows[p]++;
                        pct = String.format("%+.1f %%", err);
                    }
                    System.out.printf("| %d | %s | %s | %.0f | %.0f | %+.0f ms | %s |%n", n, shape.getKey(),
                            PHASES[p], real[p], sim[p], ms, pct);
                }
                count++;
            }
        }
        System.out.println();
        System.out.println("| phase | mean error | worst error | mean error (%) | worst error (%) |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int p = 0; p < PHASES.length; p++) {
            System.out.printf("| %s | %.0f ms | %.0f ms | %s | %s |%n", PHASES[p], sumMs[p] / count, worstMs[p],
                    pctRows[p] == 0 ? "–" : String.format("%.1f %%", sumPct[p] / pctRows[p]),
                    pctRows[p] == 0 ? "–" : String.format("%.1f %%", worstPct[p]));
        }
        System.out.println();
        System.out.println("(per cent only where the real phase takes 100 ms or more)");
    }

    /** Milestones after the head started → each phase's own duration, then the whole. */
    static double[] durations(double firstUp, double allUp, double ranksEnded, double daemonStart) {
        return new double[] {firstUp, allUp - firstUp, ranksEnded - allUp, daemonStart, ranksEnded};
    }

    static CostModel costs(double sshCpu, double daemonStart, double latencyUs, double rankStart, double spawnLatency,
                           double daemonSpawnExtra, int interleave, double dial) {
        CostModel d = CostModel.SSH;
        return new CostModel(micros(sshCpu), 1000, micros(daemonStart), Math.round(latencyUs), d.messageCpuMicros(),
                micros(rankStart), d.rankRunMicros(), 2, d.bytesPerMicro(), micros(spawnLatency),
                micros(daemonSpawnExtra), interleave, micros(dial));
    }

    static long micros(double ms) {
        return Math.round(ms * 1000);
    }

    /** first up, all up, job ended, median daemon start: milliseconds. */
    static double[] simulate(int n, String shape, CostModel c) {
        String tree = shape.equals("star") ? "direct" : "radix:4";
        String routing = shape.equals("star") ? "direct" : "radix:32";
        LaunchResult r = new LaunchSimulation(n, 1, TopologySpec.parse(tree), TopologySpec.parse(routing), c, List.of()).run(3_600_000_000L);
        return new double[] {r.firstUpMicros() / 1e3, r.allUpMicros() / 1e3, r.finishMicros() / 1e3,
                r.medianDaemonUpMicros() / 1e3};
    }

    static Phases real(String banyan, int n, String shape) throws Exception {
        return real(banyan, n, shape, null);
    }

    /** @param routing a --routing to give, or null for the default */
    static Phases real(String banyan, int n, String shape, String routing) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(banyan, "run", "--host", hosts(n)));
        cmd.addAll(shape.equals("star") ? List.of("--launch", "star") : List.of("--spawn-degree", "4"));
        if (routing != null) {
            cmd.addAll(List.of("--routing", routing));
        }
        cmd.addAll(List.of("--report-launch", "true"));
        long b0 = busyMillis();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(new File("/dev/null")).start();
        String out = new String(p.getInputStream().readAllBytes());
        BenchSupport.check(p.waitFor(), String.join(" ", cmd));
        double busy = busyMillis() - b0;
        Map<String, Double> milestones = new LinkedHashMap<>();
        List<Double> ups = new ArrayList<>();
        List<Double> ranks = new ArrayList<>();
        for (String line : out.split("\n")) {
            Matcher m = MILESTONE.matcher(line);
            if (m.matches()) {
                milestones.put(m.group(1), Double.parseDouble(m.group(2)));
            }
            Matcher d = DAEMON_ROW.matcher(line);
            if (d.matches()) {
                ups.add(Double.parseDouble(d.group(8)));
                ranks.add(Double.parseDouble(d.group(9)) - Double.parseDouble(d.group(8)));
            }
        }
        if (milestones.size() < 3 || ups.size() != n) {
            throw new IllegalStateException("unexpected --report-launch output:\n" + out);
        }
        return new Phases(milestones.get("first daemon up"), milestones.get("all daemons up, contacts gathered"),
                milestones.get("all ranks ended"), BenchSupport.median(ups), BenchSupport.median(ranks), busy);
    }

    static String hosts(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            b.append(i > 1 ? "," : "").append("node").append(i);
        }
        return b.toString();
    }

    /** CPU time all processes spent so far (user, nice, system, irq, softirq, steal), in ms. */
    static long busyMillis() throws Exception {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
        long jiffies = 0;
        for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
            jiffies += Long.parseLong(f[i]);
        }
        return jiffies * 10; // USER_HZ is 100 on Linux
    }

    /** Half the median time of a TCP connect to the host's sshd (one SYN, SYN-ACK round trip). */
    static double halfRoundTripMicros(String host) throws Exception {
        List<Double> rtts = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            try (java.net.Socket s = new java.net.Socket()) {
                long t0 = System.nanoTime();
                s.connect(new java.net.InetSocketAddress(host, 22), 2000);
                rtts.add((System.nanoTime() - t0) / 1e3);
            }
        }
        return BenchSupport.median(rtts) / 2;
    }

    static double slope(List<double[]> xy) {
        double mx = xy.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double my = xy.stream().mapToDouble(p -> p[1]).average().orElse(0);
        double num = 0;
        double den = 0;
        for (double[] p : xy) {
            num += (p[0] - mx) * (p[1] - my);
            den += (p[0] - mx) * (p[0] - mx);
        }
        return num / den;
    }

}
