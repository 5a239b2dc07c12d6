package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs the commands that make a named environment ({@link Pilot#prepareEnv}), their output appended to its log. */
final class EnvCommands {
    /** Long enough for pip to build a package from source; a hung index ends here. */
    static final long TIMEOUT_SECONDS = 1800;

    private EnvCommands() {}

    static void run(List<String> command, Path log, String what) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        org.banyan.runtime.os.LauncherVariables.removeIn(pb.environment());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException(what + ": cannot start " + command.getFirst() + " (" + e.getMessage() + ")", e);
        }
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException(what + ": not done after " + TIMEOUT_SECONDS + " s; see " + log);
            }
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(what + ": interrupted", e);
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
            throw new IOException(what + " failed (exit " + p.exitValue() + "; " + log + "):\n" + tail);
        }
    }
}
