package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.pilot.TaskDependency;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tasks of the Java Pilot API that wait for others ({@link TaskDescription#after}, and DVM ids
 * with {@link TaskDescription#dependencies}): a workflow's steps in order, failures down the
 * chain, cancel and close with tasks still waiting.
 */
class PilotDependencyTest {
    @TempDir
    Path dir;

    @Test
    void anAggregationRunsOnceEverySimulationIsDone() throws Exception {
        try (Session session = new Session(dir.resolve("flow"))) {
            TaskManager tmgr = new TaskManager(session);
            Pilot pilot = new PilotManager(session).submit(PilotDescription.local(2).warmUp(0));
            List<Task> sims = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sims.add(tmgr.submit(new TaskDescription().executable("sh").arguments("-c",
                        "sleep 0.3; echo " + i + " > " + dir.resolve("sim" + i + ".txt"))).getFirst());
            }
            // submitted before any pilot is up: it waits for the simulations, not for the pilot
            Task sum = tmgr.submit(new TaskDescription().executable("sh").arguments("-c",
                    "cat " + dir + "/sim*.txt | paste -sd+ | bc").after(sims.toArray(Task[]::new))).getFirst();
            assertThat(sum.state()).isEqualTo(TaskState.TMGR_SCHEDULING_PENDING);
            tmgr.addPilots(pilot);
            tmgr.waitTasks(List.of(sum));
            assertThat(sum.state()).as(sum.toString()).isEqualTo(TaskState.DONE);
            assertThat(sum.stdout()).isEqualTo("6\n");
            for (Task s : sims) {
                assertThat(sum.times().get(TaskState.TMGR_SCHEDULING)).as("it left the manager after %s ended", s.uid())
                        .isGreaterThanOrEqualTo(s.times().get(TaskState.DONE));
            }
            // by DVM id, as banyan submit --dependency: the agent holds it
            Task again = tmgr.submit(new TaskDescription().executable("true")
                    .dependencies("afterok:" + sum.dvmId())).getFirst();
            tmgr.waitTasks(List.of(again));
            assertThat(again.state()).isEqualTo(TaskState.DONE);
        }
    }

    /**
     * A held task keeps its submission's place among the tasks waiting in the manager: it went
     * behind every task submitted after it that had not yet gone to the pilot.
     */
    @Test
    void aReleasedTaskGoesBeforeTasksSubmittedAfterIt() throws Exception {
        try (Session session = new Session(dir.resolve("order"))) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(new PilotManager(session).submit(PilotDescription.local(1).warmUp(0)));
            Task first = tmgr.submit(new TaskDescription().executable("sleep").arguments("0.5")).getFirst();
            Task next = tmgr.submit(new TaskDescription().executable("true").after(first)).getFirst();
            List<TaskDescription> bag = new ArrayList<>();
            for (int i = 0; i < 1500; i++) { // more than the pilot's window of 1,024: the last ones wait in the manager
                bag.add(new TaskDescription().executable("true"));
            }
            List<Task> later = tmgr.submit(bag);
            tmgr.waitTasks();
            assertThat(next.state()).isEqualTo(TaskState.DONE);
            long lastStart = later.stream().mapToLong(t -> t.times().get(TaskState.AGENT_EXECUTING)).max().orElseThrow();
            assertThat(next.times().get(TaskState.AGENT_EXECUTING)).as("it ran before the bag's last tasks")
                    .isLessThan(lastStart);
        }
    }

    @Test
    void aFailureFailsWhatWaitsOnItDownTheChainAndTheOtherKindsRun() throws Exception {
        try (Session session = new Session(dir.resolve("chain"))) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(new PilotManager(session).submit(PilotDescription.local(2).warmUp(0)));
            Task a = tmgr.submit(new TaskDescription().executable("sh").arguments("-c", "sleep 0.3; exit 4")).getFirst();
            Task b = tmgr.submit(new TaskDescription().executable("true").after(a)).getFirst();
            Task c = tmgr.submit(new TaskDescription().executable("true").after(b)).getFirst();
            Task d = tmgr.submit(new TaskDescription().executable("true").after(TaskDependency.Kind.AFTER_NOT_OK, a)).getFirst();
            Task e = tmgr.submit(new TaskDescription().executable("true").after(TaskDependency.Kind.AFTER_ANY, c)).getFirst();
            tmgr.waitTasks();
            assertThat(a.state()).isEqualTo(TaskState.FAILED);
            assertThat(b.state()).isEqualTo(TaskState.FAILED);
            assertThat(b.detail()).isEqualTo("its dependency afterok:" + a.uid() + " can no longer be met: task " + a.uid()
                    + " ended FAILED");
            assertThat(c.detail()).isEqualTo("its dependency afterok:" + b.uid() + " can no longer be met: task " + b.uid()
                    + " ended FAILED");
            assertThat(b.times()).as("it never went to a pilot").doesNotContainKey(TaskState.TMGR_SCHEDULING);
            assertThat(d.state()).isEqualTo(TaskState.DONE);
            assertThat(e.state()).isEqualTo(TaskState.DONE);
            Task late = tmgr.submit(new TaskDescription().executable("true").after(a)).getFirst();
            assertThat(late.state()).as("judged at once on an ended task").isEqualTo(TaskState.FAILED);
        }
    }

    /**
     * A random graph of 300 tasks over two pilots, a fifth of them failing: the moves of the
     * pilots' readers and of the submitting thread race, and still no task leaves before what it
     * waits for, one failed for a dependency has one that cannot be met, and every task ends.
     */
    @Test
    void aRandomGraphOfTasksKeepsEveryCondition() throws Exception {
        java.util.Random rnd = new java.util.Random(47);
        try (Session session = new Session(dir.resolve("graph"))) {
            TaskManager tmgr = new TaskManager(session);
            PilotManager pmgr = new PilotManager(session);
            tmgr.addPilots(pmgr.submit(PilotDescription.local(1).warmUp(0)), pmgr.submit(PilotDescription.local(1).warmUp(0)));
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                TaskDescription d = new TaskDescription().executable(rnd.nextInt(5) == 0 ? "false" : "true");
                for (int k = rnd.nextInt(3); k > 0 && !tasks.isEmpty(); k--) {
                    d.after(TaskDependency.Kind.values()[rnd.nextInt(4)], tasks.get(rnd.nextInt(tasks.size())));
                }
                tasks.add(tmgr.submit(d).getFirst());
            }
            tmgr.waitTasks();
            for (Task t : tasks) {
                assertThat(t.state().isFinal()).as(t.toString()).isTrue();
                Long left = t.times().get(TaskState.TMGR_SCHEDULING);
                boolean failedForIt = t.state() == TaskState.FAILED && t.detail().contains("can no longer be met");
                assertThat(left != null || failedForIt).as(t.toString()).isTrue();
                for (var c : t.description().afterTasks()) {
                    TaskState other = c.on().state();
                    if (failedForIt) {
                        continue;
                    }
                    TaskState when = c.kind() == TaskDependency.Kind.AFTER && c.on().times().containsKey(TaskState.AGENT_EXECUTING)
                            ? TaskState.AGENT_EXECUTING : other;
                    assertThat(c.kind().metBy(other)).as(t + " waits for " + c).isTrue();
                    assertThat(left).as(t + " left after " + c.on()).isGreaterThanOrEqualTo(c.on().times().get(when));
                }
                if (failedForIt) {
                    assertThat(t.description().afterTasks()).as(t.toString())
                            .anyMatch(c -> Boolean.FALSE.equals(c.kind().metBy(c.on().state())));
                }
            }
        }
    }

    /** Released after the last pilot ended (what it waited on went with the pilot): it fails, as any waiting task then does. */
    @Test
    void aTaskReleasedWithNoPilotLeftFails() throws Exception {
        String marker = Banyan.marker();
        try (Session session = new Session(dir.resolve("gone"))) {
            TaskManager tmgr = new TaskManager(session);
            PilotManager pmgr = new PilotManager(session);
            Pilot pilot = pmgr.submit(PilotDescription.local(1).warmUp(0));
            tmgr.addPilots(pilot);
            Task a = tmgr.submit(new TaskDescription().executable("sleep").arguments(marker)).getFirst();
            Task b = tmgr.submit(new TaskDescription().executable("true").after(TaskDependency.Kind.AFTER_ANY, a)).getFirst();
            Banyan.awaitSleeps(marker, 1);
            pmgr.cancel(pilot);
            assertThat(tmgr.waitTasks(List.of(b), java.util.Set.of(TaskState.FAILED), 30_000)).containsExactly(TaskState.FAILED);
            assertThat(b.detail()).isEqualTo("no pilot left to run it");
        }
        Banyan.assertNoProcessesWith(marker);
    }

    @Test
    void aWaitingTaskCanBeCanceledAndClosingCancelsTheRestLeavingNothing() throws Exception {
        String marker = Banyan.marker();
        Task sleeper;
        Task held;
        Task afterHeld;
        Task stillHeld;
        try (Session session = new Session(dir.resolve("cancel"))) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.addPilots(new PilotManager(session).submit(PilotDescription.local(2).warmUp(0)));
            sleeper = tmgr.submit(new TaskDescription().executable("sleep").arguments(marker)).getFirst();
            held = tmgr.submit(new TaskDescription().executable("touch").arguments(dir.resolve("no").toString()).after(sleeper))
                    .getFirst();
            afterHeld = tmgr.submit(new TaskDescription().executable("touch").arguments(dir.resolve("yes").toString())
                    .after(TaskDependency.Kind.AFTER_ANY, held)).getFirst();
            stillHeld = tmgr.submit(new TaskDescription().executable("true").after(sleeper)).getFirst();
            Banyan.awaitSleeps(marker, 1);
            tmgr.cancel(List.of(held));
            tmgr.waitTasks(List.of(held, afterHeld));
            assertThat(held.state()).isEqualTo(TaskState.CANCELED);
            assertThat(afterHeld.state()).isEqualTo(TaskState.DONE);
            assertThat(stillHeld.state()).isEqualTo(TaskState.TMGR_SCHEDULING_PENDING);

            TaskManager other = new TaskManager(session);
            assertThatThrownBy(() -> other.submit(new TaskDescription().executable("true").after(sleeper)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a task of another task manager");
            assertThatThrownBy(() -> new TaskDescription().function(() -> 1).after(sleeper).check())
                    .hasMessageContaining("after does not apply");
        }
        assertThat(stillHeld.state()).as("closing cancels it; what it waits for changes nothing").isEqualTo(TaskState.CANCELED);
        assertThat(sleeper.state()).isEqualTo(TaskState.CANCELED);
        assertThat(Files.exists(dir.resolve("no"))).isFalse();
        Banyan.assertNoProcessesWith(marker);
    }
}
