package org.banyan.cli.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.banyan.core.job.Node;

/**
 * Whether a host of this machine has more slots than its daemon can watch tasks: a daemon holds
 * one open file (a pidfd) per running task, and its JVM may raise its limit only to the hard one.
 * Past it a task fails ("pidfd_open: Too many open files"), cleanly, but a DVM started with
 * 30,000 slots on a host whose limit is 20,000 said nothing until then.
 */
public final class OpenFileLimit {
    /** What a daemon's JVM holds besides its tasks' pidfds (jars, sockets, epoll sets, pipes). */
    static final int RESERVED = 64;

    private OpenFileLimit() {}

    /** The warning for {@code nodes}, or null: hosts of this machine whose slots the limit cannot hold. */
    public static String warning(List<Node> nodes, long hardLimit, Predicate<String> isLocal) {
        for (Node n : nodes) {
            if (n.slots() > hardLimit - RESERVED && isLocal.test(n.name())) {
                return n.name() + " has " + n.slots() + " slots, but a process here may hold at most " + hardLimit
                        + " open files (ulimit -Hn) and a daemon holds one per running task: past about "
                        + Math.max(0, hardLimit - RESERVED) + " tasks at once, tasks fail (raise the limit, or give fewer slots)";
            }
        }
        return null;
    }

    /** This process's hard limit of open files, from /proc/self/limits; unlimited when it cannot be read. */
    public static long hard() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                    return f[1].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(f[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux's /proc: no warning
        }
        return Long.MAX_VALUE;
    }
}
