package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.banyan.core.wire.ClientCodec;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persistent DVM through the real command: {@code banyan dvm start|status|stop} and
 * {@code banyan run --dvm}, with processes looked for with ps after every way it ends.
 */
class DvmTest {
    @TempDir
    static Path programs;

    @TempDir
    Path dir;

    Path uri;

    @BeforeAll
    static void compile() throws Exception {
        Path src = programs.resolve("hello.c");
        Files.copy(Banyan.ROOT.resolve("examples/hello.c"), src);
        Process cc = new ProcessBuilder("mpicc.mpich", "-o", programs.resolve("hello").toString(), src.toString())
                .redirectErrorStream(true).start();
        String out = new String(cc.getInputStream().readAllBytes());
        assertThat(cc.waitFor()).as("mpicc.mpich: " + out).isZero();
    }

    Banyan.Result start(String... options) throws Exception {
        uri = dir.resolve("dvm.uri");
        List<String> args = new java.util.ArrayList<>(List.of("dvm", "start", "--uri-file", uri.toString()));
        args.addAll(List.of(options));
        return Banyan.run(null, args);
    }

    /**
     * A client that stops reading (suspended, as Ctrl-Z or a pager nobody scrolls leaves it)
     * while its job floods it stopped the whole DVM once the socket's buffers were full: the
     * DVM's loop blocked writing to it, and another client's {@code dvm status} was refused at
     * its hello. Now only that client's job waits (its rank is stopped), the DVM serves the
     * rest, and the job runs on once the client reads again; a client merely slower than its
     * job gets every byte.
     */
    @Test
    void aClientThatStopsReadingStopsOnlyItsOwnJob() throws Exception {
        assertThat(start("--host", "localhost:2").exit()).isZero();
        Banyan.Result exact = Banyan.run(null, List.of("run", "--dvm", uri.toString(), "-n", "1", "sh", "-c",
                "yes banyan-flood | head -c 150000000 | wc -c; yes | head -c 150000000"));
        assertThat(exact.exit()).as(exact.stderr()).isZero();
        assertThat(exact.stdout().length()).as("every byte of a job faster than its client").isEqualTo(150_000_000 + 10);
        assertThat(exact.stdout()).startsWith("150000000\n");

        String marker = Banyan.marker();
        // the JVM client: a quick client's output is written by the DVM itself, so stopping the script stops no reader
        ProcessBuilder flood = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "1", "sh", "-c", "exec yes " + marker))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("run.err").toFile());
        flood.environment().put("BANYAN_QUICK", "0");
        Process client = flood.start();
        try {
            for (int i = 0; i < 200 && ps("stat=", marker).isEmpty(); i++) {
                Thread.sleep(50);
            }
            Thread.sleep(500);
            new ProcessBuilder("kill", "-STOP", Long.toString(client.pid())).start().waitFor();
            long stopped = System.nanoTime();
            String rank = "";
            while (System.nanoTime() - stopped < 30_000_000_000L && !rank.startsWith("T")) {
                Thread.sleep(200);
                rank = ps("stat=", marker);
            }
            assertThat(rank).as("the flooding rank waits for its client").startsWith("T");
            Thread.sleep(2000); // the DVM's loop would be stuck by now (the socket's buffers were full within a second)
            Banyan.Result status = Banyan.run(null, List.of("dvm", "status", "--dvm", uri.toString()));
            assertThat(status.exit()).as(status.stderr()).isZero();
            assertThat(status.stdout()).containsPattern("\\n2 +1 +sh\\n");
            new ProcessBuilder("kill", "-CONT", Long.toString(client.pid())).start().waitFor();
            long resumed = System.nanoTime();
            while (System.nanoTime() - resumed < 30_000_000_000L && rank.startsWith("T")) {
                Thread.sleep(100);
                rank = ps("stat=", marker);
            }
            assertThat(rank).as("running again once its client reads").doesNotStartWith("T");
            assertThat(Files.readString(dir.resolve("dvm.uri.log"))).contains("reads slower than its jobs write");
        } finally {
            client.destroy(); // SIGTERM: the client's end ends its job
            client.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        Banyan.assertNoProcessesWith(marker);
    }

    /** A column of ps for the processes whose command line holds {@code marker} (empty when none). */
    private static String ps(String column, String marker) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "ps -eo " + column + ",args | grep -F -- '" + marker + "' | grep -v grep | grep -v ' sh -c'")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        p.waitFor();
        return out;
    }

    /**
     * A head nobody reaps (its ancestor a subreaper that never waits, as a container's init that
     * reaps slowly) is a zombie once it ends: dvm stop says it stopped, at once. It waited for
     * the JDK's onExit, which counts a zombie as alive, and after 30 s said the DVM "did not stop".
     */
    @Test
    void stopSaysStoppedWhenNobodyReapsTheHead() throws Exception {
        uri = dir.resolve("dvm.uri");
        String keeper = "import ctypes, subprocess, sys, time\n"
                + "ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)\n" // PR_SET_CHILD_SUBREAPER: orphans below come here
                + "subprocess.run(sys.argv[1:], check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
                + "print('started', flush=True)\n"
                + "time.sleep(120)\n";
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", keeper, Banyan.SCRIPT.toString(), "dvm", "start", "--uri-file",
                uri.toString(), "--host", "localhost:1", "--warm-up", "0").redirectErrorStream(true).start();
        try {
            java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
            assertThat(r.readLine()).isEqualTo("started");
            long head = headPid();
            assertThat(ProcessHandle.of(head).flatMap(h -> h.parent()).map(ProcessHandle::pid)).as("the keeper holds the head")
                    .contains(p.pid());
            long t0 = System.nanoTime();
            Banyan.Result stop = Banyan.run("dvm", "stop", "--dvm", uri.toString());
            assertThat(stop.exit()).as(stop.stderr()).isZero();
            assertThat(stop.stdout()).isEqualTo("banyan dvm: stopped (pid " + head + ")\n");
            assertThat((System.nanoTime() - t0) / 1e9).as("seconds for dvm stop").isLessThan(20);
            assertThat(Files.readString(Path.of("/proc", Long.toString(head), "stat"))).as("still a zombie: nobody reaped it")
                    .matches("\\d+ \\(.*\\) Z .*\\s*");
        } finally {
            p.destroyForcibly(); // its zombies go to init, which reaps them
            p.waitFor();
        }
    }

    long headPid() throws Exception {
        return Long.parseLong(Files.readAllLines(uri).get(1).strip());
    }

    /**
     * Kills the head only: its daemons see it go and end, and their rank guards remove what they
     * wrote (killing the guards too left a process table in /dev/shm after every run of this
     * class). Whatever is still there after 10 s is killed.
     */
    @AfterEach
    void stopWhatIsLeft() throws Exception {
        if (uri != null && Files.exists(uri)) {
            ProcessHandle.of(headPid()).ifPresent(p -> {
                List<ProcessHandle> below = p.descendants().toList();
                p.destroyForcibly();
                for (ProcessHandle d : below) {
                    try {
                        d.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        d.destroyForcibly();
                    }
                }
            });
        }
    }

    @Test
    void jobsRunOnTheDvmsDaemonsSideBySideAndStopLeavesNothing() throws Exception {
        Banyan.Result started = start("--launcher", "local", "--host", "a:2,b:2");
        assertThat(started.exit()).as(started.stderr()).isZero();
        assertThat(started.stdout()).contains("ready, 2 host(s), 4 slot(s)");
        long head = headPid();
        List<ProcessHandle> daemons = ProcessHandle.of(head).orElseThrow().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("DaemonMain")).toList();
        assertThat(daemons).hasSize(2);

        Banyan.Result status = Banyan.run("dvm", "status", "--dvm", uri.toString());
        assertThat(status.stdout()).containsPattern("a +2 +0 +up").containsPattern("b +2 +0 +up").contains("no job running");

        // Two MPI jobs at once, one per host: each has its own PMI socket on each daemon.
        ProcessBuilder one = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "2", programs.resolve("hello")
                .toString()));
        ProcessBuilder two = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "2", "--tag-output",
                programs.resolve("hello").toString()));
        Process p1 = one.redirectErrorStream(true).start();
        Process p2 = two.redirectErrorStream(true).start();
        assertThat(p1.waitFor(60, TimeUnit.SECONDS) && p2.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out1 = new String(p1.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String out2 = new String(p2.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p1.exitValue()).as(out1).isZero();
        assertThat(p2.exitValue()).as(out2).isZero();
        assertThat(out1).contains("hello from rank 0 of 2").contains("hello from rank 1 of 2");
        assertThat(out2).containsPattern("\\[[0-9]+,1\\]<stdout>:hello from rank 1 of 2");

        // --stdin all: the client's stdin reaches every rank, on both hosts (the DVM maps by slot)
        Banyan.Result all = Banyan.runWithStdin("one\ntwo\n", "run", "--dvm", uri.toString(), "-n", "4", "--stdin", "all",
                "sh", "-c", "echo $PMI_RANK $(wc -l)");
        assertThat(all.exit()).as(all.stderr()).isZero();
        assertThat(all.stdout().lines().toList()).containsExactlyInAnyOrder("0 2", "1 2", "2 2", "3 2");

        Banyan.Result failed = Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "sh", "-c", "exit 3");
        assertThat(failed.exit()).isEqualTo(3);
        assertThat(failed.stderr()).contains("exited with status 3");
        Banyan.Result quiet = Banyan.run("run", "--dvm", uri.toString(), "-q", "-n", "1", "sh", "-c", "exit 3");
        assertThat(quiet.exit()).as("-q: the status says it").isEqualTo(3);
        assertThat(quiet.stderr()).isEmpty();

        Banyan.Result tooBig = Banyan.run("run", "--dvm", uri.toString(), "-n", "5", "true");
        assertThat(tooBig.exit()).isEqualTo(2);
        assertThat(tooBig.stderr()).contains("the DVM refused the job: 5 ranks requested but only 4");

        Banyan.Result ppr = Banyan.run("run", "--dvm", uri.toString(), "--map-by", "ppr:1:node", "true");
        assertThat(ppr.exit()).as("it ran on every free slot, the ppr dropped").isEqualTo(2);
        assertThat(ppr.stderr().strip()).isEqualTo("banyan run: a DVM places jobs on its free slots itself: --map-by ppr "
                + "does not apply (give -n, with --map-by node or slot)");
        Banyan.Result shape = Banyan.run("run", "--dvm", uri.toString(), "--spawn-degree", "4", "--launch", "star", "-n", "1", "true");
        assertThat(shape.exit()).as("they were dropped without a word").isEqualTo(2);
        assertThat(shape.stderr().strip()).isEqualTo("banyan run: --dvm runs on daemons already started: drop --spawn-degree, "
                + "--launch (give them to banyan dvm start)");

        Banyan.Result stopped = Banyan.run("dvm", "stop", "--dvm", uri.toString());
        assertThat(stopped.exit()).as(stopped.stderr()).isZero();
        assertThat(Files.exists(uri)).as("the URI file is withdrawn").isFalse();
        assertThat(Banyan.runs(head)).as("the head runs").isFalse();
        for (ProcessHandle d : daemons) {
            assertThat(Banyan.runs(d.pid())).as("daemon " + d.pid()).isFalse();
        }
    }

    @Test
    void aConnectionWithoutTheSecretIsRefusedAndLogged() throws Exception {
        assertThat(start().exit()).isZero();
        Path other = dir.resolve("stolen.uri");
        Files.copy(uri, other);
        Files.writeString(other.resolveSibling("stolen.uri.secret"), "0".repeat(64) + "\n");
        Files.setPosixFilePermissions(other.resolveSibling("stolen.uri.secret"), PosixFilePermissions.fromString("rw-------"));
        Banyan.Result r = Banyan.run("run", "--dvm", other.toString(), "-n", "1", "true");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr().strip()).isEqualTo("banyan run: the DVM of " + other
                + " refused the connection: wrong secret for this DVM");
        assertThat(Files.readString(dir.resolve("dvm.uri.log"))).contains("refused a client from").contains("wrong secret");
        assertThat(Files.getPosixFilePermissions(dir.resolve("dvm.uri.secret")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true").exit()).isZero();
    }

    /**
     * A DVM left running across an upgrade: a client of another protocol (here one from before
     * the number, whose hello ends after its name) is refused in one line that says what to do.
     */
    @Test
    void aClientOfAnotherVersionIsToldSoAndLogged() throws Exception {
        assertThat(start().exit()).isZero();
        List<String> lines = Files.readAllLines(uri);
        String[] hostPort = lines.getFirst().substring("tcp://".length()).split(":");
        byte[] hello = ClientCodec.encode(new ClientMessage.Hello(Files.readString(dir.resolve("dvm.uri.secret")).strip(),
                "an old banyan", 0, ""));
        byte[] oldHello = Arrays.copyOf(hello, hello.length - 8); // no protocol number, no nonce (an empty string)
        ByteBuffer.wrap(oldHello).putInt(0, oldHello.length - 4);
        try (Socket s = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
            s.getOutputStream().write(oldHello);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] challenge = new byte[in.readInt()];
            in.readFully(challenge);
            assertThat(ClientCodec.decode(challenge)).as("the DVM speaks first").isInstanceOf(ClientMessage.Challenge.class);
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            assertThat(ClientCodec.decode(body)).isEqualTo(new ClientMessage.Refused("it runs another version of banyan "
                    + "(protocol " + ClientCodec.PROTOCOL + ", the client's 0): use the banyan that started it, or end it (kill "
                    + lines.get(1).strip() + ") and start a new one"));
        }
        assertThat(Files.readString(dir.resolve("dvm.uri.log"))).contains("(an old banyan): protocol 0, this DVM's is "
                + ClientCodec.PROTOCOL);
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true").exit()).as("this version's clients").isZero();
    }

    /** The other way round: a DVM from before the protocol number hangs up on a hello it cannot read. */
    @Test
    void aDvmThatHangsUpAtTheHelloMayBeAnotherVersion() throws Exception {
        try (ServerSocket oldDvm = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = oldDvm.accept()) {
                    s.setSoTimeout(1_000); // as an old DVM's hello deadline (5 s) closes a silent connection
                    s.getInputStream().read(new byte[256]);
                } catch (IOException e) {
                    // the test's client went first
                }
            });
            Path old = dir.resolve("old.uri");
            Files.writeString(old, "tcp://127.0.0.1:" + oldDvm.getLocalPort() + "\n4242\n");
            Files.writeString(dir.resolve("old.uri.secret"), "0".repeat(64) + "\n");
            Files.setPosixFilePermissions(dir.resolve("old.uri.secret"), PosixFilePermissions.fromString("rw-------")); // as a head makes it
            Banyan.Result r = Banyan.run("run", "--dvm", old.toString(), "-n", "1", "true");
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.stderr().strip()).isEqualTo("banyan run: the DVM of " + old + " (pid 4242) closed the connection "
                    + "at its hello; if it runs another version of banyan, use the banyan that started it, or end it "
                    + "(kill 4242) and start a new one");
        }
    }

    @Test
    void sigtermToTheHeadEndsItsJobsAndDaemons() throws Exception {
        assertThat(start("--launcher", "local", "--host", "a:2,b:2").exit()).isZero();
        String marker = Banyan.marker();
        Process job = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "4", "sleep", marker))
                .redirectErrorStream(true).start();
        Banyan.awaitSleeps(marker, 4);
        ProcessHandle head = ProcessHandle.of(headPid()).orElseThrow();
        new ProcessBuilder("kill", "-TERM", Long.toString(head.pid())).start().waitFor();
        assertThat(job.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(job.exitValue()).isNotZero();
        assertThat(head.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        Banyan.assertNothingLeft(marker);
    }

    @Test
    void aKilledDaemonFailsItsJobAndItsHostTakesNoMoreJobs() throws Exception {
        assertThat(start("--launcher", "local", "--host", "a:2,b:2").exit()).isZero();
        String marker = Banyan.marker();
        Process job = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "4", "sleep", marker))
                .redirectErrorStream(true).start();
        Banyan.awaitSleeps(marker, 4);
        Banyan.daemonJvm(1, marker).destroyForcibly();
        assertThat(job.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(job.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(job.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("banyan run: lost the daemon on b: ");
        Banyan.assertNoProcessesWith(marker);
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).containsPattern("b +2 +0 +lost");
        Banyan.Result three = Banyan.run("run", "--dvm", uri.toString(), "-n", "3", "true");
        assertThat(three.exit()).isEqualTo(2);
        assertThat(three.stderr()).contains("only 2 of the DVM's 4 slots are free")
                .contains("add --oversubscribe, wait, or queue it with 'banyan dvm submit'");
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "2", "true").exit()).isZero();
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
        Banyan.assertNothingLeft(marker);
    }

    /** A daemon killed with tasks running and queued: its guard kills its tasks (their pids are in its table). */
    @Test
    void aKilledDaemonsTasksDieWithItAndItsHostTakesNoMoreTasks() throws Exception {
        assertThat(start("--launcher", "local", "--host", "a:2,b:2").exit()).isZero();
        String marker = Banyan.marker();
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            file.append("{\"executable\": \"sleep\", \"arguments\": [\"" + marker + "\"]}\n");
        }
        Files.writeString(dir.resolve("sleepers.jsonl"), file);
        Banyan.Result sub = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("s").toString(),
                "--tasks", dir.resolve("sleepers.jsonl").toString());
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        Banyan.awaitSleeps(marker, 4);
        ProcessHandle killed = Banyan.daemonJvm(1, marker);
        killed.destroyForcibly();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (Banyan.processesWith(marker).size() > 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Banyan.processesWith(marker)).as("b's two tasks are gone, a's two run on").hasSize(2);
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).containsPattern("b +2 +0 +lost");
        assertThat(Banyan.run("cancel", "--dvm", uri.toString(), "--all").exit()).isZero();
        Banyan.assertNoProcessesWith(marker);
        Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), sub.stdout().strip());
        assertThat(waited.stderr()).contains("6 tasks: 0 done, 2 failed, 4 canceled").contains("lost the daemon on b");
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
        Banyan.assertNothingLeft(marker);
        List<String> tables = List.of();
        for (long until = System.nanoTime() + 5_000_000_000L; System.nanoTime() < until; Thread.sleep(50)) {
            try (var files = Files.list(Path.of("/dev/shm"))) {
                tables = files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("banyan-pids-")).toList();
            }
            if (tables.isEmpty()) {
                break;
            }
        }
        assertThat(tables).as("pid tables: the killed daemon's guard and the stopped daemon removed theirs").isEmpty();
        // a DVM's daemon starts its PMIx server at once: the killed one's guard removed its files
        // though no PMIx job had come (they stayed in java.io.tmpdir)
        String pmixFiles = "pmix_dstor_ds12_" + killed.pid();
        String tmpdir = System.getenv("TMPDIR"); // where banyan's JVMs make it, when usable (docs/run.md)
        Path where = tmpdir != null && tmpdir.startsWith("/") && Files.isDirectory(Path.of(tmpdir)) ? Path.of(tmpdir)
                : Path.of("/tmp");
        try (var dirs = Files.list(where)) {
            assertThat(dirs.filter(d -> d.getFileName().toString().startsWith("banyan-pmix-"))
                    .filter(d -> Files.exists(d.resolve(pmixFiles))).toList()).as("the killed daemon's PMIx server files").isEmpty();
        }
    }

    /**
     * A restartable MPI task whose node is lost runs again, whole, on another; its first run's
     * ranks are ended, the profile says why it ran twice, and nothing is left. The old job's end
     * used to be taken for the new one's: the task FAILED with exit 1 while its new ranks ran on.
     */
    @Test
    void aRestartableMpiTaskWhoseNodeIsLostRunsAgainElsewhere() throws Exception {
        assertThat(start("--launcher", "local", "--host", "a:2,b:2").exit()).isZero();
        String marker = Banyan.marker();
        Path again = dir.resolve("again");
        Path session = dir.resolve("s");
        Files.writeString(dir.resolve("r.jsonl"), "{\"uid\": \"r\", \"mode\": \"mpi\", \"ranks\": 2, \"restartable\": true, "
                + "\"executable\": \"sh\", \"arguments\": [\"-c\", \"if [ -e " + again + " ]; then echo second run $PMI_RANK $BANYAN_TASK_RESTARTS; "
                + "else exec sleep " + marker + "; fi\"]}\n");
        Process submit = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--session", session.toString(), "--tasks",
                dir.resolve("r.jsonl").toString())).redirectErrorStream(true).redirectOutput(dir.resolve("submit.out").toFile()).start();
        Banyan.awaitSleeps(marker, 2);
        Files.createFile(again);
        ProcessHandle daemon = ProcessHandle.allProcesses() // the daemon of the task's first node: its ranks' parent
                .filter(h -> h.info().commandLine().orElse("").endsWith("sleep " + marker)).findFirst().orElseThrow().parent().orElseThrow();
        String host = daemon.info().commandLine().orElse("").contains("--id 0 ") ? "a" : "b";
        daemon.destroyForcibly();
        boolean ended = submit.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
        String said = Files.readString(dir.resolve("submit.out"));
        assertThat(ended).as(said + Files.readString(session.resolve("banyan.prof"))).isTrue();
        assertThat(submit.exitValue()).as(said).isZero();
        assertThat(said).contains("1 task: 1 done, 0 failed");
        assertThat(Files.readAllLines(session.resolve("r/r.out"))).containsExactlyInAnyOrder("second run 0 1", "second run 1 1");
        // whichever the head notices first: the link's end, or the daemon process's (its starter watches it)
        assertThat(Files.readString(session.resolve("banyan.prof"))).contains(",restart,agent,").containsPattern("lost the daemon on "
                + host + ": (connection closed|daemon via \\S+ ended; exit status 137); restarting");
        Banyan.assertNoProcessesWith(marker);
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
        Banyan.assertNothingLeft(marker);
    }

    /**
     * Two jobs bound to cores on one DVM host at once get different cores (they both got the
     * host's first core before), and a bound job's cores come back when it ends.
     */
    @Test
    void boundJobsSideBySideGetCoresOfTheirOwn() throws Exception {
        assertThat(start("--launcher", "local", "--host", "a:2").exit()).isZero();
        Path go = dir.resolve("go");
        String show = "grep Cpus_allowed_list: /proc/self/status";
        Process first = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "1", "--bind-to", "core", "sh", "-c",
                show + "; while [ ! -e " + go + " ]; do sleep 0.1; done")).redirectErrorStream(true).start();
        java.io.BufferedReader firstOut = new java.io.BufferedReader(new java.io.InputStreamReader(first.getInputStream(),
                StandardCharsets.UTF_8));
        String firstLine = firstOut.readLine();
        assertThat(firstLine).as("the first job's binding").matches("Cpus_allowed_list:\\s+0");
        Banyan.Result second = Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "--bind-to", "core",
                "--report-bindings", "--display-map", "sh", "-c", show);
        assertThat(second.exit()).as(second.stderr()).isZero();
        assertThat(second.stderr()).as("--display-map: the DVM's job, its host with the slot it was given")
                .contains(" Data for node: a\tNum slots: 1\tNum procs: 1\n \tProcess rank: 0\tApp: 0\tLocal rank: 0\n");
        assertThat(second.stdout()).as("not the first job's core").containsPattern("Cpus_allowed_list:\\s+1\\n");
        assertThat(second.stdout() + second.stderr()).contains("bound to cpus 1");
        Files.writeString(go, "");
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).isZero();
        Banyan.Result third = Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "--bind-to", "core", "sh", "-c", show);
        assertThat(third.stdout()).as("the first job's core is free again").containsPattern("Cpus_allowed_list:\\s+0\\n");
        Banyan.Result both = Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "--bind-to", "core", "--cpus-per-rank",
                "2", "sh", "-c", show);
        assertThat(both.stdout()).as("a rank of two cores holds two").containsPattern("Cpus_allowed_list:\\s+0-1\\n");
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
    }

    /**
     * {@code dvm start} runs its warm-up through the DVM as a client would, on every host, and
     * returns once those tasks ended: no process or file of theirs is left, and no state (they
     * were not detached). A bad count is one line, status 2, no DVM.
     */
    @Test
    void startWarmsTheDvmWithTasksThatLeaveNothingBehind() throws Exception {
        Banyan.Result bad = start("--warm-up", "-1");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr().strip()).isEqualTo("banyan dvm: --warm-up must be a whole number, 0 or more, got '-1'");
        assertThat(Files.exists(uri)).isFalse();

        Banyan.Result started = start("--launcher", "local", "--host", "a:2,b:2", "--warm-up", "50");
        assertThat(started.exit()).as(started.stderr()).isZero();
        assertThat(started.stderr()).as("every warm-up task ends DONE").isEmpty();
        assertThat(started.stdout().lines().toList()).hasSize(1).first().asString().contains("ready, 2 host(s)");
        // typed task requests from the start command itself: the DVM runs no client code
        String said = Files.readString(dir.resolve("dvm.uri.log"));
        assertThat(said).contains("client 1 (banyan dvm start)").doesNotContain("bag");
        assertThat(submitted(said)).isEqualTo(100);
        // their submitter, the warm-up, had their ends: the DVM keeps no record of them, only how
        // they ended (the agent's two bits a task), which banyan wait answers from
        Banyan.Result warmed = Banyan.run("wait", "--dvm", uri.toString(), "1-100");
        assertThat(warmed.exit()).as(warmed.stderr()).isZero();
        assertThat(warmed.stderr()).contains("100 tasks: 100 done, 0 failed, 0 canceled");
        long head = headPid();
        assertThat(ProcessHandle.of(head).orElseThrow().descendants()
                .filter(p -> p.info().command().orElse("").endsWith("true")).toList()).isEmpty();
        Banyan.Result status = Banyan.run("dvm", "status", "--dvm", uri.toString());
        assertThat(status.stdout()).containsPattern("a +2 +0 +up").containsPattern("b +2 +0 +up");
        assertThat(status.stdout()).as("none kept for banyan wait").contains("no task");

        Banyan.Result cold = Banyan.run("dvm", "start", "--uri-file", dir.resolve("cold.uri").toString(), "--warm-up", "0");
        try {
            assertThat(cold.exit()).as(cold.stderr()).isZero();
            assertThat(Files.readString(dir.resolve("cold.uri.log"))).doesNotContain("submitted");
        } finally {
            Banyan.run("dvm", "stop", "--dvm", dir.resolve("cold.uri").toString());
        }
    }

    /** How many tasks the DVM's log says its clients submitted. */
    static int submitted(String log) {
        return java.util.regex.Pattern.compile("submitted (\\d+) task\\(s\\)").matcher(log).results()
                .mapToInt(m -> Integer.parseInt(m.group(1))).sum();
    }

    /**
     * dvm start interrupted before it said ready (here in the warm-up): the user does not know a
     * DVM is there, so it is ended, with one line. It used to run on, detached.
     */
    @Test
    void aStartInterruptedBeforeReadyLeavesNoDvm() throws Exception {
        uri = dir.resolve("dvm.uri");
        Process start = Banyan.builder(List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2",
                "--warm-up", "20000")).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        Path log = dir.resolve("dvm.uri.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && submitted(Files.readString(log)) >= 1000) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(submitted(Files.readString(log))).as("the warm-up began").isGreaterThanOrEqualTo(1000);
        ProcessHandle head = ProcessHandle.of(headPid()).orElseThrow();
        start.toHandle().destroy(); // SIGTERM, as kill or a closed terminal (SIGHUP) would
        assertThat(start.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(start.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(start.exitValue()).as(said).isEqualTo(143);
        assertThat(said.lines().toList()).containsExactly("banyan dvm: interrupted before the DVM was up; ended it");
        head.onExit().get(10, TimeUnit.SECONDS);
        Banyan.assertNoProcessesWith(uri.toString());
        assertThat(uri).doesNotExist();
    }

    /** A DVM killed while it warms up: start says so in one line, status 1, and nothing of it is left. */
    @Test
    void aDvmThatDiesDuringItsWarmUpIsOneLineAndStatusOne() throws Exception {
        uri = dir.resolve("dvm.uri");
        Process start = Banyan.builder(List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2",
                "--warm-up", "20000")).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        Path log = dir.resolve("dvm.uri.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && submitted(Files.readString(log)) >= 1000) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(submitted(Files.readString(log))).as("the warm-up began").isGreaterThanOrEqualTo(1000);
        ProcessHandle head = ProcessHandle.of(headPid()).orElseThrow();
        head.destroyForcibly();
        assertThat(start.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(start.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(start.exitValue()).as(said).isEqualTo(1);
        assertThat(said.lines().toList()).singleElement().asString()
                .startsWith("banyan dvm: the DVM went away during its warm-up (");
        head.onExit().get(10, TimeUnit.SECONDS);
        Banyan.assertNoProcessesWith(uri.toString());
    }

    @Test
    void anUnknownOrDeadDvmIsOneLineAndStatusTwo() throws Exception {
        Banyan.Result none = Banyan.run("run", "--dvm", dir.resolve("nothing.uri").toString(), "-n", "1", "true");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.stderr().lines().toList()).hasSize(1).first().asString().contains("no DVM at");
        Files.writeString(dir.resolve("dead.uri"), "tcp://127.0.0.1:1\n999999\n");
        Files.writeString(dir.resolve("dead.uri.secret"), "x\n");
        Files.setPosixFilePermissions(dir.resolve("dead.uri.secret"), PosixFilePermissions.fromString("rw-------")); // as a head makes it
        Banyan.Result dead = Banyan.run("dvm", "status", "--dvm", dir.resolve("dead.uri").toString());
        assertThat(dead.exit()).isEqualTo(2);
        assertThat(dead.stderr().lines().toList()).hasSize(1).first().asString().contains("is not running");
        Banyan.Result mixed = Banyan.run("run", "--dvm", dir.resolve("dead.uri").toString(), "--host", "a", "true");
        assertThat(mixed.exit()).isEqualTo(2);
        assertThat(mixed.stderr()).contains("--dvm runs on the DVM's own hosts");
    }

    /**
     * A URI file left by a head that is gone, whose pid is now another program's (after a
     * reboot, say): a new DVM replaces it. It used to be refused as "running already" while
     * every client said it was not running, and only deleting the file by hand got out of it.
     */
    @Test
    void aUriFileOfAHeadThatIsGoneIsReplaced() throws Exception {
        Process other = new ProcessBuilder("sleep", "60").start();
        try {
            Path stale = dir.resolve("stale.uri");
            Files.writeString(stale, "tcp://127.0.0.1:1\n" + other.pid() + "\n");
            Files.writeString(dir.resolve("stale.uri.secret"), "x\n");
            Files.setPosixFilePermissions(dir.resolve("stale.uri.secret"), PosixFilePermissions.fromString("rw-------")); // as a head makes it
            Banyan.Result start = Banyan.run("dvm", "start", "--uri-file", stale.toString(), "--host", "localhost:1", "--warm-up", "0");
            assertThat(start.exit()).as(start.stderr()).isZero();
            assertThat(Banyan.run("dvm", "status", "--dvm", stale.toString()).exit()).isZero();
            Banyan.Result again = Banyan.run("dvm", "start", "--uri-file", stale.toString(), "--host", "localhost:1", "--warm-up", "0");
            assertThat(again.exit()).isEqualTo(2);
            assertThat(again.stderr()).contains("a DVM is running already with " + stale);
            assertThat(Banyan.run("dvm", "stop", "--dvm", stale.toString()).exit()).isZero();
            Banyan.assertNoProcessesWith(stale.toString());
            assertThat(other.isAlive()).isTrue();
        } finally {
            other.destroy();
        }
    }

    /**
     * GPUs are declared per host and given out by number: a task asking for them got none and
     * waited in the agent for ever, since no DVM had any. Each task now has its own, in
     * CUDA_VISIBLE_DEVICES; more than a host has fails the task at once, as on a DVM without.
     */
    @Test
    void tasksGetTheirOwnGpusAndOnesThatCanNeverHaveThemFailAtOnce() throws Exception {
        Banyan.Result started = start("--host", "localhost:4", "--gpus-per-host", "2", "--warm-up", "0");
        assertThat(started.exit()).as(started.stderr()).isZero();
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout())
                .contains("host                      slots   in use  gpus   in use  daemon")
                .contains("localhost                     4        0     2        0  up");
        Path tasks = dir.resolve("gpu.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 3; i++) { // two at a time: each holds one of the two GPUs for a second
            lines.append("{\"uid\": \"g").append(i).append("\", \"executable\": \"sh\", \"arguments\": [\"-c\", "
                    + "\"echo $CUDA_VISIBLE_DEVICES; sleep 1\"], \"gpus_per_rank\": 1}\n");
        }
        lines.append("{\"uid\": \"big\", \"executable\": \"true\", \"gpus_per_rank\": 3}\n");
        Files.writeString(tasks, lines);
        Path s = dir.resolve("s");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", s.toString(), "--tasks", tasks.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr()).contains("cannot run on this pilot: a rank of 3 GPU(s) does not fit any node (the most any node has is 2)")
                .contains("4 tasks: 3 done, 1 failed");
        assertThat(List.of(Files.readString(s.resolve("g0/g0.out")).strip(), Files.readString(s.resolve("g1/g1.out")).strip()))
                .as("the first two ran side by side, each on its own GPU").containsExactlyInAnyOrder("0", "1");
        assertThat(Files.readString(s.resolve("g2/g2.out")).strip()).isIn("0", "1");
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();

        started = start("--host", "localhost:2", "--warm-up", "0");
        assertThat(started.exit()).as(started.stderr()).isZero();
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).as("no GPU columns without GPUs")
                .contains("host                      slots   in use  daemon");
        Banyan.Result none = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("none").toString(),
                "--gpus", "1", "--", "true");
        assertThat(none.exit()).as("it waited for ever").isEqualTo(1);
        assertThat(none.stderr()).contains("a rank of 1 GPU(s) does not fit any node (the pilot has no GPU: none was found");
    }

    /**
     * Without --gpus-per-host each host offers the GPUs its daemon finds: here those it was given
     * in CUDA_VISIBLE_DEVICES (as Slurm gives a job's), under their own names, so that a task's
     * GPU is one the DVM may use and not the host's GPU 0.
     */
    @Test
    void aDvmOffersTheGpusItWasGivenUnderTheirOwnNames() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result started = Banyan.run(java.util.Map.of("CUDA_VISIBLE_DEVICES", "5,7"), null,
                List.of("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:4", "--warm-up", "0"));
        assertThat(started.exit()).as(started.stderr()).isZero();
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout())
                .contains("localhost                     4        0     2        0  up");
        assertThat(Files.readString(Path.of(uri + ".log"))).contains("localhost: 2 GPU(s) found (5,7)");
        Path tasks = dir.resolve("gpu.jsonl");
        Files.writeString(tasks, """
                {"uid": "a", "executable": "sh", "arguments": ["-c", "echo $CUDA_VISIBLE_DEVICES $BANYAN_TASK_GPUS; sleep 1"], "gpus_per_rank": 1}
                {"uid": "b", "executable": "sh", "arguments": ["-c", "echo $CUDA_VISIBLE_DEVICES $BANYAN_TASK_GPUS; sleep 1"], "gpus_per_rank": 1}
                {"uid": "both", "executable": "sh", "arguments": ["-c", "echo $CUDA_VISIBLE_DEVICES"], "gpus_per_rank": 2}
                {"uid": "none", "executable": "sh", "arguments": ["-c", "echo $CUDA_VISIBLE_DEVICES /$BANYAN_TASK_GPUS/"]}
                {"uid": "copies", "executable": "sh", "arguments": ["-c", "echo $CUDA_VISIBLE_DEVICES"], "ranks": 2}
                """);
        Path s = dir.resolve("s");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", s.toString(), "--tasks", tasks.toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(List.of(Files.readString(s.resolve("a/a.out")).strip(), Files.readString(s.resolve("b/b.out")).strip()))
                .as("side by side, each on one of the DVM's two").containsExactlyInAnyOrder("5 0", "7 1");
        assertThat(Files.readString(s.resolve("both/both.out")).strip()).isEqualTo("5,7");
        assertThat(Files.readString(s.resolve("none/none.out")).strip()).as("one that asked for none sees none (it saw 5,7)")
                .isEqualTo("-1 //");
        assertThat(Files.readString(s.resolve("copies/copies.out")).strip()).isEqualTo("-1\n-1");
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
    }

    /** More slots on this machine than a process may hold open files: said at start, not first when tasks fail. */
    @Test
    void aHostWithMoreSlotsThanItsOpenFileLimitIsWarnedOf() throws Exception {
        uri = dir.resolve("dvm.uri");
        Path err = dir.resolve("start.err");
        Process p = new ProcessBuilder("sh", "-c", "ulimit -n 600 && exec \"$0\" \"$@\"", Banyan.SCRIPT.toString(), "dvm", "start",
                "--uri-file", uri.toString(), "--host", "localhost:1000", "--warm-up", "0")
                .redirectInput(new java.io.File("/dev/null")).redirectOutput(dir.resolve("start.out").toFile())
                .redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        assertThat(Files.readString(err).strip()).isEqualTo("banyan dvm: warning: localhost has 1000 slots, but a process here may "
                + "hold at most 600 open files (ulimit -Hn) and a daemon holds one per running task: past about 536 tasks at once, "
                + "tasks fail (raise the limit, or give fewer slots)");
        assertThat(Banyan.run("dvm", "stop", "--dvm", uri.toString()).exit()).isZero();
    }

    /**
     * A daemon that cannot be started (here: a remote shell that fails, as ssh does for a host
     * that refuses or does not resolve) made the head wait for ever, counting the lost daemon as
     * neither up nor missing: {@code dvm start} gave up after 40 s with "not up", the reason only
     * in the log, and a Pilot API program waited 60 s. The start now fails at once, saying why.
     */
    @Test
    void aDaemonThatCannotStartFailsTheStartAtOnceWithItsReason() throws Exception {
        Path agent = dir.resolve("refusing-agent");
        Files.writeString(agent, "#!/bin/sh\necho \"agent: cannot reach $1\" >&2\nexit 255\n");
        agent.toFile().setExecutable(true);
        long t0 = System.nanoTime();
        Banyan.Result r = start("--host", "localhost:2", "--launch-agent", agent.toString());
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr().strip()).isEqualTo("banyan dvm: the DVM did not start: lost the daemon on localhost: daemon via "
                + agent + " ended, exit status 255: agent: cannot reach localhost (log: " + uri + ".log)");
        assertThat(seconds).as("it did not wait for a timeout (30 s and more)").isLessThan(20);
        assertThat(uri).doesNotExist();
        Banyan.assertNoProcessesWith(uri.toString());
    }

    /**
     * A job's rank 0 reads the job's stdin through a writer thread that waited for input or its
     * end, which may never come once the rank is gone: a DVM kept a thread and a pipe for each
     * such job for ever (12 after 15 jobs).
     */
    @Test
    void jobsLeaveNoThreadOrPipeInTheDvm() throws Exception {
        Banyan.Result started = start("--host", "localhost:2", "--warm-up", "0");
        assertThat(started.exit()).as(started.stderr()).isZero();
        long head = headPid();
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "2", "true").exit()).isZero();
        List<String> before = targets(Path.of("/proc/" + head + "/fd"));
        for (int i = 0; i < 8; i++) {
            assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "2", "true").exit()).isZero(); // stdin /dev/null
        }
        long writers;
        try (var tasks = Files.list(Path.of("/proc/" + head + "/task"))) {
            writers = tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().endsWith("-stdin");
                } catch (java.io.IOException e) {
                    return false; // ended meanwhile
                }
            }).count();
        }
        assertThat(writers).as("stdin writer threads left").isZero();
        // The JDK's own epoll and eventfd descriptors are left out: its virtual threads' pollers are
        // made one pair per carrier thread as the scheduler adds carriers (4 more here some runs), not per job.
        List<String> after = targets(Path.of("/proc/" + head + "/fd"));
        assertThat(after.stream().filter(t -> !t.startsWith("anon_inode:")).count()).as("the head's open files, before %s, after %s",
                before, after).isLessThanOrEqualTo(before.stream().filter(t -> !t.startsWith("anon_inode:")).count() + 2);
    }

    /** What each open file of a process is, sorted (a failure says which kind grew). */
    private static List<String> targets(Path fdDir) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (var s = Files.list(fdDir)) {
            for (Path fd : s.toList()) {
                try {
                    out.add(Files.readSymbolicLink(fd).toString().replaceAll("[0-9]+", "N"));
                } catch (java.io.IOException e) {
                    // closed meanwhile
                }
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

}
