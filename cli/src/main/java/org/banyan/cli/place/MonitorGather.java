package org.banyan.cli.place;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.banyan.core.job.AppContext;

/**
 * {@code banyan run --monitor}'s ends: before the job, the directory is cleared of profiles an
 * earlier run left (ranks write {@code banyan.RANK.prof}, and a run of fewer ranks would leave
 * some of the old ones); after it, the head gathers the profiles into matrices and heat maps
 * there, as {@code banyan monitor DIR} does. Profiles written on hosts that do not share the
 * head's file system are not there to gather: the head says so and leaves them.
 */
public final class MonitorGather {
    private MonitorGather() {}

    /** The job's --monitor-out directory, or null when it is not monitored. */
    public static Path directory(List<AppContext> apps) {
        String dir = apps.isEmpty() ? null : apps.getFirst().env().get("BANYAN_MONITOR_OUT");
        return dir == null ? null : Path.of(dir);
    }

    public static void before(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, "banyan.*.prof")) {
            for (Path p : old) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("banyan run: cannot clear old profiles in " + dir + ": " + e.getMessage());
        }
        Path live = dir.resolve("live"); // an earlier run's live counters would show on the dashboard as this one's
        if (Files.isDirectory(live)) {
            try (DirectoryStream<Path> old = Files.newDirectoryStream(live, "rank.*")) {
                for (Path p : old) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                System.err.println("banyan run: cannot clear old live counters in " + live + ": " + e.getMessage());
            }
        }
    }

    public static void after(Path dir, int ranks) {
        if (dir == null) {
            return;
        }
        long found;
        try (DirectoryStream<Path> profiles = Files.newDirectoryStream(dir, "banyan.*.prof")) {
            found = java.util.stream.StreamSupport.stream(profiles.spliterator(), false).count();
        } catch (IOException e) {
            found = 0;
        }
        if (found == 0) {
            System.err.println("banyan run: no monitoring profile in " + dir + " (ranks on hosts without this file system "
                    + "keep theirs; banyan-comm writes them when a rank closes its world)");
            return;
        }
        try {
            MonitorCommand.writeAll(dir, dir, new PrintStream(OutputStream.nullOutputStream()));
            System.err.println("banyan run: monitoring profiles of " + found + " of " + ranks + " ranks gathered into "
                    + "matrices and heat maps in " + dir);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            System.err.println("banyan run: cannot gather the monitoring profiles in " + dir + ": " + e.getMessage());
        }
    }
}
