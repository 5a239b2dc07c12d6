package org.banyan.cli.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.banyan.cli.options.UsageException;
import org.banyan.pilot.TaskDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Task files: one JSON object per line; every bad line is named by its number and what is wrong. */
class TaskFileTest {
    @TempDir
    Path dir;

    private Path file(String text) throws Exception {
        Path f = dir.resolve("tasks.jsonl");
        Files.writeString(f, text);
        return f;
    }

    private void fails(String text, String message) throws Exception {
        Path f = file(text);
        assertThatThrownBy(() -> TaskFile.read(f)).isInstanceOf(UsageException.class).hasMessage(f + message);
    }

    /** Endless input (`yes ... | banyan submit --tasks -`) is refused once past the bound, not read until memory runs out. */
    @Test
    void endlessInputIsRefusedAtTheBound() {
        byte[] line = "{\"executable\": \"/bin/true\"}\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.io.InputStream endless = new java.io.InputStream() {
            long at;

            @Override
            public int read() {
                return line[(int) (at++ % line.length)];
            }
        };
        assertThatThrownBy(() -> TaskFile.read(endless, "stdin", 2 << 20)).isInstanceOf(UsageException.class)
                .hasMessage("--tasks stdin: more than 2 MiB of tasks (a quarter of this command's memory): split them over several submits");
    }

    /** {@code --tasks /dev/zero}: refused at its first NUL byte, where it read 1.4 GiB of zeros for 9 s before. */
    @Test
    void anEndlessBinaryDeviceIsRefusedAtOnce() {
        long start = System.nanoTime();
        assertThatThrownBy(() -> TaskFile.read(Path.of("/dev/zero"))).isInstanceOf(UsageException.class)
                .hasMessage("--tasks /dev/zero is not text: line 1 has a NUL byte");
        org.assertj.core.api.Assertions.assertThat((System.nanoTime() - start) / 1e9).as("seconds").isLessThan(3);
    }

    /** A file larger than the bound is refused by its size, before a byte of it is read. */
    @Test
    void aFileLargerThanTheBoundIsRefusedByItsSize() throws Exception {
        Path f = dir.resolve("huge.jsonl");
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(f.toFile(), "rw")) {
            sparse.setLength(TaskFile.maxBytes() + 1);
        }
        assertThatThrownBy(() -> TaskFile.read(f)).isInstanceOf(UsageException.class)
                .hasMessage("--tasks " + f + ": more than " + (TaskFile.maxBytes() >> 20)
                        + " MiB of tasks (a quarter of this command's memory): split them over several submits");
    }

    @Test
    void everyFieldAndTheLinesThatAreNotTasks() throws Exception {
        List<TaskDescription> tasks = TaskFile.read(file("""
                # a comment, then a blank line

                {"uid": "a", "executable": "/bin/echo", "arguments": ["x", "2"], "environment": {"K": "v", "N": "1"},
                   "sandbox": "s", "stdout": "o", "stderr": "e", "pre_exec": ["cd ."], "post_exec": ["true"], "ranks": 2,
                   "cores_per_rank": 2, "gpus_per_rank": 0, "priority": 3, "timeout": 1.5, "restartable": true,
                   "tags": {"colocate": "c", "exclusive": false}, "mode": "mpi", "input_staging": ["in.dat"],
                   "output_staging": [{"source": "o.dat", "target": "/tmp/o.dat", "action": "move"}], "name": "n"}
                  {"executable": "true", "stdin": "in.txt"}
                """.replace("\n   ", " ")));
        assertThat(tasks).hasSize(2);
        TaskDescription a = tasks.getFirst();
        assertThat(a.uid()).isEqualTo("a");
        assertThat(a.name()).as("RADICAL-Pilot's name: it was read and dropped").isEqualTo("n");
        assertThat(tasks.get(1).name()).isNull();
        assertThat(a.executable()).isEqualTo("/bin/echo");
        assertThat(a.priority()).isEqualTo(3);
        assertThat(a.hasOutputStaging()).isTrue();
        assertThat(tasks.get(1).executable()).isEqualTo("true");
        assertThat(tasks.get(1).hasOutputStaging()).isFalse();
        assertThat(tasks.get(1).stdin()).isEqualTo("in.txt");
    }

    /** A bag's tasks mostly run the same program: its name is kept once, not once per line. */
    @Test
    void tasksOfOneProgramShareItsName() throws Exception {
        List<TaskDescription> tasks = TaskFile.read(file("{\"executable\": \"/bin/true\"}\n"
                + "{\"executable\": \"/bin/true\", \"arguments\": [\"1\"]}\n{\"executable\": \"/bin/false\"}\n"));
        assertThat(tasks.get(1).executable()).isEqualTo("/bin/true").isSameAs(tasks.get(0).executable());
        assertThat(tasks.get(2).executable()).isEqualTo("/bin/false");
    }

    /**
     * The tasks are made from their lines as they are asked for (the bag takes them 4,096 at a
     * time); what the bag needs of all of them at once was read with the check of every line.
     */
    @Test
    void aFilesTasksAreMadeWhenAskedForAndItsWholeIsKnownAtOnce() throws Exception {
        TaskFile.Tasks same = TaskFile.read(file("{\"executable\": \"a\", \"priority\": 2}\n{\"executable\": \"b\", \"priority\": 2}\n"));
        assertThat(same.onePriority()).isTrue();
        assertThat(same.anyOutputStaging()).isFalse();
        assertThat(same.get(1).executable()).isEqualTo("b");
        assertThat(same.get(1)).as("made anew").isNotSameAs(same.get(1));
        TaskFile.Tasks mixed = TaskFile.read(file("{\"executable\": \"a\"}\n{\"executable\": \"b\", \"priority\": 1,"
                + " \"output_staging\": [\"x\"]}\n"));
        assertThat(mixed.onePriority()).isFalse();
        assertThat(mixed.anyOutputStaging()).isTrue();
        assertThat(mixed.get(1).priority()).isEqualTo(1);
        assertThat(mixed.get(1).hasOutputStaging()).isTrue();
        assertThat(List.copyOf(mixed)).extracting(TaskDescription::executable).containsExactly("a", "b");
        assertThatThrownBy(() -> mixed.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aLineIsOneObjectAndNothingElse() throws Exception {
        fails("{\"executable\": \"true\"}\n{\"executable\": \"a\"}{\"executable\": \"b\"}\n",
                ":2: more than one JSON value on the line (one task per line)");
        fails("{\"executable\": \"true\"} junk\n", ":1: not a JSON object (Unrecognized token 'junk': was expecting "
                + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false'))");
        fails("{\"executable\": \"true\"}\n\n{\"executable\":\n \"true\"}\n", ":3: a task must be on one line");
        fails("{\"executable\": \"a\"\n{\"executable\": \"b\"}\n", ":1: not a JSON object (Unexpected character ('{' "
                + "(code 123)): was expecting comma to separate Object entries)");
        fails("[\"true\"]\n", ":1: not a JSON object");
        fails("\"true\"\n", ":1: not a JSON object");
    }

    @Test
    void eachFieldSaysWhatItMustBe() throws Exception {
        String ok = "{\"executable\": \"true\"}\n";
        fails(ok + "{\"executable\": \"x\", \"ranks\": 0}\n", ":2: field 'ranks' must be a positive integer");
        fails("{\"executable\": \"x\", \"cores_per_rank\": \"2\"}", ":1: field 'cores_per_rank' must be a positive integer");
        fails("{\"executable\": \"x\", \"priority\": -1}", ":1: field 'priority' must be a non-negative integer");
        fails("{\"executable\": \"x\", \"timeout\": -1}", ":1: field 'timeout' must be a non-negative number of seconds");
        fails("{\"executable\": \"x\", \"timeout\": 1e400}", ":1: field 'timeout' must be a non-negative number of seconds");
        // what the Pilot API refuses is refused here too, with the line
        fails("{\"executable\": \"x\", \"arguments\": [\"a\\u0000b\"]}",
                ":1: a task's arguments cannot hold a NUL character: a\\0b");
        fails("{\"executable\": \"x\", \"environment\": {\"A=B\": \"1\"}}",
                ":1: 'A=B' cannot be the name of an environment variable");
        fails("{\"executable\": \"x\", \"uid\": \"../escaped\"}", ":1: a task's uid names its sandbox in the session's directory:"
                + " '../escaped' cannot (no '/', NUL, '.' or '..', and not empty)");
        fails("{\"executable\": \"x\", \"restartable\": \"yes\"}", ":1: field 'restartable' must be true or false");
        fails("{\"executable\": \"x\", \"arguments\": \"-v\"}", ":1: field 'arguments' must be a list of strings");
        fails("{\"executable\": \"x\", \"environment\": [\"A=1\"]}", ":1: field 'environment' must be an object of strings");
        fails("{\"executable\": \"x\", \"tags\": \"c\"}",
                ":1: field 'tags' must be an object like {\"colocate\": \"x\", \"exclusive\": true}");
        fails("{\"executable\": \"x\", \"tags\": {\"colocte\": \"c\"}}",
                ":1: unknown tag 'colocte' in field 'tags' (valid: colocate, exclusive)");
        fails("{\"executable\": \"x\", \"mode\": \"function\"}", ":1: field 'mode' must be 'executable' or 'mpi' "
                + "(function tasks run through the Java Pilot API), got 'function'");
        fails("{\"executable\": \" \"}", ":1: field 'executable' is empty");
        fails("{\"executable\": \"\"}", ":1: field 'executable' is empty");
        // strict: a key given twice, and values of the wrong type, are refused (they were taken: the last, "1")
        fails("{\"executable\": \"a\", \"executable\": \"b\"}", ":1: field 'executable' is given twice");
        fails("{\"executable\": \"x\", \"environment\": {\"A\": 1}}",
                ":1: field 'environment' must be an object of strings: 'A' is 1 (write \"1\")");
        fails("{\"executable\": \"x\", \"environment\": {\"A\": true}}",
                ":1: field 'environment' must be an object of strings: 'A' is true (write \"true\")");
        fails("{\"executable\": \"x\", \"arguments\": [\"-n\", 5]}",
                ":1: field 'arguments' must be a list of strings: 5 is not one (write \"5\")");
        fails("{\"executable\": \"x\", \"dependencies\": \"afterok:7,afterevery:8\"}",
                ":1: field 'dependencies': 'afterevery:8' is not a dependency: write KIND:ID[:ID...], KIND one of after, "
                        + "afterany, afterok, afternotok (like afterok:7)");
        fails("{\"arguments\": []}", ":1: field 'executable' is missing");
        fails("{\"executable\": \"x\", \"cores\": 2}", ":1: unknown field 'cores' (valid: arguments, cores_per_rank, "
                + "dependencies, environment, executable, gpus_per_rank, input_staging, mode, name, output_staging, post_exec, pre_exec, "
                + "priority, ranks, restartable, sandbox, shell, stage_on_error, stderr, stdin, stdout, tags, timeout, uid, workdir)");
        fails("{\"executable\": \"x\", \"input_staging\": [{\"source\": \"a\", \"action\": \"copy-ish\"}]}",
                ":1: field 'input_staging': action 'copy-ish' is not copy, link, move or transfer");
        fails("{\"executable\": \"x\", \"output_staging\": [{\"target\": \"a\"}]}",
                ":1: field 'output_staging' needs a 'source' in each entry");
        fails("{\"executable\": \"x\", \"input_staging\": [\"/\"]}",
                ":1: field 'input_staging': '/' has no file name to keep; give {\"source\": ..., \"target\": ...}");
        fails("{\"executable\": \"x\", \"input_staging\": [\"\"]}",
                ":1: field 'input_staging': '' has no file name to keep; give {\"source\": ..., \"target\": ...}");
        fails("{\"executable\": \"x\", \"input_staging\": [{\"source\": \"/etc/hostname\", \"target\": \"\"}]}",
                ":1: field 'input_staging': a staging directive needs a source and a target, each a path, got "
                        + "'/etc/hostname' -> ''");
    }

    @Test
    void anEmptyOrMissingFileIsNamed() throws Exception {
        Path empty = file("\n# nothing\n");
        assertThatThrownBy(() -> TaskFile.read(empty)).hasMessage("--tasks " + empty + ": no task in the file");
        Path none = dir.resolve("none.jsonl");
        assertThatThrownBy(() -> TaskFile.read(none)).hasMessage("--tasks " + none + ": no such file");
    }

    /** Two tasks of one uid shared a sandbox, the second's output over the first's, status 0. */
    @Test
    void aUidGivenTwiceIsNamedWithBothLines() throws Exception {
        fails("{\"executable\": \"a\", \"uid\": \"x\"}\n{\"executable\": \"b\"}\n\n{\"executable\": \"c\", \"uid\": \"x\"}\n",
                ":4: uid 'x' is line 1's already (each task needs its own: it names the task's sandbox)");
        assertThat(TaskFile.read(file("{\"executable\": \"a\", \"uid\": \"x\"}\n{\"executable\": \"b\", \"uid\": \"y\"}\n")))
                .extracting(org.banyan.pilot.TaskDescription::uid).containsExactly("x", "y");
    }
}
