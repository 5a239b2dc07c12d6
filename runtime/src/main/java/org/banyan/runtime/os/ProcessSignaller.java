package org.banyan.runtime.os;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.daemon.Signals;
import org.banyan.pmix.CCall;

/**
 * Sends signals to a process and everything it started. SIGTERM and SIGKILL go through the JDK;
 * other signals need libc's kill(2), bound on first use so it costs nothing on start-up.
 */
public final class ProcessSignaller {
    private static volatile MemorySegment kill;

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
            List<Long> below = descendantsFromProc(process.pid());
            if (below == null) {
                process.descendants().forEach(tree::add);
            } else {
                for (long pid : below) {
                    ProcessHandle.of(pid).ifPresent(tree::add);
                }
            }
        } catch (RuntimeException e) {
            // the process went away while we walked /proc; signal what we have
        }
        for (ProcessHandle p : tree) {
            signal(p, signal);
        }
    }

    /**
     * The descendants of {@code pid} from the kernel's {@code /proc/PID/task/TID/children} lists,
     * null when the kernel does not keep them. The JDK's {@code descendants()} reads every
     * process of the machine instead, which made cancelling N tasks cost N × (all processes):
     * 2,000 sleeps on 8 daemons took 61 s to cancel; 100,000 would take hours.
     */
    static List<Long> descendantsFromProc(long pid) {
        if (!Files.exists(Path.of("/proc", Long.toString(pid), "task", Long.toString(pid), "children"))) {
            return null;
        }
        List<Long> found = new ArrayList<>();
        ArrayDeque<Long> todo = new ArrayDeque<>(List.of(pid));
        while (!todo.isEmpty()) {
            long p = todo.poll();
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(Path.of("/proc", Long.toString(p), "task"))) {
                for (Path thread : threads) {
                    for (String child : Files.readString(thread.resolve("children")).trim().split(" +")) {
                        if (!child.isEmpty()) {
                            long c = Long.parseLong(child);
                            found.add(c);
                            todo.add(c);
                        }
                    }
                }
            } catch (NoSuchFileException e) {
                // it ended while we walked: its children, if any, were reparented and are not ours to find
            } catch (IOException e) {
                // unreadable (it ended mid-read): go on with what we have
            }
        }
        return found;
    }

    public static void signal(ProcessHandle p, int signal) {
        switch (signal) {
            case Signals.SIGTERM -> p.destroy();
            case Signals.SIGKILL -> p.destroyForcibly();
            default -> kill(p.pid(), signal);
        }
    }

    private static void kill(long pid, int signal) {
        MemorySegment fn = kill;
        if (fn == null) {
            fn = CCall.libc("kill");
            kill = fn;
        }
        int rc = (int) CCall.call(fn, pid, signal);
        if (rc != 0) {
            // ESRCH: it is already gone, which is what we wanted
        }
    }
}
