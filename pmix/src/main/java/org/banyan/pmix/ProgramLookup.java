package org.banyan.pmix;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file a program name starts, found as {@code execvp} finds it: a name with a slash is a
 * path from the working directory, any other is looked up along {@code PATH} (an empty entry is
 * the working directory). Used before a launch to read the program's ELF file and choose how its
 * ranks wire up ({@link ElfNeeded}).
 */
public final class ProgramLookup {
    /** execvp's and posix_spawnp's search path when there is no PATH (glibc's {@code CS_PATH}). */
    public static final String DEFAULT_PATH = "/bin:/usr/bin";

    private ProgramLookup() {}

    /**
     * The executable file {@code program} names, or null when there is none. A name with a slash
     * is returned resolved whether or not it exists, so that the caller can say which it is.
     */
    public static Path find(String program, Path dir, String pathVariable) {
        if (program.contains("/")) {
            return RawPaths.resolve(dir, program);
        }
        for (String entry : (pathVariable != null ? pathVariable : DEFAULT_PATH).split(File.pathSeparator)) {
            Path p = RawPaths.resolve(entry.isEmpty() ? dir : RawPaths.resolve(dir, entry), program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
