package org.banyan.runtime.head;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.banyan.core.job.Node;

/**
 * Each daemon in a JVM of its own on this host ({@code --launcher local}): the shape of a
 * multi-host run without the remote shell, used to test daemon loss and head loss for real.
 */
public final class LocalProcessDaemons implements DaemonStarter {
    private final List<Process> processes = new ArrayList<>();
    private volatile boolean ending;

    @Override
    public void start(List<Node> nodes, String headAddress, BiConsumer<Integer, String> lost) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("java.class.path");
        for (int d = 0; d < nodes.size(); d++) {
            List<String> cmd = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "--enable-native-access=ALL-UNNAMED", "-cp", classpath,
                    "org.banyan.runtime.daemon.DaemonMain", "--parent", headAddress, "--id", Integer.toString(d),
                    "--host", nodes.get(d).name()));
            ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO().redirectInput(ProcessBuilder.Redirect.PIPE);
            int id = d;
            try {
                Process p = pb.start();
                processes.add(p);
                p.onExit().thenAccept(done -> {
                    if (!ending) {
                        lost.accept(id, "daemon process " + done.pid() + " ended with status " + done.exitValue());
                    }
                });
            } catch (IOException e) {
                lost.accept(id, "cannot start daemon: " + e.getMessage());
            }
        }
    }

    @Override
    public void awaitOrKill(long millis) {
        ending = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Process p : processes) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }

    /** The daemons' process ids, for tests that kill one. */
    public List<Long> pids() {
        return processes.stream().map(Process::pid).toList();
    }
}
