package org.banyan.cli.place;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.banyan.cli.options.UsageException;
import org.banyan.comm.profile.TrafficMatrices.Category;
import org.banyan.comm.profile.TrafficMatrices;

/**
 * {@code banyan monitor DIR}: gathers the ranks' {@code .prof} files of a monitored run into
 * communication matrices, as CSV (row: sender, column: receiver) and in profile2mat's
 * {@code .mat} layout, and draws them as heat maps (PNG and SVG).
 */
public final class MonitorCommand {
    static final String HELP = """
            Usage: banyan monitor DIR [--output OUT]

            Reads every .prof file in DIR (banyan run --monitor --monitor-out DIR writes one per
            rank; Open MPI's monitoring files work too) and writes into OUT (default DIR):
              matrix_CATEGORY_bytes.csv, matrix_CATEGORY_msgs.csv   directed: row sends to column
              banyan_size|msg|avg_CATEGORY.mat                       profile2mat's layout (symmetric)
              heatmap_CATEGORY.png|svg                               bytes, row sends to column
            for the categories all, external (user point-to-point), internal (the messages
            collectives sent), osc (one-sided) and coll (the collectives' logical traffic).
            """;

    private final Path cwd;

    public MonitorCommand(Path cwd) {
        this.cwd = cwd;
    }

    public int run(List<String> args) throws UsageException {
        if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
            System.out.print(HELP);
            return args.isEmpty() ? 2 : 0;
        }
        Path dir = cwd.resolve(args.getFirst());
        Path out = dir;
        if (args.size() == 3 && args.get(1).equals("--output")) {
            out = cwd.resolve(args.get(2));
        } else if (args.size() != 1) {
            throw new UsageException("usage: banyan monitor DIR [--output OUT]");
        }
        if (!Files.exists(dir)) {
            throw new UsageException(args.getFirst() + " does not exist");
        }
        try {
            writeAll(dir, out, System.out);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new UsageException(e.getMessage());
        } catch (IOException e) {
            System.err.println("banyan monitor: cannot write into " + out + ": " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** Reads {@code dir}'s profiles and writes every matrix and heat map into {@code out}, a line per category to {@code summary}. */
    static TrafficMatrices writeAll(Path dir, Path out, java.io.PrintStream summary) throws IOException {
        TrafficMatrices t = TrafficMatrices.read(dir);
        Files.createDirectories(out);
        for (Category c : Category.values()) {
            long[][] b = t.bytes(c);
            long[][] m = t.messages(c);
            Files.writeString(out.resolve("matrix_" + c.suffix + "_bytes.csv"), TrafficMatrices.csv(b));
            Files.writeString(out.resolve("matrix_" + c.suffix + "_msgs.csv"), TrafficMatrices.csv(m));
            Files.writeString(out.resolve("banyan_size_" + c.suffix + ".mat"), TrafficMatrices.mat(b));
            Files.writeString(out.resolve("banyan_msg_" + c.suffix + ".mat"), TrafficMatrices.mat(m));
            Files.writeString(out.resolve("banyan_avg_" + c.suffix + ".mat"), TrafficMatrices.avgMat(b, m));
            HeatMaps.write(b, c.suffix + ": bytes sent, row to column", out.resolve("heatmap_" + c.suffix));
            summary.printf(Locale.ROOT, "%-9s %,16d bytes %,12d messages%n", c.suffix, total(b), total(m));
        }
        summary.println(t.size() + " ranks; matrices, .mat files and heat maps in " + out);
        return t;
    }

    private static long total(long[][] m) {
        long s = 0;
        for (long[] row : m) {
            for (long v : row) {
                s += v;
            }
        }
        return s;
    }
}
