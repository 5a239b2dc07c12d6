package org.banyan.runtime.head;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * Where rank output ends up: the user's terminal or one file per rank and stream (or both),
 * optionally tagged and time-stamped line by line (so that lines of different ranks never mix).
 * Used from the head's event loop thread only.
 */
public final class OutputSink implements AutoCloseable {
    private static final int MAX_PARTIAL = 1 << 16;

    private final OutputOptions options;
    private final int jobId;
    /** banyan's own stdout and stderr, written off the loop: a reader that stopped reading held it. */
    private final TerminalWriter terminal;
    private final OutputStream stdout;
    private final OutputStream stderr;
    /** The terminal is a client's, not this process's: its writer thread ends with the sink. */
    private final boolean borrowed;
    /** Closed: a line reported now is the run's last, waited for. */
    private boolean closed;
    private final Map<Long, ByteArrayOutputStream> partial = new HashMap<>();
    private final Map<Long, OutputStream> files = new HashMap<>();
    /** Files written to since the last flush, with a rank of theirs (for the message if one fails). */
    private final Map<OutputStream, Integer> dirty = new java.util.IdentityHashMap<>();
    private final boolean lineMode;
    private DateTimeFormatter clock;
    /** The job's ranks' hosts and their indexes, for patterns that name them; unknown ("?") until given. */
    private IntFunction<String> hostOf = rank -> "?";
    private IntUnaryOperator nodeOf = rank -> -1;
    /** The first write that failed, until taken; then {@link #TAKEN}. */
    private Failure failure;
    private static final Failure TAKEN = new Failure(0, "");

    /**
     * Output that could not be written, and what that does to the job: banyan's stdout or stderr
     * closed ends it with 141 (128 + SIGPIPE, as Hydra's ends), one it cannot write otherwise (a
     * full device) or a file it cannot write with 1.
     */
    public record Failure(int status, String why) {}

    /** Status of a job whose stdout or stderr reader went away. */
    public static final int BROKEN_PIPE_STATUS = 128 + 13;

    public OutputSink(OutputOptions options, int jobId) {
        this(options, jobId, new TerminalWriter());
    }

    /**
     * A sink whose terminal is {@code out} and {@code err} instead of this process's own: a
     * quick client's, whose descriptors the DVM opened for it ({@code QuickDoor}).
     */
    public OutputSink(OutputOptions options, int jobId, OutputStream out, OutputStream err) {
        this(options, jobId, new TerminalWriter(out, err, TerminalWriter.LIMIT), true);
    }

    private OutputSink(OutputOptions options, int jobId, TerminalWriter terminal) {
        this(options, jobId, terminal, false);
    }

    private OutputSink(OutputOptions options, int jobId, TerminalWriter terminal, boolean borrowed) {
        this.terminal = terminal;
        this.borrowed = borrowed;
        this.stdout = new BufferedOutputStream(terminal.stream(1), 1 << 16);
        this.stderr = new BufferedOutputStream(terminal.stream(2), 1 << 14);
        this.options = options;
        this.jobId = jobId;
        this.lineMode = options.tag() || options.prefix() != null || options.timestamp();
    }

    /** Where the job's ranks run, for {@code %h} and {@code %p} in the output patterns. */
    public void places(IntFunction<String> host, IntUnaryOperator node) {
        this.hostOf = host;
        this.nodeOf = node;
    }

    /**
     * Creates DIR/JOBID/rank.N/{stdout,stderr} for every rank up front, so every rank has its
     * files; or each rank's files of the patterns, ranks whose patterns give one path sharing it.
     */
    public void prepareFiles(int ranks) throws IOException {
        if (options.stdoutFiles() != null || options.stderrFiles() != null) {
            Map<String, OutputStream> byPath = new HashMap<>();
            for (int r = 0; r < ranks; r++) {
                for (int stream = 1; stream <= 2; stream++) {
                    String pattern = stream == 1 ? options.stdoutFiles() : options.stderrFiles();
                    if (pattern != null) {
                        String path = OutputPattern.expand(pattern, r, hostOf.apply(r), nodeOf.applyAsInt(r), 0);
                        OutputStream f = byPath.get(path);
                        if (f == null) {
                            f = open(Path.of(path));
                            byPath.put(path, f);
                        }
                        files.put(key(jobId, r, stream), f);
                    }
                }
            }
            return;
        }
        if (options.directory() == null) {
            return;
        }
        for (int r = 0; r < ranks; r++) {
            Path dir = options.directory().resolve(Integer.toString(jobId)).resolve("rank." + r);
            files.put(key(jobId, r, 1), rankFile(dir.resolve("stdout"), 1));
            if (!options.merge()) { // merged: one file, as mpirun writes it
                files.put(key(jobId, r, 2), rankFile(dir.resolve("stderr"), 2));
            }
        }
    }

    /** A file of {@code --output-filename}'s directory, copied to the terminal's {@code stream} unless told not to. */
    private OutputStream rankFile(Path file, int stream) throws IOException {
        OutputStream f = open(file);
        return options.copy() ? new Copied(f, stream == 2 ? stderr : stdout) : f;
    }

    /**
     * A rank's file whose bytes go to the terminal too ({@code --output-filename} without
     * {@code :nocopy}): closing it closes the file only.
     */
    private static final class Copied extends OutputStream {
        private final OutputStream file;
        private final OutputStream terminal;

        Copied(OutputStream file, OutputStream terminal) {
            this.file = file;
            this.terminal = terminal;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            file.write(b, off, len);
            try {
                terminal.write(b, off, len);
            } catch (IOException e) {
                throw new TerminalGone(e);
            }
        }

        /** The file only: the terminal is flushed with the sink's own streams. */
        @Override
        public void flush() throws IOException {
            file.flush();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** The terminal's copy of a rank's file could not be written: the terminal's failure, not the file's. */
    private static final class TerminalGone extends IOException {
        TerminalGone(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** The first output failure not yet taken, then null: the driver ends the job once. */
    public Failure takeFailure() {
        if (failure == null || failure == TAKEN) {
            return null;
        }
        Failure f = failure;
        failure = TAKEN;
        return f;
    }

    private void failed(IOException e, boolean toFile, int rank) {
        if (failure != null) {
            return;
        }
        if (toFile && !(e instanceof TerminalGone)) {
            failure = new Failure(1, "cannot write " + (rank < 0 ? "the ranks' output files" : "rank " + rank + "'s output file")
                    + ": " + org.banyan.runtime.os.FileErrors.reason(e));
        } else {
            // a reader that left is SIGPIPE's case (141, as Hydra's); a full device or an I/O error
            // fails as coreutils' commands and banyan's others do (1): 141 would say the reader left
            boolean pipe = org.banyan.runtime.os.FileErrors.brokenPipe(e);
            String reason = pipe ? "closed (broken pipe)" : "not writable (" + org.banyan.runtime.os.FileErrors.reason(e) + ")";
            failure = new Failure(pipe ? BROKEN_PIPE_STATUS : 1, "its output is " + reason);
        }
    }

    /** A rank's output file, made empty, with the directories above it. */
    private static OutputStream open(Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        return new BufferedOutputStream(Files.newOutputStream(file));
    }

    /** What a failed {@link #prepareFiles} says to the user, in one line. */
    public static String cannotOpen(IOException e) {
        return "cannot open the ranks' output files: " + (e instanceof java.nio.file.FileSystemException f && f.getFile() != null
                ? f.getFile() + ": " : "") + org.banyan.runtime.os.FileErrors.reason(e);
    }

    public void write(int rank, int stream, byte[] data) {
        write(jobId, rank, stream, data);
    }

    /**
     * Output of a rank of {@code job}: the run's own, or one its ranks spawned (tagged, and filed
     * under DIR/JOB/rank.N when it first writes, as mpirun does).
     */
    public void write(int job, int rank, int stream, byte[] data) {
        int to = options.merge() ? 1 : stream; // merged: where stdout goes, still tagged <stderr>, as mpirun tags it
        OutputStream file = null;
        try {
            file = files.get(key(job, rank, to));
            if (file == null && job != jobId && options.directory() != null) {
                file = rankFile(options.directory().resolve(Integer.toString(job)).resolve("rank." + rank)
                        .resolve(to == 2 ? "stderr" : "stdout"), to);
                files.put(key(job, rank, to), file);
            }
            // A rank's file gets its lines tagged and time-stamped as the terminal would, as mpirun does
            OutputStream target = target(file, to);
            if (file != null) {
                dirty.putIfAbsent(file, rank);
            }
            if (!lineMode) {
                target.write(data);
                return;
            }
            ByteArrayOutputStream buf = partial.computeIfAbsent(key(job, rank, stream), k -> new ByteArrayOutputStream());
            int start = 0;
            for (int i = 0; i < data.length; i++) {
                if (data[i] == '\n') {
                    writeLine(target, job, rank, stream, buf, data, start, i + 1);
                    start = i + 1;
                }
            }
            buf.write(data, start, data.length - start);
            if (buf.size() > MAX_PARTIAL) {
                writeLine(target, job, rank, stream, buf, data, 0, 0);
                target.write('\n');
            }
        } catch (IOException e) {
            failed(e, file != null, rank);
        }
    }

    private void writeLine(OutputStream target, int job, int rank, int stream, ByteArrayOutputStream buf, byte[] data,
                           int from, int to) throws IOException {
        if (options.timestamp()) {
            if (clock == null) {
                clock = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
            }
            target.write(('[' + clock.format(LocalDateTime.now()) + ']').getBytes(StandardCharsets.US_ASCII));
        }
        if (options.prefix() != null) { // Hydra's: both streams alike
            boolean own = job == jobId;
            target.write(OutputPattern.expand(options.prefix(), rank, own ? hostOf.apply(rank) : "?",
                    own ? nodeOf.applyAsInt(rank) : -1, job - jobId).getBytes(StandardCharsets.UTF_8));
        }
        if (options.tag()) {
            target.write(("[" + job + "," + rank + "]<" + (stream == 2 ? "stderr" : "stdout") + ">:")
                    .getBytes(StandardCharsets.US_ASCII));
        }
        buf.writeTo(target);
        buf.reset();
        target.write(data, from, to - from);
    }

    /** A line from banyan itself, on stderr, in order with rank output; none under {@code -q}. */
    public void report(String line) {
        if (options.quiet()) {
            return;
        }
        try {
            stdout.flush(); // what came before the line goes first
        } catch (IOException e) {
            failed(e, false, -1); // and a closed stdout does not silence stderr
        }
        try {
            stderr.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stderr.flush();
        } catch (IOException e) {
            // nowhere left to report to
        }
        if (closed) { // the run's last words, after its end: written before the process exits
            terminal.drain();
        }
    }

    /**
     * Flushes the terminal and the files written since the last flush, so that a file that
     * cannot be written (a full disk) is known while the job runs, not at its end.
     */
    public void flush() {
        for (Map.Entry<OutputStream, Integer> d : dirty.entrySet()) {
            try {
                d.getKey().flush();
            } catch (IOException e) {
                failed(e, true, d.getValue());
            }
        }
        dirty.clear();
        try {
            stdout.flush();
            stderr.flush();
        } catch (IOException e) {
            failed(e, false, -1);
        }
    }

    /**
     * The job is being ended by a signal (Ctrl-C, {@code timeout}): output its reader does not
     * take no longer holds the loop, and is dropped.
     */
    public void ending() {
        terminal.ending();
    }

    /**
     * A user-signal handler that, for a signal which ends the job, calls {@link #ending()} before
     * {@code passOn} (which may wait on the loop a stalled reader would hold).
     */
    public java.util.function.IntConsumer endingFirst(java.util.function.IntConsumer passOn) {
        return sig -> {
            if (org.banyan.core.daemon.Signals.ends(sig)) {
                ending();
            }
            passOn.accept(sig);
        };
    }

    /** Writes unterminated last lines, closes the files, and waits for the reader to take the rest. */
    @Override
    public void close() {
        try {
            for (Map.Entry<Long, ByteArrayOutputStream> e : partial.entrySet()) {
                if (e.getValue().size() > 0) {
                    int job = (int) (e.getKey() >>> 40);
                    int rank = (int) ((e.getKey() >>> 2) & ((1L << 38) - 1));
                    int stream = (int) (e.getKey() & 3);
                    int to = options.merge() ? 1 : stream;
                    OutputStream target = target(files.get(key(job, rank, to)), to);
                    writeLine(target, job, rank, stream, e.getValue(), new byte[] {'\n'}, 0, 1);
                }
            }
            flush();
            for (OutputStream f : new java.util.HashSet<>(files.values())) { // ranks may share a file
                f.close();
            }
        } catch (IOException e) {
            failed(e, true, -1);
        }
        flush();
        terminal.drain();
        flush(); // a write that failed meanwhile is known now
        closed = true;
    }

    /**
     * Closes, and ends the thread that writes to a borrowed terminal; after this, lines
     * reported go nowhere. For sinks of {@link #OutputSink(OutputOptions, int, OutputStream, OutputStream)}.
     */
    public void release() {
        if (!closed) {
            close();
        }
        if (borrowed) {
            terminal.stop();
        }
    }

    /** The rank's file for the stream, else the terminal's stream. */
    private OutputStream target(OutputStream file, int stream) {
        return file != null ? file : stream == 2 ? stderr : stdout;
    }

    /** Job, rank and stream in one key: the job above bit 40, the rank above bit 2. */
    private static long key(int job, int rank, int stream) {
        return ((long) job << 40) | ((long) rank << 2) | stream;
    }
}
