package org.banyan.core.wire;

/**
 * What one daemon reports for {@code --report-launch}.
 *
 * @param links          overlay connections it holds: spawn parent and children, and routing
 *                       links that are not also spawn links
 * @param framesSent     overlay frames it sent, relayed ones included
 * @param framesReceived overlay frames it received
 * @param upMillis       from its JVM's start to its hello to the parent
 * @param ranksMillis    from its JVM's start to its last local rank started (0 without ranks)
 * @param bytesSent      overlay bytes it sent, frame headers included
 * @param bytesReceived  overlay bytes it received
 */
public record DaemonStats(int links, long framesSent, long framesReceived, long upMillis, long ranksMillis,
                          long bytesSent, long bytesReceived) {
    public DaemonStats(int links, long framesSent, long framesReceived, long upMillis, long ranksMillis) {
        this(links, framesSent, framesReceived, upMillis, ranksMillis, 0, 0);
    }

    /** Two subtrees' stats as one map, by daemon id in order: how a stats gather merges. */
    public static java.util.Map<Integer, DaemonStats> merge(java.util.Map<Integer, DaemonStats> a,
                                                            java.util.Map<Integer, DaemonStats> b) {
        java.util.Map<Integer, DaemonStats> m = new java.util.TreeMap<>(a);
        m.putAll(b);
        return m;
    }
}
