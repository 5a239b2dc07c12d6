package org.banyan.cli.tasks;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.banyan.cli.Main;
import org.banyan.cli.options.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code banyan submit}'s options: a bad value is one line (status 2 from Main), before any DVM is asked. */
class SubmitCommandTest {
    @TempDir
    Path dir;

    private void refused(List<String> args, String message) {
        assertThatThrownBy(() -> new SubmitCommand(Map.of(), dir).run(args)).isInstanceOf(UsageException.class)
                .hasMessage(message);
    }

    @Test
    void badNumbersAreNamed() {
        refused(List.of("--priority", "x", "--", "true"), "--priority must be a whole number, 0 or more, got 'x'");
        refused(List.of("--priority", "-1", "--", "true"), "--priority must be a whole number, 0 or more, got '-1'");
        refused(List.of("--priority", "99999999999", "--", "true"),
                "--priority must be a whole number, 0 or more, got '99999999999'");
        refused(List.of("--cores", "0", "--", "true"), "--cores must be a positive integer, got '0'");
        refused(List.of("--timeout", "soon", "--", "true"), "--timeout must be a positive number of seconds, got 'soon'");
    }

    /** flux submit's and srun's -t: minutes unless a unit says otherwise, or Slurm's colons. */
    @Test
    void timeLimitsAsFluxAndSlurmWriteThem() throws UsageException {
        org.assertj.core.api.Assertions.assertThat(List.of(SubmitCommand.timeLimit("10"), SubmitCommand.timeLimit("30s"),
                SubmitCommand.timeLimit("1.5m"), SubmitCommand.timeLimit("2h"), SubmitCommand.timeLimit("1d"),
                SubmitCommand.timeLimit("5:30"), SubmitCommand.timeLimit("1:00:00")))
                .containsExactly(600.0, 30.0, 90.0, 7200.0, 86_400.0, 330.0, 3600.0);
        for (String bad : List.of("soon", "10f", "1e3", "0", "-1", "1:2:3:4", "Infinity", "5x")) {
            refused(List.of("-t", bad, "--", "true"), "--time-limit takes minutes, a duration like 30s, 5m, 2h or 1d, "
                    + "or M:SS or H:MM:SS, got '" + bad + "'");
        }
        refused(List.of("-n", "0", "--", "true"), "--ranks must be a positive integer, got '0'");
        refused(List.of("-c", "2", "--tasks", "t.jsonl"),
                "--cores describes the command after --; with --tasks each line gives its own (cores_per_rank)");
    }

    @Test
    void aCommandOrATaskFileNotBoth() {
        refused(List.of("--tasks", "t.jsonl", "--", "true"), "give either --tasks FILE or a command after --, not both");
        refused(List.of("--quiet"), "nothing to run: give a command after -- or --tasks FILE (see banyan submit --help)");
        refused(List.of("--", ""), "the command after -- is empty");
        // an unset variable ('--session $DIR') made the current directory the session
        refused(List.of("--session", "", "--", "true"), "option --session needs a value, not an empty one");
        refused(List.of("--dvm=", "--", "true"), "option --dvm needs a value, not an empty one");
        refused(List.of("--", " ", "x"), "the command after -- is empty");
    }

    /** They described no task of the file and were dropped without a word: a bag asked --gpus 1 ran without GPUs. */
    @Test
    void optionsOfTheOneCommandsTaskAreRefusedWithATaskFile() {
        refused(List.of("--gpus", "1", "--tasks", "t.jsonl"),
                "--gpus describes the command after --; with --tasks each line gives its own (gpus_per_rank)");
        refused(List.of("--cores", "2", "--mpi", "--ranks", "4", "--timeout", "5", "--priority", "1", "--tasks", "t.jsonl"),
                "--cores, --mpi, --ranks, --timeout, --priority describe the command after --; with --tasks each line gives "
                        + "its own (cores_per_rank, mode, ranks, timeout, priority)");
    }

    @Test
    void copiesAreOfTheCommandAndTheirIdsAreNumbers() {
        refused(List.of("--cc", "1-3", "--tasks", "t.jsonl"), "--cc copies the command after --; a task file lists each task itself");
        refused(List.of("--cc", "3-1", "--", "true"), "'3-1' ends before it starts (write 1-3)");
        refused(List.of("--cc", "a", "--", "true"), "'a' is not an id or a range of them (like 7 or 1-100)");
    }

    @Test
    void anExportedVariableMustBeSetAndNamedRight() {
        refused(List.of("-x", "NOT_SET_HERE", "--", "true"), "-x NOT_SET_HERE: NOT_SET_HERE is not set in the environment (use -x NOT_SET_HERE=VALUE)");
        refused(List.of("--env=1A=2", "--", "true"), "-x '1A=2': '1A' is not a valid environment variable name");
        refused(List.of("-x", "=v", "--", "true"), "-x '=v': '' is not a valid environment variable name");
    }
}
