package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DVM's client port as a stranger on the same machine finds it: idle connections, garbage,
 * a frame length meant to make the head allocate, a flood; and its log as another user would
 * like to read it. None of it may cost the DVM anything lasting or stop its real clients.
 */
class DvmDoorTest {
    @TempDir
    Path dir;

    Path uri;

    private void start() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2", "--warm-up", "0");
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    /** Stops the DVM as dvm start named it (--uri-file), and checks its head is gone. */
    @AfterEach
    void stop() throws Exception {
        if (uri != null && Files.exists(uri)) {
            long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
            Banyan.Result r = Banyan.run("dvm", "stop", "--uri-file", uri.toString());
            if (Banyan.runs(head)) {
                ProcessHandle.of(head).ifPresent(ProcessHandle::destroyForcibly);
                throw new AssertionError("dvm stop left the head running: " + r.stderr());
            }
        }
    }

    /**
     * A head that is stopped (Ctrl-Z where it was started, SIGSTOP) still has its connections
     * accepted by the kernel: its clients said nothing and waited for ever. They wait for its
     * answer as long as BANYAN_DVM_TIMEOUT says, then say why in one line; once it goes on, it serves.
     */
    @Test
    void aStoppedHeadsClientsGiveUpWithALineAndItServesOnceItGoesOn() throws Exception {
        start();
        long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
        new ProcessBuilder("kill", "-STOP", Long.toString(head)).start().waitFor();
        try {
            for (List<String> command : List.of(List.of("submit", "--dvm", uri.toString(), "--", "echo", "hi"),
                    List.of("dvm", "status", "--dvm", uri.toString()), List.of("run", "--dvm", uri.toString(), "true"))) {
                long t0 = System.nanoTime();
                Banyan.Result r = Banyan.run(java.util.Map.of("BANYAN_DVM_TIMEOUT", "1.5"), null, command);
                double seconds = (System.nanoTime() - t0) / 1e9;
                assertThat(r.exit()).as("%s: %s", command, r.stderr()).isEqualTo(2);
                assertThat(r.stderr().strip()).as("%s", command).endsWith("(pid " + head + ") did not answer within 1.5 s; its process "
                        + head + " is stopped (kill -CONT " + head + " lets it go on)").doesNotContain("\n");
                assertThat(seconds).as("%s", command).isLessThan(10);
            }
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(head)).start().waitFor();
        }
        Banyan.Result after = Banyan.run("run", "--dvm", uri.toString(), "echo", "hi");
        assertThat(after.exit()).as(after.stderr()).isZero();
        assertThat(after.stdout()).contains("hi");
    }

    private Socket connect() throws Exception {
        String[] hostPort = Files.readAllLines(uri).getFirst().substring("tcp://".length()).split(":");
        Socket s = new Socket(hostPort[0], Integer.parseInt(hostPort[1]));
        s.setSoTimeout(200);
        return s;
    }

    /** True when the DVM closed {@code s} within {@code millis}. */
    private static boolean closedWithin(Socket s, long millis) throws IOException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            try {
                if (s.getInputStream().read() < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                // still open
            } catch (IOException e) {
                return true; // reset
            }
        }
        return false;
    }

    private String log() throws IOException {
        return Files.readString(dir.resolve("dvm.uri.log"));
    }

    @Test
    void aLargeFrameLengthFromAStrangerIsRefusedBeforeAnythingIsAllocated() throws Exception {
        start();
        List<Socket> asking = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Socket s = connect();
            new DataOutputStream(s.getOutputStream()).writeInt(64 << 20);
            asking.add(s);
        }
        for (Socket s : asking) {
            assertThat(closedWithin(s, 3_000)).as("a 64 MiB frame length closes the connection at once").isTrue();
            s.close();
        }
        assertThat(log()).contains("refused a connection from /127.0.0.1:").contains("bad client frame length 67108864");
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true").exit()).isZero();
    }

    /**
     * A stranger's first frame that decodes into a message with a null where a value belongs
     * (found by ClientCodecFuzzTest) ended the door's thread with a NullPointerException: the
     * connection stayed open and nothing was logged. It is refused like any bad input.
     */
    @Test
    void aMalformedFirstFrameIsRefusedAndLogged() throws Exception {
        start();
        byte[] frame = org.banyan.core.wire.ClientCodec.encode(new org.banyan.core.wire.ClientMessage.RunJob(
                List.of(new org.banyan.core.job.AppContext("./a", List.of("Q"), 1, java.util.Map.of(), null)),
                org.banyan.core.job.MappingPolicy.SLOT, false, 0, "/", org.banyan.core.job.Modex.LAZY, 0));
        // the argument "Q" (length 1, then its byte) becomes a null string (length -1, no bytes)
        int at = -1;
        for (int i = 0; i + 4 < frame.length; i++) {
            if (frame[i] == 0 && frame[i + 1] == 0 && frame[i + 2] == 0 && frame[i + 3] == 1 && frame[i + 4] == 'Q') {
                at = i;
            }
        }
        assertThat(at).isPositive();
        java.io.ByteArrayOutputStream bad = new java.io.ByteArrayOutputStream();
        bad.write(frame, 0, at);
        bad.write(new byte[] {-1, -1, -1, -1});
        bad.write(frame, at + 5, frame.length - at - 5);
        byte[] b = bad.toByteArray();
        java.nio.ByteBuffer.wrap(b).putInt(0, b.length - 4);
        try (Socket s = connect()) {
            s.getOutputStream().write(b);
            assertThat(closedWithin(s, 3_000)).as("the connection is closed").isTrue();
        }
        assertThat(log()).contains("refused a connection from /127.0.0.1:")
                .contains("a client message with no value where one is needed");
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true").exit()).isZero();
    }

    @Test
    void idleConnectionsAreClosedAtTheDeadlineAndAFloodIsBounded() throws Exception {
        start();
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            idle.add(connect());
        }
        // Beyond the 64 that may wait for their hello, connections are closed at once.
        int closedAtOnce = 0;
        for (Socket s : idle.subList(64, idle.size())) {
            if (closedWithin(s, 50)) {
                closedAtOnce++;
            }
        }
        assertThat(closedAtOnce).as("of 86 connections beyond the 64 waiting").isGreaterThanOrEqualTo(80);
        Banyan.Result during = Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true");
        for (Socket s : idle.subList(0, 64)) {
            assertThat(closedWithin(s, 8_000)).as("an idle connection ends at the 5 s hello deadline").isTrue();
            s.close();
        }
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "-n", "1", "true").exit())
                .as("a client once the strangers are gone").isZero();
        String log = log();
        assertThat(log).contains(": no hello within 5 s").contains("64 connections are already waiting to prove the secret");
        assertThat(log.lines().filter(l -> l.contains("are already waiting")).count()).as("one line per burst").isLessThanOrEqualTo(2);
        // A client that came while the 64 places were held may have been turned away; it is told so.
        assertThat(during.exit()).as(during.stderr()).isIn(0, 2);
    }

    @Test
    void theLogIsItsOwnersAndShowsNoVariablesValue() throws Exception {
        start();
        assertThat(Files.getPosixFilePermissions(dir.resolve("dvm.uri.log")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("s").toString(), "-x",
                "API_KEY=hunter2-sesame", "--", "sh", "-c",
                "test \"$(echo \"$API_KEY\" | tr a-z A-Z)\" = HUNTER2-SESAME");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(log()).contains("submitted 1 task(s)").doesNotContain("hunter2"); // typed requests: no argv to log
    }

    /**
     * Another user who can write where a DVM's files are (a group-writable project directory)
     * replaces its URI file with one naming their own port: the client read the address from
     * it and sent the secret there, which let them run anything as the DVM's owner. A URI file
     * of another user is refused before anything is sent, with a line that says why.
     */
    @Test
    void aUriFileOfAnotherUserIsRefusedAndNoSecretLeaves() throws Exception {
        try (java.net.ServerSocket thief = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress())) {
            thief.setSoTimeout(3_000);
            Path planted = dir.resolve("dvm.uri");
            Files.writeString(dir.resolve("dvm.uri.secret"), "0123456789abcdef\n");
            Files.setPosixFilePermissions(dir.resolve("dvm.uri.secret"), PosixFilePermissions.fromString("rw-------"));
            Files.writeString(planted, "tcp://127.0.0.1:" + thief.getLocalPort() + "\n4242\n");
            assertThat(new ProcessBuilder("chown", "nobody", planted.toString()).start().waitFor()).isZero();
            java.util.concurrent.atomic.AtomicReference<String> heard = new java.util.concurrent.atomic.AtomicReference<>("");
            Thread listening = Thread.ofVirtual().start(() -> {
                try (Socket s = thief.accept()) {
                    heard.set("a connection");
                    s.setSoTimeout(2_000);
                    heard.set(new String(s.getInputStream().readNBytes(200), java.nio.charset.StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    // nobody came: as it should be
                }
            });
            for (List<String> command : List.of(List.of("submit", "--dvm", planted.toString(), "--", "true"),
                    List.of("dvm", "status", "--dvm", planted.toString()), List.of("run", "--dvm", planted.toString(), "true"))) {
                Banyan.Result r = Banyan.run(command.toArray(String[]::new));
                assertThat(r.exit()).as("%s: %s", command, r.stderr()).isEqualTo(2);
                assertThat(r.stderr().strip()).as("%s", command).contains(planted + " belongs to another user (uid 65534)")
                        .doesNotContain("\n");
            }
            listening.join();
            assertThat(heard.get()).as("what the other user's port heard").isEmpty();
        }
    }

    /**
     * A DVM killed with SIGKILL leaves its URI file; another user who takes its port and plays
     * a DVM is sent a hello. It carried the secret itself; since protocol 10 it proves the
     * secret against the listener's challenge, so what the listener hears opens nothing.
     */
    @Test
    void aListenerAtAStalePortHearsNoSecret() throws Exception {
        String secret = "5ec4e7".repeat(10);
        try (java.net.ServerSocket thief = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress())) {
            thief.setSoTimeout(20_000);
            Path stale = dir.resolve("dvm.uri");
            Files.writeString(dir.resolve("dvm.uri.secret"), secret + "\n");
            Files.setPosixFilePermissions(dir.resolve("dvm.uri.secret"), PosixFilePermissions.fromString("rw-------"));
            Files.writeString(stale, "tcp://127.0.0.1:" + thief.getLocalPort() + "\n4242\n");
            java.util.concurrent.atomic.AtomicReference<String> heard = new java.util.concurrent.atomic.AtomicReference<>("");
            Thread listening = Thread.ofVirtual().start(() -> {
                try (Socket s = thief.accept()) {
                    s.getOutputStream().write(org.banyan.core.wire.ClientCodec.encode(
                            new org.banyan.core.wire.ClientMessage.Challenge("0123456789abcdef")));
                    s.setSoTimeout(5_000);
                    heard.set(new String(s.getInputStream().readNBytes(120), java.nio.charset.StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    heard.set("nothing: " + e);
                }
            });
            Banyan.Result r = Banyan.run(java.util.Map.of("BANYAN_DVM_TIMEOUT", "2"), null,
                    List.of("dvm", "status", "--dvm", stale.toString()));
            assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
            listening.join();
            assertThat(heard.get()).as("what the listener heard").contains("banyan dvm").doesNotContain(secret);
        }
    }

    /**
     * The listener at a stale port goes further: it welcomes the client as a DVM would. It
     * cannot prove the secret in its welcome, so the client ends with one line and sends it
     * nothing after its hello: not the command, not its environment, not a byte of input.
     */
    @Test
    void anImpostorThatWelcomesTheClientIsGivenNoWork() throws Exception {
        String secret = "5ec4e7".repeat(10);
        try (java.net.ServerSocket impostor = new java.net.ServerSocket(0, 8, java.net.InetAddress.getLoopbackAddress())) {
            impostor.setSoTimeout(20_000);
            Path stale = dir.resolve("dvm.uri");
            Files.writeString(dir.resolve("dvm.uri.secret"), secret + "\n");
            Files.setPosixFilePermissions(dir.resolve("dvm.uri.secret"), PosixFilePermissions.fromString("rw-------"));
            Files.writeString(stale, "tcp://127.0.0.1:" + impostor.getLocalPort() + "\n4242\n");
            java.util.concurrent.atomic.AtomicReference<String> after = new java.util.concurrent.atomic.AtomicReference<>();
            Thread listening = Thread.ofVirtual().start(() -> {
                try (Socket s = impostor.accept()) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(org.banyan.core.wire.ClientCodec.encode(
                            new org.banyan.core.wire.ClientMessage.Challenge("0123456789abcdef")));
                    java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
                    in.readFully(new byte[in.readInt()]); // the hello
                    s.getOutputStream().write(org.banyan.core.wire.ClientCodec.encode(
                            new org.banyan.core.wire.ClientMessage.Welcome(1, 4)));
                    after.set(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    after.set("failed: " + e);
                }
            });
            Banyan.Result r = Banyan.run(java.util.Map.of("TOKEN_OF_THE_JOB", "do-not-leak"), "input for the job\n",
                    List.of("run", "--dvm", stale.toString(), "-n", "1", "-x", "TOKEN_OF_THE_JOB", "echo", "the-command"));
            assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
            assertThat(r.stderr().strip()).isEqualTo("banyan run: the process at 127.0.0.1:" + impostor.getLocalPort()
                    + " is not the DVM of " + stale + ": it does not know that DVM's secret (the DVM has ended and another"
                    + " process has its port?); nothing was sent to it");
            listening.join();
            assertThat(after.get()).as("what the impostor heard after its welcome").isEmpty();
        }
    }

    /** A DVM is not started where others may write: its own clients would refuse it. */
    @Test
    void aDvmIsNotStartedInADirectoryOthersMayWrite() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", shared.resolve("dvm.uri").toString(), "--host", "localhost:1");
        assertThat(r.exit()).as(r.stderr()).isEqualTo(2);
        assertThat(r.stderr().strip()).contains("the DVM's directory " + shared + " is writable by others (mode 0775)")
                .doesNotContain("\n");
        try (var left = Files.list(shared)) {
            assertThat(left.toList()).as("nothing written, nothing started").isEmpty();
        }
        // sticky, as /tmp: only a file's owner may replace it there
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(new ProcessBuilder("chmod", "+t", shared.toString()).start().waitFor()).isZero();
        uri = shared.resolve("dvm.uri");
        Banyan.Result sticky = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:1", "--warm-up", "0");
        assertThat(sticky.exit()).as(sticky.stderr()).isZero();
        assertThat(Banyan.run("run", "--dvm", uri.toString(), "true").exit()).isZero();
    }

    /**
     * Under a umask of 002 (common where each user has a group of their own) the directory a
     * DVM's files go to came out group-writable, and its own clients would refuse it: banyan
     * makes it writable by its owner only, whatever the umask.
     */
    @Test
    void aDvmStartedUnderAGroupWritableUmaskServesItsClients() throws Exception {
        Path home = Files.createDirectory(dir.resolve("home"));
        uri = home.resolve(".banyan/dvm.uri");
        ProcessBuilder start = new ProcessBuilder("sh", "-c", "umask 002; exec \"$0\" \"$@\"", Banyan.SCRIPT.toString(), "dvm", "start",
                "--host", "localhost:1", "--warm-up", "0").redirectErrorStream(true).redirectInput(new java.io.File("/dev/null"))
                .redirectOutput(dir.resolve("start.out").toFile());
        start.environment().put("HOME", home.toString());
        start.environment().remove("_JAVA_SR_SIGNUM");
        start.environment().remove("BANYAN_LAUNCHER_ENV");
        Process p = start.start();
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("start.out"))).isZero();
        assertThat(Files.getPosixFilePermissions(uri.getParent())).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(Files.getPosixFilePermissions(uri)).isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
        Banyan.Result r = Banyan.run(java.util.Map.of("HOME", home.toString()), null, List.of("run", "--dvm", uri.toString(), "echo", "served"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("served");
    }

    /**
     * The dashboard's port, as a stranger finds it: connections that never finish their request
     * were held for ever, one descriptor each in the DVM's head (3,000 of them held 3,000), which
     * shares its limit with the DVM's tasks, daemons and clients. They are held 256 at a time at
     * most; the DVM serves during the flood and the page loads after it.
     */
    @Test
    void aFloodOfUnfinishedRequestsToTheDashboardIsBounded() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:1", "--warm-up", "0",
                "--dashboard");
        assertThat(r.exit()).as(r.stderr()).isZero();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:(\\d+)/\\?token=[0-9a-f]+)")
                .matcher(r.stdout());
        assertThat(m.find()).as(r.stdout()).isTrue();
        long head = Long.parseLong(Files.readAllLines(uri).get(1).strip());
        int port = Integer.parseInt(m.group(2));
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 600; i++) {
                Socket s = new Socket();
                s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 5_000);
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                flood.add(s);
            }
            Thread.sleep(1_000);
            long descriptors;
            try (var fds = Files.list(Path.of("/proc", Long.toString(head), "fd"))) {
                descriptors = fds.count();
            }
            assertThat(descriptors).as("the head's descriptors with 600 unfinished requests").isLessThan(256 + 150);
            Banyan.Result during = Banyan.run("run", "--dvm", uri.toString(), "echo", "served");
            assertThat(during.exit()).as(during.stderr()).isZero();
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        int status = 0;
        for (int i = 0; i < 50 && status != 200; i++) {
            Thread.sleep(200);
            try {
                status = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(m.group(1))).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1; // turned away while the flood's connections close
            }
        }
        assertThat(status).as("the page after the flood").isEqualTo(200);
    }
}
