package org.banyan.runtime.head;

import java.nio.file.Path;

/**
 * How rank output is shown.
 *
 * @param tag        prefix each line with {@code [jobid,rank]<stdout>:} ({@code --tag-output})
 * @param label      prefix each line with {@code [rank] } ({@code --prepend-rank}, Hydra's {@code -l})
 * @param timestamp  prefix each line with the time it arrived ({@code --timestamp-output})
 * @param directory  write DIR/JOBID/rank.N/{stdout,stderr} instead of the terminal (tagged and
 *                   time-stamped as asked), or null
 * @param merge      ranks' stderr goes where their stdout goes ({@code --merge-stderr-to-stdout})
 */
public record OutputOptions(boolean tag, boolean label, boolean timestamp, Path directory, boolean merge) {
    public static final OutputOptions PLAIN = new OutputOptions(false, false, false, null, false);
}
