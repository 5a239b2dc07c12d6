package org.banyan.rm;

/**
 * When a DVM living in a batch allocation gives hosts back to the batch system (sans-I/O: the
 * DVM's Slurm driver asks it, the tests drive it alone). It is the seed's wide-optimisation
 * shrink one level up: the DVM is a job in the batch system's queue, and it shrinks when that
 * lets the first job waiting there start, by the fewest hosts that do, and only hosts nothing
 * of the DVM's uses or waits for.
 *
 * <p>Hosts can only be given back from the end of the DVM's host list: its daemons form a tree
 * numbered breadth first, and a suffix of that numbering is the only set whose loss leaves the
 * rest of the tree connected.
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
     * The DVM's side: hosts in service, how many at the end of its list are free (no job, task
     * or queued job's reservation on them), and whether anything waits in its own queue.
     */
    public record Inside(int hostsInService, int freeAtEnd, boolean anyQueued) {}

    private final int keepAtLeast;

    /** @param keepAtLeast hosts the DVM never gives back (at least its head's) */
    public AllocationPolicy(int keepAtLeast) {
        if (keepAtLeast < 1) {
            throw new IllegalArgumentException("a DVM keeps at least one host");
        }
        this.keepAtLeast = keepAtLeast;
    }

    /** How many hosts to give back now, from the end of the list: 0 for none. */
    public int release(Inside inside, Outside outside) {
        if (inside.anyQueued() || !outside.anyPending()) {
            return 0;
        }
        int missing = outside.firstPendingNodes() - outside.idleNodes();
        if (missing <= 0) {
            return 0; // it could start already: it waits for something the DVM's hosts do not give
        }
        int spare = Math.min(inside.freeAtEnd(), inside.hostsInService() - keepAtLeast);
        return spare >= missing ? missing : 0;
    }
}
