package org.banyan.runtime.launch;

/**
 * How daemons create rank and task processes.
 *
 * <p>{@link #NATIVE} ({@code posix_spawn} through FFM, reaper threads on pidfds, one thread
 * reading every rank's output pipes) is the default: per rank it costs a fraction of
 * {@code ProcessBuilder}'s, which starts {@code jspawnhelper} and two reader threads for each
 * process (a 256-rank {@code banyan run} of {@code /bin/true}: about 0.39 s against 0.62 s).
 * {@link #JDK} is the fallback where libc lacks what native spawning needs (the daemon then
 * says nothing and uses it), and {@code BANYAN_SPAWN=jdk} asks for it.
 *
 * <p>Whether a daemon serves a DVM (long-lived: a pid table on tmpfs, its PMIx server started at
 * once, compiler thresholds for its task path) is told apart by {@link #inDvm}, not by the spawn mode.
 */
public enum SpawnMode {
    JDK,
    NATIVE;

    static final String PROPERTY = "banyan.spawn";
    static final String PROPERTY_FLAG = "-D" + PROPERTY + "=";
    /** Set on every JVM of a DVM (its head, its daemons). */
    static final String DVM_PROPERTY = "banyan.dvm";

    /** This JVM's mode: the property its parent set, else {@code BANYAN_SPAWN}, else native. */
    public static SpawnMode current() {
        String v = System.getProperty(PROPERTY);
        if (v == null) {
            v = System.getenv("BANYAN_SPAWN");
        }
        return "jdk".equals(v) ? JDK : NATIVE;
    }

    /** Whether this JVM is a DVM's (its head or one of its daemons). */
    public static boolean inDvm() {
        return System.getProperty(DVM_PROPERTY) != null;
    }
}
