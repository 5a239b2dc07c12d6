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
 * {@code banyan submit}'s options for a task's files and name, as {@code sbatch -o/-e/-i/-J} and
 * {@code flux submit --output/--error/--input/--job-name} take them: paths from the submitter's
 * directory, {@code {cc}} in them for {@code --cc}'s copies.
 */
class SubmitFilesTest {
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
    void outputErrorInputAndName() throws Exception {
        Files.writeString(dir.resolve("in.txt"), "hello\n");
        Path here = Files.createDirectories(dir.resolve("cwd"));
        Files.copy(dir.resolve("in.txt"), here.resolve("in.txt"));
        Banyan.Result r = Banyan.runIn(here, Map.of(), List.of("submit", "--dvm",
                uri.toString(), "--session", "s", "--quiet", "--cc", "1-3", "-o", "out.{cc}", "--error", "err.{cc}",
                "-i", "in.txt", "--job-name", "sim", "--", "sh", "-c", "cat; echo {cc} >&2; [ {cc} != 2 ]"));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        assertThat(r.stderr()).contains("task.000001 (sim) failed (exit 1)").contains("\n    2\n");
        for (int cc = 1; cc <= 3; cc++) {
            assertThat(here.resolve("out." + cc)).hasContent("hello");
            assertThat(here.resolve("err." + cc)).hasContent(Integer.toString(cc));
        }
        Banyan.Result one = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "one",
                "--cc", "1-2", "--output", "out", "--", "true"));
        assertThat(one.exit()).isEqualTo(2);
        assertThat(one.stderr().strip()).isEqualTo("banyan submit: --output out: every copy of --cc would write that one file; "
                + "put {cc} in it");
        Files.writeString(dir.resolve("t.jsonl"), "{\"executable\": \"true\"}\n");
        Banyan.Result file = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--tasks", "t.jsonl",
                "-o", "x"));
        assertThat(file.exit()).isEqualTo(2);
        assertThat(file.stderr()).contains("--output describes the command after --; with --tasks each line gives its own (stdout)");
        assertThat(dir.resolve("one")).doesNotExist();
    }

    /** What a task leaves running when it ends is killed with it: a DVM's host collects no strays. */
    @Test
    void whatATaskLeavesRunningEndsWithIt() throws Exception {
        String marker = Banyan.marker();
        Banyan.Result r = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "left",
                "--quiet", "--cc", "1-3", "--", "sh", "-c", "sleep " + marker + " & echo {cc}"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        Banyan.assertNoProcessesWith(marker);
    }

    /** A task of several cores per rank runs that many OpenMP threads, as under flux run -c; one rank or a job of them. */
    @Test
    void aTaskOfSeveralCoresIsToldItsThreads() throws Exception {
        for (String ranks : List.of("1", "2")) {
            Banyan.Result r = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s" + ranks,
                    "--quiet", "--cores", "2", "--ranks", ranks, "-o", "threads" + ranks, "--", "sh", "-c", "echo $OMP_NUM_THREADS"));
            assertThat(r.exit()).as(r.stderr()).isZero();
        }
        assertThat(dir.resolve("threads1")).hasContent("2");
        assertThat(dir.resolve("threads2")).hasContent("2\n2");
    }

    /**
     * A DONE task that wrote nothing leaves no empty file nor sandbox (50,000 /bin/true tasks
     * left 262 MB of them); one that wrote keeps what it wrote, a FAILED one keeps all, and
     * --keep-empty-output keeps them all.
     */
    @Test
    void tasksThatWroteNothingLeaveNothing() throws Exception {
        Files.writeString(dir.resolve("t.jsonl"), """
                {"executable": "true"}
                {"executable": "true"}
                {"executable": "echo", "arguments": ["hi"]}
                {"executable": "false"}
                """);
        Banyan.Result r = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm",
                uri.toString(), "--session", "s", "--quiet", "--tasks", "t.jsonl"));
        assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
        Path s = dir.resolve("s");
        assertThat(s.resolve("task.000000")).doesNotExist();
        assertThat(s.resolve("task.000001")).doesNotExist();
        assertThat(s.resolve("task.000002/task.000002.out")).hasContent("hi");
        assertThat(s.resolve("task.000002/task.000002.err")).doesNotExist();
        assertThat(s.resolve("task.000003/task.000003.out")).exists();
        assertThat(s.resolve("task.000003/task.000003.err")).exists();
        assertThat(s.resolve("banyan.prof")).exists();
        Banyan.Result kept = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "k",
                "--quiet", "--keep-empty-output", "--", "true"));
        assertThat(kept.exit()).as(kept.stderr()).isZero();
        assertThat(dir.resolve("k/task.000000/task.000000.out")).exists().isEmptyFile();
        assertThat(dir.resolve("k/task.000000/task.000000.err")).exists().isEmptyFile();
    }

    /**
     * A task of several ranks (or an MPI task) gives its input to rank 0, as {@code mpirun < file}
     * does; it was refused. One that cannot be opened fails the task with why; a FIFO nobody
     * writes holds nothing when the task is canceled.
     */
    @Test
    void rankZeroOfATaskOfSeveralRanksReadsItsInput() throws Exception {
        Files.writeString(dir.resolve("in.txt"), "hello\n");
        Banyan.Result r = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "s", "--quiet",
                "--ranks", "3", "-i", "in.txt", "-o", "out.txt", "--", "sh", "-c", "echo $BANYAN_RANK: $(cat)"));
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(Files.readAllLines(dir.resolve("out.txt"))).containsExactlyInAnyOrder("0: hello", "1:", "2:");

        Banyan.Result missing = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "m",
                "--ranks", "2", "-i", "nothere", "--", "cat"));
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.stderr()).contains("No such file or directory (cannot open its stdin " + dir.resolve("nothere") + ")");

        String marker = Banyan.marker();
        assertThat(new ProcessBuilder("mkfifo", dir.resolve("fifo").toString()).start().waitFor()).isZero();
        Banyan.Result waiting = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "f",
                "--detach", "--ranks", "2", "-i", "fifo", "--", "sleep", marker));
        assertThat(waiting.exit()).as(waiting.stderr()).isZero();
        assertThat(Banyan.run("cancel", "--dvm", uri.toString(), waiting.stdout().strip()).exit()).isZero();
        Banyan.Result canceled = Banyan.run("wait", "--dvm", uri.toString(), waiting.stdout().strip());
        assertThat(canceled.stderr()).contains("1 canceled");
        Banyan.assertNoProcessesWith(marker);
        Banyan.Result after = Banyan.runIn(dir, Map.of(), List.of("submit", "--dvm", uri.toString(), "--session", "a",
                "--quiet", "--", "true"));
        assertThat(after.exit()).as("the DVM goes on: %s", after.stderr()).isZero();
    }
}
