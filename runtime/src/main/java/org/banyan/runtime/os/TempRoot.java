package org.banyan.runtime.os;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where banyan's temporary directories go (a daemon's PMIx server directory, which Open MPI's
 * ranks also use for their session files; warm pools; the rank guard's sweep): {@code $TMPDIR}
 * when it names a directory this user may write into, as mpirun's session directory follows it
 * and as batch systems set it to a job's own scratch space; else the JVM's default, {@code /tmp}.
 * An unusable {@code $TMPDIR} (gone, a file, relative, not UTF-8, not writable) falls back to
 * {@code /tmp} silently, as mpirun does. (Its length does not matter: libpmix makes no Unix
 * socket in it for a server's clients; a 200-character one served an Open MPI rank.) The JVM's {@code java.io.tmpdir}
 * is set once, first thing in each of banyan's JVMs, unless {@code -Djava.io.tmpdir} chose
 * another already.
 */
public final class TempRoot {
    private static final String DEFAULT = "/tmp";

    private TempRoot() {}

    /** Sets {@code java.io.tmpdir} from this process's {@code $TMPDIR}, when usable. */
    public static void adopt() {
        String chosen = choose(System.getenv("TMPDIR"), System.getProperty("java.io.tmpdir"));
        if (chosen != null) {
            System.setProperty("java.io.tmpdir", chosen);
        }
    }

    /** The directory to use, or null to leave {@code current} as it is. */
    static String choose(String tmpdir, String current) {
        if (tmpdir == null || tmpdir.isEmpty() || !DEFAULT.equals(current) || tmpdir.indexOf('\uFFFD') >= 0 || !tmpdir.startsWith("/")) {
            return null;
        }
        Path p = Path.of(tmpdir);
        return Files.isDirectory(p) && Files.isWritable(p) && Files.isExecutable(p) ? tmpdir : null;
    }
}
