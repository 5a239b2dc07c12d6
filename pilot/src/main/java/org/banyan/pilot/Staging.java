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

    /** Carries out the directive from {@code from} to {@code to}. */
    static void apply(Path from, Path to, Action action) throws IOException {
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
