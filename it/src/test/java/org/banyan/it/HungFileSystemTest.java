package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file system that does not answer, as an NFS mount whose server is gone: a FUSE mount whose
 * device nobody reads, so that every access to it waits (until the device is closed). A task
 * whose files, sandbox or program are there used to stop the whole DVM: the look for FIFOs, the
 * sandbox's mkdir, the program's ELF and the spawn (a bare name's search along the DVM's PATH
 * among it) ran on the DVM's loop, and no client was answered again; then an MPI task's sandbox
 * and program each held the loop 2 s before giving up, a stop that long for each such task.
 */
class HungFileSystemTest {
    @TempDir
    Path dir;

    Path hung;
    Process holder;
    Path uri;

    @BeforeEach
    void mount() throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/fuse")) && "root".equals(System.getProperty("user.name")),
                "a FUSE mount needs /dev/fuse and root");
        hung = Files.createDirectories(dir.resolve("hung"));
        // the shell keeps the device open (as sleep) and answers nothing
        holder = new ProcessBuilder("sh", "-c", "exec 3<>/dev/fuse && mount -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 "
                + "banyanhung \"$0\" && echo mounted && exec sleep 100000", hung.toString()).redirectErrorStream(true).start();
        CompletableFuture<String> said = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8)).readLine();
            } catch (java.io.IOException e) {
                return e.toString();
            }
        });
        assertThat(said.get(10, TimeUnit.SECONDS)).isEqualTo("mounted");
        uri = dir.resolve("dvm.uri");
        // the hung directory last in the DVM's PATH: what is found before it is found as ever, a
        // name found nowhere is looked for there too (as an NFS /apps/bin of a module would be)
        Banyan.Result r = Banyan.run(Map.of("PATH", System.getenv("PATH") + ":" + hung), null, List.of("dvm", "start",
                "--uri-file", uri.toString(), "--host", "localhost:14"));
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    @AfterEach
    void unmount() throws Exception {
        try {
            if (uri != null) {
                Banyan.Result stop = Banyan.run("dvm", "stop", "--dvm", uri.toString());
                assertThat(stop.exit()).as(stop.stderr()).isZero();
                Banyan.assertNoProcessesWith(uri.toString());
            }
        } finally {
            if (holder != null) {
                holder.destroyForcibly(); // the device closed: what waits on the mount fails at once
                holder.waitFor(10, TimeUnit.SECONDS);
                new ProcessBuilder("umount", "-l", hung.toString()).start().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void tasksWhoseFilesSandboxOrProgramDoNotAnswerHoldNothingElse() throws Exception {
        String m = Banyan.marker();
        // a script of a healthy directory whose interpreter is on the mount: the spawn's exec opens it
        Path script = dir.resolve("script.sh");
        Files.writeString(script, "#!" + hung.resolve("interp") + "\necho hi\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Files.writeString(dir.resolve("f.jsonl"), String.join("\n",
                "{\"executable\": \"sleep\", \"arguments\": [\"" + m + "\"], \"stdout\": \"" + hung.resolve("out") + "\"}",
                "{\"executable\": \"" + hung.resolve("prog") + "\", \"arguments\": [\"" + m + "\"]}",
                "{\"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"sleep\", \"arguments\": [\"" + m + "\"], \"sandbox\": \""
                        + hung.resolve("sandbox") + "\"}",
                "{\"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"" + hung.resolve("mpiprog") + "\", \"arguments\": [\"" + m
                        + "\"], \"sandbox\": \"" + dir.resolve("sandbox") + "\"}",
                "{\"executable\": \"banyan-no-such-program\", \"arguments\": [\"" + m + "\"]}",
                "{\"executable\": \"" + script + "\", \"arguments\": [\"" + m + "\"]}") + "\n");
        Banyan.Result sub = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s", "--detach",
                "--tasks", "f.jsonl"));
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        assertThat(sub.stdout()).matches("\\d+-\\d+\\s*");
        int first = Integer.parseInt(sub.stdout().strip().split("-")[0]);
        String ids = first + "-" + (first + 5);

        Banyan.Result other = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "o", "--ranks", "2",
                "-o", "other.txt", "--", "echo", "other"));
        assertThat(other.exit()).as("%s; the DVM's log: %s", other.stderr(), Files.readString(Path.of(uri + ".log"))).isZero();
        assertThat(dir.resolve("other.txt")).hasContent("other\nother");
        Banyan.Result status = Banyan.run("dvm", "status", "--dvm", uri.toString());
        assertThat(status.exit()).as(status.stderr()).isZero();

        Banyan.Result waiting = Banyan.run("tasks", "--dvm", uri.toString(), ids);
        assertThat(waiting.exit()).as(waiting.stderr()).isZero();
        assertThat(waiting.stdout().lines().filter(l -> l.contains("AGENT_EXECUTING")))
                .as("they wait for their file system, their cores held: %s", waiting.stdout()).hasSize(6);

        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), ids);
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        Banyan.Result canceled = Banyan.run("wait", "--dvm", uri.toString(), ids);
        assertThat(canceled.stderr()).contains("6 canceled");
        Banyan.assertNoProcessesWith(m);
    }

    /**
     * Output staging into the mount that does not answer: the task waits in TMGR_STAGING_OUTPUT,
     * the next task of the same pilot runs and ends as ever, and a cancel ends the first. The
     * staging ran on the thread that reads the pilot's updates, and stopped them all.
     */
    @Test
    void outputStagingThatDoesNotAnswerHoldsUpOnlyItsOwnTask() throws Exception {
        try (org.banyan.pilot.Session session = new org.banyan.pilot.Session(dir.resolve("api"), dir)) {
            org.banyan.pilot.TaskManager tmgr = new org.banyan.pilot.TaskManager(session);
            org.banyan.pilot.Pilot pilot = new org.banyan.pilot.PilotManager(session)
                    .submit(org.banyan.pilot.PilotDescription.dvm(uri));
            tmgr.addPilots(pilot);
            org.banyan.pilot.Task stuck = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("sh")
                    .arguments("-c", "echo 42 > out.txt").outputStaging(new org.banyan.pilot.Staging("out.txt",
                            hung.resolve("out.txt").toString(), org.banyan.pilot.Staging.Action.COPY))).getFirst();
            assertThat(stuck.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.TMGR_STAGING_OUTPUT), 60_000))
                    .as(stuck.toString()).isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_OUTPUT);

            org.banyan.pilot.Task next = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("echo").arguments("next"))
                    .getFirst();
            assertThat(next.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.DONE), 30_000))
                    .as("the pilot's next task: %s", next).isEqualTo(org.banyan.core.pilot.TaskState.DONE);
            assertThat(next.stdout()).isEqualTo("next\n");
            assertThat(stuck.state()).as("its staging still waits").isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_OUTPUT);

            stuck.cancel();
            assertThat(stuck.state()).isEqualTo(org.banyan.core.pilot.TaskState.CANCELED);
            assertThat(stuck.detail()).isEqualTo("canceled while its output was staged");
        }
    }

    /**
     * Input staging from the mount that does not answer: the task waits in TMGR_STAGING_INPUT,
     * tasks submitted after it are sent and run, a cancel ends it, and closing the manager does
     * not wait for it. The staging ran on the submitting thread, under the lock every send takes.
     */
    @Test
    void inputStagingThatDoesNotAnswerHoldsUpOnlyItsOwnTask() throws Exception {
        org.banyan.pilot.Task stuck;
        org.banyan.pilot.Task second;
        try (org.banyan.pilot.Session session = new org.banyan.pilot.Session(dir.resolve("api"), dir)) {
            org.banyan.pilot.TaskManager tmgr = new org.banyan.pilot.TaskManager(session);
            tmgr.addPilots(new org.banyan.pilot.PilotManager(session).submit(org.banyan.pilot.PilotDescription.dvm(uri)));
            stuck = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("cat").arguments("in.txt")
                    .inputStaging(new org.banyan.pilot.Staging(hung.resolve("in.txt").toString(), "in.txt",
                            org.banyan.pilot.Staging.Action.COPY))).getFirst();
            assertThat(stuck.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT), 30_000))
                    .as(stuck.toString()).isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT);

            org.banyan.pilot.Task next = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("echo").arguments("next"))
                    .getFirst();
            assertThat(next.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.DONE), 30_000))
                    .as("the manager's next task: %s", next).isEqualTo(org.banyan.core.pilot.TaskState.DONE);
            assertThat(next.stdout()).isEqualTo("next\n");
            assertThat(stuck.state()).as("its staging still waits").isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT);

            stuck.cancel();
            assertThat(stuck.state()).isEqualTo(org.banyan.core.pilot.TaskState.CANCELED);
            assertThat(stuck.detail()).isEqualTo("canceled while its input was staged");

            second = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("cat").arguments("in.txt")
                    .inputStaging(new org.banyan.pilot.Staging(hung.resolve("in.txt").toString(), "in.txt",
                            org.banyan.pilot.Staging.Action.COPY))).getFirst();
            assertThat(second.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT), 30_000))
                    .isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT);
        } // closing cancels what is still staging
        assertThat(second.state()).isEqualTo(org.banyan.core.pilot.TaskState.CANCELED);
        assertThat(stuck.state()).isEqualTo(org.banyan.core.pilot.TaskState.CANCELED);
    }

    /**
     * More stagings stuck on the mount than the JDK's virtual-thread scheduler has carriers (256
     * at most): a task with nothing to stage still ends DONE, and one that stages input from
     * elsewhere still runs. On virtual threads, the stuck file calls held every carrier and the
     * thread that ends the next DONE task never ran.
     */
    @Test
    void manyStagingsThatDoNotAnswerHoldNoOtherTask() throws Exception {
        Files.writeString(dir.resolve("in.txt"), "in\n");
        try (org.banyan.pilot.Session session = new org.banyan.pilot.Session(dir.resolve("api"), dir)) {
            org.banyan.pilot.TaskManager tmgr = new org.banyan.pilot.TaskManager(session);
            tmgr.addPilots(new org.banyan.pilot.PilotManager(session).submit(org.banyan.pilot.PilotDescription.dvm(uri)));
            List<org.banyan.pilot.TaskDescription> stuck = new java.util.ArrayList<>();
            for (int i = 0; i < 300; i++) {
                stuck.add(new org.banyan.pilot.TaskDescription().executable("cat").arguments("in.txt")
                        .inputStaging(new org.banyan.pilot.Staging(hung.resolve("in" + i + ".txt").toString(), "in.txt",
                                org.banyan.pilot.Staging.Action.COPY)));
            }
            List<org.banyan.pilot.Task> held = tmgr.submit(stuck);
            Thread.sleep(2000); // their threads reach the mount

            org.banyan.pilot.Task next = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("echo").arguments("next"))
                    .getFirst();
            org.banyan.pilot.Task staged = tmgr.submit(new org.banyan.pilot.TaskDescription().executable("cat").arguments("in.txt")
                    .inputStaging(new org.banyan.pilot.Staging(dir.resolve("in.txt").toString(), "in.txt",
                            org.banyan.pilot.Staging.Action.COPY))).getFirst();
            assertThat(next.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.DONE), 30_000))
                    .as("a task with nothing to stage: %s", next).isEqualTo(org.banyan.core.pilot.TaskState.DONE);
            assertThat(staged.waitState(java.util.Set.of(org.banyan.core.pilot.TaskState.DONE), 30_000))
                    .as("a task staged from elsewhere: %s", staged).isEqualTo(org.banyan.core.pilot.TaskState.DONE);
            assertThat(staged.stdout()).isEqualTo("in\n");
            assertThat(held).allSatisfy(t -> assertThat(t.state()).isEqualTo(org.banyan.core.pilot.TaskState.TMGR_STAGING_INPUT));
        }
    }

    /**
     * {@code banyan run} of a program on the mount that does not answer waits, as mpirun does,
     * but says why after 10 s; Ctrl-C ends it with 130, nothing started.
     */
    @Test
    void aRunWhoseProgramDoesNotAnswerSaysSoAndEndsOnCtrlC() throws Exception {
        Path err = dir.resolve("run.err");
        Process run = Banyan.builder(List.of("run", "--dvm", uri.toString(), "-n", "1", hung.resolve("prog").toString()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        try {
            for (int i = 0; i < 300 && !Files.readString(err).contains("has not answered"); i++) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(err).strip()).isEqualTo("banyan run: looking at program '" + hung.resolve("prog")
                    + "': its file system has not answered for 10 s (a network mount that hangs?); still waiting, Ctrl-C ends this");
            new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
            assertThat(run.waitFor(20, TimeUnit.SECONDS)).as("ended by Ctrl-C").isTrue();
            assertThat(run.exitValue()).isEqualTo(130);
        } finally {
            run.destroyForcibly();
        }
    }
}
