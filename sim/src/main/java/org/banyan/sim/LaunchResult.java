package org.banyan.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.banyan.core.tree.TopologySpec;

/** What a {@link LaunchSimulation} run produced. Times are virtual microseconds from the head's start. */
public record LaunchResult(boolean finished, int exitStatus, long allUpMicros, long finishMicros, List<String> reports,
                           int maxLinks, long maxMessagesAtDaemon, long messagesAtHead, long events,
                           int ranksLeftRunning, int daemonsLeftRunning, long contactBytesUp, long contactBytesDown,
                           ModexResult modex, long firstUpMicros, long medianDaemonUpMicros, long maxDaemonUpMicros,
                           int routingLinksDialed, long routingUpMicros, List<String> invariantViolations) {

    /** Per-phase figures for printing, of a run over {@code hosts} with these trees. */
    public Map<String, Object> describe(int hosts, String tree, TopologySpec routing) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hosts", hosts);
        out.put("tree", tree);
        out.put("routing", routing);
        out.put("first daemon up (s)", firstUpMicros() < 0 ? "never" : firstUpMicros() / 1e6);
        out.put("all daemons up, contacts gathered (s)", allUpMicros() < 0 ? "never" : allUpMicros() / 1e6);
        out.put("job ended (s)", finishMicros() < 0 ? "never" : finishMicros() / 1e6);
        out.put("routing links dialed, last open (s)", routingLinksDialed() == 0 ? "0"
                : routingLinksDialed() + ", " + routingUpMicros() / 1e6);
        out.put("daemon start, median / max (s)", medianDaemonUpMicros() < 0 ? "never"
                : String.format("%.3f / %.3f", medianDaemonUpMicros() / 1e6, maxDaemonUpMicros() / 1e6));
        out.put("exit status", exitStatus());
        out.put("max links at a daemon", maxLinks());
        out.put("max messages at a daemon", maxMessagesAtDaemon());
        out.put("messages at the head", messagesAtHead());
        out.put("phase 2 bytes up / down (MB)", String.format("%.2f / %.2f", contactBytesUp() / 1e6,
                contactBytesDown() / 1e6));
        out.put("events", events());
        return out;
    }
}
