package org.banyan.runtime.head;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TerminalWriterTest {
    /** A reader that takes nothing until released, as a pager nobody scrolls. */
    private static final class Stalled extends OutputStream {
        final CountDownLatch release = new CountDownLatch(1);
        final ByteArrayOutputStream got = new ByteArrayOutputStream();

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            got.write(b, off, len);
        }
    }

    @Test
    void bothStreamsKeepTheOrderTheyWereGiven() throws Exception {
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        OutputStream shared = new OutputStream() {
            @Override
            public synchronized void write(int b) {
                both.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                both.write(b, off, len);
            }
        };
        TerminalWriter t = new TerminalWriter(shared, shared, 1 << 20);
        for (int i = 0; i < 200; i++) {
            t.stream(1 + i % 2).write((i + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        t.drain();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            expected.append(i).append('\n');
        }
        assertThat(both.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    /**
     * A reader that takes nothing holds the loop once the limit waits, as a full pipe would; once
     * the job is being ended by a signal the loop goes on, dropping what the reader does not take.
     */
    @Test
    void aStalledReaderHoldsTheLoopOnlyUntilTheJobIsEnding() throws Exception {
        Stalled reader = new Stalled();
        TerminalWriter t = new TerminalWriter(reader, reader, 1000);
        OutputStream out = t.stream(1);
        out.write(new byte[600]);
        CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> {
            try {
                out.write(new byte[600]); // past the limit: waits
                out.write(new byte[600]);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(300);
        assertThat(loop).as("held while the reader takes nothing").isNotDone();
        long start = System.nanoTime();
        t.ending();
        loop.get(5, TimeUnit.SECONDS);
        t.drain();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("the end waits a moment only")
                .isLessThan(TerminalWriter.LAST_WORDS_MILLIS + 2000);
        reader.release.countDown();
    }

    /** A stream whose reader left fails the loop's next write or flush to it; the other stream goes on (banyan says why there). */
    @Test
    void aWriteThatFailedIsThrownToTheLoopForItsStreamOnly() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        TerminalWriter t = new TerminalWriter(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("Broken pipe");
            }
        }, err, 1 << 20);
        t.stream(1).write("lost\n".getBytes(StandardCharsets.US_ASCII));
        t.drain();
        assertThatThrownBy(() -> t.stream(1).flush()).hasMessage("Broken pipe");
        assertThatThrownBy(() -> t.stream(1).write(1)).hasMessage("Broken pipe");
        t.stream(2).write("why\n".getBytes(StandardCharsets.US_ASCII));
        t.stream(2).flush();
        t.drain();
        assertThat(err.toString(StandardCharsets.US_ASCII)).isEqualTo("why\n");
    }
}
