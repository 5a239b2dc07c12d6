package org.banyan.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code banyan submit --dependency}, as Slurm's and Flux's users chain their jobs: a task waits
 * for others of the DVM, shown as waiting; one whose condition can no longer be met fails with
 * the reason; an unknown id is bad input.
 */
class SubmitDependencyTest {
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

    private Banyan.Result submit(String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("submit", "--dvm", uri.toString()));
        all.addAll(List.of(args));
        return Banyan.run(all.toArray(String[]::new));
    }

    @Test
    void tasksWaitForTheOnesTheyNameAndFailWhenTheirConditionCanNoLongerBeMet() throws Exception {
        Path gate = dir.resolve("gate");
        Path first = dir.resolve("first.txt");
        Banyan.Result a = submit("--detach", "--session", dir.resolve("a").toString(), "--", "sh", "-c",
                "while [ ! -e " + gate + " ]; do sleep 0.05; done; echo a > " + first + "; exit 3");
        assertThat(a.exit()).as(a.stderr()).isZero();
        String id = a.stdout().strip();
        Banyan.Result ok = submit("--detach", "--session", dir.resolve("ok").toString(), "--dependency", "afterok:" + id,
                "--", "touch", dir.resolve("never.txt").toString());
        Banyan.Result notOk = submit("--detach", "--session", dir.resolve("notok").toString(), "-d", "afternotok:" + id,
                "--", "sh", "-c", "cat " + first + " > " + dir.resolve("second.txt"));
        assertThat(ok.exit()).as(ok.stderr()).isZero();
        assertThat(notOk.exit()).as(notOk.stderr()).isZero();

        Banyan.Result held = Banyan.run("tasks", "--dvm", uri.toString(), ok.stdout().strip(), notOk.stdout().strip());
        assertThat(held.stdout()).containsPattern(" " + ok.stdout().strip() + "  AGENT_SCHEDULING_PENDING +[0-9.]+s +waiting for afterok:" + id + "\\n")
                .containsPattern(" " + notOk.stdout().strip() + "  AGENT_SCHEDULING_PENDING +[0-9.]+s +waiting for afternotok:" + id + "\\n");
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).contains("1 running, 2 waiting to start");

        Files.writeString(gate, "");
        Banyan.Result waitOk = Banyan.run("wait", "--dvm", uri.toString(), ok.stdout().strip());
        assertThat(waitOk.exit()).isEqualTo(1);
        assertThat(waitOk.stderr()).contains("its dependency afterok:" + id + " can no longer be met: task " + id + " ended FAILED");
        Banyan.Result waitNotOk = Banyan.run("wait", "--dvm", uri.toString(), notOk.stdout().strip());
        assertThat(waitNotOk.exit()).as(waitNotOk.stderr()).isZero();
        assertThat(dir.resolve("second.txt")).as("it ran after the first had written its file").hasContent("a");
        assertThat(dir.resolve("never.txt")).doesNotExist();
    }

    /**
     * An attached submit's finished task: the DVM let go of its record once its submitter had it,
     * so banyan wait and --dependency took its id for unknown (status 2), where the agent keeps how it ended.
     */
    @Test
    void aFinishedAttachedTaskCanStillBeWaitedForAndDependedOn() throws Exception {
        Banyan.Result before = submit("--detach", "--session", dir.resolve("a").toString(), "--", "true");
        int first = Integer.parseInt(before.stdout().strip());
        Banyan.Result attached = submit("--session", dir.resolve("b").toString(), "--", "true");
        assertThat(attached.exit()).as(attached.stderr()).isZero();
        Banyan.Result failing = submit("--session", dir.resolve("c").toString(), "--", "false");
        assertThat(failing.exit()).isEqualTo(1);
        Banyan.Result after = submit("--detach", "--session", dir.resolve("d").toString(), "--", "true");
        assertThat(Integer.parseInt(after.stdout().strip())).as("ids are consecutive").isEqualTo(first + 3);
        String done = String.valueOf(first + 1);
        String failed = String.valueOf(first + 2);

        Banyan.Result waited = Banyan.run("wait", "--dvm", uri.toString(), done);
        assertThat(waited.exit()).as(waited.stderr()).isZero();
        assertThat(waited.stderr()).contains("banyan wait: 1 task: 1 done, 0 failed, 0 canceled");
        Banyan.Result waitedFailed = Banyan.run("wait", "--dvm", uri.toString(), failed);
        assertThat(waitedFailed.exit()).isEqualTo(1);
        assertThat(waitedFailed.stderr()).contains("banyan wait: task " + failed + " failed (no exit status):\n"
                + "    the DVM keeps only how it ended, not its exit code and detail");

        Banyan.Result chained = submit("--session", dir.resolve("e").toString(), "-d", "afterok:" + done, "--", "true");
        assertThat(chained.exit()).as(chained.stderr()).isZero();
        Banyan.Result never = submit("--session", dir.resolve("f").toString(), "-d", "afterok:" + failed, "--", "true");
        assertThat(never.exit()).as(never.stderr()).isEqualTo(1);
        assertThat(never.stderr()).contains("its dependency afterok:" + failed + " can no longer be met: task " + failed + " ended FAILED");
    }

    /** A bag in either JVM (the DVM's, or the command's): a task file's own field and the option, both waited for. */
    @Test
    void aTaskFileAndTheOptionBothNameWhatItsTasksWaitFor() throws Exception {
        Banyan.Result a = submit("--detach", "--session", dir.resolve("a").toString(), "--", "sh", "-c",
                "sleep 0.5; echo a > " + dir.resolve("a.txt"));
        Banyan.Result b = submit("--detach", "--session", dir.resolve("b").toString(), "--", "sh", "-c",
                "sleep 0.5; echo b > " + dir.resolve("b.txt"));
        Path tasks = dir.resolve("tasks.jsonl");
        Files.writeString(tasks, "{\"executable\": \"sh\", \"arguments\": [\"-c\", \"cat " + dir.resolve("a.txt") + " "
                + dir.resolve("b.txt") + "\"], \"dependencies\": \"afterany:" + a.stdout().strip() + "\"}\n");
        Path s = dir.resolve("s");
        Banyan.Result r = Banyan.run(Map.of(), null, List.of("submit", "--dvm", uri.toString(),
                "--session", s.toString(), "--quiet", "--tasks", tasks.toString(), "--dependency", "afterok:" + b.stdout().strip()));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(s.resolve("task.000000/task.000000.out")).hasContent("a\nb\n");
    }

    @Test
    void anUnknownIdOrAMisspeltConditionIsBadInputAndNothingStarts() throws Exception {
        Path made = dir.resolve("made.txt");
        Banyan.Result unknown = submit("--session", dir.resolve("a").toString(), "--dependency", "afterok:424242", "--", "touch", made.toString());
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.stderr().strip()).isEqualTo("banyan submit: a dependency names task 424242, which this DVM does not "
                + "know (ids are what banyan submit --detach printed; finished tasks are kept as banyan wait keeps them); no task was submitted");
        Path tasks = dir.resolve("t.jsonl");
        Files.writeString(tasks, "{\"executable\": \"touch\", \"arguments\": [\"" + made + "\"], \"dependencies\": \"afterok:424242\"}\n");
        assertThat(submit("--session", dir.resolve("b").toString(), "--tasks", tasks.toString()).exit()).isEqualTo(2);
        Banyan.Result misspelt = submit("--session", dir.resolve("c").toString(), "--dependency", "aftrok:1", "--", "touch", made.toString());
        assertThat(misspelt.exit()).isEqualTo(2);
        assertThat(misspelt.stderr()).contains("'aftrok:1' is not a dependency");
        Files.writeString(tasks, "{\"executable\": \"true\"}\n{\"executable\": \"true\", \"dependencies\": [1]}\n");
        Banyan.Result badLine = submit("--session", dir.resolve("d").toString(), "--tasks", tasks.toString());
        assertThat(badLine.exit()).isEqualTo(2);
        assertThat(badLine.stderr()).contains(tasks + ":2: field 'dependencies' must be a string");
        assertThat(made).doesNotExist();
        assertThat(Banyan.run("dvm", "status", "--dvm", uri.toString()).stdout()).contains("no task");
    }

    /** A held task is canceled as any other, and one waiting on it with afterany then runs. */
    @Test
    void aWaitingTaskCanBeCanceledAndLetsItsDependentsGo() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result sleeper = submit("--detach", "--session", dir.resolve("a").toString(), "--", "sleep", marker);
        Banyan.awaitSleeps(marker, 1);
        Banyan.Result held = submit("--detach", "--session", dir.resolve("b").toString(), "-d", "afterok:" + sleeper.stdout().strip(),
                "--", "sleep", marker);
        Banyan.Result after = submit("--detach", "--session", dir.resolve("c").toString(), "-d", "afterany:" + held.stdout().strip(),
                "--", "touch", dir.resolve("after.txt").toString());
        Banyan.Result cancel = Banyan.run("cancel", "--dvm", uri.toString(), held.stdout().strip());
        assertThat(cancel.exit()).as(cancel.stderr()).isZero();
        Banyan.Result waitAfter = Banyan.run("wait", "--dvm", uri.toString(), after.stdout().strip());
        assertThat(waitAfter.exit()).as(waitAfter.stderr()).isZero();
        assertThat(dir.resolve("after.txt")).exists();
        assertThat(Banyan.run("cancel", "--dvm", uri.toString(), "--all").exit()).isZero();
        Banyan.assertNoProcessesWith(marker);
    }
}
