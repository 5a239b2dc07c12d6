package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code banyan submit} against a real DVM: a bag of tasks, failures with their stderr, bad task files. */
class SubmitTest {
    @TempDir
    Path dir;

    Path uri;

    @BeforeEach
    void start() throws Exception {
        uri = dir.resolve("dvm.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", uri.toString(), "--host", "localhost:4");
        assertThat(r.exit()).as(r.stderr()).isZero();
    }

    @AfterEach
    void stop() throws Exception {
        Banyan.run("dvm", "stop", "--dvm", uri.toString());
        Banyan.assertNoProcessesWith(uri.toString());
    }

    @Test
    void detachedTasksOutliveTheirSubmitAndAnotherShellWaitsForThemOrCancelsThem() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result ok = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("a").toString(),
                "-D", dir.toString(), "--", "sh", "-c", "sleep 1; echo fine > done.txt");
        assertThat(ok.exit()).as(ok.stderr()).isZero();
        String okId = ok.stdout().strip();
        assertThat(ok.stderr()).contains("1 task submitted (id " + okId + "); follow it with banyan wait, end it with banyan cancel; "
                + "its sandbox is " + dir.resolve("a").resolve("task.000000"));
        Banyan.Result bad = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("b").toString(),
                "--", "sh", "-c", "echo it broke >&2; exit 5");
        Banyan.Result sleeper = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("c").toString(),
                "--", "sleep", marker);
        Banyan.awaitSleeps(marker, 1);

        Banyan.Result waitOk = Banyan.run("wait", "--dvm", uri.toString(), okId);
        assertThat(waitOk.exit()).as(waitOk.stderr()).isZero();
        assertThat(waitOk.stderr()).contains("1 task: 1 done, 0 failed, 0 canceled");
        assertThat(dir.resolve("done.txt")).as("written where -D said").hasContent("fine");
        Banyan.Result waitBad = Banyan.run("wait", "--dvm", uri.toString(), bad.stdout().strip());
        assertThat(waitBad.exit()).isEqualTo(1);
        assertThat(waitBad.stderr()).contains("failed (exit 5):\n    it broke").contains("0 done, 1 failed");
        assertThat(Banyan.run("wait", "--dvm", uri.toString(), "99999").stderr()).contains("no task 99999 in this DVM");
        // banyan tasks (squeue, flux jobs): the unfinished ones, or those named, each in its state now
        String sleeperId = sleeper.stdout().strip();
        Banyan.Result running = Banyan.run("tasks", "--dvm", uri.toString());
        assertThat(running.exit()).as(running.stderr()).isZero();
        assertThat(running.stdout().lines().toList()).hasSize(2).element(1).asString()
                .matches(" *" + sleeperId + "  AGENT_EXECUTING +[0-9.]+s +localhost");
        Banyan.Result named = Banyan.run("tasks", "--dvm", uri.toString(), okId + "," + bad.stdout().strip());
        assertThat(named.stdout().lines().toList()).hasSize(3);
        assertThat(named.stdout()).containsPattern(" " + okId + "  DONE +[0-9.]+s\\n")
                .containsPattern(" " + bad.stdout().strip() + "  FAILED +[0-9.]+s +5  it broke\\n");
        assertThat(Banyan.run("tasks", "--dvm", uri.toString(), "99999").exit()).isEqualTo(2);
        // the warm-up's 500 were forgotten once it had them; these two are kept, the sleep runs
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout())
                .contains("tasks: 1 running, 0 waiting to start, 2 finished and kept for banyan wait");

        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), "--all");
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        assertThat(cancel.stderr()).contains("1 task over (" + sleeper.stdout().strip() + ")");
        Banyan.assertNoProcessesWith(marker);
        Banyan.Result waitCanceled = Banyan.run("wait", "--dvm", uri.toString(), sleeper.stdout().strip());
        assertThat(waitCanceled.exit()).isEqualTo(1);
        assertThat(waitCanceled.stderr()).contains("0 done, 0 failed, 1 canceled");
        Banyan.Result staging = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--tasks", writeStagingTask());
        assertThat(staging.exit()).isEqualTo(2);
        assertThat(staging.stderr()).contains("output staging is done by the submitting command");
    }

    @Test
    void tasksQueuedBehindRunningOnesStartAsTheyEndAndACancelNeverStartsThem() throws Exception {
        // Four slots, eight sleepers: four run and the head queues four behind them on the daemon.
        String marker = Banyan.marker();
        Path started = dir.resolve("started.log");
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            file.append("{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo $BANYAN_TASK_UID >> " + started
                    + "; exec sleep " + marker + "\"]}\n");
        }
        Files.writeString(dir.resolve("sleepers.jsonl"), file);
        Banyan.Result sub = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("q").toString(),
                "--tasks", dir.resolve("sleepers.jsonl").toString());
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        Banyan.awaitSleeps(marker, 4);
        Thread.sleep(500);
        assertThat(Banyan.processesWith(marker)).hasSize(4);

        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), "--all");
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        assertThat(cancel.stderr()).contains("8 tasks over");
        Banyan.assertNoProcessesWith(marker);
        Thread.sleep(500);
        assertThat(Files.readAllLines(started)).hasSize(4);
        assertThat(Banyan.processesWith(marker)).isEmpty();
        Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), sub.stdout().strip());
        assertThat(waited.stderr()).contains("8 tasks: 0 done, 0 failed, 8 canceled");

        // The slots are free again: a bag of short tasks, queued the same way, all run.
        StringBuilder shortOnes = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            shortOnes.append("{\"executable\": \"true\"}\n");
        }
        Files.writeString(dir.resolve("short.jsonl"), shortOnes);
        Banyan.Result bag = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("r").toString(),
                "--tasks", dir.resolve("short.jsonl").toString());
        assertThat(bag.exit()).as(bag.stderr()).isZero();
        assertThat(bag.stderr()).contains("40 tasks: 40 done, 0 failed, 0 canceled");
    }

    @Test
    void aTaskQueuedBehindALongOneRunsOnCoresThatFreeElsewhere() throws Exception {
        // Four slots: three long sleepers and a short one run; the fifth task is queued behind the
        // first sleeper, and must not wait for it once the short one's core is free.
        String marker = Banyan.marker();
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            file.append("{\"executable\": \"sleep\", \"arguments\": [\"" + marker + "\"]}\n");
        }
        file.append("{\"executable\": \"sleep\", \"arguments\": [\"1\"]}\n");
        file.append("{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo ran > ran.txt\"]}\n");
        Files.writeString(dir.resolve("mix.jsonl"), file);
        Banyan.Result sub = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("m").toString(),
                "--tasks", dir.resolve("mix.jsonl").toString());
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        Path ran = dir.resolve("m/task.000004/ran.txt");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!Files.exists(ran) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(ran).as("ran on the short task's core, not after a sleeper").hasContent("ran");
        assertThat(Banyan.processesWith(marker)).hasSize(3);
        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), "--all");
        assertThat(cancel.stderr()).contains("3 tasks over");
        Banyan.assertNoProcessesWith(marker);
    }

    private String writeStagingTask() throws Exception {
        Path f = dir.resolve("staging.jsonl");
        Files.writeString(f, "{\"executable\": \"true\", \"output_staging\": [{\"source\": \"x\", \"target\": \"/tmp/x\"}]}\n");
        return f.toString();
    }

    @Test
    void aBagOfTasksRunsAndAFailureComesBackWithItsStderr() throws Exception {
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            file.append("{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo $BANYAN_TASK_UID > result\"],"
                    + " \"output_staging\": [{\"source\": \"result\", \"target\": \"" + dir.resolve("out." + i) + "\"}]}\n");
        }
        file.append("{\"uid\": \"broken\", \"name\": \"the third step\", \"executable\": \"sh\", \"arguments\": [\"-c\", \"echo first; echo it broke >&2; exit 3\"]}\n");
        // what cannot be made for a task is named, not reported as its program missing
        file.append("{\"uid\": \"nowhere\", \"executable\": \"true\", \"sandbox\": \"/etc/passwd/x\"}\n");
        file.append("{\"uid\": \"noout\", \"executable\": \"true\", \"stdout\": \"/no/dir/out\"}\n");
        file.append("{\"uid\": \"mpinowhere\", \"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"true\", \"sandbox\": \"/etc/passwd/y\"}\n");
        // an MPI task's failure names its rank and ends with its stderr, as a single task's does
        Files.writeString(dir.resolve("notexec"), "echo hi\n");
        file.append("{\"uid\": \"mpibroken\", \"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"sh\", \"arguments\": [\"-c\", "
                + "\"echo it broke too >&2; exit 4\"]}\n");
        file.append("{\"uid\": \"mpinoexec\", \"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"" + dir.resolve("notexec") + "\"}\n");
        Files.writeString(dir.resolve("tasks.jsonl"), file);
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("s").toString(),
                "--tasks", dir.resolve("tasks.jsonl").toString());
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("56 tasks: 50 done, 6 failed, 0 canceled")
                .contains("broken (the third step) failed (exit 3), sandbox " + dir.resolve("s/broken")).contains("it broke")
                .contains("true: cannot make its directory /etc/passwd/x (Not a directory)")
                .contains("true: No such file or directory (cannot open its stdout /no/dir/out)")
                .contains("mpinowhere failed (exit 127), sandbox /etc/passwd/y")
                .contains("true: cannot make its directory /etc/passwd/y (Not a directory)")
                .containsPattern("mpibroken failed \\(exit 4\\), sandbox \\S+:\n    rank [01] on localhost exited with status 4; ending the job\n"
                        + "    it broke too\n")
                .containsPattern("mpinoexec failed \\(exit 127\\), sandbox " + java.util.regex.Pattern.quote(dir.resolve("s/mpinoexec")
                        + ":\n") + "    rank [01] on localhost could not start: " + java.util.regex.Pattern.quote(dir.resolve("notexec")
                        + ": Permission denied")); // the ranks start side by side: either may be first
        assertThat(Files.readString(dir.resolve("out.7")).strip()).isEqualTo("task.000007");
        List<String> profile = Files.readAllLines(dir.resolve("s/banyan.prof"));
        assertThat(profile.getFirst()).isEqualTo("#time,event,comp,thread,uid,state,msg");
        assertThat(profile).anyMatch(l -> l.contains(",task.000007,AGENT_EXECUTING,"))
                .anyMatch(l -> l.contains(",task.000007,TMGR_STAGING_OUTPUT,")).anyMatch(l -> l.contains(",broken,FAILED,"));

        Banyan.Result report = Banyan.run("pilot", "report", dir.resolve("s").toString());
        assertThat(report.exit()).as(report.stderr()).isZero();
        assertThat(report.stdout()).contains("tasks            56 (50 done, 6 failed, 0 canceled)")
                .contains("peak concurrency").contains("pilot cores 4");
        assertThat(dir.resolve("s/concurrency.png")).isNotEmptyFile();
        assertThat(dir.resolve("s/states.svg")).isNotEmptyFile();
        Banyan.Result none = Banyan.run("pilot", "report", dir.resolve("nothing").toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.stderr().lines().toList()).singleElement().asString().contains("no profile at");
    }

    /**
     * Shell users run {@code ./run.sh} on the data beside it, as under srun, sbatch and flux
     * submit: the task ran in its sandbox, where neither was ({@code ./run.sh: No such file}).
     */
    @Test
    void aCommandStartsWhereSubmitRunsAndATaskFileInItsSandbox() throws Exception {
        Files.writeString(dir.resolve("data.txt"), "hello\n");
        Path script = dir.resolve("run.sh");
        Files.writeString(script, "#!/bin/sh\ncat data.txt\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        Banyan.Result r = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s", "--", "./run.sh"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(dir.resolve("s/task.000000/task.000000.out")).hasContent("hello\n");

        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/data.txt"), "other\n");
        r = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "t", "--chdir", "sub",
                "--mpi", "--ranks", "2", "--", "cat", "data.txt"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(dir.resolve("t/task.000000/task.000000.out")).as("an MPI task's ranks too").hasContent("other\nother\n");
        // its sandbox is named as such, not the directory it starts in (one process, and an MPI task's ranks)
        for (String ranks : List.of("1", "2")) {
            r = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "v" + ranks, "--ranks", ranks,
                    "--", "sh", "-c", "echo $BANYAN_TASK_SANDBOX"));
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(dir.resolve("v" + ranks + "/task.000000/task.000000.out"))
                    .hasContent((dir.resolve("v" + ranks + "/task.000000") + "\n").repeat(Integer.parseInt(ranks)));
        }

        Files.writeString(dir.resolve("t.jsonl"), "{\"executable\": \"cat\", \"arguments\": [\"data.txt\"], \"workdir\": \"sub\"}\n"
                + "{\"executable\": \"pwd\"}\n");
        r = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "u", "--tasks", "t.jsonl"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(dir.resolve("u/task.000000/task.000000.out")).hasContent("other\n");
        assertThat(Path.of(Files.readString(dir.resolve("u/task.000001/task.000001.out")).strip()))
                .as("a task file's task starts in its sandbox, as RADICAL-Pilot's").isEqualTo(dir.resolve("u/task.000001").toRealPath());

        Banyan.Result nowhere = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "-D", "nowhere", "--", "true"));
        assertThat(nowhere.exit()).isEqualTo(2);
        assertThat(nowhere.stderr().strip()).isEqualTo("banyan submit: --chdir '" + dir.resolve("nowhere") + "' is not a directory");
        Banyan.Result both = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "-D", "sub", "--tasks", "t.jsonl"));
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.stderr()).contains("--chdir describes the command after --; with --tasks each line gives its own (workdir)");
    }

    /**
     * An MPI task whose stdout is a FIFO nobody reads, as a network file system that stops
     * answering holds a file: the DVM opened and wrote such files on its loop, and from then on
     * no task started and no client was answered. Now the rest goes on, and the task ends once
     * its file takes its output, with all of it.
     */
    @Test
    void anMpiTaskWhoseOutputFileHangsHoldsUpNothingElse() throws Exception {
        Path fifo = dir.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Files.writeString(dir.resolve("m.jsonl"), "{\"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"echo\", "
                + "\"arguments\": [\"out\"], \"stdout\": \"" + fifo + "\"}\n");
        Banyan.Result sub = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--detach", "--tasks",
                "m.jsonl"));
        assertThat(sub.exit()).as(sub.stderr()).isZero();

        Banyan.Result other = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--mpi", "--ranks", "2",
                "--", "echo", "other"));
        assertThat(other.exit()).as("%s, the DVM's log: %s", other.stderr(), Files.readString(Path.of(uri + ".log"))).isZero();
        Banyan.Result status = Banyan.run("dvm", "status", "--dvm", uri.toString());
        assertThat(status.exit()).as("%s, the DVM's log: %s", status.stderr(), Files.readString(Path.of(uri + ".log"))).isZero();

        Process reader = new ProcessBuilder("cat", fifo.toString()).redirectOutput(dir.resolve("read.txt").toFile()).start();
        Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), sub.stdout().strip());
        assertThat(waited.exit()).as("%s %s, the DVM's log: %s", waited.stdout(), waited.stderr(), Files.readString(Path.of(uri + ".log")))
                .isZero();
        assertThat(reader.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(dir.resolve("read.txt")).hasContent("out\nout\n");

        // a file that cannot be made fails the task with why, as for a task of one process, and ends its ranks
        String m = Banyan.marker();
        Files.writeString(dir.resolve("n.jsonl"), "{\"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"sleep\", "
                + "\"arguments\": [\"" + m + "\"], \"stdout\": \"/no/dir/out\"}\n");
        Banyan.Result bad = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--tasks", "n.jsonl"));
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.stderr()).contains("No such file or directory (cannot open its stdout /no/dir/out)");
        Banyan.assertNoProcessesWith(m);
    }

    /**
     * A task whose stdout is a FIFO nobody reads: its start waited in the daemon's thread (the
     * child opens its files before its exec, and the spawn waits for the exec), which for a local
     * host is the DVM's loop: nothing else started, {@code dvm status} and {@code dvm stop}
     * timed out. Now it waits alone, starts once a reader comes, and a cancel ends it at once
     * without its command ever running, even when a reader comes after.
     */
    @Test
    void aTaskWhoseStdoutIsAFifoWaitsForItsReaderAlone() throws Exception {
        Path fifo = dir.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Files.writeString(dir.resolve("f.jsonl"), "{\"executable\": \"echo\", \"arguments\": [\"through\"], \"stdout\": \"" + fifo
                + "\"}\n");
        Banyan.Result sub = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--detach", "--tasks",
                "f.jsonl"));
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        Banyan.Result other = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--", "echo", "other"));
        assertThat(other.exit()).as("%s, the DVM's log: %s", other.stderr(), Files.readString(Path.of(uri + ".log"))).isZero();
        Banyan.Result status = Banyan.run("dvm", "status", "--dvm", uri.toString());
        assertThat(status.exit()).as(status.stderr()).isZero();
        assertThat(status.stdout()).contains("tasks: 1 running");
        Process reader = new ProcessBuilder("cat", fifo.toString()).redirectOutput(dir.resolve("read.txt").toFile()).start();
        Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), sub.stdout().strip());
        assertThat(waited.exit()).as("%s %s", waited.stdout(), waited.stderr()).isZero();
        assertThat(reader.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(dir.resolve("read.txt")).hasContent("through\n");

        String m = Banyan.marker();
        Files.writeString(dir.resolve("g.jsonl"), "{\"executable\": \"sleep\", \"arguments\": [\"" + m + "\"], \"stdin\": \"" + fifo
                + "\"}\n");
        Banyan.Result waiting = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--detach", "--tasks",
                "g.jsonl"));
        assertThat(waiting.exit()).as(waiting.stderr()).isZero();
        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), waiting.stdout().strip());
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        Banyan.Result canceled = Banyan.run("wait", "--dvm", uri.toString(), waiting.stdout().strip());
        assertThat(canceled.exit()).isEqualTo(1);
        assertThat(canceled.stderr()).contains("1 canceled");
        // a writer comes (it may find no reader: the canceled task's wait was woken and left): its command must not start
        new ProcessBuilder("timeout", "2", "sh", "-c", "echo x > \"$0\"", fifo.toString()).start().waitFor();
        Thread.sleep(300);
        Banyan.assertNoProcessesWith(m);
    }

    /**
     * An MPI task that writes faster than its output file takes it (here a FIFO nobody reads yet)
     * has its job stopped, as a full pipe stops a program, said in the DVM's log, and continued
     * once the file takes it again; canceled, it ends with nothing left running.
     */
    @Test
    void anMpiTaskFasterThanItsOutputFileIsStoppedUntilItCatchesUp() throws Exception {
        String m = Banyan.marker();
        Path fifo = dir.resolve("slow");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Files.writeString(dir.resolve("y.jsonl"), "{\"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"yes\", "
                + "\"arguments\": [\"" + m + "\"], \"stdout\": \"" + fifo + "\"}\n");
        Banyan.Result sub = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--detach", "--tasks",
                "y.jsonl"));
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        String id = sub.stdout().strip();
        List<String> stopped = List.of();
        for (int i = 0; i < 200 && stopped.size() < 2; i++) {
            Thread.sleep(50);
            stopped = Banyan.processesWith(m).stream().filter(l -> l.split("\\s+")[1].startsWith("T")).toList();
        }
        assertThat(stopped).as("both ranks stopped while their output waits").hasSize(2);
        assertThat(Files.readString(Path.of(uri + ".log"))).contains("task " + id
                + " writes faster than its output files take it: its job");

        Process reader = new ProcessBuilder("sh", "-c", "cat \"$0\" > /dev/null", fifo.toString()).start();
        List<String> running = List.of();
        for (int i = 0; i < 400 && running.isEmpty(); i++) { // stopped again and again if the file is still the slower
            Thread.sleep(25);
            running = Banyan.processesWith(m).stream().filter(l -> !l.split("\\s+")[1].startsWith("T")).toList();
        }
        assertThat(running).as("continued once the file takes it").isNotEmpty();
        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), id);
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        assertThat(reader.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("its file closed").isTrue();
        Banyan.assertNoProcessesWith(m);
    }

    @Test
    void oneCommandAndItsExitStatus() throws Exception {
        Banyan.Result ok = Banyan.runIn(dir, java.util.Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s", "--",
                "sh", "-c", "echo hi > where; echo \"[${_JAVA_SR_SIGNUM-unset}]\" > env; echo out"));
        assertThat(ok.exit()).as(ok.stderr()).isZero();
        assertThat(dir.resolve("where")).as("it ran where submit was run, as under srun and flux submit").hasContent("hi");
        assertThat(dir.resolve("s/task.000000/task.000000.out")).as("its output in its sandbox").hasContent("out\n");
        // the DVM's JVMs run with the launcher's thread-suspension signal; its tasks do not see it
        assertThat(dir.resolve("env")).hasContent("[unset]");
    }

    /**
     * --cc as flux submit's: a task per id, {cc} in the command and in -x values replaced by it,
     * BANYAN_CC set.
     */
    @Test
    void copiesOfOneCommandEachGetTheirId() throws Exception {
        Path s = dir.resolve("s");
        Banyan.Result r = Banyan.run(java.util.Map.of(), null, List.of("submit", "--dvm",
                uri.toString(), "--session", s.toString(), "--cc", "2-3,7,3", "-x", "IN=in.{cc}", "--", "sh", "-c",
                "echo {cc} $BANYAN_CC $IN"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stderr()).contains("3 tasks: 3 done");
        List<String> outs = new java.util.ArrayList<>();
        for (int t = 0; t < 3; t++) {
            outs.add(Files.readString(s.resolve("task.00000" + t + "/task.00000" + t + ".out")).strip());
        }
        assertThat(outs).containsExactly("2 2 in.2", "3 3 in.3", "7 7 in.7");
    }

    /**
     * A task of several ranks runs every rank: an executable task as that many copies (it was
     * one process, on the cores of all), an MPI task with its pre- and post-exec around each rank
     * and the task's variables (both were dropped for MPI tasks). A timeout ends every copy.
     */
    @Test
    void everyRankOfATaskRunsWithItsPreAndPostExec() throws Exception {
        String marker = Banyan.marker();
        Path s = dir.resolve("s");
        Files.writeString(dir.resolve("t.jsonl"), String.join("\n",
                "{\"uid\": \"copies\", \"executable\": \"sh\", \"arguments\": [\"-c\", \"echo copy $BANYAN_RANK of $BANYAN_SIZE\"], \"ranks\": 3}",
                "{\"uid\": \"wired\", \"mode\": \"mpi\", \"ranks\": 2, \"executable\": \"sh\", "
                        + "\"arguments\": [\"-c\", \"echo $BANYAN_TASK_UID rank $PMI_RANK\"], \"pre_exec\": [\"echo pre\"], \"post_exec\": [\"echo post\"]}",
                "{\"uid\": \"slow\", \"executable\": \"sleep\", \"arguments\": [\"" + marker + "\"], \"ranks\": 2, \"timeout\": 1}", ""));
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", s.toString(), "--tasks", dir.resolve("t.jsonl").toString());
        assertThat(r.stderr()).contains("slow failed").contains("timed out after 1.0 s").contains("3 tasks: 2 done, 1 failed");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(Files.readAllLines(s.resolve("copies/copies.out"))).containsExactlyInAnyOrder("copy 0 of 3", "copy 1 of 3", "copy 2 of 3");
        assertThat(Files.readAllLines(s.resolve("wired/wired.out"))).containsExactlyInAnyOrder("pre", "pre", "wired rank 0", "wired rank 1",
                "post", "post");
        Banyan.assertNoProcessesWith(marker);
    }

    /**
     * -x gives every task a variable, with the command's value (which the DVM does not have) or
     * the one given; a task file's own value wins.
     */
    @Test
    void exportedVariablesReachEveryTask() throws Exception {
        Files.writeString(dir.resolve("t.jsonl"), "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo $A $B_HERE\"]}\n"
                + "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo $A $B_HERE\"], \"environment\": {\"A\": \"own\"}}\n");
        Path s = dir.resolve("s");
        Banyan.Result r = Banyan.run(java.util.Map.of("B_HERE", "from-the-shell"), null,
                List.of("submit", "--dvm", uri.toString(), "--session", s.toString(), "-x", "A=given", "--env", "B_HERE",
                        "--tasks", dir.resolve("t.jsonl").toString()));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(s.resolve("task.000000/task.000000.out")).hasContent("given from-the-shell");
        assertThat(s.resolve("task.000001/task.000001.out")).hasContent("own from-the-shell");
    }

    /** A task's stdin from a file: staged into its sandbox, or anywhere; a missing one fails the task, saying which. */
    @Test
    void aTaskReadsItsStdinFromAFile() throws Exception {
        Files.writeString(dir.resolve("words.txt"), "banyan\n");
        Path s = dir.resolve("s");
        Files.writeString(dir.resolve("t.jsonl"), "{\"uid\": \"staged\", \"executable\": \"tr\", \"arguments\": [\"a-z\", \"A-Z\"], "
                + "\"stdin\": \"words.txt\", \"input_staging\": [\"" + dir.resolve("words.txt") + "\"]}\n"
                + "{\"uid\": \"absolute\", \"executable\": \"wc\", \"arguments\": [\"-c\"], \"stdin\": \"" + dir.resolve("words.txt") + "\"}\n"
                + "{\"uid\": \"missing\", \"executable\": \"cat\", \"stdin\": \"nothing.txt\"}\n");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", s.toString(), "--tasks", dir.resolve("t.jsonl").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(s.resolve("staged/staged.out")).hasContent("BANYAN");
        assertThat(s.resolve("absolute/absolute.out")).hasContent("7");
        assertThat(r.stderr()).contains("missing failed (exit 127)").contains("cat: No such file or directory (cannot open its stdin " + s.resolve("missing/nothing.txt") + ")")
                .contains("3 tasks: 2 done, 1 failed");
    }

    /**
     * Task files from a pipe: {@code --tasks -} was "no such file", and {@code --tasks /dev/stdin}
     * (or a FIFO, or {@code <(...)}) was read by the DVM's JVM, where the bag then ran, from its own
     * stdin: "no task in the file". Such a file is read by the command, which runs the bag.
     */
    @Test
    void aTaskFileMayComeFromStdinOrAPipe() throws Exception {
        String two = "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo one\"]}\n"
                + "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo two\"]}\n";
        for (String file : List.of("-", "/dev/stdin")) {
            Path s = dir.resolve("s" + file.length());
            Banyan.Result r = Banyan.run(two, List.of("submit", "--dvm", uri.toString(), "--session", s.toString(), "--tasks", file));
            assertThat(r.exit()).as(r.stderr()).isZero();
            assertThat(r.stderr()).contains("2 tasks: 2 done, 0 failed");
            assertThat(s.resolve("task.000001/task.000001.out")).hasContent("two");
        }
        Banyan.Result bad = Banyan.run("{\"executable\": 3}\n", List.of("submit", "--dvm", uri.toString(), "--session",
                dir.resolve("bad").toString(), "--tasks", "-"));
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr().strip()).isEqualTo("banyan submit: stdin:1: field 'executable' must be a string");
    }

    /**
     * A second bag into a session's directory would overwrite the first's profile and sandboxes:
     * it is refused before any task starts, as is a session directory that cannot be made.
     */
    @Test
    void aSessionDirectoryHoldsOneSession() throws Exception {
        Path s = dir.resolve("s");
        assertThat(Banyan.run("submit", "--dvm", uri.toString(), "--session", s.toString(), "-D", dir.toString(), "--", "sh", "-c",
                "echo one > out").exit()).isZero();
        Banyan.Result again = Banyan.run(java.util.Map.of(), null,
                List.of("submit", "--dvm", uri.toString(), "--session", s.toString(), "-D", dir.toString(), "--", "sh", "-c",
                        "echo two > out; touch ran"));
        assertThat(again.exit()).as(again.stderr()).isEqualTo(2);
        assertThat(again.stderr().strip()).isEqualTo("banyan submit: the session directory " + s
                + " already holds a session (banyan.prof); give a new one");
        assertThat(dir.resolve("out")).hasContent("one");
        assertThat(dir.resolve("ran")).doesNotExist();
        assertThat(Files.readString(s.resolve("banyan.prof"))).contains("task.000000,DONE");
        Files.writeString(dir.resolve("file"), "");
        Banyan.Result inTheWay = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("file/s").toString(), "--", "true");
        assertThat(inTheWay.exit()).isEqualTo(2);
        assertThat(inTheWay.stderr().strip()).isEqualTo("banyan submit: cannot make the session directory " + dir.resolve("file/s")
                + " (Not a directory)");
    }

    @Test
    void aBadTaskLineNamesItsLineAndFieldAndNothingStarts() throws Exception {
        Files.writeString(dir.resolve("bad.jsonl"), "{\"executable\": \"/bin/true\"}\n\n{\"executable\": \"x\", \"ranks\": 0}\n");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("s").toString(),
                "--tasks", dir.resolve("bad.jsonl").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr().strip()).isEqualTo("banyan submit: " + dir.resolve("bad.jsonl") + ":3: field 'ranks' must be "
                + "a positive integer");
        assertThat(dir.resolve("s")).doesNotExist();
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(dir.resolve("huge.jsonl").toFile(), "rw")) {
            sparse.setLength(3L << 30); // over any bound the command's memory gives, and over what one array holds
        }
        Banyan.Result huge = Banyan.run("submit", "--dvm", uri.toString(), "--session", dir.resolve("s").toString(),
                "--tasks", dir.resolve("huge.jsonl").toString());
        assertThat(huge.exit()).isEqualTo(2);
        assertThat(huge.stderr().strip()).matches("banyan submit: --tasks " + java.util.regex.Pattern.quote(dir.resolve("huge.jsonl").toString())
                + ": more than [0-9]+ MiB of tasks \\(a quarter of this command's memory\\): split them over several submits");
        assertThat(dir.resolve("s")).doesNotExist();
        Files.writeString(dir.resolve("bad2.jsonl"), "{\"executable\": \"/bin/true\", \"cores\": 2}\n");
        assertThat(Banyan.run("submit", "--dvm", uri.toString(), "--tasks", dir.resolve("bad2.jsonl").toString()).stderr())
                .contains(":1: unknown field 'cores'");
        Banyan.Result none = Banyan.run("submit", "--dvm", dir.resolve("none.uri").toString(), "--", "true");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.stderr()).contains("no DVM at");
    }

    /**
     * The bag runs in the submitting command's JVM (its profile's thread is the command's main),
     * with paths as the submitter sees them: a relative session and a relative staging target land
     * in the submitter's directory, not the DVM's.
     */
    @Test
    void aBagRunsInTheCommandsJvmWithTheSubmittersPaths() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("tasks.jsonl"), "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo hi > out\"],"
                + " \"output_staging\": [{\"source\": \"out\", \"target\": \"got\"}]}\n");
        ProcessBuilder pb = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--quiet", "--session", "s",
                "--tasks", "tasks.jsonl")).directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        assertThat(err).contains("1 task: 1 done, 0 failed, 0 canceled").contains(work.resolve("s/banyan.prof").toString());
        assertThat(work.resolve("got")).hasContent("hi");
        Files.delete(work.resolve("got"));
        String pilotNew = Files.readAllLines(work.resolve("s/banyan.prof")).get(1);
        assertThat(pilotNew.split(",")[3]).isEqualTo("main");
    }

    /**
     * RADICAL-Pilot's staging locations: {@code client://} is the submitter's directory,
     * {@code task://} the sandbox, {@code pilot://} and {@code session://} the pilot's and the
     * session's directories. They used to be taken as relative paths: a directory named
     * {@code task:} in the sandbox, and a failed task. An unknown one is refused, nothing started.
     */
    @Test
    void stagingLocationsNameTheirPlaces() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("in.txt"), "hello\n");
        Files.writeString(work.resolve("tasks.jsonl"), "{\"uid\": \"a\", \"executable\": \"sh\", \"arguments\": [\"-c\", "
                + "\"tr a-z A-Z < in.txt > out.txt\"], \"input_staging\": [{\"source\": \"client:///in.txt\", "
                + "\"target\": \"task:///\"}], \"output_staging\": [{\"source\": \"task:///out.txt\", \"target\": "
                + "\"client:///up.txt\"}, {\"source\": \"out.txt\", \"target\": \"pilot:///kept.txt\"}, "
                + "{\"source\": \"out.txt\", \"target\": \"session:///all/a.txt\"}]}\n");
        ProcessBuilder pb = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--quiet", "--session", "s",
                "--tasks", "tasks.jsonl")).directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        assertThat(work.resolve("up.txt")).hasContent("HELLO");
        assertThat(work.resolve("s/pilot.0000/kept.txt")).hasContent("HELLO");
        assertThat(work.resolve("s/all/a.txt")).hasContent("HELLO");

        Files.writeString(work.resolve("bad.jsonl"), "{\"executable\": \"true\"}\n{\"executable\": \"true\", "
                + "\"input_staging\": [\"resource:///in.txt\"]}\n");
        Banyan.Result bad = Banyan.run("submit", "--dvm", uri.toString(), "--session", work.resolve("t").toString(), "--tasks",
                work.resolve("bad.jsonl").toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.stderr()).contains("bad.jsonl:2: field 'input_staging': 'resource:///in.txt': resource:// is not a place "
                + "here (client://, task://, session://, pilot:// or endpoint://)");
        assertThat(work.resolve("t")).doesNotExist();
    }

    /**
     * RADICAL-Pilot's {@code stage_on_error}: a failed task's files come out as a done one's
     * would; without it they stay in the sandbox. A file it did not write adds to its failure.
     */
    @Test
    void stageOnErrorTakesAFailedTasksFilesOut() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        String fails = "\"executable\": \"sh\", \"arguments\": [\"-c\", \"echo partial > out.txt; echo broke >&2; exit 3\"]";
        Files.writeString(work.resolve("tasks.jsonl"), "{\"uid\": \"kept\", " + fails + ", \"stage_on_error\": true, "
                + "\"output_staging\": [{\"source\": \"out.txt\", \"target\": \"" + work.resolve("kept.txt") + "\"}, "
                + "{\"source\": \"never.txt\", \"target\": \"" + work.resolve("never.txt") + "\"}]}\n"
                + "{\"uid\": \"left\", " + fails + ", \"output_staging\": [{\"source\": \"out.txt\", \"target\": \""
                + work.resolve("left.txt") + "\"}]}\n"
                + "{\"uid\": \"short\", \"executable\": \"true\", \"output_staging\": [{\"source\": \"none.txt\", \"target\": \""
                + work.resolve("none.txt") + "\"}]}\n");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--session", work.resolve("s").toString(), "--tasks",
                work.resolve("tasks.jsonl").toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stderr()).contains("3 tasks: 0 done, 3 failed")
                .as("a done task whose file is missing fails, as before").contains("short failed (exit 0), sandbox "
                        + work.resolve("s/short") + ":\n    output staging: cannot copy " + work.resolve("s/short/none.txt"))
                .contains("kept failed (exit 3), sandbox " + work.resolve("s/kept") + ":\n    broke\n    output staging: cannot copy "
                        + work.resolve("s/kept/never.txt"));
        assertThat(work.resolve("kept.txt")).hasContent("partial");
        assertThat(work.resolve("left.txt")).doesNotExist();
        assertThat(work.resolve("s/left/out.txt")).hasContent("partial");
    }

    /**
     * The tasks of a bag are the submitting command's: a SIGTERM
     * to it cancels them (status 1, counted as canceled), and killing it outright ends them too.
     */
    @Test
    void theSubmittersSignalsAndItsDeathEndItsTasks() throws Exception {
        String marker = Banyan.marker();
        Process signalled = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--quiet", "--session",
                dir.resolve("a").toString(), "--", "sleep", marker)).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("a.err").toFile()).start();
        Banyan.awaitSleeps(marker, 1);
        signalled.destroy(); // SIGTERM
        int status = signalled.waitFor();
        String err = Files.readString(dir.resolve("a.err"));
        assertThat(status).as(err).isEqualTo(1);
        assertThat(err).contains("1 task: 0 done, 0 failed, 1 canceled");
        Banyan.assertNoProcessesWith(marker);

        Process killed = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--quiet", "--session",
                dir.resolve("b").toString(), "--", "sleep", marker)).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Banyan.awaitSleeps(marker, 1);
        killed.destroyForcibly().waitFor();
        Banyan.assertNoProcessesWith(marker);
    }

    /**
     * A bag bigger than what goes to the task manager at once: a signal cancels what was handed
     * over, and the tasks never handed over count as canceled too; none of them is in the profile.
     */
    @Test
    void aBigBagGoesASliceAtATimeAndACancelCountsTheRest() throws Exception {
        String marker = Banyan.marker();
        Files.writeString(dir.resolve("big.jsonl"), ("{\"executable\": \"sleep\", \"arguments\": [\"" + marker + "\"]}\n")
                .repeat(5000));
        Process p = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--quiet", "--session",
                        dir.resolve("big").toString(), "--tasks", dir.resolve("big.jsonl").toString()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("big.err").toFile()).start();
        Banyan.awaitSleeps(marker, 4);
        p.destroy(); // SIGTERM
        int status = p.waitFor();
        String err = Files.readString(dir.resolve("big.err"));
        assertThat(status).as(err).isEqualTo(1);
        assertThat(err).contains("5000 tasks: 0 done, 0 failed, 5000 canceled");
        long made;
        try (var lines = Files.lines(dir.resolve("big").resolve("banyan.prof"))) {
            made = lines.filter(l -> l.contains(",state,tmgr,") && l.contains(",NEW,")).count();
        }
        assertThat(made).as("tasks made").isPositive().isLessThan(5000);
        Banyan.assertNoProcessesWith(marker);
    }

    /** A wait whose DVM stops under it ends in one line, status 1; the DVM's tasks end with it. */
    /**
     * {@code banyan dvm stop} under a running submit (a task of two ranks, whose job the stop
     * ends) and a wait: each says the DVM was stopped (they said "lost the pilot", or the task's
     * exit status alone, and "lost the DVM (it closed the connection)"), and exits 1.
     */
    @Test
    void aWaitAndASubmitWhoseDvmStopsSayWhyTheirTasksEnded() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result sub = Banyan.run("submit", "--dvm", uri.toString(), "--detach", "--session", dir.resolve("d").toString(),
                "--", "sleep", marker);
        assertThat(sub.exit()).as(sub.stderr()).isZero();
        Process w = Banyan.builder(List.of("wait", "--dvm", uri.toString(), sub.stdout().strip()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("w.err").toFile()).start();
        Process s = Banyan.builder(List.of("submit", "--dvm", uri.toString(), "--session", dir.resolve("s").toString(),
                        "-n", "2", "--", "sleep", marker)) // one task of two ranks
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("s.err").toFile()).start();
        try {
            Banyan.awaitSleeps(marker, 3);
            Path log = dir.resolve("dvm.uri.log");
            for (int i = 0; i < 200 && !Files.readString(log).contains("(banyan wait)"); i++) {
                Thread.sleep(50);
            }
            Banyan.run("dvm", "stop", "--dvm", uri.toString());
            assertThat(w.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the wait ended").isTrue();
            assertThat(s.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the submit ended").isTrue();
            assertThat(Files.readString(dir.resolve("w.err")).strip())
                    .isEqualTo("banyan wait: lost the DVM (it was stopped by banyan dvm stop)");
            assertThat(Files.readString(dir.resolve("s.err"))).contains("failed (exit 143), sandbox")
                    .contains("\n    ended as its DVM stopped (it was stopped by banyan dvm stop)\n")
                    .contains("1 task: 0 done, 1 failed");
            assertThat(w.exitValue()).isEqualTo(1);
            assertThat(s.exitValue()).isEqualTo(1);
            Banyan.assertNoProcessesWith(marker);
        } finally {
            w.destroyForcibly(); // a wait or submit that did not end is not left behind
            s.destroyForcibly();
        }
    }

    /**
     * A bag of long tasks on a DVM with more cores than {@code banyan submit} hands over at once
     * (4,096): every task runs at the same time. The next part used to wait until half of the
     * first had ended, so 104 of these never started.
     */
    @Test
    void longTasksFillAPilotWiderThanWhatIsHandedOverAtOnce() throws Exception {
        int n = 4200;
        Path wide = dir.resolve("wide.uri");
        Banyan.Result r = Banyan.run("dvm", "start", "--uri-file", wide.toString(), "--host", "localhost:" + n);
        assertThat(r.exit()).as(r.stderr()).isZero();
        String marker = Banyan.marker();
        try {
            Files.writeString(dir.resolve("long.jsonl"), ("{\"executable\": \"sleep\", \"arguments\": [\"" + marker
                    + "\"]}\n").repeat(n));
            Process p = Banyan.builder(List.of("submit", "--dvm", wide.toString(), "--quiet", "--session",
                            dir.resolve("long").toString(), "--tasks", dir.resolve("long.jsonl").toString()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(dir.resolve("long.err").toFile()).start();
            long running = 0;
            for (long deadline = System.nanoTime() + 120_000_000_000L; running < n && System.nanoTime() < deadline; ) {
                Thread.sleep(500);
                running = Banyan.processesWith(marker).stream().filter(l -> l.split("\\s+", 3)[2].startsWith("sleep ")).count();
            }
            p.destroy(); // SIGTERM
            int status = p.waitFor();
            String err = Files.readString(dir.resolve("long.err"));
            assertThat(running).as("sleeps running at once").isEqualTo(n);
            assertThat(status).as(err).isEqualTo(1);
            assertThat(err).contains(n + " tasks: 0 done, 0 failed, " + n + " canceled");
            Banyan.assertNoProcessesWith(marker);
        } finally {
            Banyan.run("dvm", "stop", "--dvm", wide.toString());
            Banyan.assertNoProcessesWith(wide.toString());
        }
    }

    /** Tasks of several priorities go to the task manager at once: the urgent last line overtakes most of the bag. */
    @Test
    void aBagOfSeveralPrioritiesIsHandedOverWhole() throws Exception {
        Files.writeString(dir.resolve("prio.jsonl"), "{\"executable\": \"true\"}\n".repeat(4999)
                + "{\"executable\": \"true\", \"priority\": 5}\n");
        Banyan.Result r = Banyan.run("submit", "--dvm", uri.toString(), "--quiet", "--session", dir.resolve("prio").toString(),
                "--tasks", dir.resolve("prio.jsonl").toString());
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<String> starts;
        try (var lines = Files.lines(dir.resolve("prio").resolve("banyan.prof"))) {
            starts = lines.filter(l -> l.contains(",exec_start,")).map(l -> l.split(",")).sorted(java.util.Comparator
                    .comparingDouble(f -> Double.parseDouble(f[0]))).map(f -> f[4]).toList();
        }
        assertThat(starts).hasSize(5000);
        // Handed over a slice at a time, it would wait until most of the first slice had ended
        // (about 3,000 tasks); handed over at once, it goes with the first batch sent after the
        // pilot's window of 1,024 has room.
        assertThat(starts.indexOf("task.004999")).as("where the urgent task started").isBetween(0, 1500);
    }

    /**
     * Under JFR's execution sampler, which suspends threads with a signal: a bag runs to its end.
     * It used to be canceled within a second, the sampler's SIGUSR2 taken for the user's.
     */
    @Test
    void aBagProfiledWithJfrRunsToItsEnd() throws Exception {
        Path jfc = dir.resolve("sample.jfc");
        Files.writeString(jfc, """
                <?xml version="1.0" encoding="UTF-8"?>
                <configuration version="2.0">
                  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
                </configuration>
                """);
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            file.append("{\"executable\": \"true\"}\n");
        }
        Files.writeString(dir.resolve("bag.jsonl"), file);
        Banyan.Result r = Banyan.run(java.util.Map.of("JAVA_TOOL_OPTIONS",
                        "-XX:StartFlightRecording=filename=" + dir.resolve("submit.jfr") + ",settings=" + jfc), null,
                List.of("submit", "--dvm", uri.toString(), "--quiet", "--session", dir.resolve("s").toString(),
                        "--tasks", dir.resolve("bag.jsonl").toString()));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stderr()).contains("2000 tasks: 2000 done, 0 failed, 0 canceled");
    }
}
