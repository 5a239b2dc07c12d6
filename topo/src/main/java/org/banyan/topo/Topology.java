package org.banyan.topo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A balanced tree of hardware, as TreeMatch sees it: levels from the root down, each with its
 * arity (children of every object of the level above) and a cost (of two leaves whose closest
 * common ancestor is an object of the level above it). Leaves are numbered in tree order; each
 * has the operating system's index of its processing unit when one is known.
 *
 * <p>Costs default to the number of levels between the meeting point and the leaves (a hop
 * count); tleaf files give their own.
 *
 * @param levels from the root down
 * @param leafOsIndex per leaf, the OS index of its PU, or its own number when unknown
 */
public record Topology(List<Level> levels, int[] leafOsIndex) {
    /** One level: {@code name} of its objects, {@code arity} of each parent, {@code cost} of meeting above it. */
    public record Level(String name, int arity, double cost) {
        public Level {
            if (arity < 1) {
                throw new IllegalArgumentException("level " + name + " has arity " + arity + "; it must be at least 1");
            }
        }
    }

    public Topology {
        levels = List.copyOf(levels);
        if (leafOsIndex.length != leaves(levels)) {
            throw new IllegalArgumentException(leafOsIndex.length + " leaf indexes for " + leaves(levels) + " leaves");
        }
        leafOsIndex = leafOsIndex.clone();
    }

    /** A topology whose leaves are numbered 0..n-1 and costs are hop counts. */
    static Topology ofArities(List<String> names, int[] arities, double[] costs) {
        List<Level> levels = new ArrayList<>();
        for (int i = 0; i < arities.length; i++) {
            levels.add(new Level(names.get(i), arities[i], costs != null ? costs[i] : arities.length - i));
        }
        int n = leaves(levels);
        int[] os = new int[n];
        Arrays.setAll(os, i -> i);
        return new Topology(levels, os);
    }

    private static int leaves(List<Level> levels) {
        long n = 1;
        for (Level l : levels) {
            n *= l.arity();
            if (n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " leaves");
            }
        }
        return (int) n;
    }

    public int leaves() {
        return leafOsIndex.length;
    }

    public int depth() {
        return levels.size();
    }

    /** The index of the level whose parents are the closest common ancestor of leaves a and b (depth() when a == b). */
    public int meetingLevel(int a, int b) {
        if (a == b) {
            return depth();
        }
        int below = leaves();
        for (int i = 0; i < levels.size(); i++) {
            below /= levels.get(i).arity();
            if (a / below != b / below) {
                return i;
            }
        }
        return depth();
    }

    /** The cost of a message between leaves a and b (0 for the same leaf). */
    public double cost(int a, int b) {
        int level = meetingLevel(a, b);
        return level == depth() ? 0 : levels.get(level).cost();
    }

    /** Links crossed between leaves a and b: up to their closest common ancestor and down again. */
    public int hops(int a, int b) {
        return 2 * (depth() - meetingLevel(a, b));
    }

    /** The same tree without its levels of arity 1 (a core with one PU, a cache per core): TreeMatch's view. */
    public Topology compact() {
        List<Level> kept = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
            Level l = levels.get(i);
            if (l.arity() > 1) {
                kept.add(l);
            }
        }
        if (kept.isEmpty()) {
            kept.add(new Level(levels.isEmpty() ? "PU" : levels.getLast().name(), 1, 1));
        }
        return new Topology(kept, leafOsIndex);
    }

    /** One line: the levels as {@code name:arity}, as the synthetic description writes them. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Level l : levels) {
            b.append(b.isEmpty() ? "" : " ").append(l.name()).append(':').append(l.arity());
        }
        return b.toString();
    }
}
