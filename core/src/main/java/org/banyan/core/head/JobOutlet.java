package org.banyan.core.head;

import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.banyan.core.wire.OverlayMessage;

/**
 * How one job's actions leave the head: its timers carry its id; under {@code banyan run} the
 * run's own job speaks for itself and a spawned job's output is tagged with its id (ranks'
 * individual ends stay inside); on a DVM every action is tagged with the job it belongs to, for
 * the driver to pass to that job's client.
 */
final class JobOutlet implements JobControl.Host {
    /** What the head does for its jobs. */
    interface Head {
        void emit(HeadAction action);

        void broadcast(OverlayMessage m);

        void jobFinished(int jobId, int status, boolean allReported);
    }

    private final int jobId;
    /** The run's own job, or -1 on a DVM. */
    private final int runJobId;
    private final Head head;
    private final IntPredicate lost;
    private final IntFunction<String> hostOf;

    JobOutlet(int jobId, int runJobId, Head head, IntPredicate lost, IntFunction<String> hostOf) {
        this.jobId = jobId;
        this.runJobId = runJobId;
        this.head = head;
        this.lost = lost;
        this.hostOf = hostOf;
    }

    @Override
    public void broadcast(OverlayMessage m) {
        head.broadcast(m);
    }

    @Override
    public void send(int daemonId, OverlayMessage m) {
        head.emit(new HeadAction.SendToDaemon(daemonId, m));
    }

    @Override
    public void emit(HeadAction action) {
        if (action instanceof HeadAction.ArmTimer(HeadTimer timer, long delay, int ignored)) {
            head.emit(new HeadAction.ArmTimer(timer, delay, jobId));
        } else if (runJobId >= 0) {
            if (action instanceof HeadAction.EmitOutput && jobId != runJobId) {
                head.emit(new HeadAction.ForJob(jobId, action)); // a spawned job's, tagged as its own
            } else if (!(action instanceof HeadAction.RankEnded)) {
                head.emit(action);
            }
        } else {
            head.emit(new HeadAction.ForJob(jobId, action));
        }
    }

    @Override
    public boolean isLost(int daemonId) {
        return lost.test(daemonId);
    }

    @Override
    public String hostOf(int daemonId) {
        return hostOf.apply(daemonId);
    }

    @Override
    public void finished(int status, boolean allReported) {
        head.jobFinished(jobId, status, allReported);
    }
}
