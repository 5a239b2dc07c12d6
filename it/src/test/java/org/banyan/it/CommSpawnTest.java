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

            final class Ports {
                /** Two groups meet through a port: halves of one job, or a server job and a client job. */
                static void run(Comm world, String[] args) {
                    try {
                        switch (args[0]) {
                            case "halves" -> {
                                boolean server = world.rank() < world.size() / 2;
                                Comm half = world.split(server ? 0 : 1, world.rank());
                                byte[] port = new byte[128];
                                if (world.rank() == 0) {
                                    byte[] p = half.openPort().getBytes();
                                    System.arraycopy(p, 0, port, 0, p.length);
                                }
                                world.bcast(port, 0);
                                String name = new String(port).trim();
                                try (Intercomm ic = server ? half.accept(name, 0) : half.connect(name, 0)) {
                                    say(world, ic, server ? "accepted" : "connected");
                                }
                            }
                            case "server" -> {
                                String port = world.rank() == 0 ? world.openPort() : null;
                                if (world.rank() == 0) {
                                    world.publishName(args[1], port);
                                }
                                try (Intercomm ic = world.accept(port, 0)) {
                                    say(world, ic, "accepted");
                                }
                                if (world.rank() == 0) {
                                    world.unpublishName(args[1]);
                                    world.closePort(port);
                                }
                            }
                            case "client" -> {
                                String port = world.lookupName(args[1], java.time.Duration.ofSeconds(60));
                                try (Intercomm ic = world.connect(port, 0)) {
                                    say(world, ic, "connected");
                                }
                            }
                            case "lonely" -> world.connect(world.openPort(), 0);
                            case "garbled" -> { // a connect's endpoints that are not what a connect publishes
                                String port = world.openPort();
                                if (world.rank() == 0) {
                                    world.publishName(port + "/0/1/children#0", "garbage");
                                    world.publishName(port + "/claim/0", "claimed");
                                }
                                world.accept(port, 0);
                            }
                            case "join" -> joinPair(world);
                            case "joinbad" -> joinBadly(world, args[1]);
                            case "rounds" -> rounds(world);
                            case "growing" -> growing(world);
                            case "joinat" -> joinAt(world, args[1].equals("listen"), Integer.parseInt(args[2]));
                            default -> world.lookupName(args[1]);
                        }
                    } catch (CommException e) {
                        System.out.println("rank " + world.rank() + ": " + e.getMessage());
                        System.exit(3);
                    }
                }

                /** Ranks 0 and 1 join over a loopback socket rank 0 listens on; the socket is theirs again after. */
                static void joinPair(Comm world) {
                    try {
                        java.net.InetAddress lo = java.net.InetAddress.getLoopbackAddress();
                        int[] port = new int[1];
                        java.net.ServerSocket server = world.rank() == 0 ? new java.net.ServerSocket(0, 1, lo) : null;
                        if (server != null) {
                            port[0] = server.getLocalPort();
                        }
                        world.bcast(port, 0);
                        java.net.Socket s;
                        if (server != null) {
                            s = server.accept();
                            server.close();
                        } else {
                            s = java.nio.channels.SocketChannel.open(new java.net.InetSocketAddress(lo, port[0])).socket();
                        }
                        try (s; Intercomm ic = world.rank() == 0 ? world.join(s) : world.join(s.getChannel())) {
                            int[] theirs = new int[1];
                            ic.allgather(new int[] {world.rank() * 10 + 7}, theirs);
                            s.getOutputStream().write('a' + world.rank());
                            System.out.println("rank " + world.rank() + " joined " + ic.size() + " with " + ic.remoteSize()
                                    + ": " + theirs[0] + ", then the socket carried " + (char) s.getInputStream().read());
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }

                /**
                 * Rank 1 connects four times to the port rank 0 accepts on; after each accept rank 0
                 * says the port's hint (where the next connect starts trying). Before the fourth it
                 * garbles the hint: the connect must still find its number.
                 */
                static void rounds(Comm world) {
                    boolean server = world.rank() == 0;
                    Comm half = world.split(server ? 0 : 1, 0);
                    byte[] port = new byte[128];
                    if (server) {
                        byte[] p = half.openPort().getBytes();
                        System.arraycopy(p, 0, port, 0, p.length);
                    }
                    world.bcast(port, 0);
                    String name = new String(port).trim();
                    for (int round = 1; round <= 4; round++) {
                        if (server && round == 4) {
                            half.unpublishName(name + "/next");
                            half.publishName(name + "/next", "garbage");
                        }
                        world.barrier();
                        try (Intercomm ic = server ? half.accept(name, 0) : half.connect(name, 0)) {
                            if (server) {
                                System.out.println("round " + round + ": next " + half.lookupName(name + "/next"));
                            }
                        }
                    }
                    if (server) {
                        half.closePort(name);
                        try {
                            half.lookupName(name + "/next");
                        } catch (CommException gone) {
                            System.out.println("closed: " + gone.getMessage().replace(name, "PORT"));
                        }
                    }
                }

                /**
                 * A server grows a communicator one client at a time: each round, everyone already
                 * in it accepts on the server's port, the next rank connects, and they merge.
                 */
                static void growing(Comm world) {
                    Comm mine = world.split(world.rank(), 0);
                    byte[] port = new byte[128];
                    if (world.rank() == 0) {
                        byte[] p = mine.openPort().getBytes();
                        System.arraycopy(p, 0, port, 0, p.length);
                    }
                    world.bcast(port, 0);
                    String name = new String(port).trim();
                    Comm grown = world.rank() == 0 ? mine : null;
                    for (int t = 1; t < world.size(); t++) {
                        world.barrier();
                        if (world.rank() < t) {
                            grown = grown.accept(name, 0).merge(false);
                        } else if (world.rank() == t) {
                            grown = mine.connect(name, 0).merge(true);
                        }
                    }
                    System.out.println("rank " + world.rank() + " is rank " + grown.rank() + " of " + grown.size());
                    world.barrier();
                }

                /** Joins whoever is at the other end of a loopback port this rank listens on or connects to. */
                static void joinAt(Comm world, boolean listen, int port) {
                    java.net.InetAddress lo = java.net.InetAddress.getLoopbackAddress();
                    try {
                        java.net.Socket s;
                        if (listen) {
                            try (java.net.ServerSocket server = new java.net.ServerSocket(port, 1, lo)) {
                                s = server.accept();
                            }
                        } else {
                            s = new java.net.Socket(lo, port);
                        }
                        try (s) {
                            world.join(s);
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }

                /** Joins over a socket whose other end (in this process) does {@code what} instead of joining. */
                static void joinBadly(Comm world, String what) {
                    java.net.InetAddress lo = java.net.InetAddress.getLoopbackAddress();
                    try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, lo);
                         java.net.Socket other = new java.net.Socket(lo, server.getLocalPort());
                         java.net.Socket mine = server.accept()) {
                        switch (what) {
                            case "garbage" -> other.getOutputStream().write("GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n".getBytes());
                            case "closed" -> other.shutdownOutput();
                            case "cannot" -> {
                                byte[] why = "it has had enough".getBytes();
                                java.io.DataOutputStream d = new java.io.DataOutputStream(other.getOutputStream());
                                d.write("BNYJOIN1".getBytes());
                                d.write(new byte[16]);
                                d.write(1);
                                d.writeShort(why.length);
                                d.write(why);
                            }
                            default -> { } // silent
                        }
                        world.join(mine);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }

                /** Every rank of both groups: its world rank and its group's size, all gathered at the accepting root. */
                static void say(Comm world, Intercomm ic, String how) {
                    int[] all = new int[ic.remoteSize() * 2];
                    int[] mine = {world.rank(), ic.size()};
                    ic.allgather(mine, all);
                    if (ic.rank() == 0) {
                        System.out.println(how + " " + ic.size() + " with " + ic.remoteSize() + ": " + java.util.Arrays.toString(all));
                    }
                }
            }

            public final class SpawnProbe {
                public static void main(String[] args) {
                    try (Banyan job = Banyan.init(); Comm world = Comm.world(job)) {
                        Intercomm parent = world.parent();
                        if (parent != null) {
                            if (args.length > 0 && args[0].equals("nestedchild")) { // merges with its parent, then they spawn together
                                String jvm = ProcessHandle.current().info().command().orElseThrow();
                                Comm both = parent.merge(true);
                                System.out.println("the merged communicator's parent is the world's: " + (both.parent() == parent));
                                Intercomm more = both.spawn(jvm, List.of("-cp", System.getProperty("java.class.path"), "SpawnProbe",
                                        "nestedgrandchild"), 2, 0);
                                more.close();
                                both.close();
                                parent.close();
                                return;
                            }
                            if (args.length > 0 && args[0].equals("nestedgrandchild")) {
                                System.out.println("grandchild " + world.rank() + "/" + world.size() + " of a group of "
                                        + parent.remoteSize());
                                parent.close();
                                return;
                            }
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
                        if (List.of("halves", "server", "client", "lonely", "garbled", "nolookup", "join", "joinbad", "joinat", "rounds", "growing").contains(args[0])) {
                            Ports.run(world, args);
                            return;
                        }
                        String jvm = ProcessHandle.current().info().command().orElseThrow();
                        List<String> self = List.of("-cp", System.getProperty("java.class.path"), "SpawnProbe");
                        if (args[0].equals("nested")) { // MPI's pattern: spawn, merge, spawn again from the merged communicator
                            Intercomm kids = world.spawn(jvm, List.of("-cp", System.getProperty("java.class.path"), "SpawnProbe",
                                    "nestedchild"), 1, 0);
                            Comm both = kids.merge(false);
                            Intercomm more = both.spawn(jvm, List.of("-cp", System.getProperty("java.class.path"), "SpawnProbe",
                                    "nestedgrandchild"), 2, 0);
                            System.out.println("merged " + both.size() + ", spawned " + more.remoteSize() + " from it");
                            more.close();
                            both.close();
                            kids.close();
                            return;
                        }
                        int rounds = args[0].equals("twice") ? 2 : 1;
                        for (int round = 0; round < rounds; round++) {
                            Intercomm children;
                            try {
                                children = args[0].equals("multiple") ? world.spawnMultiple(List.of(
                                                new Banyan.SpawnApp(jvm, self, 1, java.util.Map.of("PROBE_APP", "a"), args[1]),
                                                new Banyan.SpawnApp(jvm, self, 2, java.util.Map.of("PROBE_APP", "b"), null)),
                                                List.of(args[2]), 0)
                                        : args[0].equals("soft") ? world.spawn("java", self, 4, java.util.Map.of("soft", "1:4",
                                                "path", java.nio.file.Path.of(jvm).getParent().toString(), "env", "PROBE_APP=soft\\n"), 0)
                                        : args[0].equals("badinfo") ? world.spawn(jvm, self, 1, java.util.Map.of("map_by", "node"), 0)
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
        assertThat(r.stderr()).containsPattern("job 2 rank [01] on .* could not start: /no/such/program").contains("ending job 1");
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

    /** A time limit that is not a number is said on every rank before anything is spawned or claimed (it fell back to 120 s). */
    @Test
    void aMalformedTimeLimitIsSaidOnEveryRankBeforeAnythingStarts() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result spawn = Banyan.run(Map.of(), null, probe(List.of("-n", "2", "--oversubscribe", "-x",
                "BANYAN_COMM_SPAWN_TIMEOUT=0"), "spawn", "sleep", "1", marker));
        assertThat(spawn.exit()).as(spawn.stdout() + spawn.stderr()).isEqualTo(3);
        assertThat(spawn.stdout().lines().sorted()).containsExactly(
                "parent 0: spawn: BANYAN_COMM_SPAWN_TIMEOUT=0 is not a whole number of seconds (at least 1)",
                "parent 1: spawn: BANYAN_COMM_SPAWN_TIMEOUT=0 is not a whole number of seconds (at least 1)");
        Banyan.Result ports = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe", "-x",
                "BANYAN_COMM_CONNECT_TIMEOUT=soon"), "halves"));
        assertThat(ports.exit()).as(ports.stderr()).isEqualTo(3);
        assertThat(ports.stdout().lines().sorted()).containsExactly(
                "rank 0: accept: BANYAN_COMM_CONNECT_TIMEOUT=soon is not a whole number of seconds (at least 1)",
                "rank 1: connect: BANYAN_COMM_CONNECT_TIMEOUT=soon is not a whole number of seconds (at least 1)");
        Banyan.assertNothingLeft(marker);
    }

    /**
     * MPI_Info: "soft" 1:4 with one slot left starts one child (4, 3 and 2 refused in turn),
     * "path" finds the bare program name, "env" reaches the child; a key banyan-comm does not
     * read is refused on every parent, nothing started.
     */
    @Test
    void spawnInfoSoftPathAndEnvAreHonouredAndAnUnknownKeyRefused() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--host", "localhost:3"), "soft"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("child 0/1 app soft in ").contains("round 0: [0, 1, 2]");
        Banyan.Result bad = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "badinfo"));
        assertThat(bad.exit()).isEqualTo(3);
        assertThat(bad.stdout().lines().sorted()).containsExactly(
                "parent 0: spawn: MPI_Info key 'map_by' is not one banyan-comm's spawn reads (host, wdir, path, soft, env)",
                "parent 1: spawn: MPI_Info key 'map_by' is not one banyan-comm's spawn reads (host, wdir, path, soft, env)");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    /**
     * The server loop that grows a communicator one client at a time accepts on its port from the
     * merged communicator (refused before: ports were one world's, not the process's).
     */
    @Test
    void aCommunicatorGrownByAcceptsKeepsAcceptingOnItsPort() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "3", "--oversubscribe", "--timeout", "90"), "growing"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout().lines().sorted()).containsExactly("rank 0 is rank 0 of 3", "rank 1 is rank 1 of 3",
                "rank 2 is rank 2 of 3");
    }

    /** Connects to one port in turn: each starts at the port's hint (K round trips for the K-th before), a garbled hint costs tries only. */
    @Test
    void connectsInTurnStartAtThePortsHint() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "rounds"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("round 1: next 1\nround 2: next 2\nround 3: next 3\nround 4: next 4\n"
                + "closed: lookupName: PORT/next is not published\n");
    }

    /** MPI_Comm_join: two ranks meet over their own socket (one end a channel), which carries their bytes after. */
    @Test
    void twoRanksJoinOverTheirOwnSocket() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "2", "--oversubscribe"), "join"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines().sorted()).containsExactly("rank 0 joined 1 with 1: 17, then the socket carried b",
                "rank 1 joined 1 with 1: 7, then the socket carried a");
    }

    /** A socket whose other end does not join: garbage, an end closed, an end that cannot join, silence; each said, in time. */
    @Test
    void aJoinOverASocketThatDoesNotJoinSaysWhy() throws Exception {
        Map<String, String> said = Map.of(
                "garbage", "rank 0: join: the other end of the socket is not joining (it wrote 474554202f204854 where a join's greeting starts)",
                "closed", "rank 0: join: the other end closed the socket before joining",
                "cannot", "rank 0: join: the other end cannot join: it has had enough",
                "silent", "rank 0: join: the other end did not join within 2 s");
        for (var e : said.entrySet()) {
            long start = System.nanoTime();
            Banyan.Result r = Banyan.run(null, probe(List.of("-n", "1", "-x", "BANYAN_COMM_CONNECT_TIMEOUT=2"), "joinbad",
                    e.getKey()));
            assertThat(r.exit()).as(e.getKey() + ": " + r.stderr()).isEqualTo(3);
            assertThat(r.stdout()).isEqualTo(e.getValue() + "\n");
            assertThat((System.nanoTime() - start) / 1e9).as(e.getKey()).isLessThan(30);
        }
        // two ends that are ranks of two runs greet each other, then cannot meet: each run's name service is its own
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process listener = Banyan.builder(probe(List.of("-n", "1", "-x", "BANYAN_COMM_CONNECT_TIMEOUT=2"), "joinat", "listen",
                Integer.toString(port))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Banyan.Result connector = null;
        for (int attempt = 0; attempt < 40; attempt++) { // until the listener's rank listens
            connector = Banyan.run(null, probe(List.of("-n", "1", "-x", "BANYAN_COMM_CONNECT_TIMEOUT=2"), "joinat", "connect",
                    Integer.toString(port)));
            if (!connector.stderr().contains("ConnectException")) {
                break;
            }
            Thread.sleep(250);
        }
        String late = "join: the other end, which must be a rank of this run or DVM, did not go on within 2 s (name-lookup failed: timeout)";
        assertThat(connector.stdout()).as(connector.stderr()).isEqualTo("rank 0: " + late + "\n");
        assertThat(listener.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(new String(listener.getInputStream().readAllBytes())).isEqualTo("rank 0: " + late + "\n");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    /**
     * A communicator merged from a spawn's intercommunicator spawns again (it said "this process
     * is not a rank of a Banyan job": the joint world knew no job).
     */
    @Test
    void aCommunicatorMergedFromASpawnSpawnsAgain() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "1", "--oversubscribe"), "nested"));
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout().lines().sorted()).containsExactly("grandchild 0/2 of a group of 2",
                "grandchild 1/2 of a group of 2", "merged 2, spawned 2 from it",
                "the merged communicator's parent is the world's: true");
        Banyan.assertNothingLeft("SpawnProbe");
    }

    /** One job's halves meet through a port: MPI_Open_port, MPI_Comm_accept and MPI_Comm_connect. */
    @Test
    void twoGroupsOfAJobMeetThroughAPort() throws Exception {
        Banyan.Result r = Banyan.run(null, probe(List.of("-n", "5", "--oversubscribe"), "halves"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines().sorted()).containsExactly("accepted 2 with 3: [2, 3, 3, 3, 4, 3]",
                "connected 3 with 2: [0, 2, 1, 2]");
    }

    /**
     * Two jobs of a DVM that did not start each other: a server publishes its port under a name
     * and accepts, a client started first looks the name up (waiting for it) and connects; then
     * a connect nobody accepts and a name nobody published, each said on every rank.
     */
    @Test
    void twoJobsOfADvmMeetThroughAPublishedName() throws Exception {
        Path uri = dir.resolve("dvm-ports.uri");
        Banyan.Result started = Banyan.run(null, List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:6"));
        assertThat(started.exit()).as(started.stderr()).isZero();
        try {
            String name = "probe-" + Banyan.marker();
            Path clientOut = dir.resolve("client.out");
            Process client = Banyan.builder(probe(List.of("--dvm", uri.toString(), "-n", "2"), "client", name))
                    .redirectOutput(clientOut.toFile()).redirectError(dir.resolve("client.err").toFile()).start();
            Banyan.Result server = Banyan.run(null, probe(List.of("--dvm", uri.toString(), "-n", "3"), "server", name));
            assertThat(server.exit()).as(server.stderr()).isZero();
            assertThat(client.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(client.exitValue()).as(Files.readString(dir.resolve("client.err"))).isZero();
            assertThat(server.stdout()).isEqualTo("accepted 3 with 2: [0, 2, 1, 2]\n");
            assertThat(Files.readString(clientOut)).isEqualTo("connected 2 with 3: [0, 3, 1, 3, 2, 3]\n");

            Banyan.Result lonely = Banyan.run(null, probe(List.of("--dvm", uri.toString(), "-n", "2", "-x",
                    "BANYAN_COMM_CONNECT_TIMEOUT=3"), "lonely"));
            assertThat(lonely.exit()).as(lonely.stderr()).isEqualTo(3);
            assertThat(lonely.stdout().lines().map(l -> l.replaceAll("banyan-comm-port\\S*", "PORT")).sorted()).containsExactly(
                    "rank 0: connect: no one accepted on PORT within 3 s (name-lookup failed: timeout)",
                    "rank 1: connect: no one accepted on PORT within 3 s (name-lookup failed: timeout)");
            // garbage where the other group's endpoints should be: every rank of the accepting group
            // is told (the root alone failing left the others waiting for its word)
            Banyan.Result garbled = Banyan.run(null, probe(List.of("--dvm", uri.toString(), "-n", "2"), "garbled"));
            assertThat(garbled.exit()).as(garbled.stderr()).isEqualTo(3);
            assertThat(garbled.stdout().lines().sorted()).hasSize(2).allMatch(l -> l.matches(
                    "rank [01]: accept: the other group's endpoints are garbled \\(java.lang.StringIndexOutOfBoundsException.*"));
            Banyan.Result unknown = Banyan.run(null, probe(List.of("--dvm", uri.toString(), "-n", "1"), "nolookup", name));
            assertThat(unknown.stdout()).isEqualTo("rank 0: lookupName: " + name + " is not published\n");
        } finally {
            Banyan.run(null, List.of("dvm", "stop", "--dvm", uri.toString()));
        }
        Banyan.assertNothingLeft("SpawnProbe");
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
