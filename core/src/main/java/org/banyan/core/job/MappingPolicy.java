package org.banyan.core.job;

/**
 * How ranks are laid onto nodes, with mpirun's names: how many go to each node ({@code --map-by})
 * and how they are numbered across the nodes ({@code --rank-by}). Each policy numbers its ranks
 * its own way unless {@code --rank-by} says the other: the last two values.
 */
public enum MappingPolicy {
    /** Fill each node's slots before moving to the next (mpirun {@code --map-by slot}, the default). */
    SLOT,
    /** One rank per node in turn, round robin (mpirun {@code --map-by node}). */
    NODE,
    /** As many per node as SLOT, numbered round robin over the nodes ({@code --map-by slot --rank-by node}). */
    SLOT_RANKED_BY_NODE,
    /** As many per node as NODE, numbered node after node ({@code --map-by node --rank-by slot}). */
    NODE_RANKED_BY_SLOT;

    public static MappingPolicy parse(String text) {
        return switch (text) {
            case "slot", "core" -> SLOT;
            case "node" -> NODE;
            default -> null;
        };
    }

    /** Whether each node's slots are filled before the next's (SLOT's counts) rather than dealt in turn. */
    public boolean fillsSlots() {
        return this == SLOT || this == SLOT_RANKED_BY_NODE;
    }

    /** Whether ranks are numbered round robin over the nodes rather than node after node. */
    public boolean numbersByNode() {
        return this == NODE || this == SLOT_RANKED_BY_NODE;
    }

    /** This policy's counts, numbered round robin over the nodes ({@code byNode}) or node after node. */
    public MappingPolicy rankedBy(boolean byNode) {
        if (fillsSlots()) {
            return byNode ? SLOT_RANKED_BY_NODE : SLOT;
        }
        return byNode ? NODE : NODE_RANKED_BY_SLOT;
    }
}
