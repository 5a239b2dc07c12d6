package org.banyan.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LinkAuthTest {
    /** RFC 4231's test case 2 key and data, through the same construction (label, x, y concatenated). */
    @Test
    void theMacIsHmacSha256() throws Exception {
        byte[] before = LinkAuth.secret();
        try {
            LinkAuth.install(java.util.Arrays.copyOf("Jefe".getBytes(StandardCharsets.US_ASCII), 32));
            byte[] key = java.util.Arrays.copyOf("Jefe".getBytes(StandardCharsets.US_ASCII), 32);
            javax.crypto.Mac reference = javax.crypto.Mac.getInstance("HmacSHA256");
            reference.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
            assertThat(LinkAuth.mac("what".getBytes(StandardCharsets.US_ASCII), " do ya want ".getBytes(StandardCharsets.US_ASCII),
                    "for nothing?".getBytes(StandardCharsets.US_ASCII))).isEqualTo(reference.doFinal(data));
        } finally {
            LinkAuth.install(before);
        }
    }

    /** A resized job's worlds: one secret per queued job and generation, none equal to a job's own. */
    @Test
    void eachWorldOfAResizedJobHasASecretOfItsOwn() {
        String world = LinkAuth.worldSecret(1, 1);
        assertThat(world).hasSize(64).isEqualTo(LinkAuth.worldSecret(1, 1));
        assertThat(java.util.Set.of(world, LinkAuth.worldSecret(1, 2), LinkAuth.worldSecret(2, 1), LinkAuth.jobSecret(1),
                LinkAuth.jobSecret(2))).as("all different").hasSize(5);
    }

    @Test
    void bothEndsWithTheSecretProveItToEachOther() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> acceptor = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    LinkAuth.challenge(s);
                    s.getOutputStream().write(42);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                LinkAuth.prove(c);
                assertThat(c.getInputStream().read()).isEqualTo(42);
            }
            acceptor.join();
        }
    }

    @Test
    void aStrangerWithoutTheSecretIsRefusedAndLearnsNothing() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> acceptor = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    LinkAuth.challenge(s);
                    return "accepted";
                } catch (IOException e) {
                    return e.getMessage();
                }
            });
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                DataInputStream in = new DataInputStream(c.getInputStream());
                byte[] hello = new byte[4 + 16];
                in.readFully(hello);
                c.getOutputStream().write(new byte[16 + 32]); // a guess
                assertThat(in.read()).as("closed, nothing more said").isEqualTo(-1);
            }
            assertThat(acceptor.join()).isEqualTo("it did not prove the job's secret");
        }
    }

    @Test
    void aDaemonReadsItsSecretFromItsStandardInput() throws Exception {
        byte[] before = LinkAuth.secret();
        try {
            String line = HexFormat.of().formatHex(new byte[32]).replace('0', 'a') + "\n";
            LinkAuth.installFrom(new ByteArrayInputStream(line.getBytes(StandardCharsets.US_ASCII)));
            assertThat(LinkAuth.secretLine()).isEqualTo(line);
            assertThatThrownBy(() -> LinkAuth.installFrom(new ByteArrayInputStream(new byte[0])))
                    .hasMessageStartingWith("no job secret on standard input");
        } finally {
            LinkAuth.install(before);
        }
    }
}
