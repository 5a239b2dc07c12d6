package org.banyan.cli.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.banyan.cli.options.OptionTable;
import org.banyan.cli.options.UsageException;
import org.banyan.runtime.head.OutputOptions;

/**
 * {@code banyan run}'s options for where rank output goes and how its lines are marked: mpirun's
 * ({@code --tag-output}, {@code --timestamp-output}, {@code --output-filename},
 * {@code --merge-stderr-to-stdout}) and mpiexec.hydra's ({@code -l}, {@code -prepend-pattern},
 * {@code -outfile-pattern}, {@code -errfile-pattern}).
 */
final class OutputArguments {
    private final Path cwd;
    private boolean tag;
    /** --prepend-rank ([%r] ) or -prepend-pattern: each line's prefix, or null. */
    private String prefix;
    private boolean timestamp;
    private boolean merge;
    private Path outputDir;
    /** --output-filename's output goes to the terminal too, unless DIR:nocopy. */
    private boolean copy = true;
    /** -outfile-pattern and -errfile-pattern, resolved from here, or null. */
    private String stdoutFiles;
    private String stderrFiles;
    private boolean quiet;

    OutputArguments(Path cwd) {
        this.cwd = cwd;
    }

    static <T> void declare(OptionTable<T> t, Function<T, OutputArguments> of) {
        t.flag("Environment and I/O", List.of("--tag-output"), List.of("-tag-output"),
                    "prefix each line with [JOBID,RANK]<stdout>: or <stderr>:",
                    (a, v) -> of.apply(a).tag = true)
            .flag("Environment and I/O", List.of("--prepend-rank"), List.of("-prepend-rank", "-l"),
                    "prefix each line with [RANK] (mpiexec.hydra's -l)",
                    (a, v) -> of.apply(a).prefix(OutputOptions.LABEL))
            .value("Environment and I/O", List.of("-prepend-pattern"), List.of("--prepend-pattern"), "PATTERN",
                    "prefix each line with PATTERN, mpiexec.hydra's: %r the rank, %h its host, %p the\n"
                            + "host's index, %g 0 (a job the ranks spawned: 1, 2...); -l is '[%r] '",
                    (a, v) -> of.apply(a).prefix(v))
            .flag("Environment and I/O", List.of("--timestamp-output"), List.of("-timestamp-output"),
                    "prefix each line with the time it arrived",
                    (a, v) -> of.apply(a).timestamp = true)
            .flag("Environment and I/O", List.of("--merge-stderr-to-stdout"), List.of("-merge-stderr-to-stdout"),
                    "the ranks' stderr goes where their stdout goes",
                    (a, v) -> of.apply(a).merge = true)
            .value("Environment and I/O", List.of("--output-filename"), List.of("-output-filename"), "DIR[:nocopy]",
                    "write DIR/1/rank.N/stdout and stderr, and the terminal too unless :nocopy (Open MPI 4's)",
                    (a, v) -> of.apply(a).outputFilename(v))
            .value("Environment and I/O", List.of("-outfile-pattern"), List.of("--outfile-pattern"), "PATTERN",
                    "each rank's stdout to the file PATTERN names (%r, %h, %p, %g as -prepend-pattern;\n"
                            + "ranks whose files are one share it), mpiexec.hydra's",
                    (a, v) -> of.apply(a).stdoutFiles = of.apply(a).cwd.resolve(v).toString())
            .value("Environment and I/O", List.of("-errfile-pattern"), List.of("--errfile-pattern"), "PATTERN",
                    "each rank's stderr likewise",
                    (a, v) -> of.apply(a).stderrFiles = of.apply(a).cwd.resolve(v).toString())
            .flag("Environment and I/O", List.of("-q", "--quiet"), List.of(),
                    "no line of banyan's own about how the job went (a failed rank, a timeout), as\n"
                            + "mpirun's -q; the exit status still says it. Bad input is still named",
                    (a, v) -> of.apply(a).quiet = true);
    }

    boolean quiet() {
        return quiet;
    }

    /**
     * Open MPI 4's {@code --output-filename DIR[:DIRECTIVE,...]}: its one directive, {@code nocopy}
     * (any case), keeps the output off the terminal.
     */
    private void outputFilename(String v) throws UsageException {
        int colon = v.lastIndexOf(':');
        String dir = v;
        if (colon > 0) {
            for (String d : v.substring(colon + 1).split(",")) {
                if (!d.equalsIgnoreCase("nocopy")) {
                    throw new UsageException("--output-filename '" + v + "': '" + d + "' is not a directive banyan knows (nocopy)");
                }
                copy = false;
            }
            dir = v.substring(0, colon);
        }
        outputDir = cwd.resolve(dir);
    }

    /** --prepend-rank and -prepend-pattern are one setting, said once. */
    private void prefix(String pattern) throws UsageException {
        if (prefix != null && !prefix.equals(pattern)) {
            throw new UsageException("--prepend-rank and -prepend-pattern both prefix each line: give one");
        }
        prefix = pattern;
    }

    /** Options that would drop one another without a word are refused. */
    void check() throws UsageException {
        if (tag && prefix != null) {
            throw new UsageException("--tag-output and " + (prefix.equals(OutputOptions.LABEL) ? "--prepend-rank" : "-prepend-pattern")
                    + " both prefix each line with its rank: give one");
        }
        if (outputDir != null && (stdoutFiles != null || stderrFiles != null)) {
            throw new UsageException("--output-filename and " + (stdoutFiles != null ? "-outfile-pattern" : "-errfile-pattern")
                    + " both say where the ranks' output goes: give one");
        }
        if (merge && stderrFiles != null) {
            throw new UsageException("--merge-stderr-to-stdout sends stderr where stdout goes: drop -errfile-pattern");
        }
    }

    OutputOptions options() {
        return new OutputOptions(tag, prefix, timestamp, outputDir, outputDir != null && copy, merge, stdoutFiles, stderrFiles, quiet);
    }

    /** Makes --output-filename's directory, or says why it cannot be. */
    void prepareDirectory() throws UsageException {
        if (outputDir != null) {
            try {
                Files.createDirectories(outputDir);
            } catch (IOException e) {
                throw new UsageException("--output-filename '" + outputDir + "': cannot create the directory ("
                        + e.getMessage() + ")");
            }
        }
    }
}
