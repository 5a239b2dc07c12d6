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

    /** How many bytes of a script the kernel reads for its {@code #!} line (BINPRM_BUF_SIZE). */
    static final int SCRIPT_HEAD_BYTES = 256;

    private ProgramLookup() {}

    /**
     * The interpreter a script's {@code #!} line names, as the kernel's exec reads it (the first
     * word after {@code #!}, within the file's first {@link #SCRIPT_HEAD_BYTES} bytes, a relative
     * one from {@code dir}); null when {@code program} is not a regular file that starts with
     * {@code #!}, or cannot be read. Reads the file: not for a thread that must not wait on it.
     */
    public static Path interpreterOf(Path program, Path dir) {
        if (!Files.isRegularFile(program)) { // a FIFO's open would wait for a writer
            return null;
        }
        byte[] head = new byte[SCRIPT_HEAD_BYTES];
        int n;
        try (java.io.InputStream in = Files.newInputStream(program)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
        if (n < 2 || head[0] != '#' || head[1] != '!') {
            return null;
        }
        int from = 2;
        while (from < n && (head[from] == ' ' || head[from] == '\t')) {
            from++;
        }
        int to = from;
        while (to < n && head[to] != ' ' && head[to] != '\t' && head[to] != '\n' && head[to] != 0) {
            to++;
        }
        return to == from ? null : RawPaths.resolve(dir, org.banyan.core.wire.RawText.decode(head, from, to - from));
    }

    /**
     * The interpreter a script's {@code #!} line names, when the kernel cannot run it: exec then
     * says only "No such file or directory", as if the script itself were missing.
     * {@code lineEndings}: the name ends in a carriage return (the script has Windows line
     * endings, and the kernel looks for {@code /bin/sh\r}), which is wrong wherever it runs.
     */
    public record BadInterpreter(String name, boolean lineEndings) {
        /** Why, in words that follow "the script". */
        public String words() {
            return lineEndings
                    ? "has Windows line endings: its #! line names the interpreter '" + name.substring(0, name.length() - 1)
                            + "\\r', which does not exist (dos2unix fixes the script)"
                    : "names the interpreter '" + name + "' on its #! line, which does not exist";
        }
    }

    /**
     * The script's interpreter when its name ends in a carriage return, or null: read from the
     * script only, the interpreter is not looked at (it may be on a file system that hangs, or
     * exist only where the ranks run).
     */
    public static BadInterpreter windowsLineEndings(Path program, Path dir) {
        Path interpreter = interpreterOf(program, dir);
        String name = interpreter == null ? null : RawPaths.shown(interpreter);
        return name != null && name.endsWith("\r") ? new BadInterpreter(name, true) : null;
    }

    /** The script's interpreter when it does not exist here, or null (a program that is no script, one whose interpreter is there). */
    public static BadInterpreter missingInterpreter(Path program, Path dir) {
        Path interpreter = interpreterOf(program, dir);
        if (interpreter == null || Files.exists(interpreter)) {
            return null;
        }
        String name = RawPaths.shown(interpreter);
        return new BadInterpreter(name, name.endsWith("\r"));
    }

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
