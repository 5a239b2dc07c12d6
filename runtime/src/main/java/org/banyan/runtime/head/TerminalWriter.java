package org.banyan.runtime.head;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * banyan's own stdout and stderr, written by a thread of their own, in the order the head's loop
 * gave the bytes. The loop wrote them itself, and a reader that stopped reading (a pager nobody
 * scrolls, {@code | sleep}, a suspended {@code less}) held it in write(2): Ctrl-C, {@code
 * timeout}'s SIGTERM and every other event waited until the reader went away, the job running on.
 *
 * <p>Up to {@link #LIMIT} bytes wait here; past that the loop waits for room, as a full pipe
 * holds a program, so a slow reader still slows the ranks (their output backs up the tree).
 * Once the job is being ended by a signal ({@link #ending}), nothing waits for room: what the
 * reader does not take is dropped, and the loop goes on to end the job. A write that failed
 * (the reader left, a full disk) is thrown to the loop at its next write or flush of that
 * stream; the other goes on (a closed stdout does not silence the line that says so).
 */
final class TerminalWriter {
    /** Bytes that may wait for the reader before the loop waits with them. */
    static final long LIMIT = 8L << 20;
    /** How long the end waits for the reader to take what is left when the job was ended by a signal. */
    static final long LAST_WORDS_MILLIS = 1_000;

    private record Chunk(int fd, byte[] data) {}

    private final OutputStream[] fds;
    private final long limit;
    private final LinkedBlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
    /** Bytes queued and not written yet; the loop waits on this monitor for room, the writer notifies. */
    private long waiting;
    /** Each stream's first failed write (stdout's reader gone does not silence stderr). */
    private final IOException[] failures = new IOException[2];
    private volatile boolean ending;
    /** Ended by {@link #stop}: nothing is written any more. */
    private boolean stopped;
    /** Started at the first bytes (a job that prints nothing, or only to files, costs no thread). */
    private Thread writer;

    TerminalWriter() {
        this(new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err), LIMIT);
    }

    TerminalWriter(OutputStream out, OutputStream err, long limit) {
        this.fds = new OutputStream[] {out, err};
        this.limit = limit;
    }

    /** The stream for stdout (1) or stderr (2), as the loop writes it. */
    OutputStream stream(int fd) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                offer(fd == 2 ? 1 : 0, java.util.Arrays.copyOfRange(b, off, off + len));
            }

            @Override
            public void flush() throws IOException {
                IOException e = failure(fd == 2 ? 1 : 0);
                if (e != null) {
                    throw e;
                }
            }
        };
    }

    /** The job is being ended by a signal: the loop no longer waits for a reader that takes nothing. */
    void ending() {
        ending = true;
        synchronized (this) {
            notifyAll();
        }
    }

    private synchronized IOException failure(int fd) {
        return failures[fd];
    }

    private void offer(int fd, byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        synchronized (this) {
            while (waiting > 0 && waiting + data.length > limit && !ending && failures[fd] == null) {
                try {
                    wait(100);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted waiting for the reader of banyan's output");
                }
            }
            if (failures[fd] != null) {
                throw failures[fd];
            }
            if (stopped || (ending && waiting + data.length > limit)) {
                return; // the reader takes nothing and the job is ending: dropped
            }
            waiting += data.length;
            chunks.add(new Chunk(fd, data)); // under the lock: the order given is the order written
            if (writer == null) {
                writer = Thread.ofPlatform().daemon().name("banyan-terminal").start(this::write);
            }
        }
    }

    private void write() {
        try {
            while (true) {
                Chunk c = chunks.take();
                do { // each chunk flushed: stdout and stderr reach a shared terminal in the order they came
                    if (failure(c.fd()) == null) {
                        try {
                            fds[c.fd()].write(c.data());
                            fds[c.fd()].flush();
                        } catch (IOException e) {
                            failed(c.fd(), e);
                        }
                    }
                    taken(c.data().length);
                } while ((c = chunks.poll()) != null);
            }
        } catch (InterruptedException e) {
            // the process ends
        }
    }

    private synchronized void failed(int fd, IOException e) {
        failures[fd] = e;
        notifyAll();
    }

    private synchronized void taken(int bytes) {
        waiting -= bytes;
        notifyAll();
    }

    /**
     * Waits until every byte given is written (or dropped, its stream failed); after {@link
     * #ending}, for {@link #LAST_WORDS_MILLIS} at most.
     */
    void drain() {
        drainWithin();
    }

    /**
     * Drains, then ends the writer thread: for a terminal that is not this process's own (a
     * quick client's), whose sink ends with its job while the process goes on. Bytes given
     * afterwards are dropped.
     */
    void stop() {
        drainWithin();
        synchronized (this) {
            stopped = true;
            if (writer != null) {
                writer.interrupt();
            }
        }
    }

    private void drainWithin() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LAST_WORDS_MILLIS);
        synchronized (this) {
            while (waiting > 0 && (!ending || System.nanoTime() < deadline)) {
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
