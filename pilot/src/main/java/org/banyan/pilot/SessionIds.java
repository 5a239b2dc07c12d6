package org.banyan.pilot;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The uids of a session's tasks and pilots, each given once: a task's uid names its sandbox
 * and its lines in the profile, a pilot's its DVM's directory. Counting per manager, two task
 * managers of one session both made {@code task.000000} and shared its sandbox, and two pilot
 * managers both started {@code pilot.0000}'s DVM in one directory; a uid given twice by the
 * user overwrote the first task's output without a word.
 */
final class SessionIds {
    private int nextTask;
    private int nextPilot;
    /** The task uids users gave: made ones never take them, and none is given twice. */
    private final Set<String> given = new HashSet<>();

    /**
     * The uids of these tasks, in order: each given one, or {@code task.NNNNNN} in turn; all or
     * none.
     *
     * @throws IllegalArgumentException for a uid this session has already, or one given twice here
     */
    synchronized List<String> claimTasks(List<TaskDescription> descriptions) {
        Set<String> here = null;
        for (TaskDescription d : descriptions) {
            if (d.uid == null) {
                continue;
            }
            if (here == null) {
                here = new HashSet<>();
            }
            if (given.contains(d.uid) || made(d.uid) || !here.add(d.uid)) {
                throw new IllegalArgumentException("the uid '" + d.uid + "' is a task's already in this session: "
                        + "each task needs its own (it names the task's sandbox)");
            }
        }
        List<String> uids = new ArrayList<>(descriptions.size());
        for (TaskDescription d : descriptions) {
            if (d.uid != null) {
                given.add(d.uid);
                uids.add(d.uid);
                continue;
            }
            String uid;
            do {
                uid = Task.uid(nextTask++);
            } while (!given.isEmpty() && given.contains(uid));
            uids.add(uid);
        }
        return uids;
    }

    /** The next pilot's uid, {@code pilot.NNNN}. */
    synchronized String nextPilot() {
        return String.format("pilot.%04d", nextPilot++);
    }

    /** Whether {@code uid} is one this session has made already ({@code task.} and a number below the next). */
    private boolean made(String uid) {
        if (!uid.startsWith("task.")) {
            return false;
        }
        try {
            int n = Integer.parseInt(uid.substring(5));
            return n >= 0 && n < nextTask && Task.uid(n).equals(uid); // the form Task.uid writes, not task.+7 or task.7
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
