package org.banyan.rm.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadSimulationTest {
    @Test
    void everyJobRunsAndTheClusterIsNeverOverAllocated() {
        for (long seed = 1; seed <= 20; seed++) {
            List<WorkloadJob> w = Workloads.poisson(40, 64, 20, seed);
            for (boolean flexible : new boolean[] {false, true}) {
                WorkloadSimulation.Result r = new WorkloadSimulation(w, 64, flexible, 0).run();
                assertThat(r.jobs()).hasSize(40);
                assertThat(r.timeline()).allMatch(s -> s.allocatedNodes() >= 0 && s.allocatedNodes() <= 64);
                assertThat(r.timeline().getLast().allocatedNodes()).isZero();
                assertThat(r.timeline().getLast().completedJobs()).isEqualTo(40);
                assertThat(r.utilisation()).isBetween(0.0, 1.0);
                assertThat(r.jobs()).allMatch(j -> j.start() >= j.job().submitSeconds() && j.end() > j.start());
                if (!flexible) {
                    assertThat(r.resizes()).isZero();
                    assertThat(r.jobs()).allMatch(j -> j.finalSize() == j.job().app().maxNodes());
                }
            }
        }
    }

    /**
     * Taking a check's NONE as given while the scheduler is unchanged gives, to the last bit, the
     * result of asking at every check: both presets and the default workloads, both policies,
     * with and without a check inhibitor, over many seeds.
     */
    @Test
    void rememberingNoneChangesNothing() {
        long asked = 0;
        long remembered = 0;
        for (long seed = 1; seed <= 12; seed++) {
            List<List<WorkloadJob>> workloads = List.of(Workloads.poisson(40, 64, 20, seed),
                    WorkloadSetup.seedTable1().withJobs(30).withSeed(seed).generate(),
                    WorkloadSetup.banyanDefaults().withJobs(30).withSeed(seed).generate());
            for (List<WorkloadJob> w : workloads) {
                for (boolean flexible : new boolean[] {false, true}) {
                    for (double inhibit : new double[] {0, 15}) {
                        WorkloadSimulation slow = new WorkloadSimulation(w, 64, flexible, inhibit, false);
                        WorkloadSimulation quick = new WorkloadSimulation(w, 64, flexible, inhibit, true);
                        WorkloadSimulation.Result reference = slow.run();
                        WorkloadSimulation.Result fast = quick.run();
                        assertThat(fast).as("seed %d, flexible %s, inhibit %s", seed, flexible, inhibit).isEqualTo(reference);
                        assertThat(slow.asked()).isEqualTo(reference.checks());
                        asked += slow.asked();
                        remembered += quick.asked();
                    }
                }
            }
        }
        assertThat(asked).isPositive();
        assertThat(remembered).as("checks put to the scheduler").isLessThan(asked / 2);
    }

    @Test
    void sameWorkloadSameResult() {
        List<WorkloadJob> w = Workloads.poisson(50, 64, 10, 7);
        WorkloadSimulation.Result a = new WorkloadSimulation(w, 64, true, 0).run();
        WorkloadSimulation.Result b = new WorkloadSimulation(w, 64, true, 0).run();
        assertThat(a.completionSeconds()).isEqualTo(b.completionSeconds());
        assertThat(a.jobs()).isEqualTo(b.jobs());
    }

    @Test
    void flexibleFinishesALoadedWorkloadSooner() {
        List<WorkloadJob> w = Workloads.poisson(50, 64, 10, 3);
        WorkloadSimulation.Result fixed = new WorkloadSimulation(w, 64, false, 0).run();
        WorkloadSimulation.Result flexible = new WorkloadSimulation(w, 64, true, 0).run();
        assertThat(flexible.completionSeconds()).isLessThan(fixed.completionSeconds());
        assertThat(flexible.meanWait()).isLessThan(fixed.meanWait());
        assertThat(flexible.resizes()).isPositive();
    }

    /**
     * A workload written and read back is the same workload: every job's model (its minimum and
     * preferred sizes, iterations and costs: the reader used to make the minimum a quarter of
     * the size and drop the rest, so the flexible policy resized nothing), its arrival and its
     * estimate; and both policies' results are the same.
     */
    @Test
    void swfRoundTripKeepsTheWholeWorkload() {
        List<WorkloadJob> w = Workloads.poisson(40, 64, 20, 1);
        String swf = Workloads.writeSwf(w, 64, "test");
        List<WorkloadJob> back = Workloads.readSwf(swf, 64, "w.swf");
        assertThat(back).isEqualTo(w);
        for (boolean flexible : new boolean[] {false, true}) {
            WorkloadSimulation.Result a = new WorkloadSimulation(w, 64, flexible, 0).run();
            WorkloadSimulation.Result b = new WorkloadSimulation(back, 64, flexible, 0).run();
            assertThat(b.completionSeconds()).isEqualTo(a.completionSeconds());
            assertThat(b.resizes()).isEqualTo(a.resizes());
        }
        assertThat(new WorkloadSimulation(back, 64, true, 0).run().resizes()).isPositive();
        assertThatThrownBy(() -> Workloads.readSwf("1 2 3\n", 32, "w.swf")).hasMessage("w.swf line 1: an SWF line has 18 fields, this one 3");
        assertThatThrownBy(() -> Workloads.readSwf("; BanyanJob: 1 cg 0.5\n", 32, "w.swf"))
                .hasMessageStartingWith("w.swf line 1: a BanyanJob line is 'ID NAME' and 11 numbers");
        String nan = "1 NaN 0 100 4 -1 -1 4 -1 -1 1 -1 -1 -1 -1 -1 -1 -1";
        assertThatThrownBy(() -> Workloads.readSwf(nan + "\n", 32, "w.swf")).as("NaN parses as a double: every figure was NaN")
                .hasMessage("w.swf line 1: not numbers: '" + nan + "'");
        String infinite = "1 0 0 Infinity 4 -1 -1 4 -1 -1 1 -1 -1 -1 -1 -1 -1 -1";
        assertThatThrownBy(() -> Workloads.readSwf(infinite + "\n", 32, "w.swf")).hasMessage("w.swf line 1: not numbers: '" + infinite + "'");
    }

    /** Another log's jobs: status 5 (cancelled) is skipped, failed and completed jobs run, the requested time is the estimate. */
    @Test
    void swfStatusAndRequestedTimeAreHonoured() {
        String log = """
                ; a log from elsewhere
                1 0 -1 100 4 -1 -1 4 150 -1 1 -1 -1 1 -1 -1 -1 -1
                2 10 -1 100 4 -1 -1 4 150 -1 5 -1 -1 1 -1 -1 -1 -1
                3 20 -1 50 8 -1 -1 8 -1 -1 0 -1 -1 2 -1 -1 -1 -1
                """;
        List<WorkloadJob> jobs = Workloads.readSwf(log, 32, "log.swf");
        assertThat(jobs).hasSize(2);
        assertThat(jobs.get(0).estimateSeconds()).isEqualTo(150);
        assertThat(jobs.get(1).submitSeconds()).isEqualTo(20);
        assertThat(jobs.get(1).app().maxNodes()).isEqualTo(8);
        assertThat(jobs.get(1).app().minNodes()).isEqualTo(2);
    }

    /**
     * bench/workload-real's jobs: a job that finds its hosts free waits only for its ranks to
     * start, runs its steps at its size, and a second that needs the same hosts starts when the
     * first ended (backfilled by the estimate the bench gives it).
     */
    @Test
    void flexibleSleepJobsRunAsTheRealBenchmarkMeasuresThem() {
        List<WorkloadJob> jobs = Workloads.readFlexibleSleep("""
                # arrival max min steps work
                0.00 2 1 8 4
                1.00 2 1 8 2
                """, "jobs", 0.5, 0.2);
        assertThat(jobs).hasSize(2);
        assertThat(jobs.getFirst().estimateSeconds()).as("steps * work / max + 5").isEqualTo(21);
        WorkloadSimulation.Result fixed = new WorkloadSimulation(jobs, 2, false, 0).run();
        WorkloadSimulation.JobOutcome first = fixed.jobs().getFirst();
        assertThat(first.waitSeconds()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(first.execSeconds()).isCloseTo(16, org.assertj.core.data.Offset.offset(1e-9));
        WorkloadSimulation.JobOutcome second = fixed.jobs().get(1);
        assertThat(second.job().submitSeconds() + second.waitSeconds()).as("after the first, and its ranks' start")
                .isCloseTo(16.5 + 0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(second.execSeconds()).isCloseTo(8, org.assertj.core.data.Offset.offset(1e-9));
        assertThatThrownBy(() -> Workloads.readFlexibleSleep("0 2 1 8\n", "jobs", 0, 0))
                .hasMessage("jobs line 1: not 'arrival max min steps work [preferred [serial]]' (preferred 0 or between min "
                        + "and max, serial 0 to 1): '0 2 1 8'");
        assertThatThrownBy(() -> Workloads.readFlexibleSleep("0 1 2 8 4\n", "jobs", 0, 0)).as("min above max")
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> Workloads.readFlexibleSleep("0 4 2 8 4 1\n", "jobs", 0, 0)).as("preferred below min")
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> Workloads.readFlexibleSleep("0 4 2 8 4 2 1.5\n", "jobs", 0, 0)).as("serial above 1")
                .hasMessageContaining("line 1");
    }

    /**
     * The seed preset's jobs as bench/workload-real runs them: a preferred size and a serial
     * part. A step takes work * (serial + (1 - serial) / size); the estimate is the run at the
     * maximum plus 5 s; with a job queued, the flexible policy shrinks the running one to its
     * preferred size when that lets the queued one start.
     */
    @Test
    void flexibleSleepJobsMayHaveAPreferredSizeAndASerialPart() {
        List<WorkloadJob> jobs = Workloads.readFlexibleSleep("0.00 8 1 10 4.0 2 0.2\n1.00 4 1 10 4.0 2 0.2\n", "jobs", 0, 0);
        AppModel app = jobs.getFirst().app();
        assertThat(app.preferredNodes()).isEqualTo(2);
        assertThat(app.runSeconds(8)).isCloseTo(40 * (0.2 + 0.8 / 8), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(jobs.getFirst().estimateSeconds()).isEqualTo((int) (40 * 0.3 + 5));
        WorkloadSimulation.Result fixed = new WorkloadSimulation(jobs, 8, false, 0).run();
        WorkloadSimulation.Result flexible = new WorkloadSimulation(jobs, 8, true, 0).run();
        assertThat(fixed.jobs().get(1).waitSeconds()).as("rigid: the second waits for the first's end").isGreaterThan(10);
        assertThat(flexible.resizes()).isPositive();
        assertThat(flexible.jobs().get(1).waitSeconds()).as("the first shrank to its preferred 2 at its next check")
                .isLessThan(app.iterationSeconds(8) + 1e-9);
    }
}
