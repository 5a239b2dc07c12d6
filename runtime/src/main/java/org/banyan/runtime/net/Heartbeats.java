package org.banyan.runtime.net;

/**
 * The overlay's failure detector: every TCP link says something at least every quarter of the
 * timeout (a heartbeat when it has nothing else to say), and a link that says nothing for the
 * whole timeout is lost, with the same consequences as a link that closes: a silent child is a
 * lost daemon (the job fails naming its host; a DVM fails its tasks and goes on), a silent parent
 * makes a daemon end its ranks and exit. TCP's own retries and keepalives take minutes to hours
 * to notice a host that went silent (a cut link, a frozen host, a partition).
 *
 * <p>The timeout is this JVM's system property {@value #PROPERTY} (milliseconds; the CLI's
 * {@code --heartbeat-timeout} sets it), handed to the daemons a JVM starts on their command line.
 */
public final class Heartbeats {
    public static final String PROPERTY = "banyan.heartbeat.timeout";
    public static final long DEFAULT_MILLIS = 20_000;
    /** Fewer would make a loaded machine's pauses (a full GC, a CPU shared by dozens of JVMs) look like loss. */
    public static final long MIN_MILLIS = 1_000;

    private Heartbeats() {}

    /** How long a link may be silent before it is lost. */
    public static long timeoutMillis() {
        String v = System.getProperty(PROPERTY);
        if (v != null) {
            try {
                return Math.max(MIN_MILLIS, Long.parseLong(v));
            } catch (NumberFormatException e) {
                // the default
            }
        }
        return DEFAULT_MILLIS;
    }

    /** How often a link with nothing else to say sends a heartbeat. */
    public static long intervalMillis() {
        return timeoutMillis() / 4;
    }
}
