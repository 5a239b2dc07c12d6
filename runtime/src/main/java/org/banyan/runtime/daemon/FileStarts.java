package org.banyan.runtime.daemon;

import java.io.Closeable;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.banyan.core.daemon.DaemonEvent;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.daemon.Signals;

/**
 * Ranks whose start waits on their files: a stdout, stderr or stdin that is a FIFO (a task's
 * {@code "stdout": "/path/to/fifo"}), or a file system that does not answer (a hung NFS mount).
 * Opening a FIFO waits for its other end, and a spawn waits with it: the child opens its files
 * before its exec, and posix_spawn returns only after the exec. That held the thread that
 * started the rank, for a local host the DVM's own loop: no task started, no client was
 * answered and {@code dvm stop} timed out until someone opened the FIFO, and the child, a copy
 * of the daemon's JVM blocked in open(2), outlived a killed daemon. A hung mount held it the
 * same way, in the stat that looks for FIFOs or in the spawn.
 *
 * <p>So a rank's files, its required working directory and its program (at its path, or along
 * PATH as its exec will search) are looked at on a thread of a pool ({@link #PATIENCE_MILLIS}
 * waited for, a few microseconds when the file system answers); a rank whose look does not answer in
 * that time, and a rank with a FIFO, waits on a thread of its own, which opens the FIFOs in
 * this process (no child exists meanwhile, so none is left behind if nobody ever opens them),
 * then starts the rank as any other. An ending signal (a cancel, a timeout, the daemon's end)
 * for a rank still waiting ends it at once, never started, with why; other signals wait for its
 * process; its thread is woken out of its open and leaves (one in a stat of a hung mount leaves
 * when the mount answers: nothing can take a thread out of that).
 */
final class FileStarts {
    /** The mode bits of a FIFO, as stat(2) gives them. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    /** Wakes of a given-up rank's FIFOs, 100 ms apart, before its thread is left to wait. */
    private static final int RELEASE_TRIES = 100;
    /**
     * How long the starting thread waits for a look at a rank's files before the rank waits on
     * a thread of its own; {@link #PATIENCE_STUCK_MILLIS} while an earlier look has not answered
     * (a hung session directory: every task's look hangs, and each would cost the loop this).
     */
    static final long PATIENCE_MILLIS = 100;
    static final long PATIENCE_STUCK_MILLIS = 5;

    /** Starts a rank as any other, on the calling thread (the FIFOs' other ends are there). */
    interface Starter {
        void start(RankLaunch launch);
    }

    private final Starter starter;
    private final Consumer<DaemonEvent> events;
    private final BiConsumer<Long, Integer> signalStarted;
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();
    /** Where ranks' files are looked at: a thread that a hung mount holds is replaced by a new one. */
    private final java.util.concurrent.ExecutorService looks = java.util.concurrent.Executors.newCachedThreadPool(
            r -> Thread.ofPlatform().daemon().stackSize(256 << 10).name("rank-file-look").unstarted(r));
    /** Looks that have not answered in their patience, still running. */
    private final java.util.concurrent.atomic.AtomicInteger stuck = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param events        where a rank that ended while it waited is told (the daemon's loop)
     * @param signalStarted sends a signal to the started rank of a key, if it runs
     */
    FileStarts(Starter starter, Consumer<DaemonEvent> events, BiConsumer<Long, Integer> signalStarted) {
        this.starter = starter;
        this.events = events;
        this.signalStarted = signalStarted;
    }

    /**
     * The FIFOs among {@code launch}'s files, as their paths; empty for nearly every launch, at
     * the cost of one stat(2) for each file it names.
     */
    static List<String> fifos(RankLaunch launch) {
        List<String> found = List.of();
        for (String name : new String[] {launch.stdoutFile(), launch.stderrFile(), launch.stdinFile()}) {
            if (name == null || name.equals("/dev/null")) { // the common device, without a stat
                continue;
            }
            String path = RankProcess.inDir(launch.workdir(), name);
            File f = new File(path);
            if (f.exists() && !f.isFile() && !f.isDirectory() && isFifo(path)) {
                found = found.isEmpty() ? new ArrayList<>() : found;
                found.add(path);
            }
        }
        return found;
    }

    /** How many {@code #!} interpreters deep the kernel's exec goes (BINPRM's recursion limit). */
    static final int INTERPRETER_DEPTH = 5;

    /**
     * Looks for {@code program} where the child's exec will: at its path when it names one, else
     * along the daemon's PATH (posix_spawnp searches the parent's), up to the first executable
     * file; and, for a script, at the interpreter its {@code #!} line names, which the exec opens
     * too. A directory of PATH on a mount that does not answer (an NFS {@code /apps/bin} put
     * first by a module) held the exec of every bare name, and with it the thread that spawns;
     * a script of a healthy directory whose {@code #!} named such a mount held it the same way.
     */
    static void lookForProgram(String program, String workdir) {
        Path dir = Path.of(workdir == null ? "" : workdir);
        Path found = org.banyan.pmix.ProgramLookup.find(program, dir, System.getenv("PATH"));
        // interpreterOf's stat is the look: a name with a slash comes back from find unlooked at
        for (int depth = 0; found != null && depth < INTERPRETER_DEPTH; depth++) {
            found = org.banyan.pmix.ProgramLookup.interpreterOf(found, dir);
        }
    }

    private static boolean isFifo(String path) {
        try {
            return ((Integer) Files.getAttribute(Path.of(path), "unix:mode") & S_IFMT) == S_IFIFO;
        } catch (IOException | RuntimeException e) {
            return false; // gone, or not a FIFO the JDK can tell: the start says what it finds
        }
    }

    /**
     * Whether {@code launch} is started here: it has a FIFO among its files, or their file system
     * did not answer within the patience; then it starts once they are there. The signals
     * {@code pending} held for it come along.
     */
    boolean tookOver(long key, RankLaunch launch, PendingStarts<?> pending) {
        boolean inDir = launch.workdirRequired() && launch.workdir() != null; // an MPI task's sandbox, --wdir
        CompletableFuture<List<String>> look = CompletableFuture.supplyAsync(() -> {
            // the child's chdir and exec would wait where these do
            if (inDir) {
                new File(launch.workdir()).isDirectory();
            }
            lookForProgram(launch.executable(), launch.workdir());
            return fifos(launch);
        }, looks);
        List<String> waitFor;
        try {
            waitFor = look.get(stuck.get() > 0 ? PATIENCE_STUCK_MILLIS : PATIENCE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            stuck.incrementAndGet();
            look.whenComplete((found, failure) -> stuck.decrementAndGet());
            start(key, new Waiting(launch, look), () -> pending.take(key));
            return true;
        } catch (java.util.concurrent.ExecutionException e) {
            return false; // the start says what it finds
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (waitFor.isEmpty()) {
            return false;
        }
        start(key, launch, waitFor, () -> pending.take(key));
        return true;
    }

    /**
     * Starts {@code launch} once its {@code fifos} are open at their other ends, on a thread of
     * its own; {@code held} gives the signals that came for it before, taken once it waits here
     * (so that none falls between), and handled as {@link #signal} would.
     */
    void start(long key, RankLaunch launch, List<String> fifos, java.util.function.Supplier<List<Integer>> held) {
        Waiting w = new Waiting(launch, CompletableFuture.completedFuture(fifos));
        w.fifos = fifos;
        start(key, w, held);
    }

    private void start(long key, Waiting w, java.util.function.Supplier<List<Integer>> held) {
        waiting.put(key, w);
        w.thread = Thread.ofPlatform().daemon().stackSize(256 << 10).name("rank-fifo-" + w.launch.jobId() + "-" + w.launch.rank())
                .unstarted(() -> waitThenStart(key, w));
        for (int s : held.get()) {
            signal(key, s);
        }
        w.thread.start();
    }

    /** A signal for {@code key}: true when it was for a rank waiting here, taken (or held) then. */
    boolean signal(long key, int signal) {
        Waiting w = waiting.get(key);
        if (w == null) {
            return false;
        }
        synchronized (w) {
            if (w.state == State.STARTED) {
                return false; // its process is registered: the caller sends it
            }
            if (w.state == State.WAITING && (Signals.ends(signal) || signal == Signals.SIGKILL)) {
                w.state = State.GAVE_UP;
                waiting.remove(key, w);
                release(w);
                RankLaunch l = w.launch;
                String why = w.fifos == null ? "while the file system of its files did not answer"
                        : "while its file waited for the FIFO's other end";
                events.accept(new DaemonEvent.RankEnded(l.jobId(), l.rank(), 128 + signal, l.executable()
                        + ": never started: ended by " + Signals.name(signal) + " " + why, 0, 0));
                return true;
            }
            if (w.state != State.GAVE_UP) {
                w.held.add(signal); // for its process, in order, once it runs
            }
            return true;
        }
    }

    /**
     * The thread of a rank given up while it waits leaves, rather than wait for ever: the other
     * ends of its FIFOs are opened and closed without waiting until it has (its next open could
     * begin just after one such wake, so it is repeated while the thread lives, for 10 s at most).
     */
    private static void release(Waiting w) {
        // a platform thread: a native open that a hung file system holds would pin a virtual one's carrier
        w.thread.interrupt(); // out of its wait for the look at its files
        Thread.ofPlatform().daemon().stackSize(128 << 10).name("rank-fifo-release").start(() -> {
            try {
                for (int i = 0; i < RELEASE_TRIES && w.thread.isAlive(); i++) {
                    List<String> fifos = w.fifos;
                    for (String path : fifos == null ? List.<String>of() : fifos) {
                        org.banyan.runtime.os.RawFd.wakeFifoOpeners(path);
                    }
                    w.thread.join(java.time.Duration.ofMillis(100));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // no native access: the thread stays until its FIFO's other end comes
            }
        });
    }

    private void waitThenStart(long key, Waiting w) {
        List<Closeable> open = new ArrayList<>();
        try {
            if (w.fifos == null) {
                try {
                    w.fifos = w.look.get(); // as long as the file system takes
                } catch (InterruptedException e) {
                    return; // given up
                } catch (java.util.concurrent.ExecutionException e) {
                    w.fifos = List.of(); // the start says what it finds
                }
            }
            for (String path : w.fifos) {
                synchronized (w) {
                    if (w.state == State.GAVE_UP) {
                        return;
                    }
                }
                try {
                    // blocks until the other end is opened, on this thread alone
                    open.add(w.launch.stdinFile() != null && path.equals(RankProcess.inDir(w.launch.workdir(),
                            w.launch.stdinFile())) ? new FileInputStream(path) : new FileOutputStream(path));
                } catch (IOException e) {
                    break; // the start itself fails with why
                }
            }
            synchronized (w) {
                if (w.state == State.GAVE_UP) {
                    return;
                }
                w.state = State.STARTING; // signals wait for the process from now on, ending ones too
            }
            starter.start(w.launch);
            List<Integer> held;
            synchronized (w) {
                w.state = State.STARTED;
                waiting.remove(key, w);
                held = List.copyOf(w.held);
            }
            for (int s : held) {
                signalStarted.accept(key, s);
            }
        } finally {
            for (Closeable c : open) { // after the start: the child holds its own ends now
                try {
                    c.close();
                } catch (IOException e) {
                    // ours only
                }
            }
        }
    }

    private enum State { WAITING, STARTING, STARTED, GAVE_UP }

    private static final class Waiting {
        final RankLaunch launch;
        /** The look at its files; once it has answered, the FIFOs among them in {@link #fifos}. */
        final CompletableFuture<List<String>> look;
        volatile List<String> fifos;
        final List<Integer> held = new ArrayList<>();
        State state = State.WAITING;
        Thread thread;

        Waiting(RankLaunch launch, CompletableFuture<List<String>> look) {
            this.launch = launch;
            this.look = look;
        }
    }
}
