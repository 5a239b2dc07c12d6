package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The dashboard's page for a simulator's timelines ({@code banyan sim workload --timeline DIR}
 * writes {@code timeline_POLICY.csv}, {@code sim pilot --timeline DIR} {@code timeline_pilot.csv}):
 * the same server and token as a DVM's dashboard, one chart per column over time, one line per
 * file. Served from this process until it ends.
 */
public final class TimelineView implements AutoCloseable {
    private final DashboardServer server;
    private final String url;

    private TimelineView(DashboardServer server, String token) {
        this.server = server;
        this.url = DashboardServer.url(server.bind(), server.port(), token);
    }

    /**
     * Reads {@code dir}'s timelines and serves them on {@code bind:port}.
     *
     * @throws IOException with a message fit for the user when there is none to show or one is malformed
     */
    public static TimelineView serve(Path dir, String bind, int port) throws IOException {
        String json = json(dir);
        String secret = DvmFiles.newSecret(); // this view's own: it lives as long as the command
        return new TimelineView(new DashboardServer(bind, port, secret, json), DashboardServer.token(secret));
    }

    /** The URL that opens it, token included. */
    public String url() {
        return url;
    }

    /**
     * {@code {"columns": ["allocated_nodes", ...], "series": {"fixed": {"time": [...], "allocated_nodes": [...], ...}}}}:
     * every {@code timeline_NAME.csv} of {@code dir}, which must share one header starting with {@code time_s}.
     */
    static String json(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory (banyan sim workload --timeline DIR and sim pilot --timeline DIR write one)");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> f.getFileName().toString().matches("timeline_[A-Za-z0-9_-]+\\.csv")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no timeline_NAME.csv in " + dir + " (banyan sim workload --timeline DIR and sim pilot --timeline DIR"
                    + " write them)");
        }
        String header = null;
        StringBuilder b = new StringBuilder();
        for (int f = 0; f < files.size(); f++) {
            String name = files.get(f).getFileName().toString().replaceAll("^timeline_|\\.csv$", "");
            List<String> lines = Files.readAllLines(files.get(f));
            String first = lines.isEmpty() ? "" : lines.getFirst().strip();
            if (!first.matches("time_s(,[a-z][a-z0-9_]*)+")) {
                throw new IOException(files.get(f) + " is not a timeline (its first line must be time_s and column names, as "
                        + "time_s,allocated_nodes,running_jobs,completed_jobs)");
            }
            if (header != null && !header.equals(first)) {
                throw new IOException(files.get(f) + "'s columns (" + first + ") are not the others' (" + header + ")");
            }
            header = first;
            int width = first.split(",").length;
            List<List<String>> columns = new ArrayList<>();
            for (int c = 0; c < width; c++) {
                columns.add(new ArrayList<>());
            }
            for (int i = 1; i < lines.size(); i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                String[] v = lines.get(i).split(",");
                if (v.length != width) {
                    throw new IOException(files.get(f) + " line " + (i + 1) + ": " + width + " values expected, found " + v.length);
                }
                for (int c = 0; c < width; c++) {
                    try {
                        double d = Double.parseDouble(v[c].strip());
                        if (!Double.isFinite(d)) {
                            throw new NumberFormatException();
                        }
                        columns.get(c).add(v[c].strip());
                    } catch (NumberFormatException e) {
                        throw new IOException(files.get(f) + " line " + (i + 1) + ": '" + v[c] + "' is not a number");
                    }
                }
            }
            String[] keys = first.split(",");
            b.append(f == 0 ? "" : ",").append('"').append(name).append("\":{");
            for (int c = 0; c < width; c++) {
                b.append(c == 0 ? "" : ",").append('"').append(c == 0 ? "time" : keys[c]).append("\":[")
                        .append(String.join(",", columns.get(c))).append(']');
            }
            b.append('}');
        }
        StringBuilder cols = new StringBuilder();
        String[] keys = header.split(",");
        for (int c = 1; c < keys.length; c++) {
            cols.append(c == 1 ? "" : ",").append('"').append(keys[c]).append('"');
        }
        return "{\"columns\":[" + cols + "],\"series\":{" + b + "}}";
    }

    @Override
    public void close() {
        server.close();
    }
}
