package org.banyan.runtime.head;

import java.util.List;
import java.util.function.BiConsumer;
import org.banyan.core.job.Node;

/**
 * Starts the daemons of a run and ends whatever of them is left at the end. A daemon that cannot
 * be started, or whose process dies, is reported through {@code lost(daemonId, reason)}.
 */
public sealed interface DaemonStarter permits InProcessDaemon, LocalProcessDaemons {

    void start(List<Node> nodes, String headAddress, BiConsumer<Integer, String> lost);

    /** Waits up to {@code millis} for every daemon to end, then kills what is left. */
    void awaitOrKill(long millis);
}
