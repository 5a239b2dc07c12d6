package org.banyan.sim;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What must hold while a simulated launch runs, checked as each event is handled (each check is
 * O(1), so it runs at every size): virtual time never goes back; the head finishes once; no
 * daemon starts a rank once it was told its parent is gone (it must end them, not add more),
 * no rank starts while it runs already, and none starts twice (a rank the head counted as ended
 * and then ran again would be a leak the final counts could miss).
 * Violations are collected, not thrown, so a run ends and says all it broke.
 */
final class SimInvariants {
    private static final int MAX_KEPT = 20;
    private final List<String> violations = new ArrayList<>();
    private final Set<Integer> started = new HashSet<>();

    void timeMovesOn(long now, long next) {
        if (next < now) {
            violate("time went back from " + now + " to " + next + " us");
        }
    }

    void finishedOnce(boolean finishedBefore) {
        if (finishedBefore) {
            violate("the head finished twice");
        }
    }

    void rankStarts(int rank, boolean parentGone, boolean running) {
        if (parentGone) {
            violate("rank " + rank + " started by a daemon whose parent was gone");
        }
        if (running) {
            violate("rank " + rank + " started while it ran");
        }
        if (!started.add(rank)) {
            violate("rank " + rank + " started twice");
        }
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    private void violate(String what) {
        if (violations.size() < MAX_KEPT) {
            violations.add(what);
        }
    }
}
