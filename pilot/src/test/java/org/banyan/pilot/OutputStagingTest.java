package org.banyan.pilot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.banyan.core.pilot.TaskState;
import org.banyan.core.wire.ClientMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's output is staged off the thread that reads its pilot's updates: that thread only
 * moves it to TMGR_STAGING_OUTPUT, and the staging's own thread ends it. On the reader, a
 * destination that did not answer (a hung mount) stopped every later update of the pilot's
 * tasks; a cancel now ends a task whose staging does not.
 */
class OutputStagingTest {
    @TempDir
    Path dir;

    @Test
    void theReaderOnlyStartsTheStagingWhichEndsTheTaskOnItsOwnThread() throws Exception {
        try (Session session = new Session(dir.resolve("session"), dir); TaskManager tmgr = new TaskManager(session)) {
            List<Runnable> held = new ArrayList<>();
            tmgr.staging.outputWorkOn(held::add);
            Task t = sentTask(session, tmgr, new TaskDescription().executable("true")
                    .outputStaging(new Staging("out.txt", "copied.txt", Staging.Action.COPY)));
            Files.createDirectories(t.sandbox());
            Files.writeString(t.sandbox().resolve("out.txt"), "42\n");

            done(tmgr, t);
            assertThat(t.state()).as("the reader returns before the files are staged").isEqualTo(TaskState.TMGR_STAGING_OUTPUT);
            assertThat(dir.resolve("copied.txt")).doesNotExist();
            assertThat(held).hasSize(1);
            held.getFirst().run();
            assertThat(t.state()).isEqualTo(TaskState.DONE);
            assertThat(dir.resolve("copied.txt")).hasContent("42");
        }
    }

    @Test
    void tasksWithNothingToStageAreSweptTogetherOffTheReader() throws Exception {
        try (Session session = new Session(dir.resolve("session"), dir); TaskManager tmgr = new TaskManager(session)) {
            List<Runnable> held = new ArrayList<>();
            tmgr.staging.outputWorkOn(held::add);
            Task a = sentTask(session, tmgr, new TaskDescription().executable("true"));
            Task b = sentTask(session, tmgr, new TaskDescription().executable("true"));
            Files.createDirectories(a.sandbox());
            Files.createFile(a.sandbox().resolve(a.uid() + ".out"));
            done(tmgr, a);
            done(tmgr, b);
            assertThat(List.of(a.state(), b.state())).containsOnly(TaskState.TMGR_STAGING_OUTPUT);
            assertThat(held).as("one thread for both").hasSize(1);
            held.getFirst().run();
            assertThat(List.of(a.state(), b.state())).containsOnly(TaskState.DONE);
            assertThat(a.sandbox().resolve(a.uid() + ".out")).as("its empty output swept").doesNotExist();
        }
    }

    @Test
    void aTaskWhoseStagingDoesNotEndIsCanceledAndItsLateEndRefused() throws Exception {
        try (Session session = new Session(dir.resolve("session"), dir); TaskManager tmgr = new TaskManager(session)) {
            List<Runnable> held = new ArrayList<>();
            tmgr.staging.outputWorkOn(held::add);
            Task t = sentTask(session, tmgr, new TaskDescription().executable("true")
                    .outputStaging(new Staging("missing.txt", "copied.txt", Staging.Action.COPY)));
            done(tmgr, t);
            tmgr.cancel(List.of(t));
            assertThat(t.state()).isEqualTo(TaskState.CANCELED);
            assertThat(t.detail()).isEqualTo("canceled while its output was staged");
            held.getFirst().run(); // the staging ends after all (here it fails): the task stays canceled
            assertThat(t.state()).isEqualTo(TaskState.CANCELED);
        }
    }

    /**
     * Closing the manager cancels a task whose output is still being staged, as it cancels its
     * other unfinished tasks: close returned and left it TMGR_STAGING_OUTPUT, to end whenever its
     * files did (never, on a mount that does not answer).
     */
    @Test
    void closingTheManagerCancelsATaskWhoseStagingHasNotEnded() throws Exception {
        try (Session session = new Session(dir.resolve("session"), dir)) {
            TaskManager tmgr = new TaskManager(session);
            List<Runnable> held = new ArrayList<>();
            tmgr.staging.outputWorkOn(held::add);
            Task staging = sentTask(session, tmgr, new TaskDescription().executable("true")
                    .outputStaging(new Staging("out.txt", "copied.txt", Staging.Action.COPY)));
            Files.createDirectories(staging.sandbox());
            Files.writeString(staging.sandbox().resolve("out.txt"), "42\n");
            Task staged = sentTask(session, tmgr, new TaskDescription().executable("true")
                    .outputStaging(new Staging("out.txt", "copied2.txt", Staging.Action.COPY)));
            Files.createDirectories(staged.sandbox());
            Files.writeString(staged.sandbox().resolve("out.txt"), "43\n");
            done(tmgr, staging);
            done(tmgr, staged);
            held.get(1).run();
            assertThat(staged.state()).isEqualTo(TaskState.DONE);

            tmgr.close();
            assertThat(staging.state()).isEqualTo(TaskState.CANCELED);
            assertThat(staging.detail()).isEqualTo("canceled while its output was staged");
            assertThat(staged.state()).as("a task that ended stays as it ended").isEqualTo(TaskState.DONE);
            held.getFirst().run(); // its files come after all: it stays canceled
            assertThat(staging.state()).isEqualTo(TaskState.CANCELED);
        }
    }

    @Test
    void byDefaultTheStagingRunsOnAThreadOfItsOwnAndEndsTheTask() throws Exception {
        try (Session session = new Session(dir.resolve("session"), dir); TaskManager tmgr = new TaskManager(session)) {
            Task t = sentTask(session, tmgr, new TaskDescription().executable("true")
                    .outputStaging(new Staging("missing.txt", "copied.txt", Staging.Action.COPY)));
            done(tmgr, t);
            assertThat(t.waitState(java.util.Set.of(TaskState.FAILED), 10_000)).isEqualTo(TaskState.FAILED);
            assertThat(t.detail()).startsWith("output staging: cannot copy ");
        }
    }

    /** A task of {@code tmgr} as if its pilot had taken it (no DVM here). */
    private static Task sentTask(Session session, TaskManager tmgr, TaskDescription d) {
        Task t = tmgr.submit(d).getFirst();
        synchronized (tmgr) {
            tmgr.unsent.drain(); // taken
        }
        t.pilot = new Pilot("pilot.0000", PilotDescription.local(1), session);
        t.agentId = 1;
        return t;
    }

    /** What a pilot's reader does with the agent's DONE. */
    private static void done(TaskManager tmgr, Task t) {
        tmgr.transitions.inCallbacks(() -> tmgr.transitions.fromAgent(t,
                new ClientMessage.TaskUpdate(1, TaskState.DONE, Session.nowMicros(), 0, ""), tmgr.staging));
    }
}
