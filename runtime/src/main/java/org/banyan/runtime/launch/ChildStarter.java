package org.banyan.runtime.launch;

/**
 * How a vertex of the overlay tree brings up its child daemons: one implementation per backend
 * (a process per child through a remote shell, srun or fork; one Slurm step for all; a thread of
 * this JVM), chosen once when the vertex starts. A started child connects back to its parent's
 * listener by itself; the starter only owns what it started, so that it can be waited for and
 * ended.
 */
public interface ChildStarter {
    /** Where a starter reports a child that could not start or whose process ended. */
    interface Losses {
        void lost(int childId, String reason);
    }

    /** Starts child {@code childId} on {@code host}; it reaches its parent at {@code parentAddress}. */
    void start(int childId, String host, String parentAddress, Losses losses);

    /** Waits until {@code deadlineNanos} ({@link System#nanoTime}) for what it started to end, then kills the rest. */
    void awaitOrKill(long deadlineNanos);

    /**
     * Child {@code childId} went silent and is lost: what was started for it (a remote shell
     * whose host no longer answers) is ended now, not waited for at the close.
     */
    default void abandon(int childId) {}

    /** For the daemons of a static Slurm step: every daemon was started at once, nobody starts children. */
    ChildStarter NONE = new ChildStarter() {
        @Override
        public void start(int childId, String host, String parentAddress, Losses losses) {}

        @Override
        public void awaitOrKill(long deadlineNanos) {}
    };
}
