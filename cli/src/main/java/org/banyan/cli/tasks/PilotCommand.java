package org.banyan.cli.tasks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.banyan.cli.options.UsageException;
import org.banyan.pilot.ProfileReport;
import org.banyan.pilot.ReportPlots;

/** {@code banyan pilot report DIR}: the figures of a session's profile, and its plots. */
public final class PilotCommand {
    static final String HELP = """
            Usage: banyan pilot report SESSION_DIR

            Reads SESSION_DIR/banyan.prof (written by banyan submit and the Pilot API) and prints
            TTX, the pilots' core-time split into executing, overhead and idle, throughput (over
            TTX, and in each tenth of it) and peak concurrency; writes concurrency.png|svg,
            states.png|svg and throughput.png|svg into SESSION_DIR.
            """;

    private final Path cwd;

    public PilotCommand(Path cwd) {
        this.cwd = cwd;
    }

    public int run(List<String> args) throws UsageException {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return args.isEmpty() ? 2 : 0;
        }
        if (!args.getFirst().equals("report") || args.size() != 2) {
            throw new UsageException("usage: banyan pilot report SESSION_DIR");
        }
        Path dir = cwd.resolve(args.get(1));
        ProfileReport r;
        try {
            r = ProfileReport.of(dir, 200);
            if (ProfileReport.endsMidLine(dir)) {
                System.err.println("banyan pilot: " + dir.resolve(org.banyan.pilot.Profile.FILE) + " ends in the middle of a line "
                        + "(written incompletely, as on a full disk, or still being written): the figures leave that line out");
            }
        } catch (IOException | RuntimeException e) {
            throw new UsageException(args.get(1) + ": " + e.getMessage());
        }
        double available = r.executing() + r.overhead() + r.idle();
        System.out.printf(Locale.ROOT, "session %s%n", dir);
        System.out.printf(Locale.ROOT, "tasks            %d (%d done, %d failed, %d canceled)%n", r.tasks(), r.done(),
                r.failed(), r.canceled());
        System.out.printf(Locale.ROOT, "TTX              %.3f s (first task executing -> last one done)%n", r.ttx());
        System.out.printf(Locale.ROOT, "throughput       %.1f tasks/s over TTX%n", r.ttx() > 0 ? r.tasks() / r.ttx() : 0);
        if (r.ttx() > 0) {
            StringBuilder tenths = new StringBuilder();
            for (double t : r.throughputByTenth()) {
                tenths.append(' ').append(Math.round(t));
            }
            System.out.println("  by tenth of TTX" + tenths + " tasks/s");
        }
        System.out.printf(Locale.ROOT, "peak concurrency %d tasks (pilot cores %d)%n", r.peakConcurrency(), r.cores());
        if (available > 0) {
            System.out.printf(Locale.ROOT, "core-time        %.1f core-s: executing %.1f %%, overhead %.1f %%, idle %.1f %%%n",
                    available, 100 * r.executing() / available, 100 * r.overhead() / available, 100 * r.idle() / available);
        }
        try {
            ReportPlots.write(r, dir);
        } catch (IOException e) {
            System.err.println("banyan pilot: cannot write the plots: " + e.getMessage());
            return 1;
        }
        System.out.println("plots            " + dir.resolve("concurrency.png") + ", " + dir.resolve("states.png") + ", "
                + dir.resolve("throughput.png") + " (and .svg)");
        return 0;
    }
}
