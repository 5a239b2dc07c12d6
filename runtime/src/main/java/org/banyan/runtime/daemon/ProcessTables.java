package org.banyan.runtime.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A daemon's node-local process tables, one file a job: in shared memory when the host has it,
 * named so that two daemons of one host, or two jobs of one daemon, never collide; written whole
 * under a temporary name and renamed, so a reader never sees half a table; removed when the job
 * is forgotten and at the daemon's end (and by the rank guard should the daemon die first).
 */
final class ProcessTables {
    private final int daemonId;
    private final RankGuard guard;
    private final List<Path> written = new CopyOnWriteArrayList<>();

    ProcessTables(int daemonId, RankGuard guard) {
        this.daemonId = daemonId;
        this.guard = guard;
    }

    /** Where the table of {@code jobId} goes. */
    Path pathOf(int jobId) {
        Path shm = Path.of("/dev/shm");
        Path dir = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return dir.resolve("banyan-" + ProcessHandle.current().pid() + "-" + daemonId
                + (jobId == 1 ? "" : "-job" + jobId) + ".proctable");
    }

    void write(Path path, byte[] table) {
        try {
            guard.owns(path.toString());
            written.add(path);
            Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
            Files.write(tmp, table);
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            System.err.println("banyand: cannot write the process table " + path + ": " + e.getMessage());
        }
    }

    /** The job is over here: its table goes (kept on the list if it could not be removed, for the daemon's end). */
    void forget(int jobId) {
        Path table = pathOf(jobId);
        if (written.contains(table) && delete(table)) {
            written.remove(table);
        }
    }

    /** The daemon ends: every table it wrote goes. */
    void removeAll() {
        for (Path table : written) {
            delete(table);
        }
    }

    /** False when it is still there; /dev/shm is cleared at reboot, and the guard tries too. */
    private static boolean delete(Path table) {
        try {
            Files.deleteIfExists(table);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
