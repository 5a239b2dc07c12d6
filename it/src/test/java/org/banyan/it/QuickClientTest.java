package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code banyan run --dvm} on the DVM's own host, as the banyan script runs it without a JVM
 * of its own (QuickDoor): what the user sees must be what the JVM client shows (output, status,
 * stdin, signals, refusals), a client killed or gone must take its job along, and the quick door
 * must open to nobody but the DVM's user with its secret.
 */
class QuickClientTest {
    @TempDir
    Path dir;

    Path uri;

    @BeforeEach
    void start() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:4", "--warm-up", "0");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(Files.readString(dir.resolve("dvm.uri.quick")).strip()).matches("\\d+");
        assertThat(Files.getPosixFilePermissions(dir.resolve("dvm.uri.quick")).toString()).isEqualTo("[OWNER_READ, OWNER_WRITE]");
    }

    @AfterEach
    void stop() throws Exception {
        if (Files.exists(uri)) {
            long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
            Banyan.run("dvm", "stop", "--uri-file", uri.toString());
            if (Banyan.runs(head)) {
                ProcessHandle.of(head).ifPresent(ProcessHandle::destroyForcibly);
                throw new AssertionError("dvm stop left the head running");
            }
            assertThat(dir.resolve("dvm.uri.quick")).as("the quick file goes with its DVM").doesNotExist();
        }
    }

    private String log() throws IOException {
        return Files.readString(dir.resolve("dvm.uri.log"));
    }

    private int quickClients() throws IOException {
        return (int) log().lines().filter(l -> l.contains("(banyan run (quick client, pid ")).count();
    }

    private record Piped(int exit, String stdout, String stderr) {}

    /** banyan with its stdout and stderr pipes (the quick door takes those), stdin from {@code stdin} or /dev/null. */
    private Piped piped(Map<String, String> env, String stdin, Path cwd, String... args) throws Exception {
        ProcessBuilder pb = Banyan.builder(List.of(args));
        pb.environment().putAll(env);
        if (cwd != null) {
            pb.directory(cwd.toFile());
        }
        if (stdin == null) {
            pb.redirectInput(new File("/dev/null"));
        }
        Process p = pb.start();
        if (stdin != null) {
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        var out = Thread.ofVirtual().start(() -> { });
        byte[][] got = new byte[2][];
        Thread o = Thread.ofVirtual().start(() -> got[0] = readAll(p.getInputStream()));
        Thread e = Thread.ofVirtual().start(() -> got[1] = readAll(p.getErrorStream()));
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("banyan " + String.join(" ", args) + " did not end within 60 s");
        }
        o.join();
        e.join();
        out.join();
        return new Piped(p.exitValue(), new String(got[0], StandardCharsets.UTF_8), new String(got[1], StandardCharsets.UTF_8));
    }

    private static List<String> lines(String text) {
        return text.lines().sorted().toList();
    }

    private static byte[] readAll(java.io.InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException x) {
            return new byte[0];
        }
    }

    @Test
    void aRunOnTheDvmsHostGoesThroughTheQuickDoorAndShowsWhatTheJvmClientShows() throws Exception {
        String[] job = {"run", "--dvm", uri.toString(), "-n", "2", "sh", "-c",
            "printf '<%s>' \"$@\"; echo; echo to-stderr >&2", "sh", "a b", "c\nd", "--dvm", "", "é"};
        Piped quick = piped(Map.of(), null, null, job);
        assertThat(quickClients()).as(log()).isEqualTo(1);
        Piped jvm = piped(Map.of("BANYAN_QUICK", "0"), null, null, job);
        assertThat(quickClients()).as("BANYAN_QUICK=0 starts the JVM client").isEqualTo(1);
        assertThat(quick.exit()).isZero();
        assertThat(jvm.exit()).isZero();
        // the argument with a newline makes two lines a rank, and two ranks' lines may interleave
        assertThat(lines(quick.stdout())).containsExactly("<a b><c", "<a b><c", "d><--dvm><><é>", "d><--dvm><><é>")
                .isEqualTo(lines(jvm.stdout()));
        assertThat(quick.stdout()).endsWith("\n");
        assertThat(quick.stderr()).isEqualTo("to-stderr\n".repeat(2)).isEqualTo(jvm.stderr());

        String[] failing = {"run", "--dvm", uri.toString(), "-n", "1", "sh", "-c", "exit 3"};
        Piped quickFails = piped(Map.of(), null, null, failing);
        Piped jvmFails = piped(Map.of("BANYAN_QUICK", "0"), null, null, failing);
        assertThat(quickClients()).isEqualTo(2);
        assertThat(quickFails.exit()).isEqualTo(3).isEqualTo(jvmFails.exit());
        assertThat(quickFails.stderr()).contains("exited with status 3").isEqualTo(jvmFails.stderr());
    }

    @Test
    void theRanksGetTheClientsDirectoryExportedVariablesAndStdin() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work dir"));
        Piped r = piped(Map.of("QUICK_PROBE", "v1 v2"), "line one\nline two\n", work,
                "run", "--dvm", uri.toString(), "-n", "1", "-x", "QUICK_PROBE", "sh", "-c", "pwd; echo \"$QUICK_PROBE\"; cat");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo(work.toRealPath() + "\nv1 v2\nline one\nline two\n");
        assertThat(quickClients()).isEqualTo(1);
    }

    /**
     * A file as stdout shares its offset with the shell that opened it: a second open of it by
     * the DVM would write over what the shell writes next. Such a run goes to the JVM client.
     */
    @Test
    void aFileAsStdoutIsSentBackToTheJvmClientAndTheShellsLinesKeepTheirPlace() throws Exception {
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder("bash", "-c", "{ echo before; \"$0\" run --dvm \"$1\" -n 1 echo middle; echo after; } > \"$2\" 2>&1",
                Banyan.SCRIPT.toString(), uri.toString(), out.toString()).redirectInput(new File("/dev/null")).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(Files.readString(out)).isEqualTo("before\nmiddle\nafter\n");
        assertThat(quickClients()).isZero();
        assertThat(log()).contains("sent back to its own JVM: its stdout is a file");
    }

    /** BANYAN_DVM names the session's DVM, as FLUX_URI a Flux instance: run, submit and dvm status go there without --dvm. */
    @Test
    void banyanDvmNamesTheSessionsDvmForEveryCommand() throws Exception {
        Map<String, String> session = Map.of("BANYAN_DVM", uri.toString());
        Piped quick = piped(session, null, null, "run", "-n", "2", "echo", "on-the-dvm");
        assertThat(quick.exit()).as(quick.stderr()).isZero();
        assertThat(quick.stdout()).isEqualTo("on-the-dvm\n".repeat(2));
        assertThat(quickClients()).isEqualTo(1);
        java.util.HashMap<String, String> jvm = new java.util.HashMap<>(session);
        jvm.put("BANYAN_QUICK", "0");
        Piped viaJvm = piped(jvm, null, null, "run", "-n", "1", "echo", "jvm-client");
        assertThat(viaJvm.stdout()).isEqualTo("jvm-client\n");
        assertThat(log()).contains("(banyan run) from");
        Banyan.Result status = Banyan.run(session, null, List.of("dvm", "status"));
        assertThat(status.exit()).as(status.stderr()).isZero();
        assertThat(status.stdout()).contains("contact in " + uri);
        Banyan.Result submit = Banyan.run(session, null, List.of("submit", "--", "echo", "a-task"));
        assertThat(submit.exit()).as(submit.stderr()).isZero();
        assertThat(log()).contains("(banyan submit) from");
        Piped hosts = piped(session, null, null, "run", "--host", "a,b", "-n", "2", "true");
        assertThat(hosts.exit()).isEqualTo(2);
        assertThat(hosts.stderr().strip()).isEqualTo("banyan run: BANYAN_DVM runs on the DVM's own hosts: drop --host, --hostfile, "
                + "--launcher and --launch-agent, or unset BANYAN_DVM");
        Piped typed = piped(Map.of("BANYAN_DVM", dir.resolve("no-such.uri").toString()), null, null,
                "run", "--dvm", uri.toString(), "-n", "1", "echo", "typed-wins");
        assertThat(typed.stdout()).as("--dvm wins over the variable").isEqualTo("typed-wins\n");
        String stale = dir.resolve("stopped-long-ago.uri").toString();
        Piped gone = piped(Map.of("BANYAN_DVM", stale), null, null, "run", "-n", "1", "echo", "never");
        assertThat(gone.exit()).isEqualTo(2);
        assertThat(gone.stdout()).isEmpty();
        assertThat(gone.stderr()).as("a session's variable that outlived its DVM says where the file came from")
                .isEqualTo("banyan run: no DVM at " + stale + " (start one with 'banyan dvm start'); BANYAN_DVM names it: "
                        + "unset BANYAN_DVM to run with daemons of its own\n");
    }

    /**
     * A closed stdin was the first file the launcher's JVM opened (its own jar): rank 0 read the
     * jar as its input (1.4 million lines of it reached the terminal). Closed is empty input now,
     * through every client.
     */
    @Test
    void aClosedStdinIsEmptyInputNotTheLaunchersOwnFiles() throws Exception {
        for (String how : List.of("", "BANYAN_QUICK=0 ")) {
            for (String dvm : List.of("--dvm " + uri + " ", "")) {
                Process p = new ProcessBuilder("bash", "-c", how + "\"$0\" run " + dvm + "-n 1 sh -c 'wc -c; echo done' <&-",
                        Banyan.SCRIPT.toString()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(out).as("%s%s", how, dvm).isEqualTo("0\ndone\n");
                assertThat(p.exitValue()).isZero();
            }
        }
        assertThat(quickClients()).isEqualTo(1);
    }

    /**
     * A named FIFO opened again waits for a reader: had its reader left, the DVM's open would
     * have waited for ever, and the run with it. Such a run goes to the JVM client.
     */
    @Test
    void aNamedFifoAsStdoutIsSentBackToTheJvmClient() throws Exception {
        Path fifo = dir.resolve("out.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Process p = new ProcessBuilder("bash", "-c", "cat \"$2\" > \"$2.txt\" & \"$0\" run --dvm \"$1\" -n 1 echo via-fifo > \"$2\"; wait",
                Banyan.SCRIPT.toString(), uri.toString(), fifo.toString()).redirectInput(new File("/dev/null"))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(Files.readString(Path.of(fifo + ".txt"))).isEqualTo("via-fifo\n");
        assertThat(log()).contains("sent back to its own JVM: its stdout is a named FIFO");
        assertThat(quickClients()).isZero();
    }

    @Test
    void badInputIsOneLineAndStatusTwoAsEver() throws Exception {
        Piped r = piped(Map.of(), null, null, "run", "--dvm", uri.toString(), "-n", "-1", "true");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr().strip()).startsWith("banyan run: ").doesNotContain("\n");
        Piped timeout = piped(Map.of("BANYAN_DVM_TIMEOUT", "soon"), null, null, "run", "--dvm", uri.toString(), "true");
        assertThat(timeout.exit()).isEqualTo(2);
        assertThat(timeout.stderr().strip()).contains("BANYAN_DVM_TIMEOUT='soon'").doesNotContain("\n");
        assertThat(quickClients()).isZero();
    }

    /** Ctrl-C and kill reach the job through the client's connection, as through the JVM client's signal handlers. */
    @Test
    void aSignalToTheClientEndsItsJobAndLeavesNothing() throws Exception {
        for (String signal : List.of("INT", "TERM")) {
            String marker = Banyan.marker();
            Process client = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "2", "sleep", marker))
                    .redirectInput(new File("/dev/null")).start();
            Banyan.awaitSleeps(marker, 2);
            long t0 = System.nanoTime();
            new ProcessBuilder("kill", "-" + signal, Long.toString(client.pid())).start().waitFor();
            assertThat(client.waitFor(20, TimeUnit.SECONDS)).as("the client ends after SIG%s", signal).isTrue();
            assertThat(client.exitValue()).as("SIG%s", signal).isEqualTo(signal.equals("INT") ? 130 : 143);
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(15);
            Banyan.assertNoProcessesWith(marker);
        }
        assertThat(quickClients()).isEqualTo(2);
    }

    /** States (ps's STAT) of the processes whose command line holds {@code marker}. */
    private static List<String> states(String marker) throws Exception {
        return Banyan.processesWith(marker).stream().map(l -> l.split("\\s+", 3)[1].substring(0, 1)).toList();
    }

    /** Ctrl-Z stops the ranks and the client, as banyan run's own job control does; fg continues both. */
    @Test
    void ctrlZStopsTheRanksAndTheShellsContinueResumesThem() throws Exception {
        String marker = Banyan.marker();
        Process client = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "2", "sleep", marker))
                .redirectInput(new File("/dev/null")).start();
        try {
            Banyan.awaitSleeps(marker, 2);
            new ProcessBuilder("kill", "-TSTP", Long.toString(client.pid())).start().waitFor();
            List<String> stopped = List.of();
            for (int i = 0; i < 100 && !(stopped = states(marker)).stream().allMatch("T"::equals); i++) {
                Thread.sleep(100);
            }
            assertThat(stopped).as("the client and both ranks stopped").containsExactly("T", "T", "T");
            new ProcessBuilder("kill", "-CONT", Long.toString(client.pid())).start().waitFor();
            List<String> going = List.of();
            for (int i = 0; i < 100 && (going = states(marker)).contains("T"); i++) {
                Thread.sleep(100);
            }
            assertThat(going).as("going again").hasSize(3).doesNotContain("T");
        } finally {
            client.destroy();
            client.waitFor(20, TimeUnit.SECONDS);
        }
        assertThat(client.exitValue()).isEqualTo(143);
        Banyan.assertNoProcessesWith(marker);
        assertThat(quickClients()).isEqualTo(1);
    }

    /** A client killed outright cannot forward anything: its closed connection ends its job. */
    @Test
    void aClientKilledWithMinusNineTakesItsJobAlong() throws Exception {
        String marker = Banyan.marker();
        Process client = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "3", "sleep", marker))
                .redirectInput(new File("/dev/null")).start();
        Banyan.awaitSleeps(marker, 3);
        client.destroyForcibly();
        Banyan.assertNoProcessesWith(marker);
        Piped after = piped(Map.of(), null, null, "run", "--dvm", uri.toString(), "-n", "4", "echo", "still-serving");
        assertThat(after.exit()).as(after.stderr()).isZero();
        assertThat(after.stdout()).isEqualTo("still-serving\n".repeat(4));
    }

    /** Threads of the DVM's head named {@code name} (as /proc shows them: 15 characters at most). */
    private long headThreads(String name) throws IOException {
        long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
        try (var tasks = Files.list(Path.of("/proc", Long.toString(head), "task"))) {
            return tasks.filter(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().equals(name);
                } catch (IOException e) {
                    return false; // ended meanwhile
                }
            }).count();
        }
    }

    /**
     * A client killed while the reader of its stdout takes nothing (a consumer that hangs, {@code
     * | sleep}): the DVM used to keep a thread in write(2) to that pipe, with 8 MiB of output
     * queued behind it, for as long as the reader lived — a leak per such client.
     */
    @Test
    void aClientKilledWhileItsReaderTakesNothingLeavesNoThreadInTheDvm() throws Exception {
        String marker = Banyan.marker();
        // the reader, sleep, lives on after the client and takes nothing
        ProcessBuilder pb = Banyan.builder(List.of());
        pb.command(List.of("bash", "-c", "\"$0\" run --dvm \"$1\" -n 1 yes " + marker + " | sleep " + marker,
                pb.command().getFirst(), uri.toString()));
        Process pipeline = pb.redirectInput(new File("/dev/null")).start();
        Thread err = Thread.ofVirtual().start(() -> readAll(pipeline.getErrorStream()));
        try {
            for (int i = 0; i < 200 && !log().contains("reads slower than its jobs write"); i++) {
                Thread.sleep(50);
            }
            assertThat(log()).contains("reads slower than its jobs write");
            assertThat(headThreads("banyan-terminal")).as("the head writes the client's output").isEqualTo(1);
            List<String> clients = Banyan.processesWith(marker).stream().filter(l -> l.contains("banyan run --dvm")).toList();
            assertThat(clients).as("the quick client, a bash script").hasSize(1);
            new ProcessBuilder("kill", "-9", clients.getFirst().split("\\s+")[0]).start().waitFor();
            List<String> left = List.of();
            for (int i = 0; i < 100 && !(left = clientOrRank(marker)).isEmpty(); i++) {
                Thread.sleep(100);
            }
            assertThat(left).as("the client and its rank are gone").isEmpty();
            assertThat(Banyan.processesWith(marker)).as("the reader is still there").anyMatch(l -> l.endsWith(" sleep " + marker));
            long writers = 1;
            for (int i = 0; i < 100 && (writers = headThreads("banyan-terminal")) > 0; i++) {
                Thread.sleep(50);
            }
            assertThat(writers).as("the writer to the pipe nobody reads ends with its client, the reader still there").isZero();
        } finally {
            new ProcessBuilder("pkill", "-f", marker).start().waitFor();
            pipeline.waitFor(20, TimeUnit.SECONDS);
            err.join();
        }
        Banyan.assertNoProcessesWith(marker);
        Piped after = piped(Map.of(), null, null, "run", "--dvm", uri.toString(), "-n", "2", "echo", "still-serving");
        assertThat(after.exit()).as(after.stderr()).isZero();
        assertThat(after.stdout()).isEqualTo("still-serving\n".repeat(2));
        assertThat(quickClients()).isEqualTo(2);
    }

    private static List<String> clientOrRank(String marker) throws Exception {
        return Banyan.processesWith(marker).stream()
                .filter(l -> l.contains("banyan run --dvm") || l.split("\\s+", 3)[2].startsWith("yes ")).toList();
    }

    private int quickPort() throws IOException {
        return Integer.parseInt(Files.readString(dir.resolve("dvm.uri.quick")).strip());
    }

    /** True when the door closed {@code s} within 8 s without a word (it gives a client 5 s to ask). */
    private static boolean closedUnanswered(Socket s) throws IOException {
        s.setSoTimeout(8_000);
        try {
            return s.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void theDoorOpensToNobodyWithoutTheSecret() throws Exception {
        String secret = Files.readString(dir.resolve("dvm.uri.secret")).strip();
        List<byte[]> attempts = new ArrayList<>();
        attempts.add(("BNYQUICK1\0" + "0".repeat(64) + "\0" + "1\0" + "0\0" + "1\0" + "2\0" + "2\0run\0true\0" + "0\0").getBytes(StandardCharsets.UTF_8));
        attempts.add("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        attempts.add(("BNYQUICK1\0" + secret + "\0" + "-1\0" + "0\0" + "0\0").getBytes(StandardCharsets.UTF_8));
        attempts.add(new byte[0]); // says nothing at all
        for (byte[] a : attempts) {
            try (Socket s = new Socket("127.0.0.1", quickPort())) {
                s.getOutputStream().write(a);
                s.getOutputStream().flush();
                if (a.length > 0 && a[0] == 'G') {
                    s.shutdownOutput();
                }
                assertThat(closedUnanswered(s)).as(new String(a, StandardCharsets.ISO_8859_1)).isTrue();
            }
        }
        assertThat(log()).contains("it does not know the secret").contains("quick door: refused a client: not a quick client's greeting")
                .contains("quick door: refused a client: pid is not a number")
                .contains("no request within 5 s").doesNotContain(secret);
        // endless input ends at the bound, and the DVM serves on
        try (Socket s = new Socket("127.0.0.1", quickPort())) {
            byte[] chunk = new byte[1 << 16];
            java.util.Arrays.fill(chunk, (byte) 'x');
            try {
                for (int i = 0; i < 64; i++) {
                    s.getOutputStream().write(chunk);
                }
            } catch (IOException closed) {
                // the door closed it, as it should
            }
        }
        Piped after = piped(Map.of(), null, null, "run", "--dvm", uri.toString(), "-n", "1", "echo", "ok");
        assertThat(after.stdout()).isEqualTo("ok\n");
        assertThat(quickClients()).isEqualTo(1);
        if (isRoot()) { // another user of this machine: refused before a byte is read
            Process stranger = new ProcessBuilder("runuser", "-u", "nobody", "--", "bash", "-c",
                    "exec 3<>/dev/tcp/127.0.0.1/" + quickPort() + "; printf 'BNYQUICK1\\0x\\0' >&3; read -t 5 -u 3 r; echo \"answer:$r\"")
                    .redirectErrorStream(true).start();
            assertThat(stranger.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(stranger.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("answer:\n");
            assertThat(log()).contains("(not a process of this DVM's user)");
        }
    }

    /**
     * The quick file names a port; if the DVM ended and another user took that port, the script
     * sees the listener is not its user's and sends nothing there: the run goes on through the
     * JVM client (to the URI file's address) and the stranger receives not a byte.
     */
    @Test
    void aPortAnotherUserListensOnLearnsNothing() throws Exception {
        if (!isRoot()) {
            return; // only root can be another user here; the check itself runs in every other test
        }
        Path got = dir.resolve("stranger.txt");
        assertThat(new ProcessBuilder("chmod", "1777", dir.toString()).start().waitFor()).isZero(); // nobody writes what it got here
        Process stranger = new ProcessBuilder("runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", """
                import socket, sys
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
                print(s.getsockname()[1], flush=True)
                s.settimeout(20)
                try:
                    c, _ = s.accept(); c.settimeout(5)
                    data = c.recv(65536)
                    open(sys.argv[1], "wb").write(data)
                except Exception:
                    pass
                """, got.toString()).start();
        try {
            String port = new java.io.BufferedReader(new java.io.InputStreamReader(stranger.getInputStream())).readLine();
            Files.writeString(dir.resolve("dvm.uri.quick"), port + "\n");
            Piped r = piped(Map.of(), null, null, "run", "--dvm", uri.toString(), "-n", "1", "echo", "via-jvm");
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stdout()).isEqualTo("via-jvm\n");
            assertThat(quickClients()).isZero();
            assertThat(got).doesNotExist();
        } finally {
            stranger.destroyForcibly();
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
    }

    private static boolean isRoot() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }
}
