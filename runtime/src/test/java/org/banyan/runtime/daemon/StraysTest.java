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

    /** Ranks 200 (job unit 1, running) and 201 (unit 2, ended); strays name units by their environment. */
    private record Facts(Set<Long> own, Map<Long, Long> units, Set<Long> running, Map<Long, List<Proc>> below)
            implements Strays.Facts {
        Facts(Set<Long> own, Map<Long, Long> units, Set<Long> running) {
            this(own, units, running, Map.of());
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
        List<Proc> table = List.of(p(300, SELF, 'S', 5), p(310, SELF, 'S', 9) /* the JDK's helper: no mark */);
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
}
