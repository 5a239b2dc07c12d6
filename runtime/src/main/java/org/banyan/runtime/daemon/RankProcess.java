package org.banyan.runtime.daemon;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.os.ProcessSignaller;

/**
 * One running rank: the OS process, the threads that forward its stdout and stderr, and the
 * watcher that reports its end only after its output has been forwarded.
 *
 * <p>Each rank is registered with the daemon's {@link RankGuard}, which kills it should the
 * daemon's JVM die without ending it.
 */
public final class RankProcess {
    private static final File DEV_NULL = new File("/dev/null");
    private static final int CHUNK = 1 << 16;
    /** How much of a failed task's stderr comes back with its state. */
    private static final int TAIL_BYTES = 2048;
    private static final int TAIL_LINES = 10;
    /** How long after a rank's exit we keep waiting for EOF on its pipes (a child of it may hold them). */
    private static final long DRAIN_MILLIS = 2000;
    /** How long a partial line waits for the rest of it before it goes as it is (a prompt, a progress bar). */
    private static final long PARTIAL_LINE_WAIT_NANOS = 20_000_000;

    private final int rank;
    private final Process process;
    private final LinkedBlockingQueue<byte[]> stdin;

    private RankProcess(int rank, Process process, LinkedBlockingQueue<byte[]> stdin) {
        this.rank = rank;
        this.process = process;
        this.stdin = stdin;
    }

    /**
     * Starts a rank. Output goes to {@code output} as {@link OverlayMessage.Output} frames; the end
     * is posted to {@code events} as {@link DaemonEvent.RankEnded}.
     *
     * @throws IOException when the process cannot be created at all
     */
    static RankProcess start(RankLaunch launch, RankGuard guard, Consumer<OverlayMessage> output,
                             Consumer<DaemonEvent> events) throws IOException {
        List<String> command = new ArrayList<>(launch.args().size() + 1);
        command.add(launch.executable());
        command.addAll(launch.args());
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(launch.env());
        boolean toFiles = launch.stdoutFile() != null;
        File dir = launch.workdir() == null ? null : new File(launch.workdir());
        if (toFiles && dir != null) {
            Files.createDirectories(dir.toPath()); // a task's sandbox
        }
        if (dir != null && (launch.workdirRequired() || dir.isDirectory())) {
            pb.directory(dir);
        }
        File stderrFile = null;
        if (toFiles) {
            pb.redirectOutput(inDir(dir, launch.stdoutFile()));
            stderrFile = inDir(dir, launch.stderrFile());
            pb.redirectError(stderrFile);
        }
        if (!launch.stdinFromHead()) {
            pb.redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        }
        Process p = pb.start();
        guard.started(p.pid());
        LinkedBlockingQueue<byte[]> stdin = null;
        if (launch.stdinFromHead()) {
            stdin = new LinkedBlockingQueue<>();
            startStdinWriter(launch.rank(), p.getOutputStream(), stdin);
        }
        int rank = launch.rank();
        int jobId = launch.jobId();
        Thread out = toFiles ? null : pump(jobId, rank, 1, p.getInputStream(), output);
        Thread err = toFiles ? null : pump(jobId, rank, 2, p.getErrorStream(), output);
        File errFile = stderrFile;
        p.onExit().thenRun(() -> {
            guard.ended(p.pid());
            join(out);
            join(err);
            int status = p.exitValue();
            events.accept(new DaemonEvent.RankEnded(jobId, rank, status, status != 0 && errFile != null ? tail(errFile) : ""));
        });
        return new RankProcess(rank, p, stdin);
    }

    /**
     * Forwards one stream in chunks that end at a line's end ({@link WholeLines}). A partial line
     * is held while more of it is on the way; when nothing more arrives within
     * {@link #PARTIAL_LINE_WAIT_NANOS} (a prompt), it goes as it is.
     */
    private static Thread pump(int jobId, int rank, int stream, InputStream in, Consumer<OverlayMessage> output) {
        return Thread.ofPlatform().daemon().stackSize(256 * 1024).name("rank-" + rank + "-" + stream).start(() -> {
            byte[] buf = new byte[CHUNK];
            WholeLines lines = new WholeLines();
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    byte[] whole = lines.add(buf, n);
                    if (whole != null) {
                        output.accept(new OverlayMessage.Output(jobId, rank, stream, whole));
                    }
                    if (lines.holding() && !moreSoon(in)) {
                        output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
                    }
                }
            } catch (IOException e) {
                // the pipe broke: the rank is gone, its exit is reported by the watcher
            }
            if (lines.holding()) {
                output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
            }
        });
    }

    /** Whether bytes arrive on {@code in} within the partial-line wait; polls, as pipes are not selectable. */
    private static boolean moreSoon(InputStream in) throws IOException {
        long deadline = System.nanoTime() + PARTIAL_LINE_WAIT_NANOS;
        while (in.available() == 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(50_000);
        }
        return true;
    }

    private static void startStdinWriter(int rank, OutputStream os, LinkedBlockingQueue<byte[]> queue) {
        Thread.ofPlatform().daemon().name("rank-" + rank + "-stdin").start(() -> {
            try (os) {
                while (true) {
                    byte[] data = queue.take();
                    if (data.length == 0) {
                        return;
                    }
                    os.write(data);
                    os.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the rank closed its stdin or ended; what it did not read is dropped, as with mpirun
            }
        });
    }

    private static File inDir(File dir, String name) {
        File f = new File(name);
        return f.isAbsolute() || dir == null ? f : new File(dir, name);
    }

    /** The last lines of a failed task's stderr (at most {@link #TAIL_BYTES}), for its FAILED state. */
    static String tail(File f) {
        try (java.io.RandomAccessFile r = new java.io.RandomAccessFile(f, "r")) {
            long from = Math.max(0, r.length() - TAIL_BYTES);
            byte[] b = new byte[(int) (r.length() - from)];
            r.seek(from);
            r.readFully(b);
            String text = new String(b, java.nio.charset.StandardCharsets.UTF_8).strip();
            List<String> lines = text.lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static void join(Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(DRAIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public int rank() {
        return rank;
    }

    public long pid() {
        return process.pid();
    }

    /** Queues bytes for stdin; an empty array closes it. */
    public void writeStdin(byte[] data) {
        if (stdin != null) {
            stdin.add(data);
        }
    }

    public void signal(int signal) {
        if (process.isAlive()) {
            ProcessSignaller.signalTree(process.toHandle(), signal);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }
}
