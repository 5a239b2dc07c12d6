package org.banyan.runtime.daemon;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.banyan.runtime.launch.LaunchAgent;

/**
 * A daemon an elastic DVM started in a Slurm allocation of its own (second allocations are made
 * with {@code salloc --no-shell}: nothing else ends them) cancels that allocation when it loses
 * its head without being told to leave, so a killed head does not hold those nodes until their
 * time limit. The head names the allocation in {@link LaunchAgent#CANCEL_ON_ORPHAN}.
 */
final class OrphanedAllocation {
    private OrphanedAllocation() {}

    /** Cancels this daemon's own allocation, if it has one (at most 5 s). */
    static void cancel() {
        String allocation = System.getenv(LaunchAgent.CANCEL_ON_ORPHAN);
        if (allocation == null || !allocation.matches("\\d+")) {
            return;
        }
        try {
            Process p = org.banyan.runtime.os.ProcessStarts.start(new ProcessBuilder("scancel", allocation).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no scancel here: the allocation ends at its time limit
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
