package org.banyan.runtime.dvm;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One DVM per URI file, decided by the kernel: a DVM's head holds an advisory lock on
 * {@code URI.lock} for its whole life (released when its process ends, however it ends), and a
 * {@code banyan dvm start} holds {@code URI.start} from its check until its head holds the
 * first, so that two starts at the same moment take turns and the second sees the first's head.
 * Before, both started a head and one of them was orphaned.
 */
public final class DvmClaim {
    private static final long HANDOVER_MILLIS = 10_000;
    /** The head's lock: kept open (and so held) until the process ends. */
    private static FileChannel held;

    private DvmClaim() {}

    static Path lifeLock(DvmFiles files) {
        return files.uri().resolveSibling(files.uri().getFileName() + ".lock");
    }

    static Path startLock(DvmFiles files) {
        return files.uri().resolveSibling(files.uri().getFileName() + ".start");
    }

    private static FileChannel open(DvmFiles files, Path p) throws IOException {
        files.makeDirectory();
        try {
            return FileChannel.open(p, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return FileChannel.open(p, StandardOpenOption.WRITE);
        }
    }

    /** How long a lock that is taken is tried again: its start probing it, or a head on its way out, hold it for moments. */
    private static final long SETTLE_MILLIS = 3_000;

    /**
     * The head: takes the URI file for its life; false when another head holds it. Tried again
     * for a few seconds, as the start that made this head probes the lock while it waits for it
     * ({@link #handOver}), and a stopped head lets go of it only as its process ends.
     */
    public static synchronized boolean takeForLife(DvmFiles files) throws IOException {
        FileChannel ch = open(files, lifeLock(files));
        long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
        FileLock lock;
        while ((lock = ch.tryLock()) == null && System.currentTimeMillis() < deadline) {
            pause();
        }
        if (lock == null) {
            ch.close();
            return false;
        }
        held = ch;
        return true;
    }

    /** Whether a head holds the URI file for longer than a stopping head does (a few seconds). */
    public static boolean headStaysHolding(DvmFiles files) throws IOException {
        long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
        while (headHolds(files)) {
            if (System.currentTimeMillis() >= deadline) {
                return true;
            }
            pause();
        }
        return false;
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a head holds the URI file now. */
    public static boolean headHolds(DvmFiles files) throws IOException {
        try (FileChannel ch = open(files, lifeLock(files))) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        }
    }

    /** How long a start waits for another's turn: a turn lasts its check and hand-over, seconds at most. */
    static final long TURN_WAIT_MILLIS = 20_000;

    /**
     * A start's turn: held from its check until its head holds the URI file (or is gone). Another
     * start at the same moment is waited for, but not for ever: one stopped half-way (Ctrl-Z)
     * would hold every later start.
     *
     * @throws IOException when another start holds the turn for {@link #TURN_WAIT_MILLIS}
     */
    public static FileChannel startTurn(DvmFiles files) throws IOException {
        FileChannel ch = open(files, startLock(files));
        long deadline = System.currentTimeMillis() + TURN_WAIT_MILLIS;
        while (ch.tryLock() == null) {
            if (System.currentTimeMillis() >= deadline) {
                ch.close();
                throw new IOException("another 'banyan dvm start' with this URI file has not finished in "
                        + TURN_WAIT_MILLIS / 1000 + " s (is it stopped?)");
            }
            pause();
        }
        return ch;
    }

    /** Waits, at most 10 s, until a head holds the URI file or {@code head} has ended; then the turn ends. */
    public static void handOver(FileChannel turn, DvmFiles files, ProcessHandle head) throws IOException {
        try (turn) {
            long deadline = System.currentTimeMillis() + HANDOVER_MILLIS;
            while (System.currentTimeMillis() < deadline && head.isAlive() && !headHolds(files)) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
