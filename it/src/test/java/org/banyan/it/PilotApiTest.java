package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.banyan.core.pilot.PilotState;
import org.banyan.core.pilot.TaskState;
import org.banyan.pilot.Pilot;
import org.banyan.pilot.PilotDescription;
import org.banyan.pilot.PilotManager;
import org.banyan.pilot.Session;
import org.banyan.pilot.Staging;
import org.banyan.pilot.Task;
import org.banyan.pilot.TaskDescription;
import org.banyan.pilot.TaskManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java Pilot API with a real local pilot: late binding, staging, failures, cancel, and nothing left at close. */
class PilotApiTest {
    @TempDir
    Path dir;

    @Test
    void tasksBindLateRunAndACanceledOneLeavesNothing() throws Exception {
        String marker = Banyan.marker();
        Files.writeString(dir.resolve("input.txt"), "42\n");
        List<TaskState> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Pilot pilot;
        try (Session session = new Session(dir.resolve("session"))) {
            TaskManager tmgr = new TaskManager(session);
            tmgr.registerCallback((t, s) -> {
                if (t.uid().equals("task.000000")) {
                    seen.add(s);
                }
            });
            List<TaskDescription> work = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                work.add(new TaskDescription().executable("sh").arguments("-c", "cat input.txt > copy.txt")
                        .inputStaging(new Staging(dir.resolve("input.txt").toString(), "input.txt", Staging.Action.LINK))
                        .outputStaging(new Staging("copy.txt", dir.resolve("copy." + i).toString(), Staging.Action.MOVE)));
            }
            work.add(new TaskDescription().uid("fails").executable("sh").arguments("-c", "echo nope >&2; exit 4"));
            List<Task> tasks = tmgr.submit(work);
            assertThat(tasks.getFirst().state()).as("no pilot yet: the tasks wait").isEqualTo(TaskState.TMGR_SCHEDULING_PENDING);
            PilotManager pmgr = new PilotManager(session);
            pilot = pmgr.submit(PilotDescription.local(2));
            tmgr.addPilots(pilot);
            assertThat(pilot.waitState(PilotState.PMGR_ACTIVE, 60_000)).as(pilot.detail()).isEqualTo(PilotState.PMGR_ACTIVE);
            tmgr.waitTasks(tasks);
            for (int i = 0; i < 10; i++) {
                assertThat(tasks.get(i).state()).as(tasks.get(i).toString()).isEqualTo(TaskState.DONE);
                assertThat(dir.resolve("copy." + i)).hasContent("42");
            }
            Task failed = tasks.get(10);
            assertThat(failed.state()).isEqualTo(TaskState.FAILED);
            assertThat(failed.exitCode()).isEqualTo(4);
            assertThat(failed.detail()).isEqualTo("nope");
            assertThat(seen).containsExactly(TaskState.TMGR_SCHEDULING_PENDING, TaskState.TMGR_SCHEDULING,
                    TaskState.TMGR_STAGING_INPUT, TaskState.AGENT_STAGING_INPUT_PENDING, TaskState.AGENT_SCHEDULING,
                    TaskState.AGENT_EXECUTING, TaskState.AGENT_STAGING_OUTPUT, TaskState.TMGR_STAGING_OUTPUT, TaskState.DONE);
            assertThat(tasks.getFirst().times()).containsKeys(TaskState.values()[0], TaskState.AGENT_SCHEDULING_PENDING,
                    TaskState.TMGR_STAGING_OUTPUT_PENDING);

            List<Task> sleepers = tmgr.submit(new TaskDescription().executable("sleep").arguments(marker));
            Banyan.awaitSleeps(marker, 1);
            tmgr.cancel(sleepers);
            assertThat(tmgr.waitTasks(sleepers, Set.of(TaskState.CANCELED), 30_000)).containsExactly(TaskState.CANCELED);
            Banyan.assertNoProcessesWith(marker);
            tmgr.submit(new TaskDescription().executable("sleep").arguments(marker));
            Banyan.awaitSleeps(marker, 1);
        }
        assertThat(pilot.state()).isEqualTo(PilotState.CANCELED);
        Banyan.assertNoProcessesWith(marker);
        Banyan.assertNoProcessesWith("DvmMain");
        assertThat(Files.readString(dir.resolve("session/banyan.prof"))).contains(",pilot.0000,PMGR_ACTIVE,");
    }
}
