package org.banyan.core.dvm;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.banyan.core.head.HeadEvent;

/**
 * A client that stopped taking what it is sent (suspended with Ctrl-Z, its output piped into a
 * reader that stopped), and took it again ({@link DvmEvent.ClientBacklog}, measured by the
 * driver): its running jobs are stopped meanwhile, as a full pipe stops a program that writes
 * into it. They wrote on, and the DVM's loop either blocked on the client's socket, for every
 * client and job, or would have had to hold their output without bound. Only the jobs stopped
 * here are continued; a user's own SIGSTOP or SIGCONT takes a job out of its client's count.
 */
final class ClientBacklog {
    private ClientBacklog() {
    }

    /** The signals for {@code s}'s jobs now that it is {@code behind}, or has caught up. */
    static List<HeadEvent> jobSignals(Client s, boolean behind, Consumer<String> say) {
        List<HeadEvent> signals = new ArrayList<>();
        if (!behind) {
            s.paused.resumeAll(s.jobs::contains, signals);
            return signals;
        }
        for (int job : s.jobs) {
            s.paused.stop(job, signals);
        }
        if (!signals.isEmpty() && !s.toldBehind) { // a client slower than its jobs' output is behind again and again
            s.toldBehind = true;
            say.accept("client " + s.id + " reads slower than its jobs write (or not at all): job(s) " + s.paused.jobs()
                    + " stopped until it has caught up, each time");
        }
        return signals;
    }
}
