package org.banyan.core.head;

import java.util.HashMap;
import java.util.Map;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * The name service (MPI_Publish_name, MPI_Lookup_name), kept at the head: service name to port.
 * One per head, so that jobs of one DVM find each other's names (MPI_Comm_connect between jobs).
 */
final class NameService {
    /** Operations of {@link OverlayMessage.NameRequest}. */
    static final int PUBLISH = 0;
    static final int UNPUBLISH = 1;

    private final Map<String, String> names = new HashMap<>();

    /** The answer to a request, routed back to the daemon that asked. */
    OverlayMessage.NameReply serve(OverlayMessage.NameRequest r) {
        boolean ok;
        String answer;
        switch (r.op()) {
            case PUBLISH -> {
                ok = names.putIfAbsent(r.name(), r.port()) == null;
                answer = ok ? "" : "name_in_use";
            }
            case UNPUBLISH -> {
                ok = names.remove(r.name()) != null;
                answer = ok ? "" : "name_not_found";
            }
            default -> {
                String port = names.get(r.name());
                ok = port != null;
                answer = ok ? port : "name_not_found";
            }
        }
        return new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(), r.request(), r.op(), ok,
                answer);
    }
}
