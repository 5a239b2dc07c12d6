package org.banyan.core.head;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.banyan.core.job.RankMap;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * What ranks ask the head itself through routed messages: the name service (publish, lookup,
 * waiting lookups), connects, spawns, and the resource checks a DVM's resource manager answers.
 * Sans-I/O: replies go back through {@code route}, what the driver must do through {@code emit}.
 */
final class HeadRequests {
    private final NameService names = new NameService();
    private final ConnectRendezvous connects = new ConnectRendezvous();
    private final SpawnedJobs spawns;
    private final Function<String, RankMap> mapOfNamespace;
    private final Consumer<OverlayMessage.Routed> route;
    private final Consumer<HeadAction> emit;
    private final boolean underResourceManager;

    /**
     * @param mapOfNamespace       the rank map of the job with a PMIx namespace, or null
     * @param underResourceManager whether a DVM answers resource checks (a run refuses them)
     */
    HeadRequests(SpawnedJobs spawns, Function<String, RankMap> mapOfNamespace, Consumer<OverlayMessage.Routed> route,
                 Consumer<HeadAction> emit, boolean underResourceManager) {
        this.spawns = spawns;
        this.mapOfNamespace = mapOfNamespace;
        this.route = route;
        this.emit = emit;
        this.underResourceManager = underResourceManager;
    }

    void serve(OverlayMessage.Routed m) {
        if (m instanceof OverlayMessage.SpawnRequest s) {
            spawns.request(s);
        } else if (m instanceof OverlayMessage.NameRequest r) {
            if (r.op() < OverlayMessage.NameRequest.RESIZE_CHECK || r.op() == OverlayMessage.NameRequest.LOOKUP_WAIT) {
                routeAll(names.serve(r, w -> emit.accept(new HeadAction.ArmTimer(HeadTimer.NAME_WAIT, w.millis(), w.id()))));
            } else if (r.op() == OverlayMessage.NameRequest.CONNECT) {
                routeAll(connects.enter(r, mapOfNamespace::apply));
            } else if (underResourceManager) {
                emit.accept(new HeadAction.ResourceRequest(r));
            } else {
                route.accept(new OverlayMessage.NameReply(r.jobId(), Topology.daemonOfVertex(0), r.from(), r.request(), r.op(),
                        false, "not_under_a_resource_manager"));
            }
        }
    }

    /** A waiting lookup's time is up ({@code waitId}: what its timer carries). */
    void nameWaitExpired(int waitId) {
        routeAll(names.expire(waitId));
    }

    /** A job is over: its waiting lookups end, and connects waiting for it are refused. */
    void jobOver(int jobId) {
        routeAll(names.forget(jobId));
        routeAll(connects.forget(jobId));
    }

    private void routeAll(List<? extends OverlayMessage.Routed> replies) {
        replies.forEach(route);
    }
}
