package org.banyan.runtime.os;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A directory and everything under it. */
public final class FileTree {
    private FileTree() {}

    /** Deletes {@code dir} and what it holds, as far as it can: for scratch directories, so failures are ignored. */
    public static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // gone already, or in the temporary directory the system clears
        }
    }
}
