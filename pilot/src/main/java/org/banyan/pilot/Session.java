package org.banyan.pilot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.banyan.runtime.os.FileErrors;

/**
 * A session: a directory (task sandboxes, the pilots' DVM files, the profile) and everything its
 * managers start. Closing it cancels the tasks still running and ends the pilots it started, so
 * nothing it started outlives it (a pilot's DVM also ends if this program dies).
 */
public final class Session implements AutoCloseable {
    private final Path dir;
    private final Path base;
    private final Profile profile;
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final SessionIds ids = new SessionIds();
    private boolean closed;

    /** A session in {@code banyan.session.YYYYMMDD-HHMMSS-PID} under the current directory. */
    public Session() {
        this(defaultDir(Path.of("").toAbsolutePath()));
    }

    /**
     * A session in {@code dir}, made if need be; task descriptions' relative paths are taken from
     * the current directory. A directory that already holds a session is refused with an
     * {@link UncheckedIOException}: the new one would overwrite its profile and sandboxes.
     */
    public Session(Path dir) {
        this(dir, Path.of("").toAbsolutePath());
    }

    /**
     * A session in {@code dir} whose task descriptions' relative paths (a sandbox, staging
     * sources and targets) are taken from {@code base}: the directory of the program that
     * describes the tasks, which need not be this JVM's.
     */
    public Session(Path dir, Path base) {
        this.dir = dir.toAbsolutePath();
        this.base = base.toAbsolutePath();
        try {
            this.profile = new Profile(this.dir);
        } catch (IOException e) {
            // A second session in one directory would overwrite the first's profile and sandboxes.
            throw new UncheckedIOException(e instanceof FileAlreadyExistsException f && this.dir.resolve(Profile.FILE).toString().equals(f.getFile())
                    ? "the session directory " + this.dir + " already holds a session (" + Profile.FILE + "); give a new one"
                    : "cannot make the session directory " + this.dir + " (" + FileErrors.reason(e) + ")", e);
        }
    }

    /**
     * {@code banyan.session.YYYYMMDD-HHMMSS-PID} in {@code parent}, or, when this program made
     * one already within the second, the first of {@code ...-PID.2}, {@code .3}, ... not there.
     */
    public static Path defaultDir(Path parent) {
        String name = "banyan.session." + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + "-" + ProcessHandle.current().pid();
        Path dir = parent.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = parent.resolve(name + "." + n);
        }
        return dir;
    }

    public Path dir() {
        return dir;
    }

    /** Where task descriptions' relative paths start. */
    public Path base() {
        return base;
    }

    public Profile profile() {
        return profile;
    }

    /** @throws IllegalStateException once the session is closed: nothing would end {@code c} */
    synchronized void own(AutoCloseable c) {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        owned.add(c);
    }

    synchronized boolean closed() {
        return closed;
    }

    static long nowMicros() {
        java.time.Instant i = java.time.Instant.now();
        return i.getEpochSecond() * 1_000_000 + i.getNano() / 1000;
    }

    /** The uids of its tasks and pilots, each given once. */
    SessionIds ids() {
        return ids;
    }

    /** Task managers first (their tasks are canceled), then pilot managers. */
    @Override
    public void close() {
        List<AutoCloseable> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(owned);
            owned.clear();
        }
        all.sort((a, b) -> Boolean.compare(a instanceof PilotManager, b instanceof PilotManager));
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                // go on closing the rest
            }
        }
        profile.close();
    }
}
