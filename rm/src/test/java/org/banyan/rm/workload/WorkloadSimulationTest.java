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

    @Test
    void swfRoundTrip() {
        List<WorkloadJob> w = Workloads.poisson(5, 32, 30, 1);
        String swf = Workloads.writeSwf(w, 32, "test");
        List<WorkloadJob> back = Workloads.readSwf(swf, 32, "w.swf");
        assertThat(back).hasSize(5);
        for (int i = 0; i < 5; i++) {
            AppModel a = w.get(i).app();
            AppModel b = back.get(i).app();
            assertThat(b.name()).isEqualTo(a.name());
            assertThat(b.maxNodes()).isEqualTo(a.maxNodes());
            // SWF keeps whole seconds
            assertThat(b.runSeconds(b.maxNodes())).isCloseTo(a.runSeconds(a.maxNodes()), org.assertj.core.data.Offset.offset(0.51));
            assertThat(back.get(i).submitSeconds()).isCloseTo(w.get(i).submitSeconds(), org.assertj.core.data.Offset.offset(0.51));
        }
        assertThatThrownBy(() -> Workloads.readSwf("1 2 3\n", 32, "w.swf")).hasMessage("w.swf line 1: an SWF line has 18 fields, this one 3");
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
                .hasMessage("jobs line 1: not 'arrival max min steps work': '0 2 1 8'");
        assertThatThrownBy(() -> Workloads.readFlexibleSleep("0 1 2 8 4\n", "jobs", 0, 0)).as("min above max")
                .hasMessageContaining("line 1");
    }
}
