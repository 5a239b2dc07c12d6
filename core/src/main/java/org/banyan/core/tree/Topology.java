package org.banyan.core.tree;

/**
 * A rooted tree over the overlay's vertices: vertex 0 is the head, vertex {@code d + 1} is the
 * daemon of node {@code d}. Spawning follows it (each vertex starts its children) and so do
 * messages (up to the parent, down to the children).
 */
public sealed interface Topology permits KaryTree, BinomialTree {
    /** Number of vertices, the head included. */
    int size();

    /** The parent of {@code v}, or -1 for the root. */
    int parent(int v);

    /** The children of {@code v}, in increasing order. */
    int[] children(int v);

    /** Whether {@code v} is {@code ancestor} or lies below it. */
    default boolean inSubtree(int ancestor, int v) {
        while (v > ancestor) {
            v = parent(v);
        }
        return v == ancestor;
    }

    /** The child of {@code from} whose subtree holds {@code to}, or -1 when {@code to} is not below it. */
    default int nextHop(int from, int to) {
        int prev = -1;
        while (to > from) {
            prev = to;
            to = parent(to);
        }
        return to == from ? prev : -1;
    }

    /** Calls {@code visit} for {@code v} and every vertex below it, depth first. */
    default void forEachInSubtree(int v, java.util.function.IntConsumer visit) {
        visit.accept(v);
        for (int c : children(v)) {
            forEachInSubtree(c, visit);
        }
    }

    /** Whether {@code test} holds for {@code v} or any vertex below it; stops at the first. */
    default boolean anyInSubtree(int v, java.util.function.IntPredicate test) {
        if (test.test(v)) {
            return true;
        }
        for (int c : children(v)) {
            if (anyInSubtree(c, test)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The hosts of every daemon strictly below daemon {@code daemonId}, by daemon id: what an
     * {@code Adopt} message carries.
     */
    default java.util.Map<Integer, String> hostsBelow(int daemonId, java.util.function.IntFunction<String> hostOf) {
        java.util.Map<Integer, String> out = new java.util.TreeMap<>();
        int top = vertexOfDaemon(daemonId);
        forEachInSubtree(top, v -> {
            if (v != top) {
                out.put(daemonOfVertex(v), hostOf.apply(daemonOfVertex(v)));
            }
        });
        return out;
    }

    /** Depth of the deepest vertex: the number of spawn rounds. */
    default int height() {
        int h = 0;
        for (int v = size() - 1; v > 0 && h < size(); v--) {
            int d = 0;
            for (int x = v; x > 0; x = parent(x)) {
                d++;
            }
            h = Math.max(h, d);
        }
        return h;
    }

    static int vertexOfDaemon(int daemonId) {
        return daemonId + 1;
    }

    static int daemonOfVertex(int vertex) {
        return vertex - 1;
    }
}
