package org.banyan.core.pilot;

/**
 * What a task asks of the agent's scheduler: {@code ranks} processes of {@code coresPerRank}
 * cores and {@code gpusPerRank} GPUs each; a rank never spans nodes.
 *
 * @param colocate  a tag, or null: tasks with the same tag run on the same node
 * @param exclusive whether the task takes whole nodes, sharing them with no other task
 */
public record SlotRequest(int ranks, int coresPerRank, int gpusPerRank, String colocate, boolean exclusive) {
    public SlotRequest {
        if (ranks < 1 || coresPerRank < 1 || gpusPerRank < 0) {
            throw new IllegalArgumentException("a task needs at least one rank (got " + ranks + ") of at least one core (got "
                    + coresPerRank + "), and no negative GPUs (got " + gpusPerRank + ")");
        }
    }

    /** One rank of {@code cores} cores, nothing else. */
    public static SlotRequest cores(int cores) {
        return new SlotRequest(1, cores, 0, null, false);
    }

    public int cores() {
        return ranks * coresPerRank;
    }

    /*
     * Written out: the agent looks shapes up in hash maps on every start and end, and a DVM's
     * JVMs run C1 only, which calls a record's generated equals and hashCode through a chain of
     * method handles it does not inline. JFR put 13 of 201 samples of a warm DVM's Java threads
     * in them.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof SlotRequest s && ranks == s.ranks && coresPerRank == s.coresPerRank
                && gpusPerRank == s.gpusPerRank && exclusive == s.exclusive && java.util.Objects.equals(colocate, s.colocate);
    }

    @Override
    public int hashCode() {
        int h = ranks;
        h = 31 * h + coresPerRank;
        h = 31 * h + gpusPerRank;
        h = 31 * h + (colocate == null ? 0 : colocate.hashCode());
        return 31 * h + (exclusive ? 1 : 0);
    }
}
