package org.banyan.pmix;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Who must know where the process's PMIx server keeps its files, told as soon as the server has
 * made its directory: a daemon's rank guard removes it if the daemon is killed. The server may
 * start before any job needs it (a DVM's daemon starts it at once; banyan run while it reads
 * the launch), so waiting for the first job to register left the directory behind when the
 * daemon was killed before. Kept apart from {@link PmixServer}, whose loading starts the FFM
 * linker, so that a daemon that serves no PMIx job pays nothing for asking.
 */
public final class PmixDirectory {
    private static Path made;
    private static final List<Consumer<Path>> WATCHERS = new ArrayList<>();

    private PmixDirectory() {}

    /** Calls {@code watcher} with the directory now if the server has one, else when it makes it. */
    public static synchronized void whenMade(Consumer<Path> watcher) {
        if (made != null) {
            watcher.accept(made);
        } else {
            WATCHERS.add(watcher);
        }
    }

    static void made(Path dir) {
        List<Consumer<Path>> now;
        synchronized (PmixDirectory.class) {
            made = dir;
            now = List.copyOf(WATCHERS);
        }
        now.forEach(w -> w.accept(dir));
    }

    static synchronized void gone() {
        made = null;
    }
}
