package org.banyan.core.job;

/**
 * A host of the job and the number of slots (ranks it takes before it is oversubscribed). A
 * DVM's job may see a host with no slot left (all in use by other jobs): it keeps its place, so
 * that node i stays daemon i, and takes no rank unless the job oversubscribes.
 */
public record Node(String name, int slots) {
    public Node {
        if (slots < 0) {
            throw new IllegalArgumentException("slots must not be negative: " + slots);
        }
    }
}
