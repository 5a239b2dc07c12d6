package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * banyan-comm's MPI_Comm_spawn under banyan run and on a DVM, as a user meets it: the example's
 * managers and workers, two spawns in a row, the joint world over TCP, and every way it fails —
 * no free slots, no such program, a child that throws, children that never connect — each ending
 * with a line that says why and nothing left behind.
 */
class CommSpawnTest {
    /**
     * A probe: {@code SpawnProbe spawn PROGRAM COUNT [ARGS]} spawns from every rank of the world
     * (root 0), prints what each parent sees and exits 3 when the spawn failed; {@code twice}
     * spawns itself twice in a row and checks both; {@code multiple DIR HOST} spawns one child of
     * application a in DIR and two of b, on HOST; a spawned SpawnProbe answers its parents with
     * its rank and size (and says where it runs when it is one of several applications), or
     * throws when given {@code throw}.
     */
    static final String PROBE = """
            import java.util.List;
            import org.banyan.client.Banyan;
            import org.banyan.comm.*;

            public final class SpawnProbe {
                public static void main(String[] args) {
                    try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                        Intercomm parent = world.parent();
                        if (parent != null) {
                            if (args.length > 0 && args[0].equals("throw")) {
                                throw new IllegalStateException("child " + world.rank() + " fails on purpose");
                            }
                            if (System.getenv("PROBE_APP") != null) {
                                System.out.println("child " + world.rank() + "/" + world.size() + " app " + System.getenv("PROBE_APP")
                                        + " in " + System.getProperty("user.dir"));
                            }
                            try (parent) {
                                int[] mine = {world.rank(), world.size(), parent.remoteSize()};
                                parent.gather(mine, new int[0], 0);
                            }
                            return;
                        }
                        String jvm = ProcessHandle.current().info().command().orElseThrow();
                        List<String> self = List.of("-cp", System.getProperty("java.class.path"), "SpawnProbe");
                        int rounds = args[0].equals("twice") ? 2 : 1;
                        for (int round = 0; round < rounds; round++) {
                            Intercomm children;
                            try {
                                children = args[0].equals("multiple") ? world.spawnMultiple(List.of(
                                                new Banyan.SpawnApp(jvm, self, 1, java.util.Map.of("PROBE_APP", "a"), args[1]),
                                                new Banyan.SpawnApp(jvm, self, 2, java.util.Map.of("PROBE_APP", "b"), null)),
                                                List.of(args[2]), 0)
                                        : args[0].equals("spawn")
                                        ? world.spawn(args[1], List.of(args).subList(3, args.length), Integer.parseInt(args[2]), 0)
                                        : world.spawn(jvm, self, 2 + round, 0);
                            } catch (CommException e) {
                                System.out.println("parent " + world.rank() + ": " + e.getMessage());
                                System.exit(3);
                                return;
                            }
                            try (children) {
                                int[] all = new int[3 * children.remoteSize()];
                                children.gather(new int[0], all, world.rank() == 0 ? Intercomm.ROOT : Comm.PROC_NULL);
                                if (world.rank() == 0) {
                                    System.out.println("round " + round + ": " + java.util.Arrays.toString(all));
                                }
                            }
                        }
                    }
                }
            }
            """;

    @TempDir
    static Path dir;
    static String classPath;

    @BeforeAll
    static void compile() throws Exception {
        classPath = CommExamples.compile(dir.resolve("classes"));
        Path src = dir.resolve("src/SpawnProbe.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, PROBE);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp", classPath,
                "-d", dir.resolve("classes").toString(), src.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as(new String(p.getInputStream().readAllBytes())).isZero();
    }

    /** {@code run [OPTIONS] java ... SpawnProbe ARGS}, without --oversubscribe unless given. */
    static List<String> probe(List<String> options, String... args) {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(options);
        all.addAll(List.of(JavaClient.JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", classPath,
                "SpawnProbe"));
        all.addAll(List.of(args));
        return all;
    }

    @Test
    void theExamplesManagersSpawnWorkersThatSumWithThem() throws Exception {
        Banyan.Result r = Banyan.run(CommExamples.command(List.of("-n", "2"), classPath, "Spawn", "3", "1000")
                .toArray(String[]::new));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("sum of squares of 1..1000 by 3 spawned workers: 333833500 (correct)\n");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    @Test
    void twoSpawnsInARowEachGetTheirOwnChildren() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "twice"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        // each child: its rank, its world's size, and its parents' group's size
        assertThat(r.stdout()).isEqualTo("round 0: [0, 2, 2, 1, 2, 2]\nround 1: [0, 3, 2, 1, 3, 2, 2, 3, 2]\n");
    }

    /** With shared memory off every pair of the joint world meets over TCP, proving the joint world's secret. */
    @Test
    void theJointWorldWorksOverTcp() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe", "-x", "BANYAN_COMM_SHM=0"), "twice"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("round 1: [0, 3, 2, 1, 3, 2, 2, 3, 2]");
    }

    /** MPI_Comm_spawn_multiple with MPI_Info's "wdir" and "host": one job, ranks across the applications. */
    @Test
    void severalApplicationsSpawnAsOneJobInTheirDirectoriesOnTheNamedHost() throws Exception {
        Path wdir = Files.createDirectories(dir.resolve("app-a"));
        String host = "localhost";
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "1", "--oversubscribe", "--host", host + ":2"), "multiple",
                wdir.toString(), host));
        assertThat(r.exit()).as(r.stderr()).isZero();
        String launch = Path.of("").toAbsolutePath().toString();
        assertThat(r.stdout().lines().sorted()).containsExactly(
                "child 0/3 app a in " + wdir,
                "child 1/3 app b in " + launch,
                "child 2/3 app b in " + launch,
                "round 0: [0, 3, 1, 1, 3, 1, 2, 3, 1]");
        Banyan.Result elsewhere = Banyan.run(null, probe(List.of("-n", "1", "--oversubscribe"), "multiple", wdir.toString(),
                "no-such-host"));
        assertThat(elsewhere.exit()).as(elsewhere.stderr()).isEqualTo(3);
        assertThat(elsewhere.stdout()).isEqualTo(
                "parent 0: spawn: MPI_Comm_spawn names host no-such-host, which is not one of the run's\n");
    }

    @Test
    void aSpawnWithNoFreeSlotsFailsOnEveryParentWithTheRunsReason() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--host", "localhost:2"), "spawn", JavaClient.JAVA, "2"));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(3);
        String why = ": spawn: MPI_Comm_spawn asks for 2 processes but only 0 of the run's 2 slots are free; add --oversubscribe";
        assertThat(r.stdout().lines().sorted()).containsExactly("parent 0" + why, "parent 1" + why);
        assertThat(r.stderr()).contains("cannot spawn for job 1: MPI_Comm_spawn asks for 2 processes");
    }

    @Test
    void aSpawnOfNoProgramOrNoProcessesIsRefusedOnEveryParent() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "spawn", JavaClient.JAVA, "0"));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(3);
        assertThat(r.stdout().lines().sorted()).containsExactly(
                "parent 0: spawn: the spawn request asks for 0 processes (at least 1)",
                "parent 1: spawn: the spawn request asks for 0 processes (at least 1)");
    }

    @Test
    void aSpawnedProgramThatCannotStartEndsTheRunWithItsReason() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "spawn", "/no/such/program", "2"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isEqualTo(127);
        assertThat(r.stderr()).contains("could not start: /no/such/program").contains("ending job 1");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    @Test
    void aChildThatThrowsEndsTheWholeRunWithItsException() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "spawn", JavaClient.JAVA, "2",
                "-cp", classPath, "SpawnProbe", "throw"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isNotZero();
        assertThat(r.stderr()).contains("IllegalStateException: child").contains("fails on purpose");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    @Test
    void aSpawnedProgramThatNeverConnectsFailsTheSpawnInTimeAndLeavesNothing() throws Exception {
        String marker = Banyan.marker();
        long start = System.nanoTime();
        Banyan.Result r = Banyan.run(Map.of(), null, probe(List.of("-n", "2", "--oversubscribe", "-x",
                "BANYAN_COMM_SPAWN_TIMEOUT=5"), "spawn", "sleep", "1", marker));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isNotZero();
        assertThat(r.stdout()).contains(
                "parent 0: spawn: the spawned job did not connect within 5 s (name-lookup failed: timeout)");
        assertThat(r.stdout()).contains(
                "parent 1: spawn: the spawned job did not connect within 5 s (name-lookup failed: timeout)");
        assertThat(seconds).as("the spawn's time limit, not the sleep's").isLessThan(60);
        Banyan.assertNothingLeft(marker);
    }

    /** Seven slots: the first children may still hold theirs (their JVMs ending) when the second spawn asks. */
    @Test
    void aJobOfADvmSpawnsInTheDvmsFreeSlots() throws Exception {
        Path uri = dir.resolve("dvm.uri");
        Banyan.Result started = Banyan.run(null, List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:7"));
        assertThat(started.exit()).as(started.stderr()).isZero();
        try {
            Banyan.Result r = Banyan.run(null, probe(List.of("--dvm", uri.toString(), "-n", "2"), "twice"));
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stdout()).isEqualTo("round 0: [0, 2, 2, 1, 2, 2]\nround 1: [0, 3, 2, 1, 3, 2, 2, 3, 2]\n");
        } finally {
            Banyan.run(null, List.of("dvm", "stop", "--dvm", uri.toString()));
        }
        Banyan.assertNothingLeft("SpawnProbe");
    }
}
