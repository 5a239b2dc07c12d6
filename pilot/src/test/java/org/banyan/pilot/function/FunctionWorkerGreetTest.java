package org.banyan.pilot.function;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A worker takes nothing from what listens at its pool's contact until it proved the pool's
 * secret: after the pool is gone another's process may hold the port, and a worker deserializes
 * what its pool sends. Until 2026-12-02 a worker sent the secret itself and read batches at once.
 */
class FunctionWorkerGreetTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";

    /** A listener that greets as a pool, reads the worker's hello, and answers with {@code proof}. */
    private static String greetAgainst(java.util.function.BiFunction<FunctionWire.Hello, byte[], byte[]> proof) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[]> heard = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] challenge = FunctionWire.challenge(out);
                    FunctionWire.Hello hello = FunctionWire.readHello(in, "not the secret", challenge);
                    assertThat(hello).as("an impostor cannot take the hello for a proof of its own secret").isNull();
                    try {
                        out.write(proof.apply(null, challenge));
                        out.writeInt(4);
                        out.writeInt(0); // and what would be a batch
                        out.flush();
                        return in.readNBytes(1); // nothing: the worker closes, its batch unread
                    } catch (java.io.IOException reset) { // the worker closed first: a broken pipe or a reset
                        return new byte[0];
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
                String why = FunctionWorker.greet(s, new DataInputStream(s.getInputStream()),
                        new DataOutputStream(s.getOutputStream()), SECRET);
                s.close();
                heard.get();
                return why;
            }
        }
    }

    @Test
    void aListenerThatCannotProveTheSecretIsNotTakenForThePool() throws Exception {
        assertThat(greetAgainst((h, c) -> new byte[FunctionWire.PROOF]))
                .isEqualTo("did not prove the pool's secret: it is not this worker's pool");
    }

    @Test
    void theRealPoolsProofIsTaken() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> pid = CompletableFuture.supplyAsync(() -> {
                try (Socket s = server.accept()) {
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    byte[] challenge = FunctionWire.challenge(out);
                    FunctionWire.Hello hello = FunctionWire.readHello(new DataInputStream(s.getInputStream()), SECRET, challenge);
                    FunctionWire.provePool(out, SECRET, hello, challenge);
                    return hello.pid();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
                assertThat(FunctionWorker.greet(s, new DataInputStream(s.getInputStream()), new DataOutputStream(s.getOutputStream()),
                        SECRET)).isNull();
                assertThat(pid.get()).isEqualTo(ProcessHandle.current().pid());
            }
        }
    }
}
