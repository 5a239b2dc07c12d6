package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * stdin with flow control: banyan reads no further ahead of the slowest reading rank than a
 * window, whatever the producer writes, so its memory stays bounded, nothing is cut short and
 * end-of-file arrives; once no rank reads, it reads no more. Before, {@code yes | banyan run}
 * into a rank that did not read grew banyan to gigabytes and ended in an OutOfMemoryError.
 */
class StdinFlowTest {
    /** The head's window (4 MiB) plus what pipes, sockets and one chunk in flight hold. */
    static final long BOUND = 16L << 20;

    @TempDir
    Path dir;

    Path uri;

    @AfterEach
    void stopDvm() throws Exception {
        if (uri != null && Files.exists(uri)) {
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
        }
    }

    /** A producer that writes as fast as banyan takes, counting what it took. */
    private static Thread produce(OutputStream to, AtomicLong taken, long limit) {
        return Thread.ofPlatform().daemon().start(() -> {
            byte[] line = "y\n".repeat(32 * 1024).getBytes(StandardCharsets.US_ASCII);
            try (to) {
                while (taken.get() < limit) {
                    int n = (int) Math.min(line.length, limit - taken.get());
                    to.write(line, 0, n);
                    taken.addAndGet(n);
                }
            } catch (IOException e) {
                // banyan stopped reading and ended
            }
        });
    }

    private void assertHeldBackThenRead(List<String> args) throws Exception {
        Process p = Banyan.builder(args).start();
        AtomicLong taken = new AtomicLong();
        Thread producer = produce(p.getOutputStream(), taken, Long.MAX_VALUE);
        Thread.sleep(3_000); // the rank sleeps 4 s before it reads
        assertThat(taken.get()).as("bytes banyan took while no rank read").isLessThan(BOUND);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the job ends once its rank read what it wanted").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(out.strip().split("\n")).allMatch(l -> l.strip().equals("30000000"));
        producer.join(10_000);
    }

    @Test
    void anEndlessProducerIsHeldBackWhileTheRankDoesNotRead() throws Exception {
        assertHeldBackThenRead(List.of("run", "-n", "1", "sh", "-c", "sleep 4; head -c 30000000 | wc -c"));
    }

    @Test
    void withStdinAllTheSlowestRankSetsThePace() throws Exception {
        assertHeldBackThenRead(List.of("run", "-n", "2", "--oversubscribe", "--stdin", "all", "sh", "-c",
                "if [ $BANYAN_RANK = 0 ]; then head -c 30000000 | wc -c; else sleep 4; head -c 30000000 | wc -c; fi"));
    }

    @Test
    void aDvmClientIsHeldBackToo() throws Exception {
        uri = dir.resolve("dvm.uri");
        assertThat(Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:2", "--warm-up", "0").exit())
                .isZero();
        assertHeldBackThenRead(List.of("run", "--dvm", uri.toString(), "-n", "1", "sh", "-c", "sleep 4; head -c 30000000 | wc -c"));
    }

    /** A finite input larger than the window, read late and slowly: every byte and the end arrive. */
    @Test
    void everyByteAndTheEndArrive() throws Exception {
        long size = 40L << 20;
        Process p = Banyan.builder(List.of("run", "-n", "1", "sh", "-c", "sleep 2; cksum")).start();
        AtomicLong taken = new AtomicLong();
        Thread producer = produce(p.getOutputStream(), taken, size);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        producer.join(10_000);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        Path same = dir.resolve("same");
        try (OutputStream o = Files.newOutputStream(same)) {
            produce(o, new AtomicLong(), size).join();
        }
        Process reference = new ProcessBuilder("cksum").redirectInput(same.toFile()).start();
        String expected = new String(reference.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.exitValue()).isZero();
        assertThat(out).isEqualTo(expected);
    }

    /** A rank that ends without reading lets banyan end, though stdin never does. */
    @Test
    void aJobEndsWhenItsReaderEndsThoughStdinGoesOn() throws Exception {
        Process p = Banyan.builder(List.of("run", "-n", "1", "true")).start();
        AtomicLong taken = new AtomicLong();
        produce(p.getOutputStream(), taken, Long.MAX_VALUE);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(taken.get()).isLessThan(BOUND);
    }
}
