package org.banyan.core.wire;

/**
 * What one daemon reports for {@code --report-launch}.
 *
 * @param links          overlay connections it holds (parent and children)
 * @param framesSent     overlay frames it sent, relayed ones included
 * @param framesReceived overlay frames it received
 * @param upMillis       from its JVM's start to its hello to the parent
 * @param ranksMillis    from its JVM's start to its last local rank started (0 without ranks)
 */
public record DaemonStats(int links, long framesSent, long framesReceived, long upMillis, long ranksMillis) {}
