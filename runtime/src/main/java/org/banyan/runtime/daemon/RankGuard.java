package org.banyan.runtime.daemon;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A small shell process that outlives the daemon's JVM just long enough to kill its ranks if the
 * JVM dies without doing so itself (SIGKILL, OOM killer, crash): the one failure no Java code
 * can handle. The daemon tells it each rank's pid as the rank starts ({@code + PID}) and ends
 * ({@code - PID}); when its stdin reaches EOF without a final {@code done} line, the daemon is
 * gone, and it kills the ranks still listed, and their children, with SIGKILL, and removes the
 * files it was told of ({@code f PATH}: the node-local process table).
 *
 * <p>One guard per daemon replaces a {@code setpriv --pdeathsig} exec per rank, which cost a
 * third of the spawn time.
 */
final class RankGuard implements Closeable {
    // The pid list keeps a leading and trailing space so " PID " matches whole pids only.
    private static final String SCRIPT = """
            trap '' INT TERM HUP
            pids=' '
            files=''
            while read -r op pid; do
              case "$op" in
                +) pids="$pids$pid " ;;
                f) files="$files $pid" ;;
                -) case "$pids" in *" $pid "*) pids="${pids%% $pid *} ${pids#* $pid }" ;; esac ;;
                done) exit 0 ;;
              esac
            done
            for p in $pids; do pkill -KILL -P "$p"; kill -KILL "$p"; done 2>/dev/null
            [ -n "$files" ] && rm -f $files
            exit 0
            """;

    private final Process process;
    private final OutputStream pipe;
    private boolean broken;

    private RankGuard(Process process) {
        this.process = process;
        this.pipe = process.getOutputStream();
    }

    static RankGuard start() throws IOException {
        Process p = new ProcessBuilder("sh", "-c", SCRIPT, "banyan-rank-guard")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new RankGuard(p);
    }

    synchronized void started(long pid) {
        write("+ " + pid + "\n");
    }

    /** A file the daemon made (a path without spaces) that goes if the daemon dies without removing it. */
    synchronized void owns(String path) {
        write("f " + path + "\n");
    }

    synchronized void ended(long pid) {
        write("- " + pid + "\n");
    }

    private void write(String line) {
        if (broken) {
            return;
        }
        try {
            pipe.write(line.getBytes(StandardCharsets.US_ASCII));
            pipe.flush();
        } catch (IOException e) {
            // The guard is gone: the daemon still ends its ranks itself on every path it survives.
            broken = true;
        }
    }

    /** The daemon ended its ranks itself: the guard exits without killing anything. */
    @Override
    public synchronized void close() {
        write("done\n");
        try {
            pipe.close();
        } catch (IOException ignored) {
            // closing
        }
        process.destroy();
    }
}
