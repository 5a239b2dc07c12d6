package org.banyan.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Large heap messages over TCP in a JVM with little direct memory ({@code -XX:MaxDirectMemorySize}):
 * the 2 MiB buffers give way to 256 KiB ones, and where even those do not fit, the send fails
 * with a CommException that says so, and the ranks end, where an OutOfMemoryError left its
 * peers waiting for ever. Run in a JVM of its own, started with the limit.
 */
class DirectMemoryTest {
    /** Two ranks on two hosts; rank 0 sends 4 MiB from a Java array; prints each rank's outcome. */
    public static void main(String[] args) throws Exception {
        List<String> out = LocalJob.run(2, r -> "host" + r, Map.of("BANYAN_COMM_ADDRESS", "127.0.0.1"), world -> {
            try (world) {
                byte[] data = new byte[4 << 20];
                if (world.rank() == 0) {
                    data[data.length - 1] = 42;
                    world.send(MemorySegment.ofArray(data), 1, 1);
                    return "sent";
                }
                world.recv(MemorySegment.ofArray(data), 0, 1);
                return "received " + data[data.length - 1];
            } catch (RuntimeException e) {
                return e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
        System.out.println(String.join("\n", out));
    }

    static String runWithDirectMemory(String limit) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-XX:MaxDirectMemorySize=" + limit, "-cp",
                System.getProperty("java.class.path"), DirectMemoryTest.class.getName()).redirectErrorStream(true).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertThat(ended).as("the ranks ended within 60 s").isTrue();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void withRoomForSmallBuffersOnlyTheMessageStillGoes() throws Exception {
        assertThat(runWithDirectMemory("1m")).contains("sent").contains("received 42");
    }

    @Test
    void withNoRoomTheSendFailsSayingSoAndTheRanksEnd() throws Exception {
        assertThat(runWithDirectMemory("100k")).contains("CommException: no room for a 256 KiB buffer of a TCP connection")
                .contains("-XX:MaxDirectMemorySize").contains("closed the world");
    }
}
