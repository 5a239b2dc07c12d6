package org.banyan.comm;

/**
 * A non-blocking operation in flight. {@link #await()} drives the library's progress until it is
 * done; {@link #test()} makes one round of progress and says whether it is. A request reports
 * its failure (a truncated message, a lost peer) from whichever of the two sees it done.
 */
public sealed interface Request permits Operation {
    /** Waits until done: a receive's status, or null for a send. */
    Status await();

    /** One round of progress; true once done (then {@link #await()} returns at once). */
    boolean test();

    /** Waits for all of them, in any order of completion. */
    static void awaitAll(Request... requests) {
        for (Request r : requests) {
            r.await();
        }
    }

    /** Waits for all of them. */
    static void awaitAll(java.util.List<? extends Request> requests) {
        for (Request r : requests) {
            r.await();
        }
    }
}
