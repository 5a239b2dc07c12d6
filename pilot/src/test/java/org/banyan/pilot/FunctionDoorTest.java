package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.banyan.pilot.function.FunctionWire;
import org.junit.jupiter.api.Test;

/** A function pool's door: strangers, silent or wrong, keep no worker out and are closed. */
class FunctionDoorTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef";

    /** A worker's side of the hello; whether the pool proved the secret back. */
    private static boolean hello(Socket s, String secret, long pid) throws IOException {
        java.io.DataInputStream in = new java.io.DataInputStream(s.getInputStream());
        byte[] expected = FunctionWire.hello(in, new DataOutputStream(s.getOutputStream()), secret, pid);
        try {
            return FunctionWire.poolProven(in, expected);
        } catch (IOException e) { // refused: closed
            return false;
        }
    }

    /** True once the other side closed {@code s} (what it sent before read and dropped); false when it stays open for {@code millis}. */
    private static boolean closedWithin(Socket s, int millis) throws IOException {
        s.setSoTimeout(millis);
        try {
            while (s.getInputStream().read() >= 0) {
                // the pool's greeting
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) { // reset
            return true;
        }
    }

    /** Until 2026-12-02 the door read one hello at a time with no time limit: the worker waited for ever. */
    @Test
    void aSilentStrangerKeepsNoWorkerOutAndIsClosedAfterItsTime() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> admitted = new CompletableFuture<>();
            FunctionDoor door = new FunctionDoor(server, SECRET, 1_000, (s, in, pid) -> admitted.complete(pid)).start();
            try (Socket stranger = new Socket(server.getInetAddress(), server.getLocalPort());
                 Socket worker = new Socket(server.getInetAddress(), server.getLocalPort())) {
                Thread.sleep(100); // the stranger's connection is taken first
                assertThat(hello(worker, SECRET, 42)).as("the pool proved the secret back").isTrue();
                assertThat(admitted.get(5, TimeUnit.SECONDS)).as("the worker, admitted while the stranger waits").isEqualTo(42L);
                assertThat(closedWithin(stranger, 5_000)).as("the stranger, closed after its second").isTrue();
                assertThat(closedWithin(worker, 300)).as("the worker's connection stays").isFalse();
            }
            door.close();
        }
    }

    @Test
    void aWrongSecretOrGarbageIsClosedUnadmitted() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> admitted = new CompletableFuture<>();
            FunctionDoor door = new FunctionDoor(server, SECRET, 1_000, (s, in, pid) -> admitted.complete(pid)).start();
            try (Socket wrong = new Socket(server.getInetAddress(), server.getLocalPort());
                 Socket garbage = new Socket(server.getInetAddress(), server.getLocalPort())) {
                assertThat(hello(wrong, SECRET.replace('0', '1'), 7)).as("no proof for a wrong secret").isFalse();
                garbage.getOutputStream().write(new byte[] {(byte) 0xff, (byte) 0xff, 1, 2, 3});
                garbage.shutdownOutput();
                assertThat(closedWithin(wrong, 5_000)).isTrue();
                assertThat(closedWithin(garbage, 5_000)).isTrue();
            }
            assertThat(admitted).as("nobody admitted").isNotDone();
            door.close();
        }
    }
}
