package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open MPI programs under banyan run: they wire up through PMIx, which each daemon serves with
 * libpmix (Debian's Open MPI 4.1 and PMIx 4.2). The programs of {@link MpichInteropTest}, built
 * with mpicc.openmpi: hello, allreduce, ring, MPI_Abort, a segfaulting rank, large and
 * line-whole output, stdin on rank 0; across two daemons; on a DVM; --monitor with Open MPI's own
 * monitoring; and what --mpi pmi knowingly asks for.
 */
class OpenMpiInteropTest {
    @TempDir
    static Path dir;

    static final Map<String, String> PROGRAMS = new LinkedHashMap<>(MpichInteropTest.PROGRAMS);

    static {
        PROGRAMS.put("segv", """
                #include <mpi.h>
                #include <signal.h>
                #include <stdlib.h>
                #include <unistd.h>
                int main(int argc, char **argv) {
                    int rank;
                    MPI_Init(&argc, &argv);
                    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                    MPI_Barrier(MPI_COMM_WORLD);
                    if (rank == 1) { signal(SIGSEGV, SIG_DFL); raise(SIGSEGV); }
                    sleep(atoi(argv[1]));
                    MPI_Finalize();
                    return 0;
                }
                """);
    }

    static {
        PROGRAMS.put("names", """
                #include <mpi.h>
                #include <stdio.h>
                #include <string.h>
                int main(int argc, char **argv) {
                    int rank; char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
                    MPI_Init(&argc, &argv);
                    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
                    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
                    if (rank == 0) {
                        MPI_Open_port(MPI_INFO_NULL, port);
                        if (MPI_Publish_name("banyan-service", MPI_INFO_NULL, port) != MPI_SUCCESS) printf("publish failed\\n");
                    }
                    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
                    if (rank == 1) {
                        int rc = MPI_Lookup_name("banyan-service", MPI_INFO_NULL, found);
                        printf("lookup %s\\n", rc == MPI_SUCCESS && strcmp(found, port) == 0 ? "found the published port" : "failed");
                        rc = MPI_Lookup_name("no-such-service", MPI_INFO_NULL, found);
                        printf("unknown name %s\\n", rc == MPI_SUCCESS ? "found" : "not found");
                    }
                    MPI_Barrier(MPI_COMM_WORLD);
                    if (rank == 0) {
                        int rc = MPI_Unpublish_name("banyan-service", MPI_INFO_NULL, port);
                        printf("unpublish %s\\n", rc == MPI_SUCCESS ? "ok" : "failed");
                        MPI_Close_port(port);
                    }
                    MPI_Barrier(MPI_COMM_WORLD);
                    if (rank == 1) {
                        int rc = MPI_Lookup_name("banyan-service", MPI_INFO_NULL, found);
                        printf("after unpublish %s\\n", rc == MPI_SUCCESS ? "found" : "not found");
                    }
                    MPI_Finalize();
                    return 0;
                }
                """);
    }

    static {
        // the parent's rank 0 sends a token to child 0, the children pass it round and child 1
        // sends it back; argv[1] of a child says what it was started with; argv[1] of the parent
        // ("fail") makes child 1 exit with status 3 before talking, "host:NAME" spawns on host NAME
        PROGRAMS.put("spawn", """
                #include <mpi.h>
                #include <stdio.h>
                #include <stdlib.h>
                #include <string.h>
                int main(int argc, char **argv) {
                    MPI_Comm parent, inter;
                    int rank, size, token = 0;
                    MPI_Init(&argc, &argv);
                    MPI_Comm_get_parent(&parent);
                    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                    MPI_Comm_size(MPI_COMM_WORLD, &size);
                    if (parent == MPI_COMM_NULL) {
                        char *args[] = {argc > 1 ? argv[1] : "talk", NULL};
                        MPI_Info info = MPI_INFO_NULL;
                        if (argc > 1 && strncmp(argv[1], "host:", 5) == 0) {
                            MPI_Info_create(&info);
                            MPI_Info_set(info, "host", argv[1] + 5);
                        }
                        if (argc > 2 && strncmp(argv[1], "info:", 5) == 0) { /* info:KEY VALUE */
                            MPI_Info_create(&info);
                            MPI_Info_set(info, argv[1] + 5, argv[2]);
                        }
                        MPI_Comm_spawn(argv[0], args, 2, info, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
                        if (rank == 0) {
                            token = 42;
                            MPI_Send(&token, 1, MPI_INT, 0, 0, inter);
                            MPI_Recv(&token, 1, MPI_INT, 1, 0, inter, MPI_STATUS_IGNORE);
                            printf("parent %d of %d got %d back\\n", rank, size, token);
                        }
                        MPI_Comm_disconnect(&inter);
                    } else {
                        if (strcmp(argv[1], "fail") == 0 && rank == 1) exit(3);
                        if (rank == 0) MPI_Recv(&token, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
                        MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
                        if (rank == 1) { token += 1; MPI_Send(&token, 1, MPI_INT, 0, 0, parent); }
                        printf("child %d of %d (%s) got %d\\n", rank, size, argv[1], token);
                        MPI_Comm_disconnect(&parent);
                    }
                    MPI_Finalize();
                    return 0;
                }
                """);
    }

    static {
        // the manager/worker pattern of MPI's textbooks: one manager spawns MPI_UNIVERSE_SIZE - 1
        // workers, each of which sends it a 1
        PROGRAMS.put("manager", """
                #include <mpi.h>
                #include <stdio.h>
                int main(int argc, char **argv) {
                    MPI_Comm parent, inter;
                    int *universe, flag, one = 1, sum = 0;
                    MPI_Init(&argc, &argv);
                    MPI_Comm_get_parent(&parent);
                    if (parent == MPI_COMM_NULL) {
                        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
                        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, *universe - 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter,
                                MPI_ERRCODES_IGNORE);
                        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_ROOT, inter);
                        printf("%d workers answered\\n", sum);
                    } else {
                        MPI_Reduce(&one, NULL, 1, MPI_INT, MPI_SUM, 0, parent);
                    }
                    MPI_Finalize();
                    return 0;
                }
                """);
    }

    static {
        // argv[1] "server": publish a port and accept; "client": look it up (retrying until the
        // server published it) and connect; one int there and back
        PROGRAMS.put("connect", """
                #include <mpi.h>
                #include <stdio.h>
                #include <string.h>
                #include <unistd.h>
                int main(int argc, char **argv) {
                    char port[MPI_MAX_PORT_NAME];
                    MPI_Comm inter;
                    int rank, v = 0;
                    MPI_Init(&argc, &argv);
                    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                    if (strcmp(argv[1], "server") == 0) {
                        if (rank == 0) { MPI_Open_port(MPI_INFO_NULL, port); MPI_Publish_name("banyan-connect", MPI_INFO_NULL, port); }
                        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
                        if (rank == 0) {
                            MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
                            v++;
                            MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
                            MPI_Unpublish_name("banyan-connect", MPI_INFO_NULL, port);
                        }
                    } else {
                        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
                        for (int i = 0; i < 300 && MPI_Lookup_name("banyan-connect", MPI_INFO_NULL, port) != MPI_SUCCESS; i++) usleep(100000);
                        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
                        if (rank == 0) {
                            v = 41;
                            MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
                            MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
                            printf("the server answered %d\\n", v);
                        }
                    }
                    MPI_Comm_disconnect(&inter);
                    MPI_Finalize();
                    return 0;
                }
                """);
    }

    @BeforeAll
    static void compile() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.openmpi")),
                "mpicc.openmpi is not installed (apt-get install libopenmpi-dev)");
        for (Map.Entry<String, String> e : PROGRAMS.entrySet()) {
            compile("mpicc.openmpi", e.getKey(), e.getValue());
        }
    }

    static Path compile(String compiler, String name, String source) throws Exception {
        Path src = dir.resolve(name + ".c");
        Files.writeString(src, source);
        Path out = dir.resolve(compiler.equals("mpicc.openmpi") ? name : name + "-" + compiler);
        Process cc = new ProcessBuilder(compiler, "-std=c99", "-O1", "-o", out.toString(), src.toString())
                .redirectErrorStream(true).start();
        String text = new String(cc.getInputStream().readAllBytes());
        assertThat(cc.waitFor()).as(compiler + " " + name + ": " + text).isZero();
        return out;
    }

    static String prog(String name) {
        return dir.resolve(name).toString();
    }

    static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    @Test
    void helloWorldKnowsItsRankAndSize() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", prog("hello"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("hello from rank 0 of 4", "hello from rank 1 of 4",
                "hello from rank 2 of 4", "hello from rank 3 of 4");
    }

    /**
     * MPI_UNIVERSE_SIZE through PMIx: the hosts' slots, as mpirun 4.1.4 gives it (it was the
     * job's size, and a manager spawned no worker); the manager fills the other three.
     */
    /**
     * The PMIx server's directory, where Open MPI's ranks also keep their session files, is made
     * in $TMPDIR as mpirun makes its session directory there (it was always /tmp), and goes with
     * the job; a $TMPDIR that is no usable directory falls back to /tmp, as under mpirun.
     */
    @Test
    void thePmixDirectoryIsMadeInTmpdir() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("scratch"));
        Banyan.Result r = Banyan.run(Map.of("TMPDIR", tmp.toString()), null, List.of("run", "-n", "2", "--oversubscribe",
                "sh", "-c", prog("hello") + " && echo \"$PMIX_SERVER_TMPDIR\""));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).contains("hello from rank 0 of 2", "hello from rank 1 of 2");
        assertThat(r.stdout().lines().filter(l -> l.startsWith("/"))).hasSize(2)
                .allMatch(l -> l.startsWith(tmp + "/banyan-pmix-"));
        try (var left = Files.list(tmp)) {
            assertThat(left).as("nothing left in $TMPDIR").isEmpty();
        }
        for (String unusable : List.of(dir.resolve("gone").toString(), "relative", "/dev/null")) {
            Banyan.Result fallback = Banyan.run(Map.of("TMPDIR", unusable), null, List.of("run", "-n", "1", "--mpi", "pmix", "sh",
                    "-c", "echo \"$PMIX_SERVER_TMPDIR\""));
            assertThat(fallback.exit()).as(fallback.stderr()).isZero();
            assertThat(fallback.stdout()).startsWith("/tmp/banyan-pmix-");
        }
    }

    @Test
    void theUniverseIsTheHostsSlots() throws Exception {
        Banyan.Result r = Banyan.run("run", "-H", "localhost:4", "-n", "1", prog("universe"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("size 1 universe 4\n");
        Banyan.Result over = Banyan.run("run", "-H", "localhost:2", "-n", "3", "--oversubscribe", prog("universe"));
        assertThat(over.exit()).as(over.stderr()).isZero();
        assertThat(over.stdout()).as("oversubscribed: still the slots, as mpirun's").isEqualTo("size 3 universe 2\n".repeat(3));
        Banyan.Result manager = Banyan.run("run", "-H", "localhost:4", "-n", "1", prog("manager"));
        assertThat(manager.exit()).as(manager.stderr()).isZero();
        assertThat(manager.stdout()).isEqualTo("3 workers answered\n");
        assertThat(shmLeft()).isEmpty();
    }

    @Test
    void allreduceAndRingCommunicate() throws Exception {
        Banyan.Result sum = Banyan.run("run", "-n", "6", "--oversubscribe", prog("allreduce"));
        assertThat(sum.exit()).as(sum.stderr()).isZero();
        assertThat(lines(sum.stdout())).hasSize(6).allMatch(l -> l.endsWith(" sum 21"));
        Banyan.Result ring = Banyan.run("run", "-n", "5", "--oversubscribe", prog("ring"));
        assertThat(ring.exit()).as(ring.stderr()).isZero();
        assertThat(ring.stdout()).isEqualTo("token 15 after 3 laps\n");
    }

    /** mpirun's --mca reaches Open MPI in every rank: tcp alone carries the ring; a component that does not exist fails. */
    @Test
    void mcaParametersReachOpenMpiInTheRanks() throws Exception {
        Banyan.Result tcp = Banyan.run("run", "-n", "3", "--oversubscribe", "--mca", "btl", "self,tcp", prog("ring"));
        assertThat(tcp.exit()).as(tcp.stderr()).isZero();
        assertThat(tcp.stdout()).isEqualTo("token 9 after 3 laps\n");
        Banyan.Result bogus = Banyan.run("run", "-n", "1", "--mca", "pml", "bogus", prog("hello"));
        assertThat(bogus.exit()).isNotZero();
        assertThat(bogus.stdout() + bogus.stderr()).contains("Framework: pml").contains("Component: bogus");
    }

    /**
     * Two daemons (hosts a and b, both this machine), so every fence crosses the tree. Open MPI's
     * shared-memory segments, named after the real host name and a local rank, go to a directory
     * of each daemon's, so the two "hosts" of one machine do not collide.
     */
    @Test
    void ranksOnTwoDaemonsWireUpThroughTheTree() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "4", "--launcher", "local", "--host", "a:2,b:2", prog("allreduce"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).hasSize(4).allMatch(l -> l.endsWith(" sum 10"));
        Banyan.Result ring = Banyan.run("run", "-n", "5", "--launcher", "local", "--host", "a:3,b:2", prog("ring"));
        assertThat(ring.exit()).as(ring.stderr()).isZero();
        assertThat(ring.stdout()).isEqualTo("token 15 after 3 laps\n");
    }

    /**
     * Open MPI's asynchronous modex: no data in MPI_Init's fence, each peer's fetched when first
     * needed (PMIx's direct modex), from the peer's daemon through the routing overlay. One rank
     * per daemon: with two ranks on a host Open MPI 4.1's asynchronous modex races with itself (a
     * local peer's key read before it is put: "PML add procs failed", 12 runs in 25 under its
     * own mpirun here), whoever serves PMIx.
     */
    @Test
    void withTheAsynchronousModexPeersDataIsFetchedFromTheirDaemons() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--launcher", "local", "--host", "a:1,b:1", "-x",
                "OMPI_MCA_pmix_base_async_modex=1", prog("allreduce"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).hasSize(2).allMatch(l -> l.endsWith(" sum 3"));
        Banyan.Result ring = Banyan.run("run", "-n", "3", "--launcher", "local", "--host", "a:1,b:1,c:1", "-x",
                "OMPI_MCA_pmix_base_async_modex=1", prog("ring"));
        assertThat(ring.exit()).as(ring.stderr()).isZero();
        assertThat(ring.stdout()).isEqualTo("token 9 after 3 laps\n");
    }

    /** MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name through the job's name service at the head. */
    @Test
    void namesArePublishedLookedUpAndUnpublishedAcrossDaemons() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--launcher", "local", "--host", "a:1,b:1", prog("names"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("lookup found the published port", "unknown name not found",
                "unpublish ok", "after unpublish not found");
    }

    @Test
    void mpiAbortEndsTheJobWithItsCodeAndLeavesNothing() throws Exception {
        String seconds = Integer.toString((int) Double.parseDouble(Banyan.marker()));
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", prog("abort"), seconds);
        assertThat(r.exit()).isEqualTo(7);
        assertThat(r.stderr()).contains("banyan run: rank 1 on ").contains("called abort (MPI_Abort) with exit code 7\n")
                .doesNotContain(": N/A");
        Banyan.assertNoProcessesWith(prog("abort") + " " + seconds);
        assertThat(shmLeft()).as("Open MPI's segments of the killed ranks").isEmpty();
    }

    /**
     * MPI_Comm_spawn: on one daemon; and on two, the children on the daemon the parent left
     * free (each daemon then registers the other job's namespace to connect them, and the
     * disconnect is a fence over both jobs).
     */
    @Test
    void mpiCommSpawnStartsChildrenThatTalkWithTheirParent() throws Exception {
        List<String> expected = List.of("parent 0 of 2 got 43 back", "child 0 of 2 (talk) got 42", "child 1 of 2 (talk) got 43");
        Banyan.Result one = Banyan.run("run", "-n", "2", "--oversubscribe", prog("spawn"));
        assertThat(one.exit()).as(one.stderr()).isZero();
        assertThat(lines(one.stdout())).containsExactlyInAnyOrderElementsOf(expected);
        Path files = dir.resolve("spawn-output");
        Banyan.Result two = Banyan.run("run", "-n", "2", "--launcher", "local", "--host", "a:2,b:2", "--output-filename",
                files.toString(), prog("spawn"));
        assertThat(two.exit()).as(two.stderr()).isZero();
        assertThat(Files.readString(files.resolve("1/rank.0/stdout"))).isEqualTo("parent 0 of 2 got 43 back\n");
        assertThat(Files.readString(files.resolve("2/rank.1/stdout"))).as("the children's under their own job")
                .isEqualTo("child 1 of 2 (talk) got 43\n");
        assertThat(shmLeft()).isEmpty();
    }

    /**
     * MPI_Info keys Banyan does not apply (Open MPI's placement hints) are said, with their values,
     * and the spawn goes on as every spawn does; a spawn with none says nothing.
     */
    @Test
    void aSpawnsInfoBanyanDoesNotApplyIsSaid() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--oversubscribe", prog("spawn"), "info:map_by", "node");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).contains("parent 0 of 2 got 43 back");
        assertThat(r.stderr()).contains("banyan: job 1's MPI_Comm_spawn asks for map_by=node, which Banyan does not apply: "
                + "the new job is placed as every spawned job is");
        Banyan.Result plain = Banyan.run("run", "-n", "2", "--oversubscribe", prog("spawn"));
        assertThat(plain.exit()).as(plain.stderr()).isZero();
        assertThat(plain.stderr()).doesNotContain("does not apply");
    }

    /** MPI_Info "host": the children go where the program says (--report-bindings shows where they ran). */
    @Test
    void aSpawnGoesToTheHostItsInfoNames() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "1", "--launcher", "local", "--host", "a:2,b:2", "--report-bindings",
                "--display-map", "--tag-output", prog("spawn"), "host:b");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stderr()).as("--display-map: the job's, then the spawned job's")
                .contains("JOB MAP (job 1, 1 rank)").contains("JOB MAP (job 2, 2 ranks)")
                .contains(" Data for node: b\tNum slots: 2\tNum procs: 2\n");
        assertThat(r.stderr()).contains("[2,0]<stderr>:banyan: rank 0 on b ").contains("[2,1]<stderr>:banyan: rank 1 on b ");
        Banyan.Result elsewhere = Banyan.run("run", "-n", "1", "--launcher", "local", "--host", "a:2,b:2", prog("spawn"),
                "host:c");
        assertThat(elsewhere.exit()).isNotZero();
        assertThat(elsewhere.stderr()).contains("banyan run: cannot spawn for job 1: MPI_Comm_spawn names host c, which is "
                + "not one of the run's");
        Banyan.assertNoProcessesWith(prog("spawn"));
    }

    @Test
    void aSpawnWithNoSlotLeftFailsInTheProgramWithTheReason() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--launcher", "local", "--host", "a:2", prog("spawn"));
        assertThat(r.exit()).isNotZero();
        assertThat(r.stderr()).contains("banyan run: cannot spawn for job 1: MPI_Comm_spawn asks for 2 processes but only 0 of "
                + "the run's 2 slots are free; add --oversubscribe").contains("MPI_ERR_SPAWN");
        Banyan.assertNoProcessesWith(prog("spawn"));
    }

    @Test
    void aFailingChildEndsItsParentAndLeavesNothing() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "2", "--launcher", "local", "--host", "a:2,b:2", prog("spawn"), "fail");
        assertThat(r.exit()).as(r.stderr()).isEqualTo(3);
        assertThat(r.stderr()).contains("exited with status 3; ending the job").contains("banyan run: job 2 failed; ending job 1");
        Banyan.assertNoProcessesWith(prog("spawn"));
        assertThat(shmLeft()).isEmpty();
    }

    /** The job of the children's lines ("[JOB,RANK]<stdout>:child ..."). */
    static String spawnedJob(String tagged) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[(\\d+),\\d+\\]<stdout>:child").matcher(tagged);
        assertThat(m.find()).as(tagged).isTrue();
        return m.group(1);
    }

    /**
     * Open MPI's shared-memory files and Banyan's PMIx directories in /dev/shm and /tmp, but for
     * those that were there before these tests: a machine where another program's Open MPI job
     * was killed (mpirun's hung spawn launches leave their segments) failed every check here.
     */
    static List<String> shmLeft() throws Exception {
        List<String> left = shmFiles();
        left.removeAll(SHM_BEFORE);
        return left;
    }

    private static final List<String> SHM_BEFORE = shmFilesOrNone();

    private static List<String> shmFilesOrNone() {
        try {
            return shmFiles();
        } catch (Exception e) {
            return List.of();
        }
    }

    private static List<String> shmFiles() throws Exception {
        List<String> found = new java.util.ArrayList<>();
        for (String d : List.of("/dev/shm", System.getProperty("java.io.tmpdir"))) {
            try (var files = Files.list(Path.of(d))) {
                files.map(p -> p.getFileName().toString())
                        .filter(n -> n.startsWith("vader_segment.") || n.startsWith("banyan-pmix-") || n.endsWith(".shm"))
                        .forEach(found::add);
            }
        }
        return found;
    }

    @Test
    void aSegfaultingRankEndsTheJobAndLeavesNothing() throws Exception {
        String seconds = Integer.toString((int) Double.parseDouble(Banyan.marker()));
        Banyan.Result r = Banyan.run("run", "-n", "3", "--oversubscribe", prog("segv"), seconds);
        assertThat(r.exit()).isEqualTo(139);
        assertThat(r.stderr()).contains("banyan run: rank 1 on ").contains("signal 11 (SIGSEGV)");
        Banyan.assertNoProcessesWith(prog("segv") + " " + seconds);
        assertThat(shmLeft()).isEmpty();
    }

    @Test
    void largeOutputArrivesWholeAndLinesAreNeverSpliced() throws Exception {
        Banyan.Result r = Banyan.run("run", "-n", "3", "--oversubscribe", "--tag-output", prog("bigout"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> all = lines(r.stdout());
        assertThat(all).hasSize(300_000);
        for (int rank = 0; rank < 3; rank++) {
            String prefix = "[1," + rank + "]<stdout>:";
            List<String> mine = all.stream().filter(l -> l.startsWith(prefix)).toList();
            assertThat(mine).hasSize(100_000);
            for (int i = 0; i < mine.size(); i += 9973) {
                assertThat(mine.get(i)).isEqualTo(prefix + String.format("rank %d line %06d of output", rank, i));
            }
        }
        Banyan.Result untagged = Banyan.run("run", "-n", "4", "--oversubscribe", prog("lines"));
        assertThat(untagged.exit()).as(untagged.stderr()).isZero();
        assertThat(lines(untagged.stdout())).hasSize(80_000).allMatch(l -> l.matches("r[0-3] line [0-9]+ x{40}"));
    }

    @Test
    void rankZeroReadsStdin() throws Exception {
        String input = "x".repeat(100_000) + "\n";
        Banyan.Result r = Banyan.runWithStdin(input, "run", "-n", "3", "--oversubscribe", prog("readstdin"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        long sum = 100_000L * 'x' + '\n';
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("rank 0 got 100001 bytes sum " + sum,
                "rank 1 got 100001 bytes sum " + sum, "rank 2 got 100001 bytes sum " + sum);
    }

    /**
     * {@code --monitor} turns on Open MPI's own monitoring components; their per-rank profiles
     * feed the same matrices (gathered by banyan run at the end) and placement as banyan-comm's.
     */
    @Test
    void monitorCollectsOpenMpisOwnProfilesIntoMatricesAndAPlacement() throws Exception {
        Path twin = compile("mpicc.openmpi", "twin", OpenMpiMonitoringFormatTest.C);
        Path out = dir.resolve("monitor");
        Banyan.Result r = Banyan.run("run", "-n", "4", "--oversubscribe", "--monitor-out", out.toString(), twin.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stderr()).contains("monitoring profiles of 4 of 4 ranks gathered");
        for (int rank = 0; rank < 4; rank++) {
            assertThat(Files.readAllLines(out.resolve("banyan." + rank + ".prof")))
                    .allMatch(l -> OpenMpiMonitoringFormatTest.GRAMMAR.matcher(l).matches());
        }
        assertThat(OpenMpiMonitoringFormatTest.programLines(Files.readAllLines(out.resolve("banyan.0.prof")))).containsExactly(
                "E\t0\t1\t100 bytes\t2 msgs sent", "S\t0\t1\t32 bytes\t1 msgs sent",
                "O2A\t0\t384 bytes\t1 msgs sent", "A2O\t0\t384 bytes\t1 msgs sent");
        assertThat(Files.readAllLines(out.resolve("matrix_external_bytes.csv"))).startsWith("from\\to,0,1,2,3", "0,0,100,0,0");
        Banyan.Result place = Banyan.run("place", "--matrix", out.toString(), "--topology", "socket:2 core:2");
        assertThat(place.exit()).as(place.stderr()).isZero();
        assertThat(place.stdout()).contains("rank 3=");
    }

    /**
     * {@code --mpi pmi} for an Open MPI program: each rank starts MPI on its own (Open MPI ignores
     * PMI-1/PMI-2) and starts orted, Open MPI's helper for a singleton; the daemon sees it and the
     * job fails in one line, with no rank and no orted left. (Two singletons that start together
     * may also race for Open MPI's session directory and fail in MPI_Init: either way, not 0.)
     */
    @Test
    void anOpenMpiProgramServedPmiOnlyIsCaughtAsASingleton() throws Exception {
        Banyan.Result forced = Banyan.run(Map.of(), null, List.of("run", "-n", "2", "--mpi", "pmi", prog("hello"), "singleton"));
        assertThat(forced.exit()).as(forced.stderr()).isEqualTo(1);
        assertThat(forced.stdout()).doesNotContain("of 2");
        if (!lostSessionDirRace(forced)) {
            assertThat(lines(forced.stderr())).filteredOn(l -> l.startsWith("banyan run:")).singleElement().asString()
                    .matches("banyan run: rank [01] on \\S+ started MPI on its own, a singleton outside the job's 2 ranks: "
                            + "it loaded libmpi\\.so\\.40\\S*, started orted \\(the helper Open MPI starts for a singleton\\) and "
                            + "never reached banyan's PMI or PMIx server; ending the job");
        }
        Banyan.assertNoProcessesWith(prog("hello") + " singleton");
        Banyan.assertNoProcessesWith("--singleton-died-pipe");
    }

    private static boolean lostSessionDirRace(Banyan.Result r) {
        return r.exit() != 0 && r.stderr().contains("A call to mkdir was unable to create the desired directory")
                && r.stderr().contains("File exists");
    }

    /**
     * A DVM's daemons serve PMIx job after job (each job's namespace and files go when its ranks
     * have ended there), an abort included; stopped, nothing is left.
     */
    @Test
    void aDvmRunsOpenMpiJobsOneAfterAnother() throws Exception {
        Path uri = dir.resolve("ompi-dvm.uri");
        Banyan.Result up = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--launcher", "local", "--host", "a:2,b:2");
        assertThat(up.exit()).as(up.stderr()).isZero();
        String seconds = Integer.toString((int) Double.parseDouble(Banyan.marker()));
        try {
            for (int i = 0; i < 2; i++) {
                Banyan.Result r = Banyan.run("run", "--dvm", uri.toString(), "-n", "4", prog("allreduce"));
                assertThat(r.exit()).as(r.stderr()).isZero();
                assertThat(lines(r.stdout())).hasSize(4).allMatch(l -> l.endsWith(" sum 10"));
            }
            Banyan.Result abort = Banyan.run("run", "--dvm", uri.toString(), "-n", "4", prog("abort"), seconds);
            assertThat(abort.exit()).isEqualTo(7);
            Banyan.assertNoProcessesWith(prog("abort") + " " + seconds);
            Banyan.Result queued = Banyan.run("dvm", "submit", "--dvm", uri.toString(), "--nodes", "2", "--ranks-per-node", "2",
                    prog("allreduce"));
            assertThat(queued.exit()).as(queued.stderr()).isZero();
            assertThat(lines(queued.stdout())).hasSize(4).allMatch(l -> l.endsWith(" sum 10"));
            // an MPI task of an Open MPI program wires up through PMIx as run --dvm does (it ran as 4 singletons)
            Path session = dir.resolve("ompi-tasks");
            Banyan.Result task = Banyan.run("submit", "--dvm", uri.toString(), "--session", session.toString(), "--ranks", "4", "--mpi",
                    "--", prog("allreduce"));
            assertThat(task.exit()).as(task.stderr()).isZero();
            assertThat(Files.readAllLines(session.resolve("task.000000/task.000000.out"))).hasSize(4).allMatch(l -> l.endsWith(" sum 10"));
            Banyan.Result ring = Banyan.run("run", "--dvm", uri.toString(), "-n", "3", prog("ring"));
            assertThat(ring.exit()).as(ring.stderr()).isZero();
            assertThat(ring.stdout()).isEqualTo("token 9 after 3 laps\n");
            // MPI_Comm_spawn: the children take the DVM's free slots, their output is the client's
            Banyan.Result spawn = Banyan.run("run", "--dvm", uri.toString(), "-n", "2", "--tag-output", prog("spawn"));
            assertThat(spawn.exit()).as(spawn.stderr()).isZero();
            assertThat(lines(spawn.stdout())).hasSize(3).contains("[" + spawnedJob(spawn.stdout()) + ",1]<stdout>:child 1 of 2 "
                    + "(talk) got 43").anyMatch(l -> l.endsWith("<stdout>:parent 0 of 2 got 43 back"));
            Banyan.Result failing = Banyan.run("run", "--dvm", uri.toString(), "-n", "2", prog("spawn"), "fail");
            assertThat(failing.exit()).as(failing.stderr()).isEqualTo(3);
            assertThat(failing.stderr()).contains("exited with status 3; ending the job");
            Banyan.assertNoProcessesWith(prog("spawn"));
            // MPI_Comm_connect/accept between two jobs of the DVM, on different daemons
            Process server = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "2", prog("connect"), "server"))
                    .redirectErrorStream(true).start();
            Banyan.Result client = Banyan.run("run", "--dvm", uri.toString(), "-n", "2", prog("connect"), "client");
            String serverSaid = new String(server.getInputStream().readAllBytes());
            assertThat(server.waitFor()).as(serverSaid).isZero();
            assertThat(client.exit()).as(client.stderr()).isZero();
            assertThat(client.stdout()).isEqualTo("the server answered 42\n");
            // a persistent DVM lets go of each job once it is over: no process table, no Open MPI
            // directory (the daemons hear of the last job's end as its client does: give them a moment)
            List<String> held = List.of();
            for (long until = System.nanoTime() + 5_000_000_000L; System.nanoTime() < until; Thread.sleep(50)) {
                try (var files = Files.list(Path.of("/dev/shm"))) {
                    // (a daemon's pid table lives as long as the daemon: not a job's)
                    held = files.map(f -> f.getFileName().toString())
                            .filter(n -> n.startsWith("banyan-") && !n.startsWith("banyan-pids-")).toList();
                }
                if (held.isEmpty()) {
                    break;
                }
            }
            assertThat(held).as("what the DVM's daemons still hold for jobs that are over").isEmpty();
        } finally {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
        Banyan.assertNothingLeft(prog("abort") + " " + seconds);
        assertThat(shmLeft()).isEmpty();
    }

    @Test
    void mpichBuildsOfTheSameSourceStillUsePmi() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mpicc.mpich")), "mpicc.mpich is not installed");
        Path hello = compile("mpicc.mpich", "hello", PROGRAMS.get("hello"));
        Banyan.Result r = Banyan.run("run", "-n", "2", "--oversubscribe", hello.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(lines(r.stdout())).containsExactlyInAnyOrder("hello from rank 0 of 2", "hello from rank 1 of 2");
    }
}
