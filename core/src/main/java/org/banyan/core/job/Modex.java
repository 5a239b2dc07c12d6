package org.banyan.core.job;

/** How the key-value data ranks put at start-up ("modex") moves between daemons. */
public enum Modex {
    /** Every fence carries every value to every daemon, as Hydra does. */
    FULL,
    /**
     * A fence carries only which daemon holds each key; a daemon fetches a value from its
     * holder on the first get for it, through the routing overlay, and keeps it.
     */
    LAZY;

    /** Reads {@code full} or {@code lazy}. */
    public static Modex parse(String s) {
        return switch (s) {
            case "full" -> FULL;
            case "lazy" -> LAZY;
            default -> throw new IllegalArgumentException("unknown modex '" + s + "' (valid: full, lazy)");
        };
    }
}
