package org.banyan.runtime.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.banyan.runtime.os.ProcessScan.Proc;
import org.junit.jupiter.api.Test;

/** The stray policy on process tables made up: what is killed, reaped and left, and when. */
class StraysTest {
    private static final long SELF = 100;
    /** When the daemon began to run Java, in the start times' clock ticks. */
    private static final long SINCE = 2;

    /** Ranks 200 (job unit 1, running) and 201 (unit 2, ended); strays name units by their environment. */
    private record Facts(Set<Long> own, Map<Long, Long> units, Set<Long> running, Map<Long, List<Proc>> below,
            Set<Long> helpers, boolean attributesAll) implements Strays.Facts {
        Facts(Set<Long> own, Map<Long, Long> units, Set<Long> running) {
            this(own, units, running, Map.of());
        }

        Facts(Set<Long> own, Map<Long, Long> units, Set<Long> running, Map<Long, List<Proc>> below) {
            this(own, units, running, below, Set.of(), true);
        }

        @Override
        public boolean anyRunning() {
            return !running.isEmpty();
        }

        @Override
        public long group() {
            return SELF; // the daemon leads its group, as a process started from a shell does
        }

        @Override
        public long since() {
            return SINCE;
        }

        @Override
        public boolean helper(long pid) {
            return helpers.contains(pid);
        }

        @Override
        public boolean unchanged(Proc child) {
            return true;
        }

        @Override
        public List<Proc> treeOf(Proc root) {
            List<Proc> out = new java.util.ArrayList<>(List.of(root));
            for (int i = 0; i < out.size(); i++) {
                out.addAll(below.getOrDefault(out.get(i).pid(), List.of()));
            }
            return out;
        }

        @Override
        public Set<Long> own() {
            return own;
        }

        @Override
        public long unitOf(long pid) {
            return units.getOrDefault(pid, -1L);
        }

        @Override
        public boolean unitRunning(long unit) {
            return running.contains(unit);
        }
    }

    private static Proc p(long pid, long ppid, char state, long start) {
        return new Proc(pid, ppid, pid, state, start);
    }

    private static List<Long> pids(List<Proc> procs) {
        return procs.stream().map(Proc::pid).toList();
    }

    @Test
    void aStrayOfAnEndedJobIsKilledOnItsSecondSightingAndItsDescendantsAsTheyComeToTheDaemon() {
        Strays s = new Strays();
        Facts f = new Facts(Set.of(200L), Map.of(300L, 2L, 301L, 2L), Set.of(1L),
                Map.of(300L, List.of(p(301, 300, 'S', 6)), 301L, List.of(p(302, 301, 'S', 7))));
        List<Proc> table = List.of(p(200, SELF, 'S', 1), p(300, SELF, 'S', 5));
        Strays.Decision first = s.sweep(table, f, false, 0);
        assertThat(first.kill()).as("seen once: it may be a child spawned a moment ago").isEmpty();
        assertThat(first.again()).isTrue();
        assertThat(pids(s.sweep(table, f, false, 0).kill())).as("the daemon's child only: its number is safe").containsExactly(300L);
        // 300 a zombie of ours, its child 301 reparented to us: killed at once, no second sighting
        Strays.Decision third = s.sweep(List.of(p(200, SELF, 'S', 1), p(300, SELF, 'Z', 5), p(301, SELF, 'S', 6)), f, false, 100);
        assertThat(third.reap()).containsExactly(300L);
        assertThat(pids(third.kill())).containsExactly(301L);
        Strays.Decision fourth = s.sweep(List.of(p(200, SELF, 'S', 1), p(301, SELF, 'Z', 6), p(302, SELF, 'S', 7)), f, false, 200);
        assertThat(fourth.reap()).containsExactly(301L);
        assertThat(pids(fourth.kill())).containsExactly(302L);
        assertThat(s.sweep(List.of(p(200, SELF, 'S', 1), p(302, SELF, 'Z', 7)), f, false, 300).reap()).containsExactly(302L);
        assertThat(s.sweep(List.of(p(200, SELF, 'S', 1)), f, false, 400).again()).as("nothing left to look at").isFalse();
    }

    @Test
    void aDescendantThatNeverComesIsForgottenInTime() {
        Strays s = new Strays();
        Facts f = new Facts(Set.of(), Map.of(300L, 2L), Set.of(), Map.of(300L, List.of(p(301, 300, 'S', 6))));
        s.sweep(List.of(p(300, SELF, 'S', 5)), f, false, 0);
        s.sweep(List.of(p(300, SELF, 'S', 5)), f, false, 0);
        assertThat(s.sweep(List.of(), f, false, Strays.DOOMED_MILLIS).again()).as("301 may still come").isTrue();
        assertThat(s.sweep(List.of(), f, false, Strays.DOOMED_MILLIS + 1).again()).isFalse();
    }

    @Test
    void aStrayOfARunningJobAndAProcessOfNoJobOfOursAreLeftAlone() {
        Strays s = new Strays();
        Facts f = new Facts(Set.of(), Map.of(300L, 1L), Set.of(1L));
        List<Proc> table = List.of(p(300, SELF, 'S', 5), new Proc(310, SELF, SELF, 'S', 9) /* the JDK's helper: no mark, our group */);
        for (int i = 0; i < 3; i++) {
            Strays.Decision d = s.sweep(table, f, false, 0);
            assertThat(d.kill()).isEmpty();
            assertThat(d.reap()).isEmpty();
        }
        assertThat(pids(s.sweep(table, f, true, 0).kill())).as("at the daemon's end: the job's stray, not the helper")
                .containsExactly(300L);
    }

    @Test
    void aPidGivenOutAgainBetweenTwoSightingsIsNotKilled() {
        Strays s = new Strays();
        Facts f = new Facts(Set.of(), Map.of(300L, 2L), Set.of());
        s.sweep(List.of(p(300, SELF, 'S', 5)), f, false, 0);
        assertThat(s.sweep(List.of(p(300, SELF, 'S', 77)), f, false, 0).kill()).as("another process, the same number").isEmpty();
    }

    @Test
    void aZombieNobodyReapsIsReapedOnceItHasBeenOneForAWhileAndOurOwnNever() {
        Strays s = new Strays();
        Facts f = new Facts(Set.of(200L), Map.of(), Set.of());
        List<Proc> table = List.of(p(200, SELF, 'Z', 1), p(500, SELF, 'Z', 3));
        assertThat(s.sweep(table, f, false, 0).reap()).as("the JDK may be reaping it this moment").isEmpty();
        assertThat(s.sweep(table, f, false, Strays.ZOMBIE_MILLIS - 1).reap()).isEmpty();
        Strays.Decision d = s.sweep(table, f, false, Strays.ZOMBIE_MILLIS);
        assertThat(d.reap()).as("the rank's zombie is its reaper's").containsExactly(500L);
        assertThat(s.sweep(List.of(p(200, SELF, 'Z', 1), p(500, SELF, 'Z', 9)), f, false, 5000).reap())
                .as("the number given to another process: its time starts again").isEmpty();
    }

    /** An unmarked stray started at 5 outside our group (setsid), and what must never be taken for one. */
    private static final Proc UNMARKED = p(400, SELF, 'S', 5);

    @Test
    void anUnmarkedStrayIsKilledOnceNoRankRunsHereAndNotBefore() {
        Strays s = new Strays();
        Facts busy = new Facts(Set.of(200L), Map.of(), Set.of(1L));
        List<Proc> table = List.of(p(200, SELF, 'S', 1), UNMARKED);
        for (int i = 0; i < 3; i++) {
            assertThat(s.sweep(table, busy, false, 0).kill()).as("a rank still runs: it may be that rank's").isEmpty();
        }
        Facts idle = new Facts(Set.of(), Map.of(), Set.of());
        List<Proc> after = List.of(UNMARKED);
        assertThat(s.sweep(after, idle, false, 0).kill()).as("seen once").isEmpty();
        assertThat(pids(s.sweep(after, idle, false, 0).kill())).containsExactly(400L);
    }

    @Test
    void anUnmarkedStrayGoesAtTheDaemonsEndWhileRanksRun() {
        Facts busy = new Facts(Set.of(200L), Map.of(), Set.of(1L));
        assertThat(pids(new Strays().sweep(List.of(p(200, SELF, 'S', 1), UNMARKED), busy, true, 0).kill()))
                .containsExactly(400L);
    }

    @Test
    void whatCannotBeARanksIsNeverTakenForAnUnmarkedStray() {
        Facts idle = new Facts(Set.of(), Map.of(), Set.of(), Map.of(), Set.of(402L), true);
        List<Proc> table = List.of(
                new Proc(401, SELF, SELF, 'S', 5), // the JDK's child: in the daemon's group
                p(402, SELF, 'S', 5), // a helper's: an ssh ControlPersist master, in a session of its own
                p(403, SELF, 'S', SINCE), // a shell's background job from before it exec'd banyan
                p(404, SELF, 'S', 1));
        Strays s = new Strays();
        for (int i = 0; i < 3; i++) {
            assertThat(s.sweep(table, idle, false, 0).kill()).isEmpty();
        }
        assertThat(s.sweep(table, idle, true, 0).kill()).as("not at the daemon's end either").isEmpty();
        Facts embedded = new Facts(Set.of(), Map.of(), Set.of(), Map.of(), Set.of(), false);
        assertThat(new Strays().sweep(List.of(UNMARKED), embedded, true, 0).kill())
                .as("a daemon inside another program (a test) ends only what names its units").isEmpty();
    }
}
