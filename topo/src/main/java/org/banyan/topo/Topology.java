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
 * <p>A level's cost of 0 means the default: the number of levels between the meeting point and
 * the leaves (half the hop count), which stays right when levels are added above or cut below;
 * tleaf files and synthetic descriptions with {@code @cost} give their own.
 *
 * <p>A real machine's tree need not be balanced (hybrid processors whose small cores have one
 * hardware thread, PUs that are offline or that this process may not use, groups of unequal
 * size). Such a tree is padded to the largest arity of each level, and a leaf that is no PU one
 * may use is a <em>hole</em>, with OS index {@link #HOLE}: placements and references never use
 * one, and costs between the real leaves are those of the real tree.
 *
 * @param levels from the root down
 * @param leafOsIndex per leaf, the OS index of its PU, its own number when unknown, or {@link #HOLE}
 */
public record Topology(List<Level> levels, int[] leafOsIndex) {
    /** The OS index of a leaf that is not a usable PU. */
    public static final int HOLE = -1;

    /** One level: {@code name} of its objects, {@code arity} of each parent, {@code cost} of meeting above it (0: default). */
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

    /** A topology whose leaves are numbered 0..n-1, with the given costs per level (null: the default). */
    static Topology ofArities(List<String> names, int[] arities, double[] costs) {
        List<Level> levels = new ArrayList<>();
        for (int i = 0; i < arities.length; i++) {
            if (costs != null && !(costs[i] >= 0 && Double.isFinite(costs[i]))) { // NaN and Infinity parse: every cost would be
                throw new IllegalArgumentException("level " + names.get(i) + "'s cost is " + costs[i]
                        + ": a cost is a number of at least 0");
            }
            levels.add(new Level(names.get(i), arities[i], costs != null ? costs[i] : 0));
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

    /** Whether a leaf is a PU one may place on (not a {@link #HOLE}). */
    public boolean usable(int leaf) {
        return leafOsIndex[leaf] != HOLE;
    }

    /** The leaves one may place on: all but the holes. */
    public int usableLeaves() {
        int n = 0;
        for (int os : leafOsIndex) {
            n += os != HOLE ? 1 : 0;
        }
        return n;
    }

    /** Whether some leaf is a hole (the machine's tree is not balanced, or not all of it may be used). */
    public boolean hasHoles() {
        for (int os : leafOsIndex) {
            if (os == HOLE) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each object of level {@code level}: its logical index, as hwloc numbers objects (its place
     * among the level's objects that hold a usable leaf), or -1 when it holds none (padding).
     */
    public int[] logicalIndexes(int level) {
        int[] usable = usableUnder(level);
        int[] out = new int[usable.length];
        for (int i = 0, k = 0; i < usable.length; i++) {
            out[i] = usable[i] > 0 ? k++ : -1;
        }
        return out;
    }

    /** Usable leaves under each object of level {@code level} (the root for -1), in order. */
    public int[] usableUnder(int level) {
        int per = leavesUnder(level);
        int[] out = new int[leaves() / per];
        for (int leaf = 0; leaf < leaves(); leaf++) {
            out[leaf / per] += usable(leaf) ? 1 : 0;
        }
        return out;
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
        if (level == depth()) {
            return 0;
        }
        double c = levels.get(level).cost();
        return c != 0 ? c : depth() - level;
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
            kept.add(new Level(levels.isEmpty() ? "PU" : levels.getLast().name(), 1, 0));
        }
        return new Topology(kept, leafOsIndex);
    }

    /**
     * Several hosts of this topology under a network: {@code network} levels from the top (e.g.
     * {@code switch:2}) whose arities multiply to divide {@code hosts}, a level named {@code host}
     * holding the rest, then this tree under each host. Leaf OS indexes repeat per host.
     */
    public Topology cluster(List<Level> network, int hosts) {
        int above = 1;
        for (Level l : network) {
            above *= l.arity();
        }
        if (hosts < 1 || hosts % above != 0) {
            throw new IllegalArgumentException(hosts + " hosts cannot be spread evenly under a network of " + above
                    + " groups");
        }
        List<Level> all = new ArrayList<>(network);
        all.add(new Level("host", hosts / above, 0));
        all.addAll(levels);
        int[] os = new int[leaves() * hosts];
        for (int h = 0; h < hosts; h++) {
            System.arraycopy(leafOsIndex, 0, os, h * leaves(), leaves());
        }
        return new Topology(all, os);
    }

    /** The index of the first level with this name (case-insensitive), or -1. */
    public int levelNamed(String name) {
        for (int i = 0; i < levels.size(); i++) {
            if (levels.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Leaves under one object of level {@code level} (the whole tree for -1). */
    public int leavesUnder(int level) {
        int n = 1;
        for (int i = level + 1; i < levels.size(); i++) {
            n *= levels.get(i).arity();
        }
        return n;
    }

    /**
     * The tree cut below the level named {@code name} (its objects become the leaves, each with
     * the OS index of its first usable PU, a hole when it has none); itself when there is no such level.
     */
    public Topology leavesAt(String name) {
        int at = levelNamed(name);
        if (at < 0 || at == levels.size() - 1) {
            return this;
        }
        int per = leavesUnder(at);
        int[] os = new int[leaves() / per];
        java.util.Arrays.fill(os, HOLE);
        for (int leaf = leaves() - 1; leaf >= 0; leaf--) {
            if (usable(leaf)) {
                os[leaf / per] = leafOsIndex[leaf];
            }
        }
        return new Topology(levels.subList(0, at + 1), os);
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
