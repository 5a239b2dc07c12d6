package org.banyan.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.banyan.cli.Main;
import org.junit.jupiter.api.Test;

/** {@code banyan sim launch} as users call it: the calibration's options, and bad input. */
class SimCommandTest {
    record Outcome(int status, String out, String err) {}

    static Outcome sim(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true));
            System.setErr(new PrintStream(e, true));
            int status = Main.run(new java.util.ArrayList<>(List.of(args)));
            return new Outcome(status, o.toString(), e.toString());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    static double field(String out, String name) {
        for (String line : out.split("\n")) {
            if (line.startsWith(name)) {
                return Double.parseDouble(line.substring(name.length()).trim().split("[ ,/]")[0]);
            }
        }
        throw new AssertionError("no '" + name + "' in:\n" + out);
    }

    /** One host: its daemon is up after the spawn's CPU, its latency and the start-up, all in series. */
    @Test
    void calibratedCostsAddUpForALoneDaemon() {
        Outcome r = sim("sim", "launch", "--hosts", "1", "--shared-cpus", "2", "--spawn-ms", "200", "--start-ms", "90",
                "--spawn-latency-ms", "80", "--rank-start-ms", "10", "--interleave", "3", "--dial-ms", "15",
                "--daemon-spawn-ms", "5");
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(field(r.out(), "first daemon up (s)")).isBetween(0.370, 0.371);
        assertThat(r.out()).contains("daemon start, median / max (s)", "routing links dialed, last open (s)");
    }

    @Test
    void badCostsAreOneLineAndStatusTwo() {
        for (String[] bad : new String[][] {{"--spawn-latency-ms", "-5"}, {"--dial-ms", "soon"},
                {"--interleave", "0"}, {"--rank-start-ms", "NaN"}, {"--seed", "x"}, {"--faults", "some"},
                {"--latency-us", "1.5"}, {"--gbits", "fast"}, {"--shared-cpus", "two"}}) {
            Outcome r = sim("sim", "launch", "--hosts", "4", bad[0], bad[1]);
            assertThat(r.status()).as(String.join(" ", bad)).isEqualTo(2);
            assertThat(r.err().strip()).as(String.join(" ", bad)).startsWith("banyan sim: ").contains(bad[0])
                    .doesNotContain("\n");
            assertThat(r.out()).isEmpty();
        }
    }

    /** Options that mean nothing without another: the output was the same as without them. */
    @Test
    void optionsThatNeedAnotherAreRefusedAlone() {
        assertThat(sim("sim", "launch", "--hosts", "4", "--seed", "5").err())
                .isEqualTo("banyan sim: --seed draws the faults of --faults F: give --faults, or drop --seed\n");
        assertThat(sim("sim", "launch", "--hosts", "4", "--modex-bytes", "512").err())
                .isEqualTo("banyan sim: --modex-bytes describes the ranks' wire-up: give --modex full|lazy\n");
        assertThat(sim("sim", "launch", "--hosts", "4", "--interleave", "3").err())
                .isEqualTo("banyan sim: --interleave says how CPU-heavy steps share --shared-cpus N: give --shared-cpus\n");
        assertThat(sim("sim", "launch", "--hosts", "4", "--seed", "5", "--faults", "1").status()).isZero();
    }

    /** The tree's shape given twice was settled by the options' order (the star took --spawn-degree's place, or not). */
    @Test
    void twoShapesOfTheLaunchTreeAreRefused() {
        Outcome r = sim("sim", "launch", "--hosts", "10", "--spawn-degree", "4", "--launch", "star");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("banyan sim: --spawn-degree and --launch star both shape the launch tree: give one");
        assertThat(r.out()).isEmpty();
        assertThat(sim("sim", "launch", "--hosts", "4", "--tree", "binomial", "--spawn-degree", "2").err())
                .contains("--tree and --spawn-degree both shape the launch tree: give one");
        assertThat(sim("sim", "launch", "--hosts", "4", "--launch", "star", "--launch", "tree", "--spawn-degree", "2").status())
                .as("the last --launch counts").isZero();
    }

    @Test
    void launchHelpListsItsOptions() {
        Outcome r = sim("sim", "launch", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out()).startsWith("Usage: banyan sim launch --hosts N").contains("--spawn-degree K").contains("--faults F");
    }

    /** banyan sim workload: one JSON object per policy and line, with the keys; bad input is status 2. */
    @Test
    void workloadPrintsOneObjectPerPolicy() throws Exception {
        Outcome o = sim("sim", "workload", "--jobs", "30", "--nodes", "64", "--seed", "2", "--json");
        assertThat(o.status()).as(o.err()).isZero();
        String[] lines = o.out().strip().split("\n");
        assertThat(lines).as("the set-up, then a line per policy").hasSize(3);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        var setup = json.readTree(lines[0]).get("setup");
        assertThat(setup.get("jobs").asInt()).isEqualTo(30);
        assertThat(setup.get("arrivals").get("poisson_mean_s").asDouble()).isEqualTo(10.0);
        assertThat(setup.get("apps")).hasSize(3);
        var fixed = json.readTree(lines[1]);
        var flexible = json.readTree(lines[2]);
        assertThat(fixed.get("policy").asText()).isEqualTo("fixed");
        assertThat(flexible.get("policy").asText()).isEqualTo("flexible");
        for (var r : List.of(fixed, flexible)) {
            assertThat(r.get("jobs").asInt()).isEqualTo(30);
            assertThat(r.get("nodes").asInt()).isEqualTo(64);
            for (String k : List.of("makespan_s", "utilisation", "mean_wait_s", "mean_exec_s", "mean_completion_s")) {
                assertThat(r.get(k).isNumber()).as(k).isTrue();
            }
            assertThat(r.has("completion_s")).as("the makespan is named as such").isFalse();
        }
        assertThat(fixed.get("resizes").asInt()).isZero();
        Outcome text = sim("sim", "workload", "--jobs", "30", "--nodes", "64", "--seed", "2");
        assertThat(text.out()).contains("makespan s").containsPattern(
                "flexible against fixed: [-+][0-9.]+ % mean completion per job, [-+][0-9.]+ % makespan\n");
        assertThat(sim("sim", "workload", "--policy", "both", "--nodes", "0").err())
                .isEqualTo("banyan sim: --nodes must be a positive integer, got '0'\n");
        assertThat(sim("sim", "workload", "--policy", "some").status()).isEqualTo(2);
        Outcome sweep = sim("sim", "workload", "--jobs", "20", "--arrivals", "10,1000", "--json");
        assertThat(sweep.out().strip().split("\n")).as("the set-up, then two per arrival time").hasSize(5);
        assertThat(json.readTree(sweep.out().split("\n")[4]).get("arrival_s").asDouble()).isEqualTo(1000);
        assertThat(sim("sim", "workload", "--arrivals", "10,-1").err()).isEqualTo("banyan sim: --arrivals must be positive, not -1\n");
        assertThat(sim("sim", "workload", "--swf", "/no/such.swf").err())
                .isEqualTo("banyan sim: --swf '/no/such.swf': no such file\n");
        java.nio.file.Path huge = java.nio.file.Files.createTempFile("huge", ".swf");
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
            sparse.setLength(org.banyan.cli.options.InputFiles.heapBound() + 1); // refused by its size, not read
            assertThat(sim("sim", "workload", "--swf", huge.toString()).err()).isEqualTo("banyan sim: --swf '" + huge + "' is longer than "
                    + (org.banyan.cli.options.InputFiles.heapBound() >> 20) + " MiB (a quarter of this command's memory)\n");
        } finally {
            java.nio.file.Files.delete(huge);
        }
        // options the others make meaningless were dropped without a word
        assertThat(sim("sim", "workload", "--arrivals", "5,10", "--arrival", "3", "--policy", "fixed").err()).isEqualTo("banyan sim: "
                + "--arrivals runs both policies at each of its arrival times and prints one line each: drop --arrival, --policy\n");
        assertThat(sim("sim", "workload", "--swf", "w.swf", "--jobs", "10").err())
                .isEqualTo("banyan sim: --swf gives the jobs and their arrivals: drop --jobs\n");
        assertThat(sim("sim", "workload", "--resize-seconds", "1").err()).isEqualTo("banyan sim: --start-seconds and --resize-seconds "
                + "are a FlexibleSleep job's costs: give --flexible-sleep, or drop --resize-seconds\n");
    }

    /** The real workload's jobs, simulated beside it (bench/workload-calibrate). */
    @Test
    void workloadSimulatesTheRealBenchmarksJobs(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path jobs = dir.resolve("jobs");
        java.nio.file.Files.writeString(jobs, "0.00 2 1 8 4\n1.00 2 1 8 2\n");
        Outcome o = sim("sim", "workload", "--nodes", "2", "--flexible-sleep", jobs.toString(), "--policy", "fixed", "--json");
        assertThat(o.status()).as(o.err()).isZero();
        var r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(o.out().strip());
        assertThat(r.get("jobs").asInt()).isEqualTo(2);
        assertThat(r.get("makespan_s").asDouble()).as("0.5 s start, 16 s, 0.5 s start, 8 s").isCloseTo(25.0,
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(sim("sim", "workload", "--flexible-sleep", jobs.toString(), "--swf", "x.swf").err())
                .isEqualTo("banyan sim: --swf and --flexible-sleep both give the jobs; choose one\n");
        assertThat(sim("sim", "workload", "--flexible-sleep", jobs.toString(), "--start-seconds", "-1").status()).isEqualTo(2);
    }

    /**
     * banyan sim lublin writes what the authors' m_lublin99.c writes for the seed (the rm
     * module's test data, made by it); sim workload --model lublin runs those jobs.
     */
    @Test
    void lublinWritesTheAuthorsOutputAndFeedsTheWorkload() throws Exception {
        Outcome o = sim("sim", "lublin", "--seed", "42");
        assertThat(o.status()).isZero();
        assertThat(o.out()).isEqualTo(java.nio.file.Files.readString(java.nio.file.Path.of("../rm/src/test/resources/lublin/ref-42.swf")));
        Outcome big = sim("sim", "lublin", "--seed", "3", "--nodes", "1024", "--jobs", "2000", "--load", "2");
        assertThat(big.out()).contains("; MaxNodes: 1024\n").contains("; MaxJobs: 2000\n");
        Outcome w = sim("sim", "workload", "--model", "lublin", "--jobs", "40", "--nodes", "64", "--seed", "3", "--load", "20", "--json");
        assertThat(w.status()).as(w.err()).isZero();
        assertThat(w.out().lines()).hasSize(2).allMatch(l -> l.contains("\"jobs\":40"));
        assertThat(sim("sim", "workload", "--model", "lublin", "--arrival", "5").err())
                .isEqualTo("banyan sim: --model lublin draws its own arrivals (scale them with --load): drop --arrival\n");
        assertThat(sim("sim", "workload", "--load", "2").err())
                .isEqualTo("banyan sim: --load scales the Lublin-Feitelson arrivals: give --model lublin, or drop --load\n");
        assertThat(sim("sim", "workload", "--model", "weibull").status()).isEqualTo(2);
        assertThat(sim("sim", "lublin", "--jobs", "0").status()).isEqualTo(2);
    }

    /**
     * The set-up as data: the seed's Table 1 preset as written (flexible comes out worse there,
     * the finding docs/malleability.md states), its JSON printed with --json and read back with
     * --setup to the same results, and bad set-ups refused by name.
     */
    @Test
    void presetsAndSetupFilesGiveTheWholeSetUp(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Outcome seed = sim("sim", "workload", "--preset", "seed-table1", "--jobs", "20", "--json");
        assertThat(seed.status()).as(seed.err()).isZero();
        List<String> lines = seed.out().lines().toList();
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        var setup = json.readTree(lines.getFirst()).get("setup");
        assertThat(setup.get("name").asText()).isEqualTo("seed-table1");
        assertThat(setup.get("nodes").asInt()).isEqualTo(64);
        var cg = setup.get("apps").get(0);
        assertThat(cg.get("iterations").asInt()).isEqualTo(10000);
        assertThat(cg.get("preferred").asInt()).isEqualTo(8);
        assertThat(cg.get("check_period_s").asDouble()).isEqualTo(15.0);
        assertThat(cg.get("serial").asDouble()).isZero();
        var nbody = setup.get("apps").get(2);
        assertThat(nbody.get("max").asInt()).isEqualTo(16);
        assertThat(nbody.get("preferred").asInt()).isEqualTo(1);
        assertThat(json.readTree(lines.get(1)).get("mean_exec_s").asDouble()).as("570 s at the maximum size").isEqualTo(570.0);
        java.nio.file.Path file = dir.resolve("setup.json");
        java.nio.file.Files.writeString(file, json.writeValueAsString(json.readTree(lines.getFirst()).get("setup")));
        Outcome back = sim("sim", "workload", "--setup", file.toString(), "--json");
        assertThat(back.out()).as("the same set-up read back: the same results").isEqualTo(seed.out());
        Outcome defaults = sim("sim", "workload", "--preset", "banyan-defaults", "--jobs", "30", "--nodes", "64", "--seed", "2");
        assertThat(defaults.out()).isEqualTo(sim("sim", "workload", "--jobs", "30", "--nodes", "64", "--seed", "2").out());
        java.nio.file.Files.writeString(file, "{\"nodes\": 8, \"jobs\": 2, \"arrivals\": {\"poisson_mean_s\": 5},"
                + " \"apps\": [{\"name\": \"x\", \"iterations\": 4, \"min\": 1, \"max\": 4, \"run_s_at_max\": 100, \"colour\": 1}]}");
        assertThat(sim("sim", "workload", "--setup", file.toString()).err()).contains("app 1: unknown key 'colour'");
        java.nio.file.Files.writeString(file, "{\"nodes\": 8, \"jobs\": 2, \"arrivals\": {\"poisson_mean_s\": 5},"
                + " \"apps\": [{\"name\": \"x\", \"iterations\": 4, \"min\": 3, \"max\": 2, \"run_s_at_max\": 100}]}");
        assertThat(sim("sim", "workload", "--setup", file.toString()).status()).isEqualTo(2);
        for (String negative : List.of("comm_s_per_log2", "start_s")) { // said "job 1: the run-time estimate must be positive"
            java.nio.file.Files.writeString(file, "{\"nodes\": 8, \"jobs\": 2, \"arrivals\": {\"poisson_mean_s\": 5},"
                    + " \"apps\": [{\"name\": \"x\", \"iterations\": 4, \"min\": 1, \"max\": 4, \"one_node_s\": 100, \""
                    + negative + "\": -1000}]}");
            Outcome refused = sim("sim", "workload", "--setup", file.toString());
            assertThat(refused.status()).isEqualTo(2);
            assertThat(refused.err()).contains("application 'x'").contains("no negative check period, resize cost, data, "
                    + "communication term or start").hasLineCount(1);
        }
        java.nio.file.Files.writeString(file, "{\"nodes\": 8, \"jobs\": 2, \"nodes\": 64, \"arrivals\": {\"poisson_mean_s\": 5},"
                + " \"apps\": [{\"name\": \"x\", \"iterations\": 4, \"min\": 1, \"max\": 4, \"run_s_at_max\": 100}]}");
        Outcome twice = sim("sim", "workload", "--setup", file.toString());
        assertThat(twice.status()).as("a key given twice is refused, not the last one taken").isEqualTo(2);
        assertThat(twice.err().strip()).isEqualTo("banyan sim: " + file + ": 'nodes' is given twice");
        java.nio.file.Files.writeString(file, "{\"nodes\": 8, \"jobs\": 2, \"arrivals\": {\"poisson_mean_s\": 5},"
                + " \"apps\": [{\"name\": \"x\", \"iterations\": 4, \"min\": 1, \"max\": 4, \"run_s_at_max\": 100}]} {}");
        assertThat(sim("sim", "workload", "--setup", file.toString()).err()).contains("more than one JSON value");
        assertThat(sim("sim", "workload", "--setup", "/dev/zero").err()).as("an endless file: refused, not read into the heap")
                .contains("--setup '/dev/zero'");
        assertThat(sim("sim", "workload", "--preset", "paper").err()).contains("--preset 'paper' is one of banyan-defaults, seed-table1");
        assertThat(sim("sim", "workload", "--preset", "seed-table1", "--swf", "x.swf").status()).isEqualTo(2);
    }

    /**
     * Set-ups tried as a careless user writes them: 2·10^9 iterations a job ran for minutes with
     * nothing printed, 10^300 s printed 300-digit numbers, two applications of one name and an
     * empty --sizes were taken; each is now one line and status 2, before anything runs.
     */
    @Test
    void setUpsPastAnyStudyAreRefusedBeforeTheyRun(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        String app = "{\"name\": \"x\", \"iterations\": 10, \"min\": 2, \"max\": 32, \"one_node_s\": 100}";
        java.nio.file.Path file = dir.resolve("setup.json");
        for (String[] bad : new String[][] {
            {app.replace("10,", "2000000000,"), "iterations to simulate, more than 1e+09"},
            {app.replace("100}", "1e300}"), "are at most 31536000"},
            {app + ", " + app, "application 'x' is in the mix twice"}}) {
            java.nio.file.Files.writeString(file, "{\"nodes\": 64, \"jobs\": 20, \"arrivals\": {\"poisson_mean_s\": 5},"
                    + " \"apps\": [" + bad[0] + "]}");
            long t0 = System.nanoTime();
            Outcome r = sim("sim", "workload", "--setup", file.toString());
            assertThat(r.status()).as(bad[1]).isEqualTo(2);
            assertThat(r.err()).as(bad[1]).contains(bad[1]).hasLineCount(1);
            assertThat(r.out()).isEmpty();
            assertThat((System.nanoTime() - t0) / 1e9).as("refused before it runs").isLessThan(10);
        }
        Outcome many = sim("sim", "workload", "--preset", "seed-table1", "--sizes", "50,1000000");
        assertThat(many.status()).isEqualTo(2);
        assertThat(many.err()).startsWith("banyan sim: 1000000 jobs of this mix make about 6.67e+09 iterations").hasLineCount(1);
        assertThat(many.out()).as("no size runs when one cannot").isEmpty();
        Outcome empty = sim("sim", "workload", "--sizes", ",");
        assertThat(empty.status()).isEqualTo(2);
        assertThat(empty.err().strip()).isEqualTo("banyan sim: --sizes must be a positive integer, got ''");
        assertThat(sim("sim", "workload", "--preset", "seed-table1", "--jobs", "400", "--policy", "fixed").status())
                .as("the seed's largest study runs").isZero();
    }

    /** banyan sim pilot: the DVM's agent under the simulator, checked after every event; bad input is one line and status 2. */
    @Test
    void pilotRunsTheAgentWithTheCheckerOn() {
        Outcome o = sim("sim", "pilot", "--hosts", "16", "--cores-per-host", "4", "--tasks", "2000", "--task-seconds", "1",
                "--lost-hosts", "2", "--restartable", "0.5", "--seed", "3");
        assertThat(o.status()).as(o.err()).isZero();
        assertThat(o.out()).contains("2,000 tasks on 16 hosts of 4 cores").containsPattern("ended +[0-9,]+ done, [0-9,]+ failed, 0 canceled")
                .contains("invariants after each");
        assertThat(sim("sim", "pilot", "--hosts", "2", "--tasks", "10", "--lost-hosts", "2").err())
                .isEqualTo("banyan sim: --lost-hosts 2 leaves no host of 2\n");
        assertThat(sim("sim", "pilot", "--tasks", "10").status()).isEqualTo(2);
        // a simulation larger than the heap: one line, status 2, not an OutOfMemoryError's stack trace
        Outcome huge = sim("sim", "pilot", "--hosts", "10", "--tasks", "2000000000");
        assertThat(huge.status()).isEqualTo(2);
        assertThat(huge.err()).isEqualTo("banyan sim: out of memory: a simulation this large does not fit in this command's "
                + (Runtime.getRuntime().maxMemory() >> 20) + " MiB of heap; give fewer hosts, tasks or jobs\n");
        assertThat(sim("sim", "pilot", "--hosts", "2", "--tasks", "10", "--scheduler", "fifo").status()).isEqualTo(2);
    }

    /** --sizes prints Table 4 for a set-up, --plots writes its figures; both refuse what they would drop. */
    @Test
    void sizesGiveTableFourAndItsFigures(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Outcome o = sim("sim", "workload", "--preset", "seed-table1", "--sizes", "10,20", "--plots", dir.resolve("f").toString());
        assertThat(o.status()).as(o.err()).isZero();
        assertThat(o.out().lines().filter(l -> l.startsWith("| 10 |") || l.startsWith("| 20 |")).count()).isEqualTo(4);
        assertThat(dir.resolve("f/figure4.png")).isNotEmptyFile();
        assertThat(dir.resolve("f/figure5.png")).isNotEmptyFile();
        assertThat(dir.resolve("f/figure6/timelines.png")).isNotEmptyFile();
        assertThat(dir.resolve("f/table4.md")).content().contains("| 20 | flexible |");
        assertThat(sim("sim", "workload", "--plots", dir.toString()).err())
                .isEqualTo("banyan sim: --plots draws the figures of --sizes: give --sizes N,N,...\n");
        assertThat(sim("sim", "workload", "--sizes", "10", "--jobs", "5").status()).isEqualTo(2);
    }
}
