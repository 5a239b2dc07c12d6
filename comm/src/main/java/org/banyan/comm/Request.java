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

    /**
     * MPI_Cancel: a receive that no message has matched yet is taken back, done at once, and
     * {@link #cancelled()} says so ({@link #await()} returns null); true then. A receive already
     * matched, and any send, go on as if not asked (false): a send cannot be taken back once its
     * receiver may have it, and MPI deprecates cancelling sends.
     */
    boolean cancel();

    /** MPI_Test_cancelled: whether {@link #cancel()} took it back. */
    boolean cancelled();

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

    /** MPI_Testall: one round of progress on each; true when all are done. */
    static boolean testAll(java.util.List<? extends Request> requests) {
        boolean all = true;
        for (Request r : requests) {
            all &= r.test();
        }
        return all;
    }

    /** MPI_Testany: the index of one that is done (the first found), or -1 after a round of progress on each. */
    static int testAny(java.util.List<? extends Request> requests) {
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).test()) {
                return i;
            }
        }
        return -1;
    }

    /** MPI_Testsome: a round of progress on each; the indexes of those that are done, in order (none: empty). */
    static java.util.List<Integer> testSome(java.util.List<? extends Request> requests) {
        java.util.List<Integer> done = new java.util.ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            if (requests.get(i).test()) {
                done.add(i);
            }
        }
        return done;
    }

    /** MPI_Waitany: waits until one is done; returns its index (its status from {@link #await()} at once). */
    static int awaitAny(java.util.List<? extends Request> requests) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("awaitAny of no request");
        }
        Operation first = (Operation) requests.getFirst();
        int[] found = {-1};
        first.engine.progressUntil(() -> {
            for (int i = 0; i < requests.size(); i++) {
                if (((Operation) requests.get(i)).done) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        });
        requests.get(found[0]).await(); // its failure, if any, is thrown here
        return found[0];
    }

    /** MPI_Waitsome: waits until at least one is done; returns the indexes of all that are, in order. */
    static java.util.List<Integer> awaitSome(java.util.List<? extends Request> requests) {
        awaitAny(requests);
        java.util.List<Integer> done = new java.util.ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            if (((Operation) requests.get(i)).done) {
                requests.get(i).await();
                done.add(i);
            }
        }
        return done;
    }
}
