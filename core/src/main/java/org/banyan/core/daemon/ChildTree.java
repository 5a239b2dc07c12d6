package org.banyan.core.daemon;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.core.job.JobDescription;
import org.banyan.core.tree.Topology;
import org.banyan.core.tree.TopologySpec;
import org.banyan.core.wire.OverlayMessage;

/**
 * Adoption: this daemon's place in the spawn tree, from its parent's {@link OverlayMessage.Adopt},
 * the children it starts (tree spawn), and their adoption in turn when they say hello.
 */
final class ChildTree {
    private final int daemonId;
    private final int vertex;
    private final DaemonOutbox out;
    private TopologySpec topologySpec;
    private TopologySpec routingSpec;
    private Topology topology;
    private Topology routing;
    private Map<Integer, String> hostsBelow = Map.of();
    private final List<Integer> children = new ArrayList<>();
    private final Set<Integer> lost = new HashSet<>();
    /** Children that said hello before this daemon was adopted itself. */
    private final List<Integer> earlyHellos = new ArrayList<>();

    ChildTree(int daemonId, DaemonOutbox out) {
        this.daemonId = daemonId;
        this.vertex = Topology.vertexOfDaemon(daemonId);
        this.out = out;
    }

    boolean adopted() {
        return topology != null;
    }

    /** Takes this daemon's place and starts its children; false when it was adopted already. */
    boolean adopt(OverlayMessage.Adopt adopt) {
        if (adopted()) {
            return false;
        }
        topologySpec = adopt.topology();
        topology = topologySpec.over(adopt.vertices());
        hostsBelow = adopt.hostsBelow();
        routingSpec = adopt.routing();
        routing = routingSpec.over(adopt.vertices());
        for (int v : topology.children(vertex)) {
            int child = Topology.daemonOfVertex(v);
            children.add(child);
            out.emit(new DaemonAction.SpawnChild(child, hostOf(child, null)));
        }
        return true;
    }

    /**
     * A child said hello. Before this daemon's own adoption it is held (a child started with its
     * parent by one Slurm step can be the quicker) and false returned; otherwise it is adopted.
     */
    boolean hello(int child) {
        if (!adopted()) {
            earlyHellos.add(child);
            return false;
        }
        out.childConnected(child);
        out.toChild(child, new OverlayMessage.Adopt(topologySpec, topology.size(),
                topology.hostsBelow(child, hostsBelow::get), routingSpec));
        return true;
    }

    /** The children that said hello too early, once; they are adopted as {@link #hello} does. */
    List<Integer> takeEarlyHellos() {
        List<Integer> early = List.copyOf(earlyHellos);
        earlyHellos.clear();
        return early;
    }

    /** Child {@code child} is gone; false when it was already. */
    boolean lost(int child) {
        if (!lost.add(child)) {
            return false;
        }
        out.childGone(child);
        return true;
    }

    boolean isLost(int child) {
        return lost.contains(child);
    }

    List<Integer> children() {
        return children;
    }

    int vertex() {
        return vertex;
    }

    Topology topology() {
        return topology;
    }

    Topology routing() {
        return routing;
    }

    /** The vertex of this daemon's parent in the spawn tree. */
    int parentVertex() {
        return topology.parent(vertex);
    }

    /** The host of a daemon below this one, or of any daemon of {@code job} once it is known. */
    String hostOf(int daemon, JobDescription job) {
        String h = hostsBelow.get(daemon);
        if (h == null && job != null && daemon >= 0 && daemon < job.nodes().size()) {
            h = job.nodes().get(daemon).name();
        }
        return h != null ? h : "daemon " + daemon;
    }

    int daemonId() {
        return daemonId;
    }
}
