package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DVM that accepts a connection and then says nothing (its head stopped or hung: the kernel
 * still accepts) does not hold its client for ever: an answer it owes at once is given up after
 * the wait, with a line that says so.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AnswerTimeoutTest {
    @TempDir
    Path dir;

    /** A DVM that welcomes its client when {@code welcomes}, then reads and never answers. */
    private DvmFiles silentDvm(ServerSocket server, boolean welcomes) throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        files.publish("127.0.0.1:" + server.getLocalPort(), 999_999_999L, "s3cret");
        Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = server.accept()) {
                ClientChannel c = new ClientChannel(s);
                c.send(new ClientMessage.Challenge("0f")); // as a DVM speaks first
                ClientMessage.Hello hello = (ClientMessage.Hello) c.receive();
                if (welcomes) {
                    c.send(new ClientMessage.Welcome(1, 2, HelloProof.ofHead("s3cret", hello.nonce(), "0f")));
                }
                while (true) {
                    c.receive();
                }
            } catch (Exception e) {
                // the client gave up
            }
        });
        return files;
    }

    @Test
    void aDvmThatNeverAnswersItsHelloIsGivenUpWithALine() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            DvmFiles files = silentDvm(server, false);
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> DvmClient.connect(files, "test", 300)).isInstanceOf(DvmClient.Unreachable.class)
                    .hasMessage("the DVM of " + files.uri() + " (pid 999999999) did not answer within 0.3 s ("
                            + AnswerTimeout.VARIABLE + " sets this wait)");
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5);
        }
    }

    @Test
    void aDvmThatStopsAnsweringAfterItsHelloIsGivenUpToo() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            DvmFiles files = silentDvm(server, true);
            try (DvmClient client = DvmClient.connect(files, "test", 300)) {
                assertThatThrownBy(client::status).isInstanceOf(AnswerTimeout.NoAnswer.class)
                        .hasMessageStartingWith("the DVM did not answer within 0.3 s");
            }
            try (DvmClient client = connectAgain(server, files)) {
                assertThatThrownBy(() -> client.submit(List.of())).isInstanceOf(AnswerTimeout.NoAnswer.class);
            }
        }
    }

    private DvmClient connectAgain(ServerSocket server, DvmFiles files) throws Exception {
        silentDvm(server, true);
        return DvmClient.connect(files, "test", 300);
    }

    @Test
    void theWaitIsReadFromTheVariableAndNonsenseIsRefused() {
        assertThat(AnswerTimeout.millis(null)).isEqualTo(30_000);
        assertThat(AnswerTimeout.millis("")).isEqualTo(30_000);
        assertThat(AnswerTimeout.millis("2")).isEqualTo(2_000);
        assertThat(AnswerTimeout.millis(" 0.25 ")).isEqualTo(250);
        for (String bad : List.of("abc", "0", "-1", "NaN", "Infinity", "1e12")) {
            assertThatThrownBy(() -> AnswerTimeout.millis(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("BANYAN_DVM_TIMEOUT='" + bad + "' is not a number of seconds above zero");
        }
    }

    /**
     * A stopped banyan process is named as the likely cause, with its remedy, when the DVM's
     * address is this host's; a DVM elsewhere gets no guess from a local pid.
     */
    @Test
    void aStoppedHeadOfThisHostIsNamed() throws Exception {
        // a process named as banyan's are stands in for the head
        Process stand = new ProcessBuilder("bash", "-c", "exec -a org.banyan.StandIn sleep 30").start();
        String here = InetAddress.getLocalHost().getHostAddress() + ":4711";
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(stand.pid())).start().waitFor();
            String hint = "";
            for (int i = 0; i < 100 && !hint.contains("is stopped"); i++) {
                Thread.sleep(20);
                hint = AnswerTimeout.stoppedHint("127.0.0.1:4711", stand.pid());
            }
            String named = "; its process " + stand.pid() + " is stopped (kill -CONT " + stand.pid() + " lets it go on)";
            assertThat(hint).isEqualTo(named);
            assertThat(AnswerTimeout.stoppedHint(here, stand.pid())).isEqualTo(named);
            assertThat(AnswerTimeout.stoppedHint("[::1]:4711", stand.pid())).isEqualTo(named);
            // TEST-NET-1 (RFC 5737) is nobody's address here; a name that does not resolve is none either
            assertThat(AnswerTimeout.stoppedHint("192.0.2.7:4711", stand.pid())).isEqualTo(" (BANYAN_DVM_TIMEOUT sets this wait)");
            assertThat(AnswerTimeout.stoppedHint("no-such-host.invalid:4711", stand.pid()))
                    .isEqualTo(" (BANYAN_DVM_TIMEOUT sets this wait)");
            new ProcessBuilder("kill", "-CONT", Long.toString(stand.pid())).start().waitFor();
            Thread.sleep(200);
            assertThat(AnswerTimeout.stoppedHint("127.0.0.1:4711", stand.pid())).isEqualTo(" (BANYAN_DVM_TIMEOUT sets this wait)");
        } finally {
            stand.destroyForcibly();
        }
    }
}
