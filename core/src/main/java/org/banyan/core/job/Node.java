package org.banyan.core.job;

/** A host of the job and the number of slots (ranks it takes before it is oversubscribed). */
public record Node(String name, int slots) {
    public Node {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be positive: " + slots);
        }
    }
}
