package org.banyan.runtime.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process listening where a DVM's URI file points that is not that DVM (the DVM ended and
 * another user's program has its port) may challenge a client and welcome it, but cannot prove
 * the secret back: the client says so in one line and sends it nothing after its hello — no
 * task, command or input. What such a process says to refuse a client reaches the terminal with
 * no control character in it.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ImpostorTest {
    @TempDir
    Path dir;

    /**
     * A listener that challenges with nonce "0f", reads the hello, answers what {@code answer}
     * makes of it, and records every later message until the client leaves.
     */
    private DvmFiles impostor(ServerSocket server, Function<ClientMessage.Hello, ClientMessage> answer,
            List<ClientMessage> after, CompletableFuture<Void> gone) throws Exception {
        DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
        files.publish("127.0.0.1:" + server.getLocalPort(), 999_999_999L, "s3cret");
        Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = server.accept()) {
                ClientChannel c = new ClientChannel(s);
                c.send(new ClientMessage.Challenge("0f"));
                c.send(answer.apply((ClientMessage.Hello) c.receive()));
                while (true) {
                    after.add(c.receive());
                }
            } catch (Exception e) {
                gone.complete(null);
            }
        });
        return files;
    }

    private void refusedAsImpostor(Function<ClientMessage.Hello, ClientMessage> answer) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            List<ClientMessage> after = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> gone = new CompletableFuture<>();
            DvmFiles files = impostor(server, answer, after, gone);
            assertThatThrownBy(() -> DvmClient.connect(files, "test", 5_000)).isInstanceOf(DvmClient.Unreachable.class)
                    .hasMessage("the process at 127.0.0.1:" + server.getLocalPort() + " is not the DVM of " + files.uri()
                            + ": it does not know that DVM's secret (the DVM has ended and another process has its port?);"
                            + " nothing was sent to it");
            gone.get(5, TimeUnit.SECONDS);
            assertThat(after).as("what the client sent after its hello").isEmpty();
        }
    }

    @Test
    void aWelcomeWithoutProofIsNotBelieved() throws Exception {
        refusedAsImpostor(hello -> new ClientMessage.Welcome(4, 32));
    }

    @Test
    void aWelcomeWithAWrongProofIsNotBelieved() throws Exception {
        refusedAsImpostor(hello -> new ClientMessage.Welcome(4, 32, HelloProof.ofHead("guess", hello.nonce(), "0f")));
    }

    @Test
    void theClientsOwnProofSentBackIsNotADvmsProof() throws Exception {
        refusedAsImpostor(hello -> new ClientMessage.Welcome(4, 32, hello.secret()));
    }

    @Test
    void aProofForAnotherNonceIsNotBelieved() throws Exception {
        refusedAsImpostor(hello -> new ClientMessage.Welcome(4, 32, HelloProof.ofHead("s3cret", "00", "0f")));
    }

    @Test
    void theRealProofIsBelieved() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            DvmFiles files = impostor(server, hello -> new ClientMessage.Welcome(4, 32,
                    HelloProof.ofHead("s3cret", hello.nonce(), "0f")), new CopyOnWriteArrayList<>(), new CompletableFuture<>());
            try (DvmClient client = DvmClient.connect(files, "test", 5_000)) {
                assertThat(client.welcome().hosts()).isEqualTo(4);
            }
        }
    }

    @Test
    void aRefusalReachesTheTerminalWithoutControlCharacters() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            String hostile = "no\u001b]0;owned\u0007\r\u001b[2Jclear\u202e" + "x".repeat(2000);
            DvmFiles files = impostor(server, hello -> new ClientMessage.Refused(hostile), new CopyOnWriteArrayList<>(),
                    new CompletableFuture<>());
            assertThatThrownBy(() -> DvmClient.connect(files, "test", 5_000)).isInstanceOf(DvmClient.Unreachable.class)
                    .satisfies(e -> {
                        String line = e.getMessage();
                        assertThat(line).startsWith("the DVM of " + files.uri() + " refused the connection: no?]0;owned??"
                                + "?[2Jclear?xxx");
                        assertThat(line.chars().filter(Character::isISOControl).count()).isZero();
                        assertThat(line.length()).isLessThan(700);
                    });
        }
    }

    @Test
    void aHugeFrameBeforeTheProofIsRefusedUnread() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            DvmFiles files = new DvmFiles(dir.resolve("dvm.uri"));
            files.publish("127.0.0.1:" + server.getLocalPort(), 999_999_999L, "s3cret");
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = server.accept()) {
                    java.io.DataOutputStream out = new java.io.DataOutputStream(s.getOutputStream());
                    out.writeInt(DvmClient.HANDSHAKE_FRAME_MAX + 1); // a length, then bytes for ever
                    byte[] junk = new byte[1 << 16];
                    while (true) {
                        out.write(junk);
                    }
                } catch (Exception e) {
                    // the client hung up
                }
            });
            assertThatThrownBy(() -> DvmClient.connect(files, "test", 5_000)).isInstanceOf(DvmClient.Unreachable.class)
                    .hasMessageContaining("bad client frame length " + (DvmClient.HANDSHAKE_FRAME_MAX + 1));
        }
    }
}
