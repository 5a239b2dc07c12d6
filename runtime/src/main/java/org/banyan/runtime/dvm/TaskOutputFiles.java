package org.banyan.runtime.dvm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The stdout and stderr files of a DVM's MPI tasks, written off the DVM's loop: each task's
 * files have a virtual thread of their own, which opens, writes and closes them in the order the
 * loop queued it. They were written on the loop's thread, where a file that does not take its
 * bytes (a hung network file system, a FIFO nobody reads, as {@code stdout}) stopped every
 * job, task and client of the DVM. Once a task's files are closed the loop is told, and only
 * then is the task final (a user who reads them then reads all of it). A task may have
 * {@link #LIMIT} bytes waiting to be written; beyond that its output is dropped, said once in the
 * DVM's log, and counted on the last line of its stderr file should that ever be written.
 * The loop's thread calls everything but the {@code closed} callback.
 */
final class TaskOutputFiles {
    /** Bytes of one task's output that may wait to be written. */
    static final long LIMIT = 64L << 20;

    private final IntConsumer closed;
    private final Consumer<String> say;
    private final long limit;
    private final Map<Integer, TaskFiles> open = new HashMap<>();

    /**
     * @param closed told, on the writer's thread, when a task's files are closed (or could not be opened)
     * @param say    the DVM's log
     */
    TaskOutputFiles(IntConsumer closed, Consumer<String> say) {
        this(closed, say, LIMIT);
    }

    TaskOutputFiles(IntConsumer closed, Consumer<String> say, long limit) {
        this.closed = closed;
        this.say = say;
        this.limit = limit;
    }

    /** Task {@code task}'s files, {@code stdout} and {@code stderr} in {@code sandbox}, created or truncated. */
    void open(int task, String sandbox, String stdout, String stderr) {
        open.put(task, new TaskFiles(task, Path.of(sandbox), stdout, stderr));
    }

    /** {@code data} for stream 1 (stdout) or 2 (stderr) of task {@code task}'s files. */
    void write(int task, int stream, byte[] data) {
        TaskFiles f = open.get(task);
        if (f != null) {
            f.offer(new Op.Data(stream == 2 ? 1 : 0, data));
        }
    }

    /** Task {@code task}'s output is complete: its files close, and {@code closed} is told. */
    void close(int task) {
        TaskFiles f = open.remove(task);
        if (f != null) {
            f.offer(new Op.Close());
        }
    }

    /** The DVM stops: every task's files close, waited for until {@code deadlineNanos} at most. */
    void closeAll(long deadlineNanos) {
        List<TaskFiles> all = new ArrayList<>(open.values());
        open.clear();
        for (TaskFiles f : all) {
            f.offer(new Op.Close());
        }
        for (TaskFiles f : all) {
            try {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0 || !f.writer.join(java.time.Duration.ofNanos(left))) {
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
        private long dropped;
        private final Thread writer;

        TaskFiles(int task, Path dir, String stdout, String stderr) {
            this.task = task;
            this.writer = Thread.ofVirtual().name("dvm-task-output-" + task).start(() -> write(dir, stdout, stderr));
        }

        void offer(Op op) {
            if (op instanceof Op.Data(int file, byte[] data)) {
                if (waiting.get() + data.length > limit) {
                    if (dropped == 0) {
                        say.accept("task " + task + "'s output files take no more (its file system does not answer, or a "
                                + "FIFO nobody reads): its output beyond " + (limit >> 20) + " MiB waiting is dropped");
                    }
                    dropped += data.length;
                    return;
                }
                waiting.addAndGet(data.length);
            } else if (dropped > 0) {
                ops.add(new Op.Data(1, ("banyan: " + dropped + " bytes of this task's output were dropped: its files took"
                        + " no more\n").getBytes(StandardCharsets.UTF_8)));
            }
            ops.add(op);
        }

        private void write(Path dir, String stdout, String stderr) {
            OutputStream[] files = null;
            try {
                Files.createDirectories(dir);
                files = new OutputStream[] {create(dir.resolve(stdout)), null};
                files[1] = create(dir.resolve(stderr));
            } catch (IOException e) {
                // the job runs all the same; its output is lost, and its sandbox's absence will show
            }
            try {
                while (true) {
                    Op op = ops.take();
                    if (op instanceof Op.Data(int file, byte[] data)) {
                        waiting.addAndGet(-data.length);
                        if (files != null && files[file] != null) {
                            try {
                                files[file].write(data);
                            } catch (IOException e) {
                                // the sandbox went away; the task's status says the rest
                            }
                        }
                    } else {
                        break;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                for (OutputStream f : files == null ? new OutputStream[0] : files) {
                    try {
                        if (f != null) {
                            f.close();
                        }
                    } catch (IOException e) {
                        // as above
                    }
                }
                closed.accept(task);
            }
        }

        private static OutputStream create(Path file) throws IOException {
            return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        }
    }
}
