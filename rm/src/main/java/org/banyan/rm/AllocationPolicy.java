package org.banyan.rm;

/**
 * When a DVM living in a batch allocation gives hosts back to the batch system (sans-I/O: the
 * DVM's Slurm driver asks it, the tests drive it alone). It is the seed's wide-optimisation
 * shrink one level up: the DVM is a job in the batch system's queue, and it shrinks when that
 * lets the first job waiting there start, by the fewest hosts that do, and only hosts nothing
 * of the DVM's uses or waits for.
 *
 * <p>It also says when the DVM takes hosts it gave back again ({@link #regain}): only when
 * nothing waits in the batch system, so that the DVM never races a waiting job for them.
 *
 * <p>Which hosts can go is the driver's to say: a DVM's daemons form a tree, and a daemon can
 * leave only when nothing below it still serves.
 */
public final class AllocationPolicy {
    /**
     * What the batch system shows: whether a job is waiting, how many nodes the first waiting
     * job (by its priority) needs, and how many nodes nobody holds.
     */
    public record Outside(boolean anyPending, int firstPendingNodes, int idleNodes) {
        public static final Outside QUIET = new Outside(false, 0, 0);
    }

    /**
     * The DVM's side: hosts in service, how many of them could go now (free of jobs, tasks and
     * reservations, and nothing serving below them), and whether anything waits in its own queue.
     */
    public record Inside(int hostsInService, int releasable, boolean anyQueued) {}

    private final int keepAtLeast;

    /** @param keepAtLeast hosts the DVM never gives back (at least its head's) */
    public AllocationPolicy(int keepAtLeast) {
        if (keepAtLeast < 1) {
            throw new IllegalArgumentException("a DVM keeps at least one host");
        }
        this.keepAtLeast = keepAtLeast;
    }

    /** How many of the releasable hosts to give back now: 0 for none. */
    public int release(Inside inside, Outside outside) {
        if (inside.anyQueued() || !outside.anyPending()) {
            return 0;
        }
        int missing = outside.firstPendingNodes() - outside.idleNodes();
        if (missing <= 0) {
            return 0; // it could start already: it waits for something the DVM's hosts do not give
        }
        int spare = Math.min(inside.releasable(), inside.hostsInService() - keepAtLeast);
        return spare >= missing ? missing : 0;
    }

    /**
     * How many of the hosts the DVM gave back it should take again now: as many as it wants
     * ({@code wanted}: nodes its queue or its malleable jobs could use) of the {@code idle}
     * ones, and none while a job waits in the batch system.
     */
    public int regain(int wanted, int idle, Outside outside) {
        if (outside.anyPending() || wanted <= 0) {
            return 0;
        }
        return Math.min(wanted, idle);
    }
}
