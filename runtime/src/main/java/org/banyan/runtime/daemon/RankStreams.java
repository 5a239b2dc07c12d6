package org.banyan.runtime.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.util.concurrent.locks.LockSupport;
import org.banyan.runtime.os.RawFd;

/**
 * A rank's standard streams seen the same way whichever way it was created: output read in
 * chunks (and polled for more, for partial lines), stdin written. ProcessBuilder's are the JDK's
 * streams; posix_spawn's are plain pipe ends read and written through libc.
 */
final class RankStreams {
    private RankStreams() {}

    /** One of a rank's output streams, whichever way it was created. */
    interface ChunkSource extends AutoCloseable {
        /** Bytes read into {@code buf}, or a count of zero or less at end of stream. */
        int read(byte[] buf) throws IOException;

        /** Whether more bytes (or the end) arrive within {@code nanos}. */
        boolean moreWithin(long nanos) throws IOException;

        @Override
        void close();
    }

    record StreamSource(InputStream in) implements ChunkSource {
        @Override
        public int read(byte[] buf) throws IOException {
            return in.read(buf);
        }

        /** Polls, as the JDK's pipes are not selectable. */
        @Override
        public boolean moreWithin(long nanos) throws IOException {
            long deadline = System.nanoTime() + nanos;
            while (in.available() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                LockSupport.parkNanos(50_000);
            }
            return true;
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException ignored) {
                // the rank is gone
            }
        }
    }

    /** Where a rank's stdin bytes go. */
    interface ByteSink extends AutoCloseable {
        void write(byte[] data) throws IOException;

        @Override
        void close();
    }

    record StreamSink(OutputStream os) implements ByteSink {
        @Override
        public void write(byte[] data) throws IOException {
            os.write(data);
            os.flush();
        }

        @Override
        public void close() {
            try {
                os.close();
            } catch (IOException ignored) {
                // the rank is gone
            }
        }
    }

    static final class FdSink implements ByteSink {
        private final int fd;

        FdSink(int fd) {
            this.fd = fd;
        }

        @Override
        public void write(byte[] data) throws IOException {
            try (Arena a = Arena.ofConfined()) {
                RawFd.writeFully(fd, data, a);
            }
        }

        @Override
        public void close() {
            RawFd.close(fd);
        }
    }
}
