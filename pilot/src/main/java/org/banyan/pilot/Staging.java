package org.banyan.pilot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One file to put into a task's sandbox before it runs (input) or to take out of it after
 * (output), as RADICAL-Pilot's staging directives: {@code copy}, {@code link} (a symbolic link)
 * or {@code move}. A relative source of an input is relative to the submitter's directory; the
 * target of an input and the source of an output are relative to the sandbox.
 */
public record Staging(String source, String target, Action action) {
    public enum Action { COPY, LINK, MOVE }

    /** Refuses what no file system call could carry out: an empty source or target (the target "" was the sandbox itself). */
    public Staging {
        if (action == null) {
            throw new IllegalArgumentException("a staging directive needs an action (copy, link or move)");
        }
        for (String p : new String[] {source, target}) {
            if (p == null || p.isBlank() || p.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a staging directive needs a source and a target, each a path, got '"
                        + source + "' -> '" + target + "'");
            }
        }
    }

    /**
     * Carries out the directive from {@code from} to {@code to}.
     *
     * @throws IOException saying what could not be done and why, in words for the task's failure
     *                     (it was the exception's class and a path: {@code java.nio.file.NoSuchFileException: /in.txt})
     */
    static void apply(Path from, Path to, Action action) throws IOException {
        try {
            if (to.getParent() != null) {
                Files.createDirectories(to.getParent());
            }
            switch (action) {
                case COPY -> Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                case LINK -> {
                    Files.deleteIfExists(to);
                    Files.createSymbolicLink(to, from.toAbsolutePath());
                }
                case MOVE -> Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            String which = e instanceof java.nio.file.FileSystemException f && f.getFile() != null ? ": " + f.getFile() : "";
            throw new IOException("cannot " + action.name().toLowerCase(java.util.Locale.ROOT) + " " + from + " to " + to
                    + " (" + org.banyan.runtime.os.FileErrors.reason(e) + which + ")", e);
        }
    }

    /** Into the sandbox, before the task runs. */
    void stageIn(Path base, Path sandbox) throws IOException {
        apply(base.resolve(source), sandbox.resolve(target), action);
    }

    /** Out of the sandbox, once the task is done. */
    void stageOut(Path base, Path sandbox) throws IOException {
        apply(sandbox.resolve(source), base.resolve(target), action);
    }
}
