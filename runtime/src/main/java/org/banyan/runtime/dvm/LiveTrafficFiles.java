package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads what the ranks of a job run with {@code --monitor} write every second to
 * {@code DIR/live/rank.R} (banyan-comm's {@code LiveTraffic}: a header {@code banyan-live 1 RANK
 * SIZE}, then {@code PEER BYTES MESSAGES} lines) into the bytes each rank sent each peer. A file
 * that is missing, from another size of job, or malformed counts as nothing sent yet: the
 * dashboard shows what it can, it never fails for a file.
 */
final class LiveTrafficFiles {
    /** Jobs of more ranks are not drawn (a page of 128 × 128 cells is already dense). */
    static final int MAX_RANKS = 128;

    private LiveTrafficFiles() {}

    /** Bytes sent, by sender then receiver; null when the job has more than {@link #MAX_RANKS} ranks. */
    static long[][] read(Path dir, int ranks) {
        if (ranks > MAX_RANKS || ranks < 1) {
            return null;
        }
        long[][] bytes = new long[ranks][ranks];
        for (int r = 0; r < ranks; r++) {
            Path f = dir.resolve("live").resolve("rank." + r);
            List<String> lines;
            try {
                if (!Files.isRegularFile(f) || Files.size(f) > 64L * 1024 * MAX_RANKS) {
                    continue;
                }
                lines = Files.readAllLines(f, StandardCharsets.US_ASCII);
            } catch (IOException | java.io.UncheckedIOException e) {
                continue;
            }
            if (lines.isEmpty() || !lines.getFirst().equals("banyan-live 1 " + r + " " + ranks)) {
                continue;
            }
            for (int i = 1; i < lines.size(); i++) {
                String[] v = lines.get(i).split(" ");
                try {
                    int peer = Integer.parseInt(v[0]);
                    long b = Long.parseLong(v[1]);
                    if (v.length == 3 && peer >= 0 && peer < ranks && b >= 0) {
                        bytes[r][peer] = b;
                    }
                } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                    // a line this reader does not know: skipped
                }
            }
        }
        return bytes;
    }
}
