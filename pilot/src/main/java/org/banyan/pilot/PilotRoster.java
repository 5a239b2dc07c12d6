package org.banyan.pilot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.banyan.core.pilot.PilotState;

/**
 * The pilots a task manager was given and its links to those it connected to: which may take
 * tasks, which is least loaded, and whether every pilot is settled (connected or over), which is
 * when a task none of them fits can be failed. Not thread-safe: used under the manager's lock.
 */
final class PilotRoster {
    private final Map<Pilot, PilotLink> links = new HashMap<>();
    private final List<Pilot> pilots = new ArrayList<>();
    /** Active pilots whose DVM this manager could not connect to, with why: they fit nothing. */
    private final Map<Pilot, String> unreachable = new HashMap<>();
    /** Cores of the pilots added, active or not yet: a function pool's default size. */
    private int cores;

    void add(Pilot p) {
        cores += p.cores();
        pilots.add(p);
    }

    int cores() {
        return cores;
    }

    List<Pilot> pilots() {
        return pilots;
    }

    boolean linked(Pilot p) {
        return links.containsKey(p);
    }

    void link(PilotLink l) {
        links.put(l.pilot, l);
    }

    /** The link to {@code p}, or null. */
    PilotLink linkOf(Pilot p) {
        return links.get(p);
    }

    void unlink(Pilot p) {
        links.remove(p);
    }

    Collection<PilotLink> links() {
        return links.values();
    }

    void unreachable(Pilot p, String why) {
        unreachable.put(p, why);
    }

    /** Why this manager cannot use active pilot {@code p}, or null. */
    String whyUnreachable(Pilot p) {
        return unreachable.isEmpty() ? null : unreachable.get(p);
    }

    boolean anyLinked() {
        return !links.isEmpty();
    }

    /**
     * Every pilot added is connected, unreachable or over, and one is connected or unreachable:
     * no pilot is yet to say what it fits.
     */
    boolean allSettled() {
        return (!links.isEmpty() || !unreachable.isEmpty())
                && pilots.stream().allMatch(p -> p.state().isFinal() || links.containsKey(p) || unreachable.containsKey(p));
    }

    /** Pilots were added, and every one is over: nothing will run what none of them took. */
    boolean allOver() {
        return !pilots.isEmpty() && pilots.stream().allMatch(p -> p.state().isFinal());
    }

    /** Whether more than one pilot may still take tasks. */
    boolean sharesTasks() {
        if (pilots.size() < 2) {
            return false;
        }
        int live = 0;
        for (Pilot p : pilots) {
            if (!p.state().isFinal() && ++live > 1) {
                return true;
            }
        }
        return false;
    }

    /** The active pilot {@code fits} takes with the fewest tasks per core given so far, or null. */
    PilotLink leastGiven(Predicate<PilotLink> fits) {
        PilotLink best = null;
        for (PilotLink l : links.values()) {
            if (l.pilot.state() == PilotState.PMGR_ACTIVE && !l.gone && fits.test(l)
                    && (best == null || (double) l.given / l.pilot.cores() < (double) best.given / best.pilot.cores())) {
                best = l;
            }
        }
        return best;
    }
}
