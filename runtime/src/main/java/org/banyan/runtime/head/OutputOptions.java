package org.banyan.runtime.head;

import java.nio.file.Path;

/**
 * How rank output is shown.
 *
 * @param tag        prefix each line with {@code [jobid,rank]<stdout>:} ({@code --tag-output})
 * @param prefix     prefix each line with this pattern, or null: mpiexec.hydra's
 *                   {@code -prepend-pattern}, whose {@code %r}, {@code %h}, {@code %p} and
 *                   {@code %g} are the rank, its host, its host's index and its job's
 *                   generation ({@link OutputPattern}); {@code -l} is {@link #LABEL}
 * @param timestamp  prefix each line with the time it arrived ({@code --timestamp-output})
 * @param directory  write DIR/JOBID/rank.N/{stdout,stderr} (tagged and time-stamped as asked), or null
 * @param copy       with a directory, the output goes to the terminal too, as Open MPI 4's
 *                   {@code --output-filename} copies it unless told {@code :nocopy}
 * @param merge      ranks' stderr goes where their stdout goes ({@code --merge-stderr-to-stdout})
 * @param stdoutFiles each rank's stdout file as a pattern ({@code -outfile-pattern}), or null:
 *                   ranks whose patterns give one path share the file
 * @param stderrFiles the same for stderr ({@code -errfile-pattern})
 * @param quiet      banyan's own lines about how the job goes (a rank that failed, a timeout) are
 *                   not shown, as under mpirun's {@code -q}: the exit status still says it
 */
public record OutputOptions(boolean tag, String prefix, boolean timestamp, Path directory, boolean copy, boolean merge,
                            String stdoutFiles, String stderrFiles, boolean quiet) {
    /** mpiexec.hydra's {@code -l}, banyan's {@code --prepend-rank}. */
    public static final String LABEL = "[%r] ";
    public static final OutputOptions PLAIN = new OutputOptions(false, null, false, null, false, false, null, null, false);

    /** Whether lines need to know their rank's host ({@code %h}, {@code %p}), which a DVM's client is not told. */
    public boolean namesHosts() {
        return OutputPattern.namesHost(prefix) || OutputPattern.namesHost(stdoutFiles) || OutputPattern.namesHost(stderrFiles);
    }
}
