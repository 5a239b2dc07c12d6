package org.banyan.core.route;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.tree.Topology;
import org.banyan.core.wire.OverlayMessage;

/**
 * Forwards {@link OverlayMessage.Routed} messages for one vertex of the routing topology: down to
 * the child whose subtree holds the destination, else up to the parent. Sans-I/O: the vertex
 * that owns it says which links are open and does the sending.
 *
 * <p>The routing topology may differ from the spawn tree. A routing link that is also a spawn
 * link is used as is; the others are opened by the child once phase 2 has told it its routing
 * parent's contact. Until a link opens, what must cross it waits here, in order: a message sent
 * before phase 2 is over is late, never lost. A link that closes for good drops what waits for
 * it; the spawn tree reports the daemon's loss and the job ends.
 */
public final class OverlayRouter {
    /** The owning vertex's side. */
    public interface Links {
        /** Whether a link to neighbour {@code vertex} is open now. */
        boolean isOpen(int vertex);

        /** Sends to neighbour {@code vertex}, whose link is open. */
        void send(int vertex, OverlayMessage.Routed message);
    }

    private final Topology routing;
    private final int self;
    private final Links links;
    private final Map<Integer, List<OverlayMessage.Routed>> held = new HashMap<>();
    private final Set<Integer> closed = new HashSet<>();
    /** Routing links closed while the job ran, by vertex, with why: not yet explained by the spawn tree. */
    private final Map<Integer, String> unexplained = new java.util.LinkedHashMap<>();
    private long forwarded;

    public OverlayRouter(Topology routing, int self, Links links) {
        this.routing = routing;
        this.self = self;
        this.links = links;
    }

    /**
     * Sends {@code m} one hop towards its destination, or holds it until that hop's link opens.
     *
     * @return true when {@code m} is for this vertex and was not forwarded
     */
    public boolean route(OverlayMessage.Routed m) {
        int target = Topology.vertexOfDaemon(m.to());
        if (target == self) {
            return true;
        }
        if (target < 0 || target >= routing.size()) {
            return false;
        }
        int next = routing.nextHop(self, target);
        if (next < 0) {
            next = routing.parent(self);
        }
        if (closed.contains(next)) {
            return false;
        }
        if (links.isOpen(next)) {
            forwarded++;
            links.send(next, m);
        } else {
            held.computeIfAbsent(next, v -> new ArrayList<>()).add(m);
        }
        return false;
    }

    /** The link to neighbour {@code vertex} is open: what waited for it leaves, in order. */
    public void opened(int vertex) {
        List<OverlayMessage.Routed> waiting = held.remove(vertex);
        if (waiting != null) {
            for (OverlayMessage.Routed m : waiting) {
                forwarded++;
                links.send(vertex, m);
            }
        }
    }

    /** The link to neighbour {@code vertex} is gone for good. */
    public void closed(int vertex) {
        closed.add(vertex);
        held.remove(vertex);
    }

    /**
     * A routing link closed while the job still runs. The owner waits a while before calling it
     * a daemon's loss: a daemon that dies closes its spawn children's routing links too, and the
     * spawn tree should name the real cause first.
     *
     * @return true when this is the first loss waiting: the owner arms its timer
     */
    public boolean lostWhileRunning(int vertex, String reason) {
        boolean first = unexplained.isEmpty();
        unexplained.put(vertex, reason);
        return first;
    }

    /** The losses still unexplained when the owner's timer fires, by vertex; forgets them. */
    public Map<Integer, String> takeUnexplainedLosses() {
        Map<Integer, String> out = new java.util.LinkedHashMap<>(unexplained);
        unexplained.clear();
        return out;
    }

    /** The neighbour this vertex must dial itself: its routing parent, or -1 for the root. */
    public int parent() {
        return routing.parent(self);
    }

    /** Whether {@code vertex} is a neighbour in the routing topology. */
    public boolean isNeighbour(int vertex) {
        return vertex == routing.parent(self) || (vertex >= 0 && vertex < routing.size() && routing.parent(vertex) == self);
    }

    /** Messages waiting for a link. */
    public int heldCount() {
        int n = 0;
        for (List<OverlayMessage.Routed> l : held.values()) {
            n += l.size();
        }
        return n;
    }

    /** Messages sent on towards another vertex so far (not counting those delivered here). */
    public long forwarded() {
        return forwarded;
    }
}
