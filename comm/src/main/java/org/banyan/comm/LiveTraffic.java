package org.banyan.comm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * This rank's traffic per peer, written every second while monitoring is on, for the DVM's
 * dashboard to show as a live heat map ({@code banyan run --dvm --monitor}): one small file per
 * rank, {@code DIR/live/rank.R}, replaced whole each time (written aside, then renamed):
 *
 * <pre>
 * banyan-live 1 RANK SIZE
 * PEER BYTES MESSAGES          one line per peer this rank sent to: user, library and one-sided
 * </pre>
 *
 * The last one is written as the world closes. Monitoring's run-time start, stop and reset
 * ({@link Monitor}) apply: the file shows the counters as they are.
 */
final class LiveTraffic implements AutoCloseable {
    static final long PERIOD_MILLIS = 1000;

    private final Monitor monitor;
    private final int rank;
    private final Path dir;
    private final Thread thread;
    private volatile boolean over;

    LiveTraffic(Monitor monitor, int rank, Path dir) {
        this.monitor = monitor;
        this.rank = rank;
        this.dir = dir;
        this.thread = Thread.ofPlatform().daemon().name("banyan-live-traffic").start(this::run);
    }

    private void run() {
        while (!over) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (!over) {
                write();
            }
        }
    }

    /** Writes the counters now; a file that cannot be written is skipped (the dashboard shows the last one). */
    void write() {
        Monitor.Snapshot s = monitor.snapshot();
        StringBuilder b = new StringBuilder(64 + 24 * Math.min(s.size(), 1024));
        b.append("banyan-live 1 ").append(rank).append(' ').append(s.size()).append('\n');
        for (int p = 0; p < s.size(); p++) {
            long bytes = s.bytes(Monitor.Kind.EXTERNAL, p) + s.bytes(Monitor.Kind.INTERNAL, p) + s.bytes(Monitor.Kind.OSC_SENT, p);
            long messages = s.messages(Monitor.Kind.EXTERNAL, p) + s.messages(Monitor.Kind.INTERNAL, p)
                    + s.messages(Monitor.Kind.OSC_SENT, p);
            if (bytes > 0 || messages > 0) {
                b.append(p).append(' ').append(bytes).append(' ').append(messages).append('\n');
            }
        }
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(".rank." + rank + ".tmp");
            Files.writeString(tmp, b, StandardCharsets.US_ASCII);
            Files.move(tmp, dir.resolve("rank." + rank), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the directory went away or is full: the next period tries again
        }
    }

    @Override
    public void close() {
        over = true;
        thread.interrupt();
        write();
    }
}
