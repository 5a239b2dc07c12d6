package org.banyan.runtime.daemon;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes the shared-memory files of daemons that died with their rank guard: a pid table
 * ({@code banyan-pids-PID-*}) and process tables ({@code banyan-PID-*.proctable}) are the
 * guard's to remove when its daemon goes, so a SIGKILL to both left them in {@code /dev/shm}
 * for good. Each name carries its daemon's pid; a file whose daemon is gone is removed by the
 * next daemon that starts on the host. A pid that is alive again (reused) keeps its file: a
 * leak is better than removing a live daemon's table. Other users' files cannot be removed
 * from {@code /dev/shm} (sticky) and are left alone.
 */
final class StaleTables {
    /** A pid table's name, or a process table's: group 1 or 2 is its daemon's pid. */
    private static final Pattern NAME = Pattern.compile("banyan-(?:pids-(\\d+)-.*|(\\d+)-.*\\.proctable)");

    private StaleTables() {}

    /** Removes the stale tables in {@code dir}; returns how many went. */
    static int sweep(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "banyan-*")) {
            for (Path f : files) {
                Matcher m = NAME.matcher(f.getFileName().toString());
                if (!m.matches()) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
                } catch (NumberFormatException e) {
                    continue; // more digits than a pid has
                }
                if (ProcessHandle.of(pid).isEmpty()) {
                    try {
                        if (Files.deleteIfExists(f)) {
                            removed++;
                        }
                    } catch (IOException e) {
                        // another user's, or gone already
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing to sweep there
        }
        return removed;
    }
}
