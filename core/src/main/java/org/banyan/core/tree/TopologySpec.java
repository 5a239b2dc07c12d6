package org.banyan.core.tree;

/**
 * The shape of an overlay tree, independent of its size: read once from its text form at the
 * edge (a command line, a wire message) and passed on typed. {@link #over} makes the tree for a
 * number of vertices.
 *
 * <p>Text forms: {@code radix:K} (the complete K-ary tree), {@code binomial}, {@code direct}
 * (every daemon a child of the head: the star).
 */
public sealed interface TopologySpec {
    /** The complete K-ary tree in breadth-first numbering. */
    record Radix(int k) implements TopologySpec {
        public Radix {
            if (k < 1) {
                throw new IllegalArgumentException("radix must be at least 1");
            }
        }

        @Override
        public Topology over(int size) {
            return new KaryTree(size, k);
        }

        @Override
        public String toString() {
            return "radix:" + k;
        }
    }

    /** The binomial tree. */
    record Binomial() implements TopologySpec {
        @Override
        public Topology over(int size) {
            return new BinomialTree(size);
        }

        @Override
        public String toString() {
            return "binomial";
        }
    }

    /** Every daemon a child of the head. */
    record Direct() implements TopologySpec {
        @Override
        public Topology over(int size) {
            return new KaryTree(size, Math.max(1, size - 1));
        }

        @Override
        public String toString() {
            return "direct";
        }
    }

    /** The tree of this shape over {@code size} vertices, the head included. */
    Topology over(int size);

    /** The text form, which {@link #parse} reads back. */
    @Override
    String toString();

    /** Reads {@code radix:K}, {@code binomial} or {@code direct}; anything else is an IllegalArgumentException saying what is valid. */
    static TopologySpec parse(String text) {
        if (text.equals("binomial")) {
            return new Binomial();
        }
        if (text.equals("direct")) {
            return new Direct();
        }
        if (text.startsWith("radix:")) {
            int k;
            try {
                k = Integer.parseInt(text.substring(6));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("radix '" + text.substring(6) + "' is not a number");
            }
            return new Radix(k);
        }
        throw new IllegalArgumentException("unknown topology '" + text + "' (valid: radix:K, binomial, direct)");
    }
}
