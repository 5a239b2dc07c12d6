package org.banyan.runtime.daemon;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.banyan.core.daemon.RankLaunch;
import org.banyan.core.daemon.Signals;
import org.banyan.core.daemon.WarmProgram;
import org.banyan.runtime.os.ChildReaper;
import org.banyan.runtime.os.FileTree;
import org.banyan.runtime.os.PosixSpawn;
import org.banyan.runtime.os.ProcessSignaller;
import org.banyan.runtime.os.RawFd;
import org.banyan.runtime.warm.WarmStart;

/**
 * The JVMs this daemon keeps started and waiting for a DVM job's expansions ({@link WarmProgram}):
 * each is the program's own command line with {@link WarmStart} as its agent, its three standard
 * streams pipes to this daemon. A rank launch one of them serves takes it ({@link #take}); the
 * rest end when the head drops their pool or the daemon ends. Each is in the {@link RankGuard}
 * while it waits, as a rank is, and ends by itself when its stdin closes before it was taken.
 */
final class WarmPool implements AutoCloseable {
    /**
     * A JVM waiting for a rank, and the daemon's ends of its pipes: each closed once, by whoever
     * holds it last (the pool, or, once it is a rank, the output poller).
     */
    static final class Waiting {
        final WarmProgram program;
        final long pid;
        final int guardSlot;
        final CompletableFuture<Integer> exit;
        private final int stdinFd;
        private final int stdoutFd;
        private final int stderrFd;
        private boolean stdinOpen = true;
        private boolean stdoutOurs = true;
        private boolean stderrOurs = true;

        Waiting(WarmProgram program, long pid, int guardSlot, CompletableFuture<Integer> exit, int stdinFd, int stdoutFd,
                int stderrFd) {
            this.program = program;
            this.pid = pid;
            this.guardSlot = guardSlot;
            this.exit = exit;
            this.stdinFd = stdinFd;
            this.stdoutFd = stdoutFd;
            this.stderrFd = stderrFd;
        }

        /** Its stdin's write end, to write the activation to. */
        int stdin() {
            return stdinFd;
        }

        synchronized void closeStdin() {
            if (stdinOpen) {
                stdinOpen = false;
                RawFd.close(stdinFd);
            }
        }

        /** Its stdout's read end, handed over for good (to the output poller, which closes it). */
        synchronized int takeStdout() {
            stdoutOurs = false;
            return stdoutFd;
        }

        synchronized int takeStderr() {
            stderrOurs = false;
            return stderrFd;
        }

        /** Closes the ends not handed over. */
        synchronized void closeOwn() {
            closeStdin();
            if (stdoutOurs) {
                stdoutOurs = false;
                RawFd.close(stdoutFd);
            }
            if (stderrOurs) {
                stderrOurs = false;
                RawFd.close(stderrFd);
            }
        }
    }

    private final RankGuard guard;
    private final List<Waiting> waiting = new ArrayList<>(); // guarded by this
    /** A directory of this daemon's own holding the agent's jar; made on the first keep. */
    private Path jarDir;
    private boolean closed;

    WarmPool(RankGuard guard) {
        this.guard = guard;
    }

    /** Starts JVMs of {@code program} until {@code count} of its pool wait; none without a native spawner. */
    synchronized void keep(WarmProgram program, int count, ChildReaper reaper) throws IOException {
        if (closed || reaper == null || program.workdir() != null && !new File(program.workdir()).isDirectory()) {
            return;
        }
        long have = waiting.stream().filter(w -> w.program.pool() == program.pool()).count();
        for (long i = have; i < count; i++) {
            start(program, reaper);
        }
    }

    private void start(WarmProgram program, ChildReaper reaper) throws IOException {
        PosixSpawn.Child c = PosixSpawn.spawn(program.command(agentJar()), program.env(), program.workdir(), PosixSpawn.PIPE,
                PosixSpawn.PIPE, PosixSpawn.PIPE);
        int slot = guard.started(c.pid());
        CompletableFuture<Integer> exit;
        try {
            exit = reaper.watch(c.pid(), true); // its status becomes a rank's: RankProcess reads the flag
        } catch (RuntimeException e) { // no pidfd: an end nobody would see
            Waiting w = new Waiting(program, c.pid(), slot, null, c.stdinFd(), c.stdoutFd(), c.stderrFd());
            discard(w);
            throw new IOException("cannot watch a waiting JVM: " + e.getMessage(), e);
        }
        Waiting w = new Waiting(program, c.pid(), slot, exit, c.stdinFd(), c.stdoutFd(), c.stderrFd());
        waiting.add(w);
        exit.thenRun(() -> ended(w));
    }

    /** A waiting JVM ended before it was taken (its pool dropped, or it failed): its slot and pipes go. */
    private synchronized void ended(Waiting w) {
        if (waiting.remove(w)) {
            release(w);
        }
    }

    /** A waiting JVM that can be rank {@code launch}, now no longer waiting; null when none can. */
    synchronized Waiting take(RankLaunch launch) {
        if (waiting.isEmpty()) {
            return null;
        }
        for (int i = 0; i < waiting.size(); i++) {
            Waiting w = waiting.get(i);
            if (!w.exit.isDone() && w.program.serves(launch)) {
                return waiting.remove(i);
            }
        }
        return null;
    }

    /** Ends the JVMs waiting for {@code pool}. */
    void drop(int pool) {
        List<Waiting> gone = new ArrayList<>();
        synchronized (this) {
            waiting.removeIf(w -> w.program.pool() == pool && gone.add(w));
        }
        gone.forEach(WarmPool::discardNow);
        gone.forEach(this::release);
    }

    /** Ends a JVM taken that could not become its rank. */
    void discard(Waiting w) {
        discardNow(w);
        release(w);
    }

    /**
     * Kills {@code w} unless it has ended: once its end is known it has been reaped, and its pid may
     * already be another process's (a JVM that died before its activation was written).
     */
    static void discardNow(Waiting w) {
        if (!w.exit.isDone()) {
            ProcessHandle.of(w.pid).ifPresent(h -> ProcessSignaller.signalTree(h, Signals.SIGKILL));
        }
    }

    private void release(Waiting w) {
        guard.ended(w.pid, w.guardSlot);
        w.closeOwn();
    }

    /**
     * The agent's jar: {@link WarmStart} alone (it loads in the program's JVM, without the rest of
     * Banyan), in a directory only this user can read, which goes with the daemon: removed at its
     * end, or by its {@link RankGuard} when it is killed.
     */
    private String agentJar() throws IOException {
        if (jarDir == null) {
            Path dir = Files.createTempDirectory("banyan-warm-"); // 0700
            guard.owns(dir.toString()); // removed by the guard should this daemon be killed
            writeAgentJar(dir.resolve("agent.jar"));
            jarDir = dir;
        }
        return jarDir.resolve("agent.jar").toString();
    }

    /** Writes the agent's jar: {@link WarmStart}'s class and a manifest naming it the premain class. */
    static void writeAgentJar(Path jarFile) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(new Attributes.Name("Premain-Class"), WarmStart.class.getName());
        String entry = WarmStart.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jarFile);
             JarOutputStream jar = new JarOutputStream(file, m);
             InputStream in = WarmStart.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IOException("the warm pool's agent class is not on this daemon's class path");
            }
            jar.putNextEntry(new JarEntry(entry));
            in.transferTo(jar);
            jar.closeEntry();
        }
    }

    /** Ends every waiting JVM and removes the agent's jar. */
    @Override
    public void close() {
        List<Waiting> gone;
        synchronized (this) {
            closed = true;
            gone = new ArrayList<>(waiting);
            waiting.clear();
        }
        gone.forEach(WarmPool::discardNow);
        gone.forEach(this::release);
        if (jarDir != null) {
            FileTree.delete(jarDir);
        }
    }
}
