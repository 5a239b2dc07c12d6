package org.banyan.runtime.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Processes as {@code /proc} shows them: each one's parent, state and start time. A process's
 * children are found by the JDK's native pass over {@code /proc} (this kernel type, like others
 * built without {@code CONFIG_PROC_CHILDREN}, has no list of them), then only theirs are read
 * here: the same pass in Java took milliseconds at the end of every run.
 */
public final class ProcessScan {
    private ProcessScan() {}

    /**
     * One process: {@code pgrp} its process group, {@code state} is {@code stat}'s third field ({@code Z} for a zombie), {@code
     * start} its start time in clock ticks since boot, which tells a pid given out again from the
     * one seen before.
     */
    public record Proc(long pid, long ppid, long pgrp, char state, long start) {
        public boolean zombie() {
            return state == 'Z';
        }
    }

    /** The children of {@code pid} that could be read (zombies included); one that ends meanwhile is left out. */
    public static List<Proc> childrenOf(long pid) {
        List<Proc> out = new ArrayList<>();
        ProcessHandle.of(pid).ifPresent(h -> h.children().forEach(c -> {
            Proc p = of(c.pid());
            if (p != null && p.ppid() == pid) {
                out.add(p);
            }
        }));
        return out;
    }

    /** {@code root} and every process below it that could be read, parents before their children. */
    public static List<Proc> treeOf(Proc root) {
        List<Proc> out = new ArrayList<>(List.of(root));
        ProcessHandle.of(root.pid()).ifPresent(h -> h.descendants().forEach(d -> {
            Proc p = of(d.pid());
            if (p != null) {
                out.add(p);
            }
        }));
        return out;
    }

    /** One process, or null when it is gone. */
    public static Proc of(long pid) {
        try {
            return parse(pid, Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The calling thread as {@code /proc/thread-self/stat} shows it (its pid is the thread's id):
     * its start time is after this process exec'd its program, as no Java thread is the one that
     * did. Null when it cannot be read.
     */
    public static Proc currentThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.ISO_8859_1);
            return parse(Long.parseLong(stat.substring(0, stat.indexOf(' '))), stat);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads a {@code stat} line: the command in parentheses may hold spaces and parentheses of
     * its own, so the fields are counted from the last {@code ')'}.
     */
    static Proc parse(long pid, String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] f = stat.substring(close + 1).strip().split(" ");
        // after the command: state(0) ppid(1) pgrp session tty_nr tpgid flags minflt cminflt
        // majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime(19)
        if (f.length < 20 || f[0].isEmpty()) {
            return null;
        }
        return new Proc(pid, Long.parseLong(f[1]), Long.parseLong(f[2]), f[0].charAt(0), Long.parseLong(f[19]));
    }

    /** The environment {@code pid} started with ({@code NAME=value} strings), empty when it cannot be read (gone, not ours). */
    public static java.util.Map<String, String> environ(long pid) {
        byte[] env;
        try {
            env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
        } catch (IOException | RuntimeException e) {
            return java.util.Map.of();
        }
        java.util.Map<String, String> out = new java.util.HashMap<>();
        int from = 0;
        while (from < env.length) {
            int end = from;
            while (end < env.length && env[end] != 0) {
                end++;
            }
            String variable = new String(env, from, end - from, StandardCharsets.UTF_8);
            int eq = variable.indexOf('=');
            if (eq > 0) {
                out.putIfAbsent(variable.substring(0, eq), variable.substring(eq + 1));
            }
            from = end + 1;
        }
        return out;
    }
}
