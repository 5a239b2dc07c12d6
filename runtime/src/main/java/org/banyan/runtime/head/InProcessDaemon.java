package org.banyan.runtime.head;

import java.util.List;
import java.util.function.BiConsumer;
import org.banyan.core.job.Node;
import org.banyan.runtime.daemon.DaemonDriver;
import org.banyan.runtime.net.FrameChannel;

/**
 * The single-host fast path: the one daemon runs on a platform thread of the head's JVM, and
 * still reaches the head over a TCP connection, so protocol and code are those of a remote daemon.
 */
public final class InProcessDaemon implements DaemonStarter {
    private Thread thread;

    @Override
    public void start(List<Node> nodes, String headAddress, BiConsumer<Integer, String> lost) {
        if (nodes.size() != 1) {
            throw new IllegalArgumentException("an in-process daemon serves exactly one host");
        }
        String host = nodes.getFirst().name();
        // A platform thread, alive for the whole run: ranks started from it get
        // PR_SET_PDEATHSIG tied to it (see RankProcess).
        thread = Thread.ofPlatform().name("banyand-0").daemon().start(() -> {
            try {
                new DaemonDriver(0, host, FrameChannel.connect(headAddress, 10_000)).run();
            } catch (Exception e) {
                lost.accept(0, "in-process daemon failed: " + e);
            }
        });
    }

    @Override
    public void awaitOrKill(long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
