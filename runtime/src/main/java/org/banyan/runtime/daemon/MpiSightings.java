package org.banyan.runtime.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;

/**
 * Looks into the ranks of the jobs the core asked it to watch ({@code WatchWireUp}) for what an
 * MPI singleton leaves: an MPI library mapped into the rank or a process it started
 * ({@code /proc/PID/maps}), and Open MPI's singleton helper ({@code orted ... --singleton-died-pipe})
 * among its children. Each rank is looked at a few times in its first 30 s, first 5 ms after its
 * start (the dynamic loader maps the library before {@code main}; a whole MPICH singleton's
 * hello lasts 20 ms here), on one thread of its own, and what is seen goes to the core as
 * {@link DaemonEvent.RankMpiSeen}, which decides. Reading a process's maps costs under a
 * millisecond (an Open MPI rank's has hundreds of lines), on cores its ranks are starting on; a
 * rank that has ended or reached the job's PMI or PMIx server ({@code RankWiredUp}) is not
 * looked at again, and once a rank's MPI library is known its later looks only seek the
 * singleton helper. A rank that loads MPI and ends between two looks is not seen.
 */
final class MpiSightings {
    /** When each rank is looked at, after its start. */
    private static final long[] AFTER_MILLIS = {5, 20, 60, 150, 400, 1_000, 3_000, 10_000, 30_000};
    /** How many processes below a rank are looked at, at most (a rank that forks a pool is not walked whole). */
    private static final int MAX_PROCESSES = 64;

    private final Consumer<DaemonEvent> post;
    private final Set<Integer> jobs = ConcurrentHashMap.newKeySet();
    /** Ranks that reached a server, as {@link #key}s: their next look is their last. */
    private final Set<Long> wiredUp = ConcurrentHashMap.newKeySet();
    private final DelayQueue<Look> queue = new DelayQueue<>();
    private Thread thread;

    MpiSightings(Consumer<DaemonEvent> post) {
        this.post = post;
    }

    void watch(int jobId) {
        jobs.add(jobId);
    }

    void forget(int jobId) {
        jobs.remove(jobId);
        wiredUp.removeIf(k -> (int) (k >>> 32) == jobId);
    }

    /** A rank of a watched job reached the PMI or PMIx server: it is no singleton, and is not looked at again. */
    void wiredUp(int jobId, int rank) {
        if (jobs.contains(jobId)) {
            wiredUp.add(key(jobId, rank));
        }
    }

    private static long key(int jobId, int rank) {
        return (long) jobId << 32 | (rank & 0xffffffffL);
    }

    /** A rank started; looked at when its job is watched. */
    void started(int jobId, int rank, long pid) {
        if (!jobs.contains(jobId)) {
            return;
        }
        synchronized (this) {
            if (thread == null) {
                thread = Thread.ofPlatform().daemon().name("mpi-sightings").start(this::run);
            }
        }
        queue.add(new Look(jobId, rank, pid, System.nanoTime(), 0, null));
    }

    void close() {
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.interrupt();
        }
    }

    private void run() {
        try {
            while (true) {
                Look look = queue.take();
                if (!jobs.contains(look.jobId) || wiredUp.remove(key(look.jobId, look.rank))
                        || !Files.isDirectory(Path.of("/proc/" + look.pid))) {
                    continue;
                }
                Sighting s = look(look.pid, look.library);
                String library = s.library != null ? s.library : look.library;
                if (s.library != null && (look.library == null || s.singletonHelper)) {
                    post.accept(new DaemonEvent.RankMpiSeen(look.jobId, look.rank, s.library, s.singletonHelper));
                }
                if (!s.singletonHelper && look.step + 1 < AFTER_MILLIS.length) {
                    queue.add(new Look(look.jobId, look.rank, look.pid, look.startNanos, look.step + 1, library));
                }
            }
        } catch (InterruptedException e) {
            // the daemon ends
        }
    }

    /** What one look at a rank's processes found. */
    record Sighting(String library, boolean singletonHelper) {}

    /**
     * The first MPI library mapped into {@code pid} or a process below it, and whether Open MPI's
     * singleton helper is among them; with {@code known}, the library an earlier look found, no
     * process's maps are read again.
     */
    static Sighting look(long pid, String known) {
        String library = known;
        boolean helper = false;
        ArrayDeque<Long> todo = new ArrayDeque<>(List.of(pid));
        int seen = 0;
        while (!todo.isEmpty() && seen++ < MAX_PROCESSES) {
            long p = todo.poll();
            if (p != pid && isSingletonHelper(p)) {
                helper = true;
            }
            if (library == null) {
                library = mpiLibrary(p);
            }
            todo.addAll(children(p));
        }
        return new Sighting(library, helper && library != null);
    }

    /** The file name of an MPI library mapped into {@code pid}, or null. */
    static String mpiLibrary(long pid) {
        String maps;
        try {
            // one read and a search of the whole text: a line at a time was 3 ms a look on a cold JVM
            maps = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/maps")), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return null; // gone, or not ours to read
        }
        for (String prefix : MPI_LIBRARIES) {
            int at = maps.indexOf("/" + prefix);
            if (at >= 0) {
                int end = maps.indexOf('\n', at);
                String name = maps.substring(at + 1, end < 0 ? maps.length() : end);
                return name.endsWith(DELETED) ? name.substring(0, name.length() - DELETED.length()) : name;
            }
        }
        return null;
    }

    /** What the kernel adds to a mapped file's path in {@code maps} once the file is deleted (a library reinstalled under a running rank). */
    private static final String DELETED = " (deleted)";

    /** Open MPI's, MPICH's and OpenSHMEM's libraries (not their Fortran and C++ layers, which come with them). */
    private static final List<String> MPI_LIBRARIES = List.of("libmpi.so", "libmpich.so", "liboshmem.so");

    private static boolean isSingletonHelper(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline"));
            String cmdline = new String(raw, StandardCharsets.ISO_8859_1);
            String argv0 = cmdline.indexOf('\0') < 0 ? cmdline : cmdline.substring(0, cmdline.indexOf('\0'));
            return (argv0.equals("orted") || argv0.endsWith("/orted")) && cmdline.contains("\0--singleton-died-pipe\0");
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Long> children(long pid) {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks) {
                try {
                    String list = Files.readString(task.resolve("children"), StandardCharsets.ISO_8859_1).trim();
                    if (!list.isEmpty()) {
                        for (String c : list.split(" ")) {
                            out.add(Long.parseLong(c));
                        }
                    }
                } catch (IOException | NumberFormatException e) {
                    // the thread ended, or the kernel keeps no child lists
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            // gone
        }
        return out;
    }

    private record Look(int jobId, int rank, long pid, long startNanos, int step, String library) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            long due = startNanos + TimeUnit.MILLISECONDS.toNanos(AFTER_MILLIS[step]);
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
