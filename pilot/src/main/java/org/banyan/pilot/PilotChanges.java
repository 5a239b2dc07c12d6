package org.banyan.pilot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.banyan.core.pilot.TaskState;
import org.banyan.runtime.dvm.DvmClient;

/**
 * What a {@link TaskManager}'s pilots coming and going do to its tasks: a pilot that becomes
 * active is linked to (three tries), one that cannot be reached or is over may leave tasks no
 * other pilot could run (they fail, saying why), and a pilot lost with tasks gives its
 * restartable ones to another active pilot and fails the rest. Works under the manager's lock,
 * on the manager's state.
 */
final class PilotChanges {
    private final TaskManager m;

    PilotChanges(TaskManager m) {
        this.m = m;
    }

    /**
     * Links to an active pilot's DVM. One it cannot reach after three tries (a secret changed
     * since the pilot connected) fits nothing: tasks only it could run fail saying why.
     */
    void connect(Pilot p) {
        String why = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            if (attempt > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(attempt * 500_000_000L); // outside the lock
            }
            synchronized (m) {
                if (m.roster.linked(p) || m.closed) {
                    return;
                }
                try {
                    m.roster.link(PilotLink.open(m, p, m.detached));
                    why = null;
                    break;
                } catch (DvmClient.Unreachable | IOException e) {
                    why = e.getMessage();
                }
            }
        }
        if (why != null) {
            synchronized (m) {
                m.roster.unreachable(p, "this task manager cannot connect to its DVM: " + why);
            }
        }
        failUnfit();
        m.pump();
    }

    /**
     * Once every pilot added is connected or over, the waiting tasks that none of the connected
     * ones could ever run fail, with each pilot's reason: they would wait for ever. (One sent to
     * a pilot that could not run it failed there, "cannot run on this pilot", while another could.)
     */
    void failUnfit() {
        List<Task> unfit;
        Map<UnsentTasks.Kind, String> why;
        synchronized (m) {
            if (m.closed || !m.roster.allSettled()) {
                return;
            }
            why = PilotFit.noneFits(m.unsent.kinds(), m.roster);
            if (why.isEmpty()) {
                return;
            }
            unfit = m.unsent.take(Integer.MAX_VALUE, why::containsKey);
        }
        for (Task t : unfit) {
            m.move(t, TaskState.FAILED, Session.nowMicros(), -1, why.get(UnsentTasks.kindOf(t)));
        }
    }

    /** Every pilot added is over: the tasks none of them took fail, as nothing will run them. */
    void noPilotLeft() {
        List<Task> left;
        synchronized (m) {
            if (m.closed || !m.roster.allOver()) {
                return;
            }
            left = m.unsent.drain();
        }
        for (Task t : left) {
            m.move(t, TaskState.FAILED, Session.nowMicros(), -1, "no pilot left to run it");
        }
    }

    /** A pilot's connection ended: restartable tasks go elsewhere, the rest fail. */
    void pilotGone(PilotLink link) {
        List<Task> orphans = new ArrayList<>();
        synchronized (m) {
            m.roster.unlink(link.pilot);
            orphans.addAll(link.byId.values());
            link.byId.clear();
        }
        orphans.addAll(link.unaccepted());
        orphaned(link, orphans);
        failUnfit(); // tasks that only it could have run
    }

    /**
     * Tasks a lost pilot held: restartable ones go to another active pilot (keeping their states;
     * the new agent moves them on), the others end.
     */
    void orphaned(PilotLink link, List<Task> orphans) {
        for (Task t : orphans) {
            PilotLink to = null;
            boolean wasClosed;
            synchronized (m) {
                wasClosed = m.closed;
                if (t.description().restartable && !m.closed) {
                    to = m.roster.leastGiven(l -> l != link && l.takes(UnsentTasks.kindOf(t)));
                    if (to != null) { // bound to it now, as the manager's pump() binds: a cancel meanwhile waits for the acceptance
                        to.given++;
                        to.inFlight++;
                        t.pilot = to.pilot;
                        t.agentId = -1;
                    }
                }
            }
            if (to != null) {
                to.submit(List.of(t));
            } else {
                m.move(t, wasClosed ? TaskState.CANCELED : TaskState.FAILED, Session.nowMicros(), -1,
                        "lost the pilot " + link.pilot.uid() + (link.goneWhy == null ? "" : " (" + link.goneWhy + ")")
                                + (t.description().restartable && !wasClosed ? " and no other is active" : ""));
            }
        }
    }
}
