package org.banyan.runtime.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.banyan.pmix.CCall;

/**
 * This process as the reaper of its descendants' orphans ({@code PR_SET_CHILD_SUBREAPER}): a
 * process that a rank started in a session of its own ({@code setsid}, a daemonising helper)
 * comes here, not to init, when the rank ends, where a daemon can find it and end it.
 */
public final class Subreaper {
    private static final int PR_SET_CHILD_SUBREAPER = 36;
    private static final int SIGKILL = 9;
    private static final int WNOHANG = 1;

    /**
     * The variable that names, in every rank and task a daemon starts, the daemon's pid and the
     * rank's job and number ({@code PID:JOB:RANK}): a process that comes to the daemon as an
     * orphan is known by it as one a rank left behind, and whose (the daemon's own helpers, which
     * the JDK starts, do not carry it; a nested banyan's ranks carry their own daemon's).
     */
    public static final String MARK = "BANYAN_ORIGIN";

    /**
     * The variable that names, in every process a daemon or head JVM starts through the JDK for
     * its own work ({@code ssh}, {@code srun}, {@code sbatch}: {@link ProcessStarts}), that JVM's
     * pid: what such a helper leaves in a session of its own (an ssh {@code ControlPersist}
     * master, which daemonises and comes to the subreaper as an orphan) is the daemon's, never a
     * stray. Ranks do not carry it ({@link LauncherVariables} removes it from their environment).
     */
    public static final String HELPER = "BANYAN_HELPER";

    /** This process's pid, as {@link #MARK} and {@link #HELPER} name it. */
    public static String self() {
        return Long.toString(SELF);
    }

    /**
     * Whether this JVM is a banyan process of its own (the command line, a daemon, a DVM), not a
     * program that embeds a daemon (a test): only in one of its own may a daemon end children it
     * cannot attribute, as nothing else in the process starts any.
     */
    public static boolean wholeProcess() {
        String main = System.getProperty("sun.java.command", "").split(" ", 2)[0];
        return main.startsWith("org.banyan.");
    }

    private Subreaper() {}

    /** Makes this process a subreaper; false where it cannot be (no FFM calls here, an old kernel). */
    public static boolean become() {
        if (!CCall.supported()) {
            return false;
        }
        try {
            return CCall.call(CCall.libc("prctl"), PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** {@code env} with {@link #MARK} for a rank of this process's. */
    public static java.util.Map<String, String> marked(java.util.Map<String, String> env, int jobId, int rank) {
        java.util.Map<String, String> out = new java.util.HashMap<>(env);
        out.put(MARK, new StringBuilder(24).append(SELF).append(':').append(jobId).append(':').append(rank).toString());
        return out;
    }

    private static final long SELF = ProcessHandle.current().pid();

    public static void kill(long pid) {
        CCall.call(CCall.libc("kill"), pid, SIGKILL);
    }

    /** Reaps {@code pid} if it has ended, without waiting; true when it was reaped. */
    public static boolean reap(long pid) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment status = a.allocate(4);
            return CCall.call(CCall.libc("waitpid"), pid, CCall.p(status), WNOHANG) == pid;
        }
    }
}
