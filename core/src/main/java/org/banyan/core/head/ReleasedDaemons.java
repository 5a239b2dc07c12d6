package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.tree.Topology;

/**
 * Daemons a DVM lets go on purpose (their hosts go back to the batch system): each leaves with
 * its subtree, only the topmost of a subtree is told, and their ends are no loss. One that
 * rejoins stays released until it is adopted again, so that a failed start is no loss either.
 */
final class ReleasedDaemons {
    private final Topology topology;
    private final Set<Integer> released = new HashSet<>();
    private final Set<Integer> rejoining = new HashSet<>();
    private int vacantAtStart;

    ReleasedDaemons(Topology topology) {
        this.topology = topology;
    }

    /**
     * The head releases {@code ids} and the daemons below them, except those already gone
     * ({@code lost}); returns the daemons to tell to leave.
     */
    List<Integer> release(List<Integer> ids, boolean[] lost) {
        Set<Integer> leaving = new HashSet<>();
        for (int d : ids) {
            topology.forEachInSubtree(Topology.vertexOfDaemon(d), x -> leaving.add(Topology.daemonOfVertex(x)));
        }
        List<Integer> tell = new ArrayList<>();
        for (int d : leaving) {
            int parent = Topology.daemonOfVertex(topology.parent(Topology.vertexOfDaemon(d)));
            if (!lost[d] && released.add(d) && !leaving.contains(parent)) {
                tell.add(d);
            }
        }
        return tell;
    }

    /**
     * Starts released daemons anew on the hosts given ({@code rename} records a slot's new
     * host): each that is gone and that the head starts alone (its child, nothing below it in
     * the spawn tree) is spawned, the others are released again. They stay released until
     * {@link #contactsCame}.
     */
    List<HeadAction> rejoin(java.util.Map<Integer, String> hosts, boolean[] lost, java.util.function.ObjIntConsumer<String> rename) {
        List<HeadAction> out = new ArrayList<>();
        for (var e : hosts.entrySet()) {
            int d = e.getKey();
            int v = d >= 0 && d < lost.length ? Topology.vertexOfDaemon(d) : -1;
            if (v < 0 || rejoining.contains(d) || !released.contains(d) || !lost[d] || topology.parent(v) != 0
                    || topology.children(v).length > 0) {
                out.add(new HeadAction.DaemonReleased(d));
                continue;
            }
            lost[d] = false;
            rejoining.add(d);
            rename.accept(e.getValue(), d);
            out.add(new HeadAction.SpawnDaemon(d, e.getValue()));
        }
        return out;
    }

    /** Daemon {@code d}'s contacts came up: true if it was rejoining, and serves again now. */
    boolean contactsCame(int d) {
        if (!rejoining.remove(d)) {
            return false;
        }
        released.remove(d);
        return true;
    }

    /** A slot with no daemon from the start (a DVM that may grow into it): released and gone. */
    void vacant(int d, boolean[] lost) {
        int v = Topology.vertexOfDaemon(d);
        if (topology.parent(v) != 0 || topology.children(v).length > 0) {
            throw new IllegalArgumentException("vacant slot " + d + " is not a leaf child of the head");
        }
        released.add(d);
        lost[d] = true;
        vacantAtStart++;
    }

    /** How many slots had no daemon at first: the DVM is up without them. */
    int vacantAtStart() {
        return vacantAtStart;
    }

    boolean isReleased(int d) {
        return released.contains(d);
    }

    /** Released daemon {@code d} is gone, and its subtree with it: marks them lost; returns them. */
    List<Integer> gone(int d, boolean[] lost) {
        rejoining.remove(d);
        List<Integer> out = new ArrayList<>();
        topology.forEachInSubtree(Topology.vertexOfDaemon(d), x -> {
            int g = Topology.daemonOfVertex(x);
            if (!lost[g]) {
                lost[g] = true;
                out.add(g);
            }
        });
        return out;
    }
}
