package org.banyan.core.dvm;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.banyan.core.daemon.Signals;
import org.banyan.core.head.HeadEvent;

/**
 * Jobs the DVM stopped (SIGSTOP) because what they write is not taken fast enough (a client
 * that stopped reading, an MPI task's output file that takes nothing), as a full pipe stops a
 * program that writes into it, and that it continues (SIGCONT) once it is taken again. Only
 * jobs stopped here are continued: one the user stopped stays stopped. A job stopped here that
 * is ended is continued after its ending signal, so that its ranks see it in their grace, not
 * only the SIGKILL after it.
 */
final class PausedJobs {
    private final Set<Integer> stopped = new LinkedHashSet<>();

    /** Stops job {@code job}, unless stopped here already: true when it is stopped now. */
    boolean stop(int job, List<HeadEvent> events) {
        if (!stopped.add(job)) {
            return false;
        }
        events.add(new HeadEvent.SignalJob(job, Signals.SIGSTOP));
        return true;
    }

    /** Continues job {@code job} if it was stopped here. */
    void resume(int job, List<HeadEvent> events) {
        if (stopped.remove(job)) {
            events.add(new HeadEvent.SignalJob(job, Signals.SIGCONT));
        }
    }

    /** Continues every job stopped here that is still {@code running}; forgets the others. */
    void resumeAll(IntPredicate running, List<HeadEvent> events) {
        for (int job : stopped) {
            if (running.test(job)) {
                events.add(new HeadEvent.SignalJob(job, Signals.SIGCONT));
            }
        }
        stopped.clear();
    }

    /** Job {@code job} is no longer this one's to continue: it ended, or the user stopped or continued it. */
    void forget(int job) {
        stopped.remove(job);
    }

    /** {@code end}, which ends job {@code job}, then SIGCONT if it was stopped here. */
    void end(int job, HeadEvent end, List<HeadEvent> events) {
        events.add(end);
        resume(job, events);
    }

    /** The jobs stopped here, in the order they were (for the log). */
    Set<Integer> jobs() {
        return java.util.Collections.unmodifiableSet(stopped);
    }
}
