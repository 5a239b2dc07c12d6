package org.banyan.comm;

import java.lang.foreign.MemorySegment;

/**
 * A window's active-target epochs with groups (MPI_Win_post, start, complete, wait, test): a
 * target posts to the origins that may access it, an origin starts once every target it names has
 * posted to it, completes once its operations are applied there, and a target's epoch ends when
 * every origin it posted to has completed. Called on the rank's own thread; the counts of POSTs
 * and COMPLETEs the messages bring are read under the engine's lock.
 */
final class WindowGroupEpochs {
    /** How the epochs send their POST and COMPLETE messages. */
    interface Sender {
        void send(MemorySegment record, int to, int kind);
    }

    private final Comm comm;
    private final WindowOrigin origin;
    private final WindowTarget target;
    private final Sender sender;
    /** The open access epoch's targets and exposure epoch's origins (ranks of the window's communicator), or null. */
    private int[] accessGroup;
    private int[] exposureGroup;

    WindowGroupEpochs(Comm comm, WindowOrigin origin, WindowTarget target, Sender sender) {
        this.comm = comm;
        this.origin = origin;
        this.target = target;
        this.sender = sender;
    }

    void post(Group origins) {
        if (exposureGroup != null) {
            throw new IllegalStateException("post: this rank's window is already posted; end that epoch with await() or test() first");
        }
        int[] ranks = ranksOf(origins, "post");
        exposureGroup = ranks;
        for (int o : ranks) {
            sender.send(MemorySegment.NULL, o, WindowRecords.POST);
        }
    }

    void start(Group targets) {
        if (accessGroup != null) {
            throw new IllegalStateException("start: an access epoch is already open; end it with complete() first");
        }
        int[] ranks = ranksOf(targets, "start");
        comm.engine.progressUntil(() -> comm.engine.read(() -> covers(origin.postsFrom, ranks)));
        comm.engine.locked(() -> take(origin.postsFrom, ranks));
        accessGroup = ranks;
    }

    void complete() {
        if (accessGroup == null) {
            throw new IllegalStateException("complete: no access epoch is open; start(targets) begins one");
        }
        int[] ranks = accessGroup;
        comm.engine.progressUntil(() -> comm.engine.read(() -> {
            for (int t : ranks) {
                if (!origin.completeAt(t)) {
                    return false;
                }
            }
            return true;
        }));
        for (int t : ranks) {
            sender.send(MemorySegment.NULL, t, WindowRecords.COMPLETE);
        }
        accessGroup = null;
    }

    void await() {
        int[] ranks = exposure("await");
        comm.engine.progressUntil(() -> comm.engine.read(() -> covers(target.completesFrom, ranks)));
        endExposure(ranks);
    }

    boolean test() {
        int[] ranks = exposure("test");
        comm.engine.progressOnce();
        if (!comm.engine.read(() -> covers(target.completesFrom, ranks))) {
            return false;
        }
        endExposure(ranks);
        return true;
    }

    private int[] exposure(String what) {
        if (exposureGroup == null) {
            throw new IllegalStateException(what + ": this rank's window is not posted; post(origins) opens it");
        }
        return exposureGroup;
    }

    private void endExposure(int[] ranks) {
        comm.engine.locked(() -> take(target.completesFrom, ranks));
        exposureGroup = null;
    }

    /** Whether {@code received} holds a message from each of {@code ranks} (as often as a rank is named). */
    private static boolean covers(int[] received, int[] ranks) {
        int[] needed = new int[received.length];
        for (int r : ranks) {
            if (++needed[r] > received[r]) {
                return false;
            }
        }
        return true;
    }

    private static void take(int[] received, int[] ranks) {
        for (int r : ranks) {
            received[r]--;
        }
    }

    private int[] ranksOf(Group g, String what) {
        return GroupCreation.ranksOf(comm, g, what, "the window's communicator " + comm.name());
    }
}
