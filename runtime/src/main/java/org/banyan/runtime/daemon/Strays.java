package org.banyan.runtime.daemon;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.banyan.runtime.os.ProcessScan.Proc;

/**
 * Which of a daemon's children are processes its ranks left behind (strays: a {@code setsid}
 * helper, a daemonised server, whatever a rank started in a session of its own and did not wait
 * for), and what becomes of them. The daemon is a subreaper, so such a process becomes its child
 * when the rank that started it ends; it is a stray of the job or DVM task its environment names
 * ({@code BANYAN_ORIGIN}: this daemon's pid, the job and the rank; see {@code Subreaper.MARK}).
 * A stray of a job with no rank left on this host, or of a task that has ended, is killed with
 * its process group and everything below it, as Slurm ends what is left of a job step; a stray of
 * a running one is left alone. At the daemon's end every stray is killed.
 *
 * <p>A stray that names no job or task of this daemon's (it cleared its environment: {@code env -i
 * setsid ...}; or its mark names a nested banyan that has ended) cannot be given to a job. It is
 * one all the same when it left this daemon's process group (the JDK's own children stay in it),
 * started after the daemon did (a shell's background job from before it exec'd banyan is not),
 * and is no helper's ({@code Subreaper.HELPER}: an ssh {@code ControlPersist} master, which
 * daemonises the same way): it is killed once no job or task has a rank running here, or at the
 * daemon's end, and only in a JVM that is banyan's own ({@link Facts#attributesAll}).
 *
 * <p>A kill needs two sightings, one sweep apart: a child this daemon has just spawned is not yet
 * in its reaper's table for a moment. A zombie child nobody else reaps (a stray that ended by
 * itself) is reaped here once it has been one for {@link #ZOMBIE_MILLIS}: a child the JDK
 * started is a zombie for a moment before the JDK's own wait reaps it, and reaped here the JDK
 * would report it as ended with status 0. No I/O: the sweep is given the daemon's children and the
 * time and asks {@link Facts} the rest.
 */
final class Strays {
    /** What the daemon knows of a process. */
    interface Facts {
        /** The children this daemon started and will reap itself (ranks, waiting JVMs); asked once a sweep. */
        java.util.Set<Long> own();

        /**
         * The job or task of this daemon that {@code pid}'s environment names, as a number the
         * daemon chooses, or -1 when it names none of this daemon's.
         */
        long unitOf(long pid);

        /** Whether that job has a rank running on this host, or that task is running. */
        boolean unitRunning(long unit);

        /** Whether any job or task of this daemon has a rank running on this host. */
        boolean anyRunning();

        /**
         * Whether a child that names no unit may be taken for a stray at all: in a JVM that is
         * banyan's own, every child it did not start for its work came from a rank.
         */
        boolean attributesAll();

        /** This daemon's process group, which the JDK's children share. */
        long group();

        /** A start time (as {@link Proc#start}) after this daemon's process began to run Java. */
        long since();

        /** Whether {@code pid}'s environment names this daemon as the one it is a helper of. */
        boolean helper(long pid);

        /** {@code root} and every process below it, parents before their children. */
        List<Proc> treeOf(Proc root);

        /**
         * Whether the child is still as it was seen: one seen as a zombie may have been reaped by
         * the daemon's reaper since (and left its table), which made it look like nobody's.
         */
        boolean unchanged(Proc child);
    }

    /**
     * What a sweep decided: children to kill now (with their process group when they lead one),
     * ended children to reap, and whether to look again soon.
     */
    record Decision(List<Proc> kill, List<Long> reap, boolean again) {}

    /** Candidates of the last sweep (pid → start time), killed only when seen again. */
    private Map<Long, Long> seen = new HashMap<>();
    /** How long a zombie child that is not a stray killed here waits before it is reaped here. */
    static final long ZOMBIE_MILLIS = 2000;
    /** How long a process of a stray's tree is waited for, to be killed and reaped, at most. */
    static final long DOOMED_MILLIS = 10_000;
    /** Zombie children nobody had reaped: pid → start time, and when first seen. */
    private Map<Long, long[]> zombies = new HashMap<>();
    /**
     * The processes of strays' trees (pid → start time, and when found): each is killed once it
     * is this daemon's child, when its number cannot go to another process before this daemon
     * reaps it (a descendant killed where it stood could have ended and its number been given
     * out again in between), and reaped once it is a zombie. A stray's descendants become the
     * daemon's children as their parents die.
     */
    private final Map<Long, long[]> doomed = new HashMap<>();

    /**
     * @param children this daemon's children now
     * @param closing  the daemon ends: every stray goes, its job running or not, and at once
     */
    Decision sweep(List<Proc> children, Facts facts, boolean closing, long nowMillis) {
        doomed.values().removeIf(d -> nowMillis - d[1] > DOOMED_MILLIS);
        List<Proc> kill = new ArrayList<>();
        List<Long> reap = new ArrayList<>();
        Map<Long, Long> seenNow = new HashMap<>();
        Map<Long, long[]> zombiesNow = new HashMap<>();
        java.util.Set<Long> own = children.isEmpty() ? java.util.Set.of() : facts.own();
        for (Proc child : children) {
            long[] d = doomed.get(child.pid());
            boolean isDoomed = d != null && d[0] == child.start();
            if (child.zombie()) {
                long[] since = zombies.get(child.pid());
                if (since != null && since[0] != child.start()) {
                    since = null; // another process with the same number
                }
                if (isDoomed || since != null && nowMillis - since[1] >= ZOMBIE_MILLIS) {
                    reap.add(child.pid());
                    doomed.remove(child.pid());
                } else if (!own.contains(child.pid()) && (since != null || facts.unchanged(child))) {
                    zombiesNow.put(child.pid(), since != null ? since : new long[] {child.start(), nowMillis});
                }
                continue;
            }
            if (isDoomed) {
                kill.add(child);
                continue;
            }
            if (own.contains(child.pid())) {
                continue;
            }
            long unit = facts.unitOf(child.pid());
            if (unit < 0 ? !unattributedStray(child, facts, closing) : !closing && facts.unitRunning(unit)) {
                continue;
            }
            Long start = child.start();
            if (closing || start.equals(seen.get(child.pid()))) {
                for (Proc p : facts.treeOf(child)) {
                    doomed.put(p.pid(), new long[] {p.start(), nowMillis});
                }
                kill.add(child);
            } else {
                seenNow.put(child.pid(), start);
            }
        }
        seen = seenNow;
        zombies = zombiesNow;
        return new Decision(kill, reap, !seen.isEmpty() || !zombies.isEmpty() || !doomed.isEmpty());
    }

    /** A child that names no unit of this daemon's, and is a stray to end now all the same (see the class's comment). */
    private static boolean unattributedStray(Proc child, Facts facts, boolean closing) {
        return facts.attributesAll() && child.pgrp() != facts.group() && child.start() > facts.since()
                && (closing || !facts.anyRunning()) && !facts.helper(child.pid());
    }
}
