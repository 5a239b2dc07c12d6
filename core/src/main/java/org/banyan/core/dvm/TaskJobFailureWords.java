package org.banyan.core.dvm;

import org.banyan.core.head.HeadSettings;
import org.banyan.core.job.StderrTail;

/**
 * What a failed MPI task's detail says: the head's first report of its job (which rank failed
 * or could not start, and why) and the last lines of the job's stderr, as a task of one process
 * gets its stderr's tail. Kept while the job runs: the report, and the stderr's last
 * {@link #TAIL_BYTES} bytes in a ring, shown as {@link StderrTail} says.
 */
final class TaskJobFailureWords {
    /** How much of the stderr is kept: what a task of one process's detail reads of its file. */
    static final int TAIL_BYTES = StderrTail.BYTES;
    /** How the head starts a task job's lines (its settings are {@link HeadSettings#forJob}'s): not the task's words. */
    private static final String COMMAND_PREFIX = HeadSettings.RUN + ": ";

    private String report;
    private byte[] ring;
    private int end;
    private long written;

    void report(String line) {
        if (report == null) {
            report = line.startsWith(COMMAND_PREFIX) ? line.substring(COMMAND_PREFIX.length()) : line;
        }
    }

    void stderr(byte[] data) {
        if (ring == null) {
            ring = new byte[TAIL_BYTES];
        }
        int from = Math.max(0, data.length - TAIL_BYTES);
        for (int i = from; i < data.length; ) {
            int n = Math.min(data.length - i, TAIL_BYTES - end);
            System.arraycopy(data, i, ring, end, n);
            end = (end + n) % TAIL_BYTES;
            i += n;
        }
        written += data.length;
    }

    /** The report, then the stderr's last lines; empty when there is neither. */
    String detail() {
        String tail = tail();
        if (report == null) {
            return tail;
        }
        return tail.isEmpty() ? report : report + "\n" + tail;
    }

    private String tail() {
        if (ring == null) {
            return "";
        }
        int kept = (int) Math.min(written, TAIL_BYTES);
        byte[] last = new byte[kept];
        int start = Math.floorMod(end - kept, TAIL_BYTES);
        for (int i = 0; i < kept; i++) {
            last[i] = ring[(start + i) % TAIL_BYTES];
        }
        return StderrTail.lastLines(last);
    }
}
