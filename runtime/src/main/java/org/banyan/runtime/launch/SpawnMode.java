package org.banyan.runtime.launch;

/**
 * How daemons create rank and task processes.
 *
 * <p>{@link #NATIVE} ({@code posix_spawn} through FFM, one reaper thread) costs a third of
 * {@code ProcessBuilder}'s time per process once bound, but binding its libc calls costs a cold
 * JVM about 150 ms: it pays in a DVM's long-lived daemons, not in a one-shot {@code banyan run}
 * (docs/pilot.md has the figures). So DVMs use it and {@code banyan run} does not, unless
 * {@code BANYAN_SPAWN=native} (or {@code jdk}) says otherwise.
 */
public enum SpawnMode {
    JDK,
    NATIVE;

    static final String PROPERTY = "banyan.spawn";
    static final String PROPERTY_FLAG = "-D" + PROPERTY + "=";

    /** This JVM's mode: the property its parent set, else {@code BANYAN_SPAWN}, else JDK. */
    public static SpawnMode current() {
        String v = System.getProperty(PROPERTY);
        if (v == null) {
            v = System.getenv("BANYAN_SPAWN");
        }
        return "native".equals(v) ? NATIVE : JDK;
    }

    /** For a DVM: native unless the user asked for the JDK's way. */
    public static SpawnMode forDvm() {
        String v = System.getProperty(PROPERTY, System.getenv("BANYAN_SPAWN"));
        return "jdk".equals(v) ? JDK : NATIVE;
    }
}
