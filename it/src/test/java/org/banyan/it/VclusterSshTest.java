package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * banyan run over ssh on real hosts: bin/testhosts makes 8 network namespaces, each with
 * its own address and sshd, sharing this file system. Taken down afterwards, whatever happened.
 * Needs root (CI runs as root).
 */
class VclusterSshTest {
    static final int HOSTS = 8;

    @TempDir
    static Path dir;

    @BeforeAll
    static void up() throws Exception {
        Vcluster.up(HOSTS, false);
        for (String name : List.of("ring", "allreduce")) {
            Path src = dir.resolve(name + ".c");
            Files.writeString(src, MpichInteropTest.PROGRAMS.get(name));
            Vcluster.run("mpicc.mpich", "-std=c99", "-o", dir.resolve(name).toString(), src.toString());
            Vcluster.run("mpicc.openmpi", "-std=c99", "-o", dir.resolve(name + "-ompi").toString(), src.toString());
        }
        Path spawn = dir.resolve("spawn.c");
        Files.writeString(spawn, OpenMpiInteropTest.PROGRAMS.get("spawn"));
        Vcluster.run("mpicc.openmpi", "-std=c99", "-o", dir.resolve("spawn-ompi").toString(), spawn.toString());
    }

    @AfterAll
    static void down() throws Exception {
        Vcluster.down();
    }

    static String hosts(int n, int slots) {
        List<String> h = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            h.add("node" + i + (slots > 1 ? ":" + slots : ""));
        }
        return String.join(",", h);
    }

    static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    @Test
    void hostnameRunsOncePerHostForEveryShape() throws Exception {
        for (String shape : List.of("--spawn-degree=2", "--spawn-degree=32", "--launch=star", "--routing=binomial")) {
            List<String> args = new ArrayList<>(List.of("run", "--host", hosts(HOSTS, 1), shape));
            if (shape.startsWith("--routing")) {
                args.add("--spawn-degree=0");
            }
            args.add("hostname");
            Banyan.Result r = Banyan.run(null, args);
            assertThat(r.exit()).as(shape + ": " + r.stderr()).isZero();
            assertThat(lines(r.stdout())).as(shape).containsExactlyInAnyOrder("node1", "node2", "node3", "node4",
                    "node5", "node6", "node7", "node8");
        }
    }

    /**
     * mpiexec.hydra's -genvall (its default there) gives ranks on other hosts banyan's whole
     * environment; without it they get their ssh login's, as Open MPI's mpirun gives them.
     */
    @Test
    void genvallGivesRanksOnOtherHostsBanyansEnvironment() throws Exception {
        java.util.Map<String, String> env = java.util.Map.of("BANYAN_TEST_ONLY_HERE", "yes");
        List<String> command = List.of("sh", "-c", "echo $BANYAN_RANK $(hostname) ${BANYAN_TEST_ONLY_HERE-unset}");
        List<String> args = new ArrayList<>(List.of("run", "--host", hosts(2, 1)));
        args.addAll(command);
        Banyan.Result plain = Banyan.run(env, null, args);
        assertThat(lines(plain.stdout())).as(plain.stderr()).containsExactlyInAnyOrder("0 node1 unset", "1 node2 unset");
        args.add(1, "-genvall");
        Banyan.Result all = Banyan.run(env, null, args);
        assertThat(lines(all.stdout())).as(all.stderr()).containsExactlyInAnyOrder("0 node1 yes", "1 node2 yes");
    }

    /** Open MPI's builds over eight ssh hosts: fences through the tree, then TCP between the ranks. */
    /** Bytes that are not UTF-8 cross the overlay to a remote daemon and reach its rank's execve as given. */
    @Test
    void argumentBytesReachRanksOnOtherHosts() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                "\"$0\" run --host \"$1\" sh -c 'printf \"%s\" \"$0\" | od -An -tx1' \"$(printf 'caf\\351')\"",
                Banyan.SCRIPT.toString(), hosts(2, 1)).redirectInput(new java.io.File("/dev/null"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        assertThat(lines(out)).hasSize(2).allMatch(l -> l.strip().equals("63 61 66 e9"));
    }

    @Test
    void openMpiProgramsWireUpThroughEveryDaemonsPmixServer() throws Exception {
        Banyan.Result sum = Banyan.run(null, List.of("run", "--host", hosts(HOSTS, 2), dir.resolve("allreduce-ompi").toString()));
        assertThat(sum.exit()).as(sum.stderr()).isZero();
        assertThat(lines(sum.stdout())).hasSize(2 * HOSTS).allMatch(l -> l.endsWith(" sum 136"));
        Banyan.Result ring = Banyan.run(null, List.of("run", "--host", hosts(HOSTS, 1), "--spawn-degree=2",
                dir.resolve("ring-ompi").toString()));
        assertThat(ring.exit()).as(ring.stderr()).isZero();
        assertThat(ring.stdout()).isEqualTo("token 24 after 3 laps\n");
    }

    /**
     * MPI_Comm_spawn over ssh hosts: the parent fills node1 and node2, the children go to node3,
     * so parent and children connect across hosts.
     */
    @Test
    void openMpiSpawnPutsTheChildrenOnAnotherHost() throws Exception {
        Banyan.Result r = Banyan.run(null, List.of("run", "-n", "4", "--host", hosts(4, 2), "--tag-output",
                dir.resolve("spawn-ompi").toString()));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).as("the children's lines tagged with their own job").containsExactlyInAnyOrder(
                "[1,0]<stdout>:parent 0 of 4 got 43 back", "[2,0]<stdout>:child 0 of 2 (talk) got 42",
                "[2,1]<stdout>:child 1 of 2 (talk) got 43");
    }

    /** A malleable Java job shrinks and grows back on four ssh hosts under the DVM's decisions, its data intact. */
    @Test
    void aMalleableJobShrinksAndGrowsOnSshHosts() throws Exception {
        Path work = Files.createDirectories(dir.resolve("malleable-ssh"));
        Process p = new ProcessBuilder("sh", VclusterMalleable.script(work).toString(), "--host", hosts(4, 1))
                .redirectErrorStream(true).redirectOutput(work.resolve("script.out").toFile()).start();
        assertThat(p.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(work.resolve("script.out"))).isZero();
        VclusterMalleable.assertResizedWithItsDataIntact(work);
        Banyan.assertNoProcessesWith("FlexibleSleep");
    }

    /** A DVM over four ssh hosts: a bag of tasks spreads over all of them; stop leaves nothing anywhere. */
    @Test
    void aDvmOverSshHostsRunsABagOfTasksOnEveryHost() throws Exception {
        Path uri = dir.resolve("ssh-dvm.uri");
        Banyan.Result up = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", hosts(4, 2));
        assertThat(up.exit()).as(up.stderr()).isZero();
        assertThat(up.stdout()).contains("ready, 4 host(s), 8 slot(s)");
        try {
            StringBuilder tasks = new StringBuilder();
            for (int i = 0; i < 16; i++) {
                tasks.append("{\"executable\": \"sh\", \"arguments\": [\"-c\", \"sleep 0.3; hostname\"]}\n");
            }
            Files.writeString(dir.resolve("bag.jsonl"), tasks);
            Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("ssh-session").toString(),
                    "--tasks", dir.resolve("bag.jsonl").toString());
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stderr()).contains("16 tasks: 16 done, 0 failed, 0 canceled");
            java.util.Set<String> seen = new java.util.TreeSet<>();
            try (var sandboxes = Files.list(dir.resolve("ssh-session"))) {
                for (Path sb : sandboxes.filter(Files::isDirectory).filter(p -> p.getFileName().toString().startsWith("task.")).toList()) {
                    seen.add(Files.readString(sb.resolve(sb.getFileName() + ".out")).strip());
                }
            }
            assertThat(seen).containsExactly("node1", "node2", "node3", "node4");
            // an MPI task of an Open MPI program across the hosts: one job of 8 ranks, through PMIx
            Path mpiSession = dir.resolve("ssh-mpi-task");
            Banyan.Result mpi = Banyan.run("submit", "--dvm", uri.toString(), "--session", mpiSession.toString(), "--ranks", "8",
                    "--mpi", "--", dir.resolve("allreduce-ompi").toString());
            assertThat(mpi.exit()).as(mpi.stderr()).isZero();
            assertThat(Files.readAllLines(mpiSession.resolve("task.000000/task.000000.out"))).hasSize(8)
                    .allMatch(l -> l.endsWith(" sum 36"));
        } finally {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNothingLeft(uri.toString());
    }

    /** banyan-comm between hosts goes over TCP; the residual is the one rank's. */
    @Test
    void theJavaStencilAcrossFourHostsGetsTheResidualOfOneRank() throws Exception {
        String cp = CommExamples.compile(dir.resolve("comm-classes"));
        Banyan.Result one = Banyan.run(CommExamples.command(List.of("-n", "1"), cp, "Stencil", "64", "40").toArray(String[]::new));
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("--host", hosts(4, 2), "--spawn-degree", "2", "-n", "8"), cp,
                "Stencil", "64", "40").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("on 8 ranks (2x4)");
        assertThat(CommExamples.residual(r.stdout())).isEqualTo(CommExamples.residual(one.stdout()));
    }

    /**
     * A chain made with reorder over two hosts, the ranks dealt by node and bound to cores: the
     * chain's ranks 0-1 and 2-3 each land on one host (in the world's order every link crosses
     * hosts), and the token passed along the chain comes from the left neighbour.
     */
    @Test
    void aReorderedChainPutsItsNeighboursOnOneHost() throws Exception {
        String cp = CommExamples.compile(dir.resolve("comm-classes"));
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("--host", hosts(2, 2), "-n", "4", "--map-by", "node", "--bind-to",
                "core"), cp, "Reorder").toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        java.util.Map<Integer, String> hostOfChainRank = new java.util.HashMap<>();
        for (String line : r.stdout().strip().split("\n")) {
            // world W on HOST -> chain C (left L) | note
            String[] f = line.split(" ");
            int chainRank = Integer.parseInt(f[6]);
            hostOfChainRank.put(chainRank, f[3]);
            assertThat(f[8]).as(line).isEqualTo((chainRank - 1) + ")");
            assertThat(line).as(line).contains("| reordered by TreeMatch: the pattern's cost on the machine");
        }
        assertThat(hostOfChainRank).hasSize(4);
        assertThat(hostOfChainRank.get(0)).isEqualTo(hostOfChainRank.get(1)).isNotEqualTo(hostOfChainRank.get(2));
        assertThat(hostOfChainRank.get(2)).isEqualTo(hostOfChainRank.get(3));
    }

    @Test
    void mpichRingAcrossFourHosts() throws Exception {
        Banyan.Result r = Banyan.run("run", "--host", hosts(4, 2), "--spawn-degree", "2", dir.resolve("ring").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("token 24 after 3 laps\n");
    }

    @Test
    void mpichAllreduceAcrossEightHosts() throws Exception {
        Banyan.Result r = Banyan.run("run", "--host", hosts(8, 1), "--spawn-degree", "2", "--tag-output",
                dir.resolve("allreduce").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).hasSize(8).allMatch(l -> l.endsWith(" sum 36"));
        assertThat(lines(r.stdout())).anyMatch(l -> l.startsWith("[1,7]<stdout>:rank 7 "));
    }

    /** Every daemon holds its parent link and one per child: at most k + 1. */
    @Test
    void everyDaemonHoldsAtMostKPlusRPlusTwoLinks() throws Exception {
        // {spawn degree K, routing, its largest number of children R over 9 vertices, links expected at most}:
        // the same trees add no link (K + 1); binomial routing beside a radix-2 spawn tree adds some.
        for (String[] c : new String[][] {{"2", "radix:2", "2", "3"}, {"3", "radix:3", "3", "4"},
            {"2", "binomial", "4", "8"}}) {
            int k = Integer.parseInt(c[0]);
            Banyan.Result r = Banyan.run("run", "--host", hosts(HOSTS, 1), "--spawn-degree", c[0], "--routing", c[1],
                    "--report-launch", "true");
            assertThat(r.exit()).as(r.stderr()).isZero();
            Matcher m = Pattern.compile("(?m)^banyan run:\\s+(\\d+)\\s+(node\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)").matcher(r.stderr());
            int daemons = 0;
            int maxLinks = 0;
            while (m.find()) {
                daemons++;
                maxLinks = Math.max(maxLinks, Integer.parseInt(m.group(3)));
            }
            assertThat(daemons).as(r.stderr()).isEqualTo(HOSTS);
            String what = "spawn radix:" + k + ", routing " + c[1] + "\n" + r.stderr();
            assertThat(maxLinks).as(what).isLessThanOrEqualTo(k + Integer.parseInt(c[2]) + 2)
                    .isLessThanOrEqualTo(Integer.parseInt(c[3]));
            if (c[1].equals("binomial")) {
                assertThat(maxLinks).as("routing links of their own: " + what).isGreaterThan(k + 1);
            } else {
                assertThat(maxLinks).as(what).isEqualTo(k + 1);
            }
        }
    }

    @Test
    void aHostWithoutSshdIsNamedAndNothingIsLeft() throws Exception {
        String m = Banyan.marker();
        Banyan.Result r = Banyan.run("run", "--host", hosts(3, 1) + ",10.77.0.99", "--spawn-degree", "2",
                "--launch-agent", "ssh -x -o ConnectTimeout=2", "sleep", m);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr()).contains("banyan run: lost the daemon on 10.77.0.99: daemon via ssh ended, exit status 255");
        Banyan.assertNothingLeft(m);
    }

    @Test
    void aDaemonKilledMidJobEndsTheJobOnEveryHost() throws Exception {
        String m = Banyan.marker();
        Banyan.assertLosingDaemonZeroEndsTheJob(Banyan.builder(List.of("run", "--host", hosts(7, 1), "--spawn-degree",
                "2", "sleep", m)), m, 7, "node1");
    }

    @Test
    void killingTheHeadLeavesNothingOnAnyHost() throws Exception {
        String m = Banyan.marker();
        Banyan.assertKillingTheHeadLeavesNothing(Banyan.builder(List.of("run", "--host", hosts(7, 1), "--spawn-degree",
                "2", "sleep", m)), m, 7);
    }

    @Test
    void javaRanksExchangeKeysAcrossHosts() throws Exception {
        String cp = JavaClient.compile(dir.resolve("java"));
        Banyan.Result r = Banyan.run(null, JavaClient.command(List.of("run", "--host", hosts(4, 1), "--spawn-degree",
                "2", "-n", "4"), cp));
        assertThat(r.exit()).as(r.stderr()).isZero();
        JavaClient.assertEveryRankSawItsNeighbour(r.stdout(), 4, rank -> "node" + (rank + 1));
        for (int h = 1; h <= 4; h++) {
            assertThat(r.stdout()).contains(" is node" + h + "/pid ");
        }
    }

    /** The processes running in test host {@code i}'s network namespace (sshd's sessions and what they run). */
    static List<String> processesOn(int i) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "for p in $(ip netns pids bny" + i + "); do ps -o args= -p $p; done")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return lines(out.strip());
    }

    /**
     * A host whose link goes down mid-job (the case: three ranks finished, banyan still
     * running 180 s later): its daemon is declared lost within the heartbeat timeout, the job
     * ends with one line naming it and status 1, and the cut-off host ends its own ranks and
     * daemon before its link comes back.
     */
    @Test
    void aHostThatGoesSilentIsLostWithinTheHeartbeatTimeoutAndCleansItselfUp() throws Exception {
        String m = Banyan.marker();
        Process job = Banyan.builder(List.of("run", "--heartbeat-timeout", "4", "--host", hosts(4, 1), "-n", "4", "sleep", m))
                .start();
        Banyan.awaitSleeps(m, 4);
        long cut = System.nanoTime();
        Vcluster.run(Vcluster.SCRIPT.toString(), "cut", "2");
        try {
            assertThat(job.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).as("the job ended").isTrue();
            double seconds = (System.nanoTime() - cut) / 1e9;
            String err = new String(job.getErrorStream().readAllBytes());
            assertThat(job.exitValue()).as(err).isEqualTo(1);
            assertThat(err.lines().filter(l -> l.startsWith("banyan"))).as("banyan's lines (login shells may add theirs)")
                    .containsExactly("banyan run: lost the daemon on node2: no word from it for 4 s (its host, or the link "
                            + "to it, went silent)");
            assertThat(seconds).as("seconds from the cut to the end").isLessThan(9);
            for (int i = 0; i < 100 && processesOn(2).stream().anyMatch(l -> l.contains(m) || l.contains("DaemonMain")); i++) {
                Thread.sleep(100);
            }
            assertThat(processesOn(2)).as("on the cut-off host, before its link comes back")
                    .noneMatch(l -> l.contains(m) || l.contains("DaemonMain") || l.contains("banyan-rank-guard"));
        } finally {
            Vcluster.run(Vcluster.SCRIPT.toString(), "mend", "2");
        }
        Banyan.assertNoProcessesWith(m);
    }

    /** The same detector serves a DVM: a silent host's tasks fail with the reason and the DVM goes on with the others. */
    @Test
    void aDvmLosesASilentHostAndGoesOnWithTheOthers() throws Exception {
        Path uri = dir.resolve("silent-dvm.uri");
        Banyan.Result started = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--heartbeat-timeout", "4",
                "--host", "node1:2,node2:2", "--warm-up", "0");
        assertThat(started.exit()).as(started.stderr()).isZero();
        String m = Banyan.marker();
        try {
            Banyan.Result sub = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session",
                    dir.resolve("silent-session").toString(), "--cc", "1-4", "--", "sleep", m);
            assertThat(sub.exit()).as(sub.stderr()).isZero();
            Banyan.awaitSleeps(m, 4);
            Vcluster.run(Vcluster.SCRIPT.toString(), "cut", "2");
            try {
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (Banyan.processesWith(m).stream().filter(l -> l.contains("sleep " + m)).count() > 2
                        && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).containsPattern("node2 +2 +0 +lost");
                for (int i = 0; i < 100 && processesOn(2).stream().anyMatch(l -> l.contains(m) || l.contains("DaemonMain")); i++) {
                    Thread.sleep(100);
                }
                assertThat(processesOn(2)).as("node2's tasks and daemon, before its link comes back")
                        .noneMatch(l -> l.contains(m) || l.contains("DaemonMain"));
                assertThat(Banyan.run("cancel", "--dvm", uri.toString(), "--all").exit()).isZero();
                Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), sub.stdout().strip());
                assertThat(waited.stderr()).contains("4 tasks: 0 done, 2 failed, 2 canceled")
                        .contains("lost the daemon on node2: no word from it for 4 s");
                Banyan.Result more = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("after-loss").toString(),
                        "--", "hostname");
                assertThat(more.exit()).as("a task after the loss: " + more.stderr()).isZero();
            } finally {
                Vcluster.run(Vcluster.SCRIPT.toString(), "mend", "2");
            }
        } finally {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNoProcessesWith(m);
    }
}
