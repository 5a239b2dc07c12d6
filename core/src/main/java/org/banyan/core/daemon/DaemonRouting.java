package org.banyan.core.daemon;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.banyan.core.route.OverlayRouter;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * Daemon-to-daemon messages ({@link OverlayMessage.Routed}) along the routing topology, which may
 * differ from the spawn tree: the routing links of their own (dialed to the routing parent once
 * phase 2 has brought its contact), hops over spawn links where the trees agree, and the losses
 * of routing links the spawn tree does not explain within {@link DaemonCore#ROUTING_LOSS_GRACE_MILLIS}.
 */
final class DaemonRouting {
    /** What routed messages that end at this daemon are for: a job's PMI server, its keys and names. */
    interface Endpoint {
        String localValue(String key);

        /**
         * Whether this endpoint answers {@code f} later, through {@link #answer} (a PMIx server
         * must be asked for a rank's data, and answers asynchronously); false to answer now.
         */
        default boolean defers(OverlayMessage.KvsFetch f) {
            return false;
        }

        void fetched(String key, String value);

        void nameReply(int request, int op, boolean ok, String portOrReason);
    }

    private final ChildTree tree;
    private final DaemonOutbox out;
    private final LocalTasks tasks;
    private final Runnable leave;
    private OverlayRouter router;
    /** Routing neighbours joined by a link of their own (not a spawn link), by vertex. */
    private final Set<Integer> peers = new HashSet<>();
    private int nextFetch;

    /** @param leave what the daemon does when the head tells it to leave ({@link OverlayMessage.Leave}) */
    DaemonRouting(ChildTree tree, DaemonOutbox out, LocalTasks tasks, Runnable leave) {
        this.tree = tree;
        this.out = out;
        this.tasks = tasks;
        this.leave = leave;
    }

    /** Adopted: the routing topology is known. */
    void start() {
        int vertex = tree.vertex();
        Topology topology = tree.topology();
        router = new OverlayRouter(tree.routing(), vertex, new OverlayRouter.Links() {
            @Override
            public boolean isOpen(int v) {
                if (v == topology.parent(vertex)) {
                    return !out.isParentGone();
                }
                if (topology.parent(v) == vertex) {
                    return out.isConnected(Topology.daemonOfVertex(v));
                }
                return peers.contains(v);
            }

            @Override
            public void send(int v, OverlayMessage.Routed m) {
                if (v == topology.parent(vertex)) {
                    out.up(m);
                } else if (topology.parent(v) == vertex) {
                    out.toChild(Topology.daemonOfVertex(v), m);
                } else {
                    out.emit(new DaemonAction.SendToPeer(v, m));
                }
            }
        });
    }

    boolean started() {
        return router != null;
    }

    /**
     * Dials the routing parent when no spawn link joins them already; the routing children
     * that are not spawn neighbours dial this daemon the same way.
     */
    void dialParent(OverlayMessage.AllContacts all) {
        int rp = router.parent();
        int vertex = tree.vertex();
        if (rp < 0 || rp == tree.parentVertex() || tree.topology().parent(rp) == vertex || peers.contains(rp)) {
            return;
        }
        String c = all.contacts().get(Topology.daemonOfVertex(rp));
        if (c != null) {
            out.emit(new DaemonAction.ConnectPeer(rp, c));
        }
    }

    /** Passes a routed message on, or serves it when it ends here. */
    void routed(OverlayMessage.Routed m, java.util.function.IntFunction<Endpoint> endpoints) {
        if (router == null || !router.route(m)) {
            return;
        }
        Endpoint endpoint = endpoints.apply(m.jobId());
        switch (m) {
            case OverlayMessage.KvsFetch f -> {
                if (endpoint == null || !endpoint.defers(f)) {
                    answer(f, endpoint == null ? null : endpoint.localValue(f.key()));
                }
            }
            case OverlayMessage.KvsFetched f -> {
                if (endpoint != null) {
                    endpoint.fetched(f.key(), f.value());
                }
            }
            case OverlayMessage.NameReply r -> {
                if (endpoint != null) {
                    endpoint.nameReply(r.request(), r.op(), r.ok(), r.portOrReason());
                }
            }
            case OverlayMessage.NameReplies r -> {
                if (endpoint != null) {
                    r.requests().forEach(request -> endpoint.nameReply(request, r.op(), r.ok(), r.portOrReason()));
                }
            }
            case OverlayMessage.NameRequest r -> {
                // Only the head serves names; a request cannot end its route at a daemon.
            }
            case OverlayMessage.SpawnRequest r -> {
                // Only the head spawns jobs.
            }
            case OverlayMessage.RunTasks r -> tasks.run(r);
            case OverlayMessage.SignalTasks s -> tasks.signal(s);
            case OverlayMessage.Leave l -> leave.run();
            case OverlayMessage.KeepWarm k -> out.emit(new DaemonAction.KeepWarm(k.program(), k.count()));
            case OverlayMessage.DropWarm d -> out.emit(new DaemonAction.DropWarm(d.pool()));
        }
    }

    /** A get needs the value of {@code key}, held by daemon {@code owner}. */
    void fetch(int jobId, int owner, String key) {
        router.route(new OverlayMessage.KvsFetch(jobId, tree.daemonId(), owner, nextFetch++, key));
    }

    /** Answers a fetch that ended here (null: no such key). */
    void answer(OverlayMessage.KvsFetch f, String value) {
        router.route(new OverlayMessage.KvsFetched(f.jobId(), tree.daemonId(), f.from(), f.request(), f.key(), value));
    }

    /** Asks the head to start a job of {@code apps} for a rank of {@code jobId} (MPI_Comm_spawn). */
    void spawnRequest(int jobId, int request, java.util.List<org.banyan.core.job.AppContext> apps, java.util.List<String> hosts) {
        router.route(new OverlayMessage.SpawnRequest(jobId, tree.daemonId(), Topology.daemonOfVertex(0), request, apps, hosts));
    }

    /** Asks the head's name service. */
    void nameRequest(int jobId, int request, int op, String name, String port) {
        router.route(new OverlayMessage.NameRequest(jobId, tree.daemonId(), Topology.daemonOfVertex(0), request, op, name,
                port));
    }

    void opened(int vertex) {
        if (router != null) {
            router.opened(vertex);
        }
    }

    void closed(int vertex) {
        if (router != null) {
            router.closed(vertex);
        }
    }

    void peerUp(int vertex) {
        peers.add(vertex);
        opened(vertex);
    }

    /** True when the loss needs the spawn tree's explanation first: arm the grace timer. */
    boolean peerLost(int vertex, String reason, boolean ending) {
        peers.remove(vertex);
        closed(vertex);
        return vertex > 0 && router != null && !ending && router.lostWhileRunning(vertex, reason);
    }

    /** The routing-link losses still unexplained after the grace, by vertex. */
    Map<Integer, String> takeUnexplainedLosses() {
        return router.takeUnexplainedLosses();
    }
}
