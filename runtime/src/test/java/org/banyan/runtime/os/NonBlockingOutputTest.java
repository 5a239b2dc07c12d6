package org.banyan.runtime.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A pipe opened again through /proc, as the DVM opens a quick client's stdout. */
class NonBlockingOutputTest {
    private static Path link(int fd) {
        return Path.of("/proc/self/fd", Integer.toString(fd));
    }

    @Test
    void bytesWrittenArriveWholeAndInOrderThroughAFullPipe() throws Exception {
        int[] pipe = RawFd.pipe();
        byte[] data = new byte[1 << 20]; // 16 pipe buffers: the write waits for room many times
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + (i >> 9));
        }
        try (NonBlockingOutput out = NonBlockingOutput.open(link(pipe[1]));
             FileInputStream in = new FileInputStream(link(pipe[0]).toFile())) {
            RawFd.close(pipe[0]);
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return in.readNBytes(data.length);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            out.write(data, 0, data.length);
            assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo(data);
        } finally {
            RawFd.close(pipe[1]);
        }
    }

    @Test
    void closeEndsAWriteThatNoReaderMakesRoomFor() throws Exception {
        int[] pipe = RawFd.pipe();
        try {
            NonBlockingOutput out = NonBlockingOutput.open(link(pipe[1]));
            CompletableFuture<Throwable> write = CompletableFuture.supplyAsync(() -> {
                try {
                    out.write(new byte[1 << 20], 0, 1 << 20); // the reader is there and takes nothing
                    return null;
                } catch (IOException e) {
                    return e;
                }
            });
            Thread.sleep(300);
            assertThat(write).as("the write waits for room").isNotDone();
            long t0 = System.nanoTime();
            out.close();
            assertThat(write.get(5, TimeUnit.SECONDS)).isInstanceOf(IOException.class).hasMessageContaining("closed");
            assertThat((System.nanoTime() - t0) / 1e6).isLessThan(2_000);
            assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class);
        } finally {
            RawFd.close(pipe[0]);
            RawFd.close(pipe[1]);
        }
    }

    @Test
    void aReaderThatLeftIsABrokenPipeAsForTheJdksStreams() throws Exception {
        int[] pipe = RawFd.pipe();
        try (NonBlockingOutput out = NonBlockingOutput.open(link(pipe[1]))) {
            RawFd.close(pipe[0]);
            assertThatThrownBy(() -> out.write("x".getBytes(), 0, 1)).isInstanceOf(IOException.class)
                    .satisfies(e -> assertThat(FileErrors.brokenPipe((IOException) e)).isTrue());
        } finally {
            RawFd.close(pipe[1]);
        }
    }

    @Test
    void aPathThatCannotBeOpenedSaysWhich() {
        assertThatThrownBy(() -> NonBlockingOutput.open(Path.of("/nonexistent/banyan-test")))
                .isInstanceOf(IOException.class).hasMessageContaining("/nonexistent/banyan-test");
    }
}
