package org.banyan.runtime.daemon;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.wire.OverlayMessage;
import org.banyan.runtime.os.ChildReaper;
import org.banyan.runtime.os.FileErrors;
import org.banyan.runtime.os.Mkdir;
import org.banyan.runtime.os.PosixSpawn;
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
    /** How long after a rank's exit we keep waiting for EOF on its pipes (a child of it may hold them). */
    private static final long DRAIN_MILLIS = 2000;
    /**
     * How long a partial line of the rank that reads the job's stdin waits for the rest of it
     * before it goes as it is (a prompt). Long enough for the pause of an MPI_Finalize between a
     * program's last full stdio block and the rest of its output (Open MPI's takes 50-60 ms here),
     * which would otherwise cut its line with other ranks' last lines. Other ranks read no input,
     * so nothing waits on their partial lines: those are held until their newline, 64 KiB, or the
     * end of the stream.
     */
    private static final long PROMPT_WAIT_NANOS = 250_000_000;
    /** What a pipe holds on Linux without a reader (16 pages): a warm JVM's activation is written whole within it. */
    private static final int PIPE_BYTES = 64 * 1024;

    private final int rank;
    private final long pid;
    /** Where the guard keeps its pid ({@link RankGuard#started}). */
    private final int guardSlot;
    private final java.util.concurrent.CompletableFuture<Integer> exit;
    private final LinkedBlockingQueue<byte[]> stdin;

    private RankProcess(int rank, long pid, int guardSlot, java.util.concurrent.CompletableFuture<Integer> exit,
                        LinkedBlockingQueue<byte[]> stdin) {
        this.rank = rank;
        this.pid = pid;
        this.guardSlot = guardSlot;
        this.exit = exit;
        this.stdin = stdin;
    }

    /** Where the daemon keeps its running ranks: a rank is registered before its end can be reported. */
    interface Registry {
        void started(int jobId, RankProcess rank);

        void ended(int jobId, RankProcess rank);
    }

    /**
     * Starts a rank, through {@code posix_spawn} when {@code reaper} is given and through
     * {@code ProcessBuilder} otherwise. Output goes to {@code output} as
     * {@link OverlayMessage.Output} frames; the end is posted to {@code events} as
     * {@link DaemonEvent.RankEnded}, after the output.
     *
     * @throws IOException when the process cannot be created at all
     */
    static RankProcess start(RankLaunch launch, RankGuard guard, ChildReaper reaper, Registry registry,
                             Consumer<OverlayMessage> output, Consumer<DaemonEvent> events) throws IOException {
        List<String> command = new ArrayList<>(launch.args().size() + 1);
        command.add(launch.executable());
        command.addAll(launch.args());
        boolean toFiles = launch.stdoutFile() != null;
        String dir = launch.workdir();
        if (toFiles && dir != null && !(reaper != null ? Mkdir.make(dir) : new File(dir).mkdir()) && !new File(dir).isDirectory()) {
            try {
                Files.createDirectories(Path.of(dir)); // a task's sandbox; one mkdir when its parent is there
            } catch (IOException e) {
                throw new IOException("cannot make its directory " + dir + " (" + FileErrors.reason(e) + ")", e);
            }
        }
        // Paths as strings: File objects for each cost a normalized copy apiece, on every start.
        String workdir = dir != null && (launch.workdirRequired() || toFiles || new File(dir).isDirectory()) ? dir : null;
        String stdoutFile = toFiles ? inDir(dir, launch.stdoutFile()) : null;
        String stderrFile = toFiles ? inDir(dir, launch.stderrFile()) : null;
        String stdinFile = launch.stdinFile() != null ? inDir(dir, launch.stdinFile()) : null;
        int rank = launch.rank();
        int jobId = launch.jobId();

        long pid;
        int guardSlot;
        java.util.concurrent.CompletableFuture<Integer> exit;
        CompletableFuture<Void> out = null;
        CompletableFuture<Void> err = null;
        RankOutput outReader = null;
        RankOutput errReader = null;
        LinkedBlockingQueue<byte[]> stdin = launch.stdinFromHead() ? new LinkedBlockingQueue<>() : null;
        long promptWait = launch.stdinFromHead() ? PROMPT_WAIT_NANOS : 0;
        if (reaper != null) {
            PosixSpawn.Child c = PosixSpawn.spawn(command, org.banyan.runtime.os.Subreaper.marked(launch.env(), jobId, rank), workdir,
                    launch.stdinFromHead() ? PosixSpawn.PIPE : stdinFile != null ? new PosixSpawn.Stdio.File(stdinFile)
                            : PosixSpawn.NULL,
                    toFiles ? new PosixSpawn.Stdio.File(stdoutFile) : PosixSpawn.PIPE,
                    toFiles ? new PosixSpawn.Stdio.File(stderrFile) : PosixSpawn.PIPE, launch.cpus());
            pid = c.pid();
            guardSlot = guard.started(pid);
            try {
                exit = reaper.watch(pid, true);
            } catch (RuntimeException e) { // no pidfd (EMFILE...): an end nobody would see; not started, then
                ProcessHandle.of(pid).ifPresent(h -> ProcessSignaller.signalTree(h, org.banyan.core.daemon.Signals.SIGKILL));
                guard.ended(pid, guardSlot);
                for (int fd : new int[] {c.stdinFd(), c.stdoutFd(), c.stderrFd()}) {
                    org.banyan.runtime.os.RawFd.close(fd);
                }
                throw new IOException("cannot watch its process: " + e.getMessage(), e);
            }
            if (!toFiles) {
                try {
                    outReader = poll(jobId, rank, 1, c.stdoutFd(), output, promptWait);
                    errReader = poll(jobId, rank, 2, c.stderrFd(), output, promptWait);
                } catch (IllegalStateException e) { // its output could not be read: not started, then
                    ProcessHandle.of(pid).ifPresent(h -> ProcessSignaller.signalTree(h, org.banyan.core.daemon.Signals.SIGKILL));
                    guard.ended(pid, guardSlot);
                    org.banyan.runtime.os.RawFd.close(c.stdinFd());
                    if (outReader == null) { // the poller closed stdout's end; stderr's was never handed over
                        org.banyan.runtime.os.RawFd.close(c.stderrFd());
                    }
                    throw new IOException("cannot read its output: " + e.getMessage(), e);
                }
            }
            if (stdin != null) {
                startStdinWriter(jobId, rank, new RankStreams.FdSink(c.stdinFd()), stdin, events);
            }
        } else {
            ProcessBuilder pb = new ProcessBuilder(command);
            org.banyan.runtime.os.LauncherVariables.removeIn(pb.environment());
            pb.environment().putAll(org.banyan.runtime.os.Subreaper.marked(launch.env(), jobId, rank));
            pb.directory(workdir == null ? null : new File(workdir));
            if (toFiles) {
                pb.redirectOutput(new File(stdoutFile));
                pb.redirectError(new File(stderrFile));
            }
            if (stdin == null) {
                pb.redirectInput(ProcessBuilder.Redirect.from(stdinFile != null ? new File(stdinFile) : DEV_NULL));
            }
            // the JDK's spawn (and jspawnhelper's exec) inherit the starting thread's CPU mask
            Process p = org.banyan.runtime.os.Affinity.whileBound(launch.cpus(), () -> org.banyan.runtime.os.ProcessStarts.start(pb));
            pid = p.pid();
            guardSlot = guard.started(pid);
            // the JDK gives 128 + the signal for a death by signal, as for an exit with that status: assumed a signal
            exit = p.onExit().thenApply(RankProcess::jdkStatus);
            if (stdin != null) {
                startStdinWriter(jobId, rank, new RankStreams.StreamSink(p.getOutputStream()), stdin, events);
            }
            if (!toFiles) {
                out = pump(jobId, rank, 1, () -> new RankStreams.StreamSource(p.getInputStream()), output, promptWait);
                err = pump(jobId, rank, 2, () -> new RankStreams.StreamSource(p.getErrorStream()), output, promptWait);
            }
        }
        long startMicros = nowMicros();
        RankProcess rp = new RankProcess(rank, pid, guardSlot, exit, stdin);
        registry.started(jobId, rp);
        // a natively spawned rank's streams (no pump threads: out and err null) are waited for by Finish
        Runnable report = new Ending(launch, rp, out, err, stderrFile, startMicros, guard, registry, events);
        if (outReader != null) {
            // once it has ended its pipes hold all it wrote: the poller reads that and ends them, and
            // the end is reported by whichever thread completes last (no thread waits for it)
            exit.thenRun(new Finish(outReader, errReader, report));
        } else if (out == null) {
            exit.thenRun(report); // nothing to wait for: on the reaper's thread, which must not block
        } else {
            exit.thenRunAsync(report, DRAINERS); // waits for the pump threads to drain
        }
        return rp;
    }

    /**
     * Makes a JVM of the warm pool rank {@code launch}: its agent gets the rank's variables and
     * lets {@code main} run; from then on it is a natively spawned rank like any other.
     *
     * @throws IOException when the JVM is gone before it took them (the caller starts one instead)
     */
    static RankProcess startWarm(RankLaunch launch, WarmPool.Waiting w, RankGuard guard, Registry registry,
                                 Consumer<OverlayMessage> output, Consumer<DaemonEvent> events) throws IOException {
        byte[] activation = warmActivation(launch);
        if (activation.length > PIPE_BYTES) { // more than the pipe holds: a stopped JVM would hold this thread
            throw new IOException("its variables take more than a pipe holds");
        }
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            org.banyan.runtime.os.RawFd.writeFully(w.stdin(), activation, a);
        }
        w.closeStdin();
        RankOutput outReader;
        RankOutput errReader;
        try {
            outReader = poll(launch.jobId(), launch.rank(), 1, w.takeStdout(), output, 0);
            errReader = poll(launch.jobId(), launch.rank(), 2, w.takeStderr(), output, 0);
        } catch (IllegalStateException e) { // its output could not be read: the caller ends it and starts another
            throw new IOException("cannot read its output: " + e.getMessage(), e);
        }
        RankProcess rp = new RankProcess(launch.rank(), w.pid, w.guardSlot, w.exit, null);
        registry.started(launch.jobId(), rp);
        w.exit.thenRun(new Finish(outReader, errReader, new Ending(launch, rp, null, null, null, nowMicros(), guard,
                registry, events)));
        return rp;
    }

    /**
     * What a waiting JVM is told to become rank {@code launch}: the rank's variables with this
     * daemon's mark, which the agent sets in the C environment, so that what the rank starts
     * carries the mark, as a rank spawned fresh does, and is found should the rank leave it.
     */
    static byte[] warmActivation(RankLaunch launch) {
        return org.banyan.runtime.warm.WarmStart.activation(
                org.banyan.runtime.os.Subreaper.marked(launch.env(), launch.jobId(), launch.rank()));
    }

    /** A natively spawned rank ended: its pipes are read to their end, then its end is reported (at most 2 s later). */
    private record Finish(RankOutput out, RankOutput err, Runnable report) implements Runnable {
        @Override
        public void run() {
            out.finish();
            err.finish();
            CompletableFuture.allOf(out.drained, err.drained)
                    .completeOnTimeout(null, DRAIN_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)
                    .thenRun(report);
        }
    }

    /**
     * What a rank's end does: reports it once its output has drained. A class, not a capturing
     * lambda, which C1 builds through a method handle and a VM call on every start.
     */
    private record Ending(RankLaunch launch, RankProcess rp, CompletableFuture<Void> pumpOut, CompletableFuture<Void> pumpErr,
                          String stderrFile,
                          long startMicros, RankGuard guard, Registry registry, Consumer<DaemonEvent> events)
            implements Runnable {
        @Override
        public void run() {
            long endMicros = nowMicros();
            guard.ended(rp.pid, rp.guardSlot);
            join(pumpOut, pumpErr);
            int raw = rp.exit.join();
            int status = raw & ~org.banyan.runtime.os.ChildReaper.SIGNALED;
            boolean signaled = (raw & org.banyan.runtime.os.ChildReaper.SIGNALED) != 0;
            // Its stdin writer waits for input or the end of the job's stdin, which may never
            // come once the rank is gone: a DVM kept a thread and a pipe per such job for ever.
            rp.writeStdin(new byte[0]);
            registry.ended(launch.jobId(), rp);
            events.accept(new DaemonEvent.RankEnded(launch.jobId(), launch.rank(), status,
                    status != 0 && stderrFile != null ? tail(new File(stderrFile)) : "", startMicros, endMicros, signaled));
        }
    }

    /** A status from the JDK, flagged as {@code ChildReaper.watch(pid, true)} flags one (by its value: all the JDK tells). */
    private static int jdkStatus(Process p) {
        int v = p.exitValue();
        return org.banyan.core.daemon.Signals.looksSignaled(v) ? v | org.banyan.runtime.os.ChildReaper.SIGNALED : v;
    }

    private static final java.util.concurrent.Executor DRAINERS = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    /**
     * Forwards one stream in chunks that end at a line's end ({@link WholeLines}). A partial line
     * is held while more of it is on the way; when nothing more arrives within {@code promptWait}
     * nanoseconds (a prompt; 0: never), it goes as it is.
     */
    private static CompletableFuture<Void> pump(int jobId, int rank, int stream,
                                                java.util.function.Supplier<RankStreams.ChunkSource> source,
                                                Consumer<OverlayMessage> output, long promptWait) {
        CompletableFuture<Void> drained = new CompletableFuture<>();
        Thread.ofPlatform().daemon().stackSize(256 * 1024).name("rank-" + rank + "-" + stream).start(() -> {
            byte[] buf = new byte[CHUNK];
            WholeLines lines = new WholeLines();
            try (RankStreams.ChunkSource in = source.get()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    byte[] whole = lines.add(buf, n);
                    if (whole != null) {
                        output.accept(new OverlayMessage.Output(jobId, rank, stream, whole));
                    }
                    if (promptWait > 0 && lines.holding() && !in.moreWithin(promptWait)) {
                        output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
                    }
                }
            } catch (IOException e) {
                // the pipe broke: the rank is gone, its exit is reported by the watcher
            }
            if (lines.holding()) {
                output.accept(new OverlayMessage.Output(jobId, rank, stream, lines.take()));
            }
            drained.complete(null);
        });
        return drained;
    }

    /** A natively spawned rank's stream, read by the process's {@link org.banyan.runtime.os.PipePoller} (no thread of its own). */
    private static RankOutput poll(int jobId, int rank, int stream, int fd, Consumer<OverlayMessage> output,
                                   long promptWait) {
        RankOutput reader = new RankOutput(jobId, rank, stream, output, promptWait);
        org.banyan.runtime.os.PipePoller.shared().watch(fd, reader);
        return reader;
    }

    /**
     * Writes what the head sends to the rank's stdin, and tells the daemon's core how much the
     * rank has taken in all (the head's reader keeps within a window of it), and when it takes no
     * more.
     */
    private static void startStdinWriter(int jobId, int rank, RankStreams.ByteSink sink, LinkedBlockingQueue<byte[]> queue,
                                         Consumer<DaemonEvent> events) {
        Thread.ofPlatform().daemon().name("rank-" + rank + "-stdin").start(() -> {
            long taken = 0;
            try (sink) {
                while (true) {
                    byte[] data = queue.take();
                    if (data.length == 0) {
                        return;
                    }
                    sink.write(data);
                    taken += data.length;
                    events.accept(new DaemonEvent.StdinWritten(jobId, rank, taken));
                }
            } catch (IOException | InterruptedException e) {
                // the rank closed its stdin or ended; what it did not read is dropped, as with mpirun
            } finally {
                events.accept(new DaemonEvent.StdinWritten(jobId, rank, OverlayMessage.StdinTaken.STDIN_CLOSED));
            }
        });
    }

    /** Epoch microseconds (the profile's resolution; currentTimeMillis would round a /bin/true to 0 or 1 ms). */
    private static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /**
     * {@code name} in {@code dir} unless it is absolute (or there is no {@code dir}). Not with
     * '+', which C1 compiles to a chain of method handle calls (1.5 % of the reapers' samples).
     */
    static String inDir(String dir, String name) {
        if (dir == null || name.startsWith("/")) {
            return name;
        }
        StringBuilder b = new StringBuilder(dir.length() + 1 + name.length()).append(dir);
        if (!dir.endsWith("/")) {
            b.append('/');
        }
        return b.append(name).toString();
    }

    /** The last lines of a failed task's stderr, for its FAILED state. */
    static String tail(File f) {
        try (java.io.RandomAccessFile r = new java.io.RandomAccessFile(f, "r")) {
            long from = Math.max(0, r.length() - org.banyan.core.job.StderrTail.BYTES);
            byte[] b = new byte[(int) (r.length() - from)];
            r.seek(from);
            r.readFully(b);
            return org.banyan.core.job.StderrTail.lastLines(b);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Waits for both pumps together, at most {@link #DRAIN_MILLIS}: a descendant holding both
     * pipes kept the end back twice that when each had a wait of its own (the JDK's streams do
     * not end at the child's exit while a pump is blocked reading them).
     */
    private static void join(CompletableFuture<Void> out, CompletableFuture<Void> err) {
        if (out == null || err == null) {
            return; // the rank's output went to files: no pumps
        }
        try {
            CompletableFuture.allOf(out, err).get(DRAIN_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // a descendant holds the pipe open: the end is reported without the rest of its output
        }
    }

    public int rank() {
        return rank;
    }

    public long pid() {
        return pid;
    }

    /** Queues bytes for stdin; an empty array closes it. */
    public void writeStdin(byte[] data) {
        if (stdin != null) {
            stdin.add(data);
        }
    }

    public void signal(int signal) {
        if (!exit.isDone()) {
            ProcessHandle.of(pid).ifPresent(p -> ProcessSignaller.signalTree(p, signal));
        }
    }

    public boolean isAlive() {
        return !exit.isDone();
    }
}
