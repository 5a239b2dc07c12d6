package org.banyan.core.job;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What of a failed task's stderr its detail shows: the last {@link #LINES} lines of the last
 * {@link #BYTES} bytes, the same for a task of one process (read from its file) and for an MPI
 * task (kept in a ring as the job runs).
 */
public final class StderrTail {
    public static final int BYTES = 2048;
    public static final int LINES = 10;

    private StderrTail() {}

    /** The last lines of {@code bytes}, stripped; a partial first line is kept as it is. */
    public static String lastLines(byte[] bytes) {
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).strip().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LINES), lines.size()));
    }
}
