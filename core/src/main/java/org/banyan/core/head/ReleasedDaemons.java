package org.banyan.core.head;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.banyan.core.tree.Topology;

/**
 * Daemons a DVM lets go on purpose (their hosts go back to the batch system): each leaves with
 * its subtree, only the topmost of a subtree is told, and their ends are no loss.
 */
final class ReleasedDaemons {
    private final Topology topology;
    private final Set<Integer> released = new HashSet<>();

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

    boolean isReleased(int d) {
        return released.contains(d);
    }

    /** Released daemon {@code d} is gone, and its subtree with it: marks them lost; returns them. */
    List<Integer> gone(int d, boolean[] lost) {
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
