package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.banyan.core.head.StdinWindow;
import org.banyan.runtime.head.StdinGate;
import org.banyan.runtime.os.FileErrors;

/**
 * The stdin files of the DVM's tasks that run as jobs, read off the DVM's loop for each job's
 * rank 0: a thread per file opens it (a FIFO waits there for its writer, a hung file system
 * holds only this thread), reads it in chunks no further ahead than the credit its job's core
 * grants (so a file of any size, or a FIFO fed for ever, costs a window of memory, not the
 * file), and hands each chunk to the loop; the file's end is an empty chunk. Once the job ends
 * the reader is woken out of its read or its FIFO's open and leaves.
 */
final class TaskInputFiles {
    /** Bytes read at a time. */
    static final int CHUNK = 1 << 16;

    /** What the loop hears of a job's file (a reader's thread). */
    interface Events {
        /** A chunk of job {@code job}'s file; empty: its end. */
        void data(int job, byte[] data);

        /** Job {@code job}'s file could not be opened or read, and why. */
        void failed(int job, String why);
    }

    private final Events events;
    private final Map<Integer, Reader> readers = new ConcurrentHashMap<>();

    TaskInputFiles(Events events) {
        this.events = events;
    }

    /** Job {@code job}'s rank 0 reads {@code stdin}, relative to {@code sandbox} unless absolute. */
    void open(int job, String sandbox, String stdin) {
        Reader r = new Reader(job, Path.of(sandbox).resolve(stdin));
        Reader before = readers.put(job, r);
        if (before != null) {
            before.close();
        }
        r.thread.start();
    }

    /** How many bytes of job {@code job}'s file may have been handed to the loop in all ({@link StdinWindow#STOP}: no more). */
    void credit(int job, long limit) {
        Reader r = readers.get(job);
        if (r != null) {
            r.gate.credit(limit);
        }
    }

    /** Job {@code job} ended: its reader tells nothing more and leaves, woken out of a read or a FIFO's open. */
    void close(int job) {
        Reader r = readers.remove(job);
        if (r != null) {
            r.close();
        }
    }

    /** Readers not yet gone (for tests). */
    int readers() {
        return readers.size();
    }

    private final class Reader {
        private final int job;
        private final Path path;
        private final StdinGate gate = new StdinGate();
        private final Thread thread;
        private volatile boolean closed;
        private volatile boolean opened;

        Reader(int job, Path path) {
            this.job = job;
            this.path = path;
            // A platform thread: a virtual one blocked in open(2) of a FIFO pins its carrier.
            this.thread = Thread.ofPlatform().daemon().stackSize(256 << 10).name("dvm-task-input-" + job).unstarted(this::read);
        }

        private void read() {
            String doing = "open";
            // Through a channel: a read blocked on it returns when this thread is interrupted.
            try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ)) {
                opened = true;
                doing = "read";
                ByteBuffer buf = ByteBuffer.allocate(CHUNK);
                long sent = 0;
                while (!closed && gate.awaitRoom(sent)) {
                    buf.clear();
                    int n = in.read(buf);
                    if (closed) {
                        return;
                    }
                    if (n < 0) {
                        events.data(job, new byte[0]);
                        return;
                    }
                    events.data(job, Arrays.copyOf(buf.array(), n));
                    sent += n;
                }
            } catch (ClosedByInterruptException | InterruptedException e) {
                // closed: the job has ended
            } catch (IOException e) {
                if (!closed) { // in the words a task of one process uses for its files
                    events.failed(job, FileErrors.reason(e) + " (cannot " + doing + " its stdin " + path + ")");
                }
            } finally {
                readers.remove(job, this);
            }
        }

        /** Repeated on a thread of its own until the reader has left, 10 s at most. */
        void close() {
            closed = true;
            gate.credit(StdinWindow.STOP);
            thread.interrupt();
            if (opened || !thread.isAlive()) {
                return;
            }
            Thread.ofPlatform().daemon().stackSize(128 << 10).name("dvm-task-input-release-" + job).start(() -> {
                try {
                    for (int i = 0; i < 100 && thread.isAlive(); i++) {
                        if (!opened) {
                            org.banyan.runtime.os.RawFd.wakeFifoOpeners(path.toString()); // an open blocked on a FIFO returns
                        }
                        thread.interrupt();
                        thread.join(Duration.ofMillis(100));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    // no native access: a FIFO's open waits on
                }
            });
        }
    }
}
