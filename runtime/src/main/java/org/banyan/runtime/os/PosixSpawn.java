package org.banyan.runtime.os;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.banyan.pmix.CCall.p;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.List;
import java.util.Map;
import org.banyan.pmix.CCall;

/**
 * Creates child processes with glibc's {@code posix_spawnp} (a {@code clone(CLONE_VM|CLONE_VFORK)}
 * and one exec), where {@code ProcessBuilder} execs {@code jspawnhelper} first and the program
 * from there: one exec per process instead of two, and no pipe the JDK opens by default.
 *
 * <p>What the child gets, in this order: its standard streams ({@link Stdio}), every other
 * descriptor closed (the JVM's own are not all close-on-exec), the working directory, the
 * default action and an empty mask for every signal, and the JVM's environment (less the
 * {@link LauncherVariables}) with the caller's variables on top. The caller owns the pipe ends
 * it gets back and must have the child reaped ({@link ChildReaper}).
 */
public final class PosixSpawn {
    private static final int O_RDONLY = 0;
    private static final int O_WRONLY = 1;
    private static final int O_CREAT = 0x40;
    private static final int O_TRUNC = 0x200;
    /**
     * Each child leads a process group of its own (its pgid its pid): what it leaves running when
     * it ends can then be found and killed ({@link ChildReaper}), as Slurm's pgid tracking does.
     */
    private static final short POSIX_SPAWN_SETPGROUP = 0x02;
    private static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    private static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    /** glibc's sizes on Linux are 80 and 336 bytes; room to spare. */
    private static final long FILE_ACTIONS_BYTES = 256;
    private static final long ATTR_BYTES = 1024;
    private static final long SIGSET_BYTES = 128;

    private static final MemorySegment SPAWNP = CCall.libc("posix_spawnp");
    private static final MemorySegment FA_INIT = CCall.libc("posix_spawn_file_actions_init");
    private static final MemorySegment FA_DESTROY = CCall.libc("posix_spawn_file_actions_destroy");
    private static final MemorySegment FA_OPEN = CCall.libc("posix_spawn_file_actions_addopen");
    private static final MemorySegment FA_DUP2 = CCall.libc("posix_spawn_file_actions_adddup2");
    private static final MemorySegment FA_CLOSEFROM = CCall.libc("posix_spawn_file_actions_addclosefrom_np");
    private static final MemorySegment FA_CHDIR = CCall.libc("posix_spawn_file_actions_addchdir_np");
    private static final MemorySegment ATTR_INIT = CCall.libc("posix_spawnattr_init");
    private static final MemorySegment ATTR_FLAGS = CCall.libc("posix_spawnattr_setflags");
    private static final MemorySegment ATTR_SIGMASK = CCall.libc("posix_spawnattr_setsigmask");
    private static final MemorySegment ATTR_SIGDEFAULT = CCall.libc("posix_spawnattr_setsigdefault");
    private static final MemorySegment SIGEMPTYSET = CCall.libc("sigemptyset");
    private static final MemorySegment SIGFILLSET = CCall.libc("sigfillset");

    /**
     * The spawn attributes every child gets (an empty signal mask, every signal's default
     * action), set up once: {@code posix_spawn} only reads them, so all threads share them.
     */
    private static final MemorySegment ATTR = defaultAttributes();
    /**
     * The JVM's environment without the launcher's own variables, encoded once: the base of
     * every child's ({@link OwnEnvironment}).
     */
    private static final OwnEnvironment OWN_ENV = new OwnEnvironment(LauncherVariables.removedFrom(ProcessText.environment()));
    /**
     * Each spawning thread's native memory for one spawn's strings and arrays, reused: before,
     * a confined arena per child made some fifty small native allocations and frees, the spawn's
     * largest Java cost at thousands of children a second. A spawn that needs more (a huge
     * command line) takes an arena of its own.
     */
    static final long SCRATCH_BYTES = 64 * 1024;
    /** For threads other than the reapers, which have their own ({@link ChildReaper#spawnScratch}). */
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(SCRATCH_BYTES, 16));

    /** Where one of the child's standard streams goes. */
    public sealed interface Stdio {
        /** A new pipe; the parent gets the other end. */
        record Pipe() implements Stdio {}

        /** A file, created or truncated for output, read for input. */
        record File(String path) implements Stdio {}
    }

    /** Standard input from {@code /dev/null}. */
    public static final Stdio NULL = new Stdio.File("/dev/null");
    public static final Stdio PIPE = new Stdio.Pipe();

    /** A started child: its pid and the parent's ends of its pipes (-1 where there is none). */
    public record Child(long pid, int stdinFd, int stdoutFd, int stderrFd) {}

    private PosixSpawn() {}

    /**
     * Loads this class, which binds every call {@link #spawn} needs: true, or an
     * {@code ExceptionInInitializerError} where libc lacks one (the caller then uses ProcessBuilder).
     */
    public static boolean available() {
        return SPAWNP != null && CCall.supported();
    }

    /**
     * Starts {@code command} (the program looked up in the daemon's PATH, as ProcessBuilder does)
     * with this JVM's environment and {@code env} on top of it (added, or replacing a variable of
     * the same name), in {@code dir} when not null.
     *
     * @throws IOException naming the program and the reason when it cannot be started
     */
    public static Child spawn(List<String> command, Map<String, String> env, String dir,
                              Stdio in, Stdio out, Stdio err) throws IOException {
        return spawn(command, env, dir, in, out, err, new int[0]);
    }

    /**
     * As {@link #spawn(List, Map, String, Stdio, Stdio, Stdio)}, the child bound to {@code cpus}
     * (none: not bound) from its start: the calling thread takes the mask for the length of the
     * spawn and gets its own back after. Call it from a platform thread.
     */
    public static Child spawn(List<String> command, Map<String, String> env, String dir,
                              Stdio in, Stdio out, Stdio err, int[] cpus) throws IOException {
        if (cpus.length == 0) { // the common case, without the capturing lambda C1 builds through a method handle
            return spawnAsIs(command, env, dir, in, out, err);
        }
        return Affinity.whileBound(cpus, () -> spawnAsIs(command, env, dir, in, out, err));
    }

    private static Child spawnAsIs(List<String> command, Map<String, String> env, String dir,
                                   Stdio in, Stdio out, Stdio err) throws IOException {
        try {
            return spawnOnce(command, env, dir, in, out, err);
        } catch (NoExecFormat e) {
            // As execvp does (and the JDK's ProcessBuilder, and mpiexec.hydra): a text file
            // without a #! line is a script for the shell. glibc's posix_spawnp stopped doing
            // this in 2.15, so a script that runs from a shell and under Hydra failed here.
            java.nio.file.Path file = found(command.getFirst(), dir);
            if (file == null || !shellScript(file)) {
                throw e;
            }
            List<String> viaShell = new java.util.ArrayList<>(command.size() + 1);
            viaShell.add("/bin/sh");
            viaShell.add(command.getFirst().contains("/") ? command.getFirst() : file.toString());
            viaShell.addAll(command.subList(1, command.size()));
            return spawnOnce(viaShell, env, dir, in, out, err);
        }
    }

    /** posix_spawn's ENOEXEC: the kernel does not know the file's format. */
    private static final int ENOEXEC = 8;

    /** The program is in no format the kernel runs. */
    private static final class NoExecFormat extends IOException {
        NoExecFormat(String message) {
            super(message);
        }
    }

    /**
     * Whether {@code file} is one the shell would run as a script: no NUL byte in its first
     * block, as bash refuses a binary file ("cannot execute binary file"); an ELF file of
     * another machine stays "Exec format error".
     */
    private static boolean shellScript(java.nio.file.Path file) {
        if (!java.nio.file.Files.isRegularFile(file)) {
            return false;
        }
        byte[] head = new byte[256];
        int n;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (head[i] == 0) {
                return false;
            }
        }
        return true;
    }

    private static Child spawnOnce(List<String> command, Map<String, String> env, String dir,
                                   Stdio in, Stdio out, Stdio err) throws IOException {
        if (nativeBytes(command, env, dir, in, out, err) <= SCRATCH_BYTES) {
            MemorySegment scratch = ChildReaper.spawnScratch();
            return spawnWith(SegmentAllocator.slicingAllocator(scratch != null ? scratch : SCRATCH.get()),
                    command, env, dir, in, out, err);
        }
        try (Arena a = Arena.ofConfined()) {
            return spawnWith(a, command, env, dir, in, out, err);
        }
    }

    private static Child spawnWith(SegmentAllocator a, List<String> command, Map<String, String> env, String dir,
                                   Stdio in, Stdio out, Stdio err) throws IOException {
        int[] inPipe = in instanceof Stdio.Pipe ? RawFd.pipe() : null;
        int[] outPipe = out instanceof Stdio.Pipe ? RawFd.pipe() : null;
        int[] errPipe = err instanceof Stdio.Pipe ? RawFd.pipe() : null;
        boolean started = false;
        try {
            MemorySegment fa = a.allocate(FILE_ACTIONS_BYTES, 16);
            check((int) CCall.call(FA_INIT, p(fa)), "file actions");
            try {
                stream(a, fa, 0, in, inPipe == null ? -1 : inPipe[0], O_RDONLY);
                stream(a, fa, 1, out, outPipe == null ? -1 : outPipe[1], O_WRONLY | O_CREAT | O_TRUNC);
                stream(a, fa, 2, err, errPipe == null ? -1 : errPipe[1], O_WRONLY | O_CREAT | O_TRUNC);
                check((int) CCall.call(FA_CLOSEFROM, p(fa), 3), "closefrom");
                if (dir != null) {
                    check((int) CCall.call(FA_CHDIR, p(fa), p(ProcessText.cString(a, dir))), "chdir");
                }
                MemorySegment argv = strings(a, command);
                MemorySegment envp = OWN_ENV.with(a, env);
                MemorySegment pid = a.allocate(JAVA_INT);
                MemorySegment program = ProcessText.cString(a, command.get(0));
                int rc;
                CCall.ENVIRONMENT.readLock().lock(); // posix_spawnp reads PATH from the C environment
                try {
                    rc = (int) CCall.call(SPAWNP, p(pid), p(program), p(fa), p(ATTR), p(argv), p(envp));
                } finally {
                    CCall.ENVIRONMENT.readLock().unlock();
                }
                if (rc == ENOEXEC) {
                    throw new NoExecFormat(Libc.strerror(rc));
                }
                if (rc != 0) {
                    throw new IOException(Libc.strerror(rc) + culprit(command.getFirst(), dir, in, out, err));
                }
                started = true;
                return new Child(pid.get(JAVA_INT, 0), inPipe == null ? -1 : inPipe[1],
                        outPipe == null ? -1 : outPipe[0], errPipe == null ? -1 : errPipe[0]);
            } finally {
                CCall.call(FA_DESTROY, p(fa));
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            // The child's ends are the child's now (or nobody's); the parent's go if it did not start.
            closeEnd(inPipe, 0);
            closeEnd(outPipe, 1);
            closeEnd(errPipe, 1);
            if (!started) {
                closeEnd(inPipe, 1);
                closeEnd(outPipe, 0);
                closeEnd(errPipe, 0);
            }
        }
    }

    /**
     * What posix_spawn's one errno may have been about besides the program: its directory, or
     * the directory of a file its streams go to (the file actions run in the child, before the
     * exec, and fail with the same errno as a missing program would). Only after a failure.
     */
    private static String culprit(String program, String dir, Stdio in, Stdio out, Stdio err) {
        if (dir != null && !new java.io.File(dir).isDirectory()) {
            return " (no directory " + dir + ")";
        }
        String[] names = {"stdin", "stdout", "stderr"};
        Stdio[] streams = {in, out, err};
        for (int i = 0; i < streams.length; i++) {
            if (streams[i] instanceof Stdio.File(String path)) {
                java.io.File f = new java.io.File(path);
                java.io.File parent = f.getAbsoluteFile().getParentFile();
                if (i == 0 ? !f.canRead() : parent != null && !parent.isDirectory()) {
                    return " (cannot open its " + names[i] + " " + path + ")";
                }
            }
        }
        java.nio.file.Path file = found(program, dir);
        if (file == null) {
            return "";
        }
        org.banyan.pmix.ProgramLookup.BadInterpreter bad =
                org.banyan.pmix.ProgramLookup.missingInterpreter(file, java.nio.file.Path.of(dir == null ? "" : dir));
        if (bad != null) { // line endings are the script's own, wherever it runs
            return " (the script " + bad.words() + (bad.lineEndings() ? ")" : " on this host)");
        }
        // The program is there: a file other than a plain one, or a link (/dev/stdout, which in
        // the child names the descriptor its own action has just closed), is what failed.
        List<String> odd = new java.util.ArrayList<>();
        for (int i = 0; i < streams.length; i++) {
            if (streams[i] instanceof Stdio.File(String path) && !path.equals("/dev/null")
                    && java.nio.file.Files.exists(java.nio.file.Path.of(path), java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !java.nio.file.Files.isRegularFile(java.nio.file.Path.of(path), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                odd.add(names[i] + " " + path);
            }
        }
        return odd.isEmpty() ? "" : " (opening its " + String.join(" or ", odd) + "; its program is there)";
    }

    /** The executable file {@code program} is, as posix_spawnp looks for it (this process's PATH when it has no slash), or null. */
    private static java.nio.file.Path found(String program, String dir) {
        java.nio.file.Path p = org.banyan.pmix.ProgramLookup.find(program, java.nio.file.Path.of(dir == null ? "" : dir),
                System.getenv("PATH"));
        return p != null && java.nio.file.Files.isExecutable(p) ? p : null;
    }

    /**
     * An upper bound of the native memory one spawn takes: its strings at three bytes a char
     * (UTF-8's most for a Java char), the pointer arrays, the file actions and alignment.
     */
    private static long nativeBytes(List<String> command, Map<String, String> env, String dir,
                                    Stdio in, Stdio out, Stdio err) {
        long chars = dir == null ? 0 : dir.length() + 1;
        for (String c : command) {
            chars += c.length() + 1;
        }
        chars += command.getFirst().length() + 1;
        for (Map.Entry<String, String> e : env.entrySet()) {
            chars += e.getKey().length() + e.getValue().length() + 2;
        }
        for (Stdio s : new Stdio[] {in, out, err}) {
            if (s instanceof Stdio.File f) {
                chars += f.path().length() + 1;
            }
        }
        long pointers = command.size() + 1 + OWN_ENV.size() + env.size() + 1;
        return 3 * chars + 8 * pointers + FILE_ACTIONS_BYTES + 256;
    }

    private static void stream(SegmentAllocator a, MemorySegment fa, int target, Stdio s, int pipeEnd, int flags) throws Throwable {
        switch (s) {
            case Stdio.Pipe pipe -> check((int) CCall.call(FA_DUP2, p(fa), pipeEnd, target), "dup2");
            case Stdio.File f -> check((int) CCall.call(FA_OPEN, p(fa), target, p(ProcessText.cString(a, f.path())), flags, 0644), "open");
        }
    }

    private static MemorySegment strings(SegmentAllocator a, List<String> list) {
        // by size and alignment: allocate(layout, count) makes objects through a VM call under C1
        MemorySegment arr = a.allocate(ADDRESS.byteSize() * (list.size() + 1L), ADDRESS.byteAlignment());
        for (int i = 0; i < list.size(); i++) {
            arr.setAtIndex(ADDRESS, i, ProcessText.cString(a, list.get(i)));
        }
        arr.setAtIndex(ADDRESS, list.size(), MemorySegment.NULL);
        return arr;
    }

    private static MemorySegment defaultAttributes() {
        MemorySegment attr = Arena.global().allocate(ATTR_BYTES, 16);
        MemorySegment none = Arena.global().allocate(SIGSET_BYTES, 8);
        MemorySegment all = Arena.global().allocate(SIGSET_BYTES, 8);
        try {
            check((int) CCall.call(ATTR_INIT, p(attr)), "attributes");
            check((int) CCall.call(SIGEMPTYSET, p(none)), "sigemptyset");
            check((int) CCall.call(SIGFILLSET, p(all)), "sigfillset");
            check((int) CCall.call(ATTR_SIGMASK, p(attr), p(none)), "sigmask");
            check((int) CCall.call(ATTR_SIGDEFAULT, p(attr), p(all)), "sigdefault");
            check((int) CCall.call(ATTR_FLAGS, p(attr), POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP), "flags");
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
        return attr;
    }

    private static void check(int rc, String what) throws IOException {
        if (rc != 0) {
            throw new IOException("posix_spawn " + what + ": " + Libc.strerror(rc));
        }
    }

    private static void closeEnd(int[] pipe, int end) {
        if (pipe != null) {
            RawFd.close(pipe[end]);
            pipe[end] = -1;
        }
    }
}
