package org.banyan.runtime.os;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.daemon.Signals;

/**
 * Sends signals to a process and everything it started. SIGTERM and SIGKILL go through the JDK;
 * other signals need libc's kill(2), bound on first use so it costs nothing on start-up.
 */
public final class ProcessSignaller {
    private static volatile MethodHandle kill;

    private ProcessSignaller() {}

    /**
     * Signals {@code process} and then its descendants. The descendants are collected before any
     * signal is sent, while they are still linked to it. The process goes first so that a rank
     * that handles the signal sees it before its children die of it: a shell whose only child
     * dies returns from {@code wait} and may exit normally before its own signal arrives.
     */
    public static void signalTree(ProcessHandle process, int signal) {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process);
        try {
            process.descendants().forEach(tree::add);
        } catch (RuntimeException e) {
            // the process went away while we walked /proc; signal what we have
        }
        for (ProcessHandle p : tree) {
            signal(p, signal);
        }
    }

    public static void signal(ProcessHandle p, int signal) {
        switch (signal) {
            case Signals.SIGTERM -> p.destroy();
            case Signals.SIGKILL -> p.destroyForcibly();
            default -> kill(p.pid(), signal);
        }
    }

    private static void kill(long pid, int signal) {
        try {
            MethodHandle h = kill;
            if (h == null) {
                h = Libc.bind("kill", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), false);
                kill = h;
            }
            int rc = (int) h.invokeExact((int) pid, signal);
            if (rc != 0) {
                // ESRCH: it is already gone, which is what we wanted
            }
        } catch (Throwable t) {
            throw new IllegalStateException("cannot send signal " + signal + " to " + pid, t);
        }
    }
}
