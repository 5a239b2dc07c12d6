package org.banyan.core.job;

/** How ranks are laid onto nodes, with mpirun's names. */
public enum MappingPolicy {
    /** Fill each node's slots before moving to the next (mpirun {@code --map-by slot}, the default). */
    SLOT,
    /** One rank per node in turn, round robin (mpirun {@code --map-by node}). */
    NODE;

    public static MappingPolicy parse(String text) {
        return switch (text) {
            case "slot", "core" -> SLOT;
            case "node" -> NODE;
            default -> null;
        };
    }
}
