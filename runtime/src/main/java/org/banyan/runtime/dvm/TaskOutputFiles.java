package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.banyan.runtime.os.FileErrors;

/**
 * The stdout and stderr files of a DVM's MPI tasks, written off the DVM's loop: each task's
 * files have a thread of their own, which opens, writes and closes them in the order the
 * loop queued it. They were written on the loop's thread, where a file that does not take its
 * bytes (a hung network file system, a FIFO nobody reads, as {@code stdout}) stopped every job,
 * task and client of the DVM. Once a task's files are closed the loop is told ({@code closed}),
 * and only then is the task final, so that a user who reads them then reads all of it.
 *
 * <p>Past {@link #BEHIND} bytes waiting to be written the loop is told the task is behind
 * ({@code backlog}; its core stops the task's job, as a full pipe stops a program), and again
 * once it is down to {@link #CAUGHT_UP}; {@link #isBehind} says which holds when the loop looks.
 * What comes all the same past {@link #LIMIT} (output already on its way up the tree) is dropped,
 * said once in the DVM's log and counted on the last line of the task's stderr file.
 *
 * <p>A file that cannot be created fails its task ({@code failed}), as a task of one process
 * whose file cannot be opened does not start; so does one that cannot be written (a full disk,
 * a FIFO whose reader left), as {@code banyan run} ends a job whose output file cannot be.
 *
 * <p>A task restarted elsewhere has new files under the same names: the new writer starts once
 * the old one is done, and only the last one's close is reported.
 */
final class TaskOutputFiles {
    /** Bytes of one task's output that may wait to be written; the rest is dropped. */
    static final long LIMIT = 64L << 20;
    /** Bytes waiting at which a task is behind, and back down to which it has caught up. */
    static final long BEHIND = 4L << 20;
    static final long CAUGHT_UP = 1L << 20;

    /** What the loop hears of a task's files. */
    interface Events {
        /** Task {@code task}'s files are closed, or were never opened (a writer's thread). */
        void closed(int task);

        /** Task {@code task} fell behind or caught up (any thread): {@link #isBehind} says which holds. */
        void backlog(int task);

        /** A file of task {@code task} could not be created, and why (a writer's thread). */
        void failed(int task, String why);
    }

    private final Events events;
    private final Consumer<String> say;
    private final long limit;
    private final long behindAt;
    private final long caughtUpAt;
    /** Each task's current files; a writer leaves once it has closed them. */
    private final Map<Integer, TaskFiles> writers = new ConcurrentHashMap<>();

    /** @param say the DVM's log */
    TaskOutputFiles(Events events, Consumer<String> say) {
        this(events, say, LIMIT, BEHIND, CAUGHT_UP);
    }

    TaskOutputFiles(Events events, Consumer<String> say, long limit, long behindAt, long caughtUpAt) {
        this.events = events;
        this.say = say;
        this.limit = limit;
        this.behindAt = behindAt;
        this.caughtUpAt = caughtUpAt;
    }

    /** Task {@code task}'s files, {@code stdout} and {@code stderr} in {@code sandbox}, created or truncated. */
    void open(int task, String sandbox, String stdout, String stderr) {
        TaskFiles before = writers.get(task);
        if (before != null) {
            before.superseded = true;
        }
        // its sandbox is made by now (TaskJobSetup, before its job was submitted)
        writers.put(task, new TaskFiles(task, Path.of(sandbox), stdout, stderr, before));
    }

    /** {@code data} for stream 1 (stdout) or 2 (stderr) of task {@code task}'s files. */
    void write(int task, int stream, byte[] data) {
        TaskFiles f = writers.get(task);
        if (f != null && !f.closing) {
            f.offer(new Op.Data(stream == 2 ? 1 : 0, data));
        }
    }

    /** Task {@code task}'s output is complete: its files close, and {@code closed} is told. */
    void close(int task) {
        TaskFiles f = writers.get(task);
        if (f != null && !f.closing) {
            f.offer(new Op.Close());
        }
    }

    /**
     * Task {@code task}'s files are left (they did not close in time, and its task failed): their
     * writer is woken out of a FIFO's open or a write nobody takes, and leaves, telling nothing.
     * Without this it waited until the DVM stopped, a thread for each such task.
     */
    void abandon(int task) {
        TaskFiles f = writers.get(task);
        if (f != null) {
            f.abandon();
        }
    }

    /** Whether task {@code task} is behind now: told so, and not told it caught up since. */
    boolean isBehind(int task) {
        TaskFiles f = writers.get(task);
        return f != null && f.behind.get();
    }

    /** The DVM stops: every task's files close, waited for until {@code deadlineNanos} at most. */
    void closeAll(long deadlineNanos) {
        List<TaskFiles> all = new ArrayList<>(writers.values());
        for (TaskFiles f : all) {
            if (!f.closing) {
                f.offer(new Op.Close());
            }
        }
        for (TaskFiles f : all) {
            try {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0 || !f.writer.join(Duration.ofNanos(left))) {
                    return; // a file that does not answer: the DVM's process ends without it
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private sealed interface Op {
        record Data(int file, byte[] data) implements Op {}

        record Close() implements Op {}
    }

    /** One task's two files and the thread that writes them. */
    private final class TaskFiles {
        private final int task;
        private final LinkedBlockingQueue<Op> ops = new LinkedBlockingQueue<>();
        private final AtomicLong waiting = new AtomicLong();
        private final AtomicBoolean behind = new AtomicBoolean();
        /** The loop's: its Close is queued. */
        private boolean closing;
        /** The loop's: bytes dropped past the limit. */
        private long dropped;
        /** A later open of the same task's files, or they were left: this one's close is not the task's. */
        private volatile boolean superseded;
        /** Left ({@link TaskOutputFiles#abandon}): nothing more is opened. */
        private volatile boolean abandoned;
        private final Thread writer;
        private final Path[] paths;

        TaskFiles(int task, Path dir, String stdout, String stderr, TaskFiles before) {
            this.task = task;
            this.paths = new Path[] {dir.resolve(stdout), dir.resolve(stderr)};
            // A platform thread: a virtual one blocked in open(2) of a FIFO pins its carrier, and as
            // many such files as cores stopped every other virtual thread (the clients' writers too).
            this.writer = Thread.ofPlatform().daemon().stackSize(256 << 10).name("dvm-task-output-" + task).start(() -> {
                if (before != null) {
                    try {
                        before.writer.join(); // the same file names: one writer at a time
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                write();
            });
        }

        /** See {@link TaskOutputFiles#abandon}: repeated until the writer has left, 10 s at most. */
        void abandon() {
            superseded = true;
            abandoned = true;
            // a platform thread: a native open that a hung file system holds would pin a virtual one's carrier
            Thread.ofPlatform().daemon().stackSize(128 << 10).name("dvm-task-output-release-" + task).start(() -> {
                try {
                    for (int i = 0; i < 100 && writer.isAlive(); i++) {
                        writer.interrupt(); // a write blocked on its channel returns, the channel closed
                        for (Path p : paths) {
                            org.banyan.runtime.os.RawFd.wakeFifoOpeners(p.toString()); // an open blocked on a FIFO returns
                        }
                        writer.join(Duration.ofMillis(100));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    // no native access: a FIFO's open waits on
                }
            });
        }

        /** The loop's thread. */
        void offer(Op op) {
            if (op instanceof Op.Data(int file, byte[] data)) {
                if (waiting.get() + data.length > limit) {
                    if (dropped == 0) {
                        say.accept("task " + task + "'s output files take nothing (its file system does not answer, or a "
                                + "FIFO nobody reads): its output beyond " + (limit >> 20) + " MiB waiting is dropped");
                    }
                    dropped += data.length;
                    return;
                }
                if (waiting.addAndGet(data.length) > behindAt && behind.compareAndSet(false, true)) {
                    events.backlog(task);
                }
            } else {
                closing = true;
                if (dropped > 0) {
                    byte[] note = ("banyan: " + dropped + " bytes of this task's output were dropped: its files took nothing"
                            + " for too long\n").getBytes(StandardCharsets.UTF_8);
                    waiting.addAndGet(note.length);
                    ops.add(new Op.Data(1, note));
                }
            }
            ops.add(op);
        }

        private void write() {
            OutputStream[] files = new OutputStream[2];
            String[] names = {"stdout", "stderr"};
            String failure = null;
            for (int i = 0; i < 2 && failure == null && !abandoned; i++) {
                try {
                    files[i] = create(paths[i]);
                } catch (IOException e) {
                    failure = FileErrors.reason(e) + " (cannot open its " + names[i] + " " + paths[i] + ")";
                }
            }
            if (failure != null && !superseded) {
                events.failed(task, failure);
            }
            try {
                for (Op op = ops.take(); op instanceof Op.Data(int file, byte[] data); op = ops.take()) {
                    if (files[file] != null) {
                        try {
                            files[file].write(data);
                        } catch (IOException e) { // a full disk, a FIFO whose reader left: as banyan run, the task ends
                            if (!superseded) {
                                events.failed(task, "cannot write its " + names[file] + " " + paths[file] + " ("
                                        + FileErrors.reason(e) + ")");
                            }
                            closeQuietly(files[file]);
                            files[file] = null;
                        }
                    }
                    if (waiting.addAndGet(-data.length) <= caughtUpAt && behind.compareAndSet(true, false)) {
                        events.backlog(task);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                for (OutputStream f : files) {
                    closeQuietly(f);
                }
                writers.remove(task, this);
                if (!superseded) {
                    events.closed(task);
                }
            }
        }

        private static void closeQuietly(OutputStream f) {
            try {
                if (f != null) {
                    f.close();
                }
            } catch (IOException e) {
                // what it held is lost either way; the task's end says why
            }
        }

        /** Through a channel: a write blocked on it returns when its thread is interrupted ({@link #abandon}). */
        private static OutputStream create(Path file) throws IOException {
            return java.nio.channels.Channels.newOutputStream(java.nio.channels.FileChannel.open(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        }
    }
}
