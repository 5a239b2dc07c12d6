package org.banyan.runtime.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The processes a starter ran (remote shells, sruns, daemon JVMs): their output passed on to
 * stderr, the last line kept as the reason should one fail, and ended together at the close.
 */
final class ChildProcesses {
    private final Map<Integer, Process> processes = new ConcurrentHashMap<>();

    /** Runs {@code command} for child {@code id} (-1: the step of every daemon); reports its end through {@code ended}. */
    Process start(int id, List<String> command, java.util.function.BiConsumer<Integer, String> ended) throws IOException {
        Process p = org.banyan.runtime.os.ProcessStarts.start(new ProcessBuilder(command).redirectErrorStream(true));
        processes.put(id, p);
        // The job's secret goes on the daemon's stdin (through ssh or srun), never in its arguments.
        try (var in = p.getOutputStream()) {
            in.write(org.banyan.runtime.net.LinkAuth.secretLine().getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // it ended at once: its end is reported below
        }
        String[] lastLine = {""};
        Thread out = passOutput(p, id < 0 ? "step-out" : "child-" + id + "-out", lastLine);
        if (ended != null) {
            p.onExit().thenAccept(done -> {
                try {
                    out.join(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ended.accept(done.exitValue(), lastLine[0]);
            });
        }
        return p;
    }

    /**
     * What the agent or the daemon prints: passed on to stderr, and the last line kept as the
     * reason should the child fail (ssh says why it could not connect).
     */
    private static Thread passOutput(Process p, String name, String[] lastLine) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (!line.isBlank()) {
                        lastLine[0] = line.strip();
                        System.err.println(line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
    }

    /** Ends what was started for child {@code id}, if anything. */
    void kill(int id) {
        Process p = processes.get(id);
        if (p != null) {
            p.destroyForcibly();
        }
    }

    void awaitOrKill(long deadlineNanos) {
        for (Process p : processes.values()) {
            try {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }
}
