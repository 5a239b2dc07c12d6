package org.banyan.runtime.daemon;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.banyan.runtime.launch.ChildStarter;
import org.banyan.runtime.launch.LaunchAgent;
import org.banyan.runtime.net.ChildLinks;
import org.banyan.runtime.net.FrameChannel;

/**
 * The single-host starter: the daemon runs on a platform thread of this JVM for the whole run
 * (see the in-process daemon in docs/architecture.md), and reaches its parent through an in-memory
 * pair of the same frames other daemons send over TCP (over TCP when the parent is not in this JVM).
 */
final class InProcessStarter implements ChildStarter {
    private final LaunchAgent agent;
    private final Map<Integer, Thread> threads = new ConcurrentHashMap<>();

    InProcessStarter(LaunchAgent agent) {
        this.agent = agent;
    }

    @Override
    public void start(int childId, String host, String parentAddress, Losses losses) {
        long spawnedAt = System.currentTimeMillis();
        threads.put(childId, Thread.ofPlatform().name("banyand-" + childId).daemon().start(() -> {
            try {
                FrameChannel parent = ChildLinks.connectInProcess(parentAddress)
                        .orElse(null);
                if (parent == null) {
                    parent = FrameChannel.connect(parentAddress, 10_000);
                }
                new DaemonDriver(childId, host, parent, agent, spawnedAt).run();
            } catch (Exception e) {
                losses.lost(childId, "in-process daemon failed: " + e);
            }
        }));
    }

    @Override
    public void awaitOrKill(long deadlineNanos) {
        for (Thread t : threads.values()) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
